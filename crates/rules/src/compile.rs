//! Validation of a [`RuleBody`] and its compilation into a [`CompiledRule`].

use regex::{Regex, RegexBuilder};
use rust_decimal::Decimal;
use serde_json::Value;

use crate::fold::{fold, fold_pattern};
use crate::model::{Actions, Condition, FieldError, FieldName, Kind, Match, Op, RuleBody};
use crate::{
    MAX_CONDITIONS, MAX_NAME_CHARS, MAX_NOTE_CHARS, MAX_PATTERN_CHARS, MAX_TAGS,
    REGEX_DFA_SIZE_LIMIT, REGEX_SIZE_LIMIT,
};

/// A validated rule, ready to be evaluated many times.
#[derive(Debug, Clone)]
pub struct CompiledRule {
    pub(crate) id: u64,
    pub(crate) all: bool,
    pub(crate) conditions: Vec<Matcher>,
    pub(crate) actions: Actions,
    pub(crate) stop: bool,
}

/// Which text field a text matcher reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TextField {
    Payee,
    Note,
}

/// Literal text comparisons on folded text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TextOp {
    Contains,
    Equals,
    StartsWith,
    EndsWith,
}

/// Amount comparisons: subject `op` value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AmountOp {
    Equals,
    Gt,
    Gte,
    Lt,
    Lte,
}

/// One compiled condition.
#[derive(Debug, Clone)]
pub(crate) enum Matcher {
    /// `needle` is already folded.
    Text(TextField, TextOp, String),
    /// Compiled from the folded pattern, case-insensitive.
    Regex(TextField, Regex),
    Amount(AmountOp, Decimal),
    /// Inclusive bounds, `low <= high`.
    Between(Decimal, Decimal),
    Type(Kind),
}

impl RuleBody {
    /// Validates the rule and compiles it; every problem found is reported with its JSON path.
    /// The compiled rule's id is 0 until [`CompiledRule::with_id`].
    pub fn compile(&self) -> Result<CompiledRule, Vec<FieldError>> {
        let mut errors = Vec::new();
        let name_chars = self.name.chars().count();
        if self.name.trim().is_empty() {
            errors.push(FieldError::new("name", "must not be blank"));
        } else if name_chars > MAX_NAME_CHARS {
            errors.push(FieldError::new(
                "name",
                format!("must be at most {MAX_NAME_CHARS} characters"),
            ));
        } else if self.name.chars().any(char::is_control) {
            // As every name of the API (C0 and C1 controls, as its OpenAPI pattern says).
            errors.push(FieldError::new(
                "name",
                "must not contain control characters",
            ));
        }
        let mut conditions = Vec::new();
        if self.conditions.is_empty() {
            errors.push(FieldError::new(
                "conditions",
                "at least 1 condition is required",
            ));
        } else if self.conditions.len() > MAX_CONDITIONS {
            errors.push(FieldError::new(
                "conditions",
                format!("at most {MAX_CONDITIONS} conditions are allowed"),
            ));
        } else {
            for (i, c) in self.conditions.iter().enumerate() {
                match compile_condition(c) {
                    Ok(m) => conditions.push(m),
                    Err((part, message)) => {
                        errors.push(FieldError::new(format!("conditions[{i}].{part}"), message))
                    }
                }
            }
        }
        let actions = check_actions(&self.actions, &mut errors);
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(CompiledRule {
            id: 0,
            all: self.r#match == Match::All,
            conditions,
            actions,
            stop: self.stop,
        })
    }

    /// Removes duplicate `tagIds` (keeping the first of each), so what is stored is what runs.
    pub fn normalize(&mut self) {
        self.actions.tag_ids = dedup(&self.actions.tag_ids);
    }
}

impl CompiledRule {
    /// Sets the rule's id (the caller's storage id), reported in [`crate::Outcome::matched`].
    pub fn with_id(mut self, id: u64) -> Self {
        self.id = id;
        self
    }

    /// The id given by [`CompiledRule::with_id`] (0 before).
    pub fn id(&self) -> u64 {
        self.id
    }

    /// The rule's actions, with `tagIds` deduplicated.
    pub fn actions(&self) -> &Actions {
        &self.actions
    }

    /// Whether a match of this rule ends the evaluation.
    pub fn stop(&self) -> bool {
        self.stop
    }
}

fn dedup(ids: &[u64]) -> Vec<u64> {
    let mut out: Vec<u64> = Vec::with_capacity(ids.len());
    for id in ids {
        if !out.contains(id) {
            out.push(*id);
        }
    }
    out
}

fn check_actions(a: &Actions, errors: &mut Vec<FieldError>) -> Actions {
    let tag_ids = dedup(&a.tag_ids);
    if tag_ids.len() > MAX_TAGS {
        errors.push(FieldError::new(
            "actions.tagIds",
            format!("at most {MAX_TAGS} tags are allowed"),
        ));
    }
    if let Some(note) = &a.note {
        if note.trim().is_empty() {
            errors.push(FieldError::new("actions.note", "must not be blank"));
        } else if note
            .chars()
            .any(|c| c.is_control() && c != '\n' && c != '\t')
        {
            // What a transaction's note refuses: the rule could never set it.
            errors.push(FieldError::new(
                "actions.note",
                "must not contain control characters",
            ));
        } else if note.chars().count() > MAX_NOTE_CHARS {
            errors.push(FieldError::new(
                "actions.note",
                format!("must be at most {MAX_NOTE_CHARS} characters"),
            ));
        }
    }
    if a.category_id.is_none()
        && a.provider_id.is_none()
        && a.tag_ids.is_empty()
        && a.note.is_none()
    {
        errors.push(FieldError::new(
            "actions",
            "at least one action is required (categoryId, providerId, tagIds or note)",
        ));
    }
    Actions {
        tag_ids,
        ..a.clone()
    }
}

type PartError = (&'static str, String);

fn compile_condition(c: &Condition) -> Result<Matcher, PartError> {
    let bad_op = || {
        let ops = c.field.valid_ops().join(", ");
        let (op, field) = (c.op.as_str(), c.field.as_str());
        (
            "op",
            format!("`{op}` is not valid for field `{field}` (use one of: {ops})"),
        )
    };
    match c.field {
        FieldName::Payee | FieldName::Note => {
            let field = if c.field == FieldName::Payee {
                TextField::Payee
            } else {
                TextField::Note
            };
            let op = match c.op {
                Op::Contains => TextOp::Contains,
                Op::Equals => TextOp::Equals,
                Op::StartsWith => TextOp::StartsWith,
                Op::EndsWith => TextOp::EndsWith,
                Op::Matches => return compile_regex(&c.value).map(|r| Matcher::Regex(field, r)),
                _ => return Err(bad_op()),
            };
            let text = text_value(&c.value)?;
            let needle = fold(text);
            if needle.is_empty() {
                return Err(("value", "must contain more than accents".into()));
            }
            Ok(Matcher::Text(field, op, needle))
        }
        FieldName::Amount => {
            let op = match c.op {
                Op::Equals => AmountOp::Equals,
                Op::Gt => AmountOp::Gt,
                Op::Gte => AmountOp::Gte,
                Op::Lt => AmountOp::Lt,
                Op::Lte => AmountOp::Lte,
                Op::Between => return between(&c.value),
                _ => return Err(bad_op()),
            };
            let v = amount(&c.value).map_err(|m| ("value", m))?;
            Ok(Matcher::Amount(op, v))
        }
        FieldName::Type => {
            if c.op != Op::Equals {
                return Err(bad_op());
            }
            let kind = c.value.as_str().and_then(Kind::parse);
            kind.map(Matcher::Type)
                .ok_or(("value", "must be \"DEBIT\" or \"CREDIT\"".into()))
        }
    }
}

fn text_value(v: &Value) -> Result<&str, PartError> {
    let Some(s) = v.as_str() else {
        return Err(("value", "must be a string".into()));
    };
    if s.is_empty() {
        return Err(("value", "must not be empty".into()));
    }
    if s.chars().count() > MAX_PATTERN_CHARS {
        let msg = format!("must be at most {MAX_PATTERN_CHARS} characters");
        return Err(("value", msg));
    }
    Ok(s)
}

fn compile_regex(v: &Value) -> Result<Regex, PartError> {
    let pattern = text_value(v)?;
    let folded = fold_pattern(pattern).map_err(|m| ("value", m))?;
    RegexBuilder::new(&folded)
        .case_insensitive(true)
        .size_limit(REGEX_SIZE_LIMIT)
        .dfa_size_limit(REGEX_DFA_SIZE_LIMIT)
        .nest_limit(50)
        .build()
        .map_err(|e| match e {
            regex::Error::CompiledTooBig(_) => ("value", "pattern is too complex".into()),
            e => ("value", format!("invalid regular expression: {e}")),
        })
}

fn between(v: &Value) -> Result<Matcher, PartError> {
    let Some([low, high]) = v.as_array().map(Vec::as_slice) else {
        return Err(("value", "must be [low, high]".into()));
    };
    let low = amount(low).map_err(|m| ("value", format!("low: {m}")))?;
    let high = amount(high).map_err(|m| ("value", format!("high: {m}")))?;
    if low > high {
        return Err(("value", "low must not be greater than high".into()));
    }
    Ok(Matcher::Between(low, high))
}

/// An amount: a JSON number or a string of digits with an optional fraction, exact, ≥ 0.
pub(crate) fn amount(v: &Value) -> Result<Decimal, String> {
    let parsed = match v {
        Value::Number(n) => {
            let text = n.to_string();
            if text.contains(['e', 'E']) {
                Decimal::from_scientific(&text).ok()
            } else {
                Decimal::from_str_exact(&text).ok()
            }
        }
        Value::String(s) if is_plain_decimal(s) => Decimal::from_str_exact(s).ok(),
        Value::String(_) => None,
        _ => return Err("must be an amount (a number or a decimal string)".into()),
    };
    match parsed {
        Some(d) if d < Decimal::ZERO => Err("must not be negative".into()),
        Some(d) => Ok(d),
        None => Err("must be a decimal amount such as \"12.50\"".into()),
    }
}

/// `123`, `12.5`, `-3.25` (sign rejected later as negative): digits, at most one `.` between digits.
fn is_plain_decimal(s: &str) -> bool {
    let digits = s.strip_prefix('-').unwrap_or(s);
    let mut parts = digits.splitn(2, '.');
    let whole = parts.next().unwrap_or("");
    let ok = |p: &str| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit());
    ok(whole) && parts.next().is_none_or(ok)
}
