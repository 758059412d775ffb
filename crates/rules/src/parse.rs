//! Parsing a request body into a [`RuleBody`] with errors that name the offending field.

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::model::{Actions, Condition, FieldError, FieldName, Match, Op, RuleBody};

const BODY_FIELDS: &[&str] = &["name", "match", "conditions", "actions", "stop", "position"];
const BODY_REQUIRED: &[&str] = &["name", "conditions", "actions"];
const CONDITION_FIELDS: &[&str] = &["field", "op", "value"];
const ACTION_FIELDS: &[&str] = &["categoryId", "providerId", "tagIds", "note"];

impl RuleBody {
    /// Parses a JSON request body. Unlike a bare `serde_json::from_slice`, a failure names the
    /// field (`name`, `conditions[2].op`, `actions.tagIds`, `body` for malformed JSON, ...).
    /// The result still needs [`RuleBody::compile`] for the limits and semantics.
    pub fn from_json(bytes: &[u8]) -> Result<RuleBody, Vec<FieldError>> {
        let value: Value = serde_json::from_slice(bytes)
            .map_err(|e| vec![FieldError::new("body", format!("malformed JSON: {e}"))])?;
        Self::from_value(value)
    }

    /// Like [`RuleBody::from_json`], from an already parsed JSON value.
    pub fn from_value(value: Value) -> Result<RuleBody, Vec<FieldError>> {
        match serde_json::from_value::<RuleBody>(value.clone()) {
            Ok(body) => Ok(body),
            Err(e) => {
                let mut errors = diagnose(&value);
                if errors.is_empty() {
                    errors.push(FieldError::new("body", e.to_string()));
                }
                Err(errors)
            }
        }
    }
}

fn diagnose(value: &Value) -> Vec<FieldError> {
    let mut errors = Vec::new();
    let Some(obj) = value.as_object() else {
        errors.push(FieldError::new("body", "must be a JSON object"));
        return errors;
    };
    shape(obj, "", BODY_FIELDS, BODY_REQUIRED, &mut errors);
    for (key, v) in obj {
        match key.as_str() {
            "name" => check::<String>(v, "name", &mut errors),
            "match" => check::<Match>(v, "match", &mut errors),
            "stop" => check::<bool>(v, "stop", &mut errors),
            "position" => check::<Option<u32>>(v, "position", &mut errors),
            "conditions" => conditions(v, &mut errors),
            "actions" => actions(v, &mut errors),
            _ => {}
        }
    }
    errors
}

/// Reports unknown and missing keys of an object at `prefix` (`""` or `"conditions[0]."`).
fn shape(
    obj: &Map<String, Value>,
    prefix: &str,
    known: &[&str],
    required: &[&str],
    errors: &mut Vec<FieldError>,
) {
    for key in obj.keys().filter(|k| !known.contains(&k.as_str())) {
        errors.push(FieldError::new(format!("{prefix}{key}"), "unknown field"));
    }
    for key in required.iter().filter(|k| !obj.contains_key(**k)) {
        errors.push(FieldError::new(format!("{prefix}{key}"), "is required"));
    }
}

fn check<T: DeserializeOwned>(v: &Value, field: &str, errors: &mut Vec<FieldError>) {
    if let Err(e) = serde_json::from_value::<T>(v.clone()) {
        errors.push(FieldError::new(field, e.to_string()));
    }
}

fn conditions(v: &Value, errors: &mut Vec<FieldError>) {
    let Some(list) = v.as_array() else {
        errors.push(FieldError::new("conditions", "must be an array"));
        return;
    };
    for (i, c) in list.iter().enumerate() {
        if serde_json::from_value::<Condition>(c.clone()).is_ok() {
            continue;
        }
        let path = format!("conditions[{i}]");
        let Some(obj) = c.as_object() else {
            errors.push(FieldError::new(path, "must be an object"));
            continue;
        };
        shape(
            obj,
            &format!("{path}."),
            CONDITION_FIELDS,
            CONDITION_FIELDS,
            errors,
        );
        if let Some(f) = obj.get("field") {
            check::<FieldName>(f, &format!("{path}.field"), errors);
        }
        if let Some(op) = obj.get("op") {
            check::<Op>(op, &format!("{path}.op"), errors);
        }
    }
}

fn actions(v: &Value, errors: &mut Vec<FieldError>) {
    if serde_json::from_value::<Actions>(v.clone()).is_ok() {
        return;
    }
    let Some(obj) = v.as_object() else {
        errors.push(FieldError::new("actions", "must be an object"));
        return;
    };
    shape(obj, "actions.", ACTION_FIELDS, &[], errors);
    for (key, v) in obj {
        let path = format!("actions.{key}");
        match key.as_str() {
            "categoryId" | "providerId" => check::<Option<u64>>(v, &path, errors),
            "tagIds" => check::<Vec<u64>>(v, &path, errors),
            "note" => check::<Option<String>>(v, &path, errors),
            _ => {}
        }
    }
}
