//! Ids as request bodies carry them: shape only (the rules of what they name are the
//! services'). One home for the transaction, batch and schedule bodies.

use serde_json::Value;

use super::decimal;
use pf_app::transactions::{check_tags, MAX_TAGS};
use pf_domain::ids::MAX_SAFE_ID;

/// A positive id below 2^53, given as a JSON number (or a numeric string).
pub fn parse_id(value: &Value) -> Result<u64, String> {
    let id = match value {
        // `1.0` is the integer 1 in JSON; anything with a fraction is not an id.
        Value::Number(_) => decimal::from_json(value, false)
            .filter(|d| d.fract().is_zero())
            .and_then(|d| u64::try_from(d.trunc()).ok()),
        // In a query string `1.0` is the integer 1 too.
        Value::String(s) => s.parse::<u64>().ok().or_else(|| {
            decimal::parse_plain(s, false)
                .filter(|d| d.fract().is_zero())
                .and_then(|d| u64::try_from(d.trunc()).ok())
        }),
        _ => None,
    };
    match id {
        Some(id) if (1..=MAX_SAFE_ID).contains(&id) => Ok(id),
        _ => Err("must be a positive integer id".into()),
    }
}

/// An optional id: absent or `null` is `None`.
pub fn parse_optional_id(value: Option<&Value>) -> Result<Option<u64>, String> {
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(v) => parse_id(v).map(Some),
    }
}

/// For `#[serde(default, deserialize_with = "present")]`: a member that is absent stays
/// `None`, one that is `null` becomes `Some(Value::Null)`, so the two can be told apart.
pub fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    serde::Deserialize::deserialize(d).map(Some)
}

/// A nullable id of an update: absent keeps (`None`), `null` clears (`Some(None)`), an id
/// sets; a malformed one is a 400 naming `field`.
pub fn parse_id_patch(
    field: &str,
    value: Option<&Value>,
) -> Result<Option<Option<u64>>, super::ApiError> {
    match value {
        None => Ok(None),
        Some(v) => parse_optional_id(Some(v))
            .map(Some)
            .map_err(|e| super::ApiError::validation(vec![super::FieldError::new(field, e)])),
    }
}

/// Tag ids: at most [`MAX_TAGS`], each an id, each once.
pub fn parse_tag_ids(tags: Option<&[Value]>) -> Result<Vec<u64>, String> {
    let tags = tags.unwrap_or_default();
    if tags.len() > MAX_TAGS {
        return Err(format!("must hold at most {MAX_TAGS} tags"));
    }
    tags.iter()
        .map(parse_id)
        .collect::<Result<Vec<u64>, String>>()
        .and_then(check_tags)
}
