//! The rule's wire shape (the body of `POST`/`PUT /api/rules`) and its errors.

use serde::{Deserialize, Serialize};

/// A rule as sent by a client and as stored: see the crate docs for the meaning of every field.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RuleBody {
    /// 1..=100 characters, not blank.
    pub name: String,
    /// `"all"` (default; also for `null`) or `"any"`.
    #[serde(default, deserialize_with = "null_as_default")]
    pub r#match: Match,
    /// 1..=[`crate::MAX_CONDITIONS`] conditions.
    pub conditions: Vec<Condition>,
    /// At least one action.
    pub actions: Actions,
    /// When this rule matches, no later rule is evaluated (`null`: `false`).
    #[serde(default, deserialize_with = "null_as_default")]
    pub stop: bool,
    /// Where the rule goes in the user's order; absent → after the last one (decided by the caller).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<u32>,
}

/// A `null` field reads as absent: its default.
fn null_as_default<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de> + Default,
{
    Ok(Option::<T>::deserialize(d)?.unwrap_or_default())
}

/// How a rule's conditions combine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Match {
    /// Every condition must match.
    #[default]
    All,
    /// At least one condition must match.
    Any,
}

/// One test on one field of a transaction.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Condition {
    /// Which field of the transaction is tested.
    pub field: FieldName,
    /// The comparison; must suit the field.
    pub op: Op,
    /// A string for text ops, `"DEBIT"`/`"CREDIT"` for `type`, an amount (JSON number or
    /// string, exact decimal, ≥ 0) for amount ops, `[low, high]` for `between`.
    pub value: serde_json::Value,
}

/// The fields a condition can test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum FieldName {
    /// The provider's name, or for an import row the payee text.
    Payee,
    /// The transaction's note.
    Note,
    /// The absolute amount.
    Amount,
    /// `DEBIT` or `CREDIT`.
    Type,
}

/// Comparison operators. Text ops suit `payee`/`note`, amount ops suit `amount`,
/// and `type` takes only `equals`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Op {
    Contains,
    Equals,
    StartsWith,
    EndsWith,
    Matches,
    Gt,
    Gte,
    Lt,
    Lte,
    Between,
}

impl FieldName {
    /// The name as written in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            FieldName::Payee => "payee",
            FieldName::Note => "note",
            FieldName::Amount => "amount",
            FieldName::Type => "type",
        }
    }

    /// The ops valid for this field, in JSON spelling.
    pub fn valid_ops(self) -> &'static [&'static str] {
        match self {
            FieldName::Payee | FieldName::Note => {
                &["contains", "equals", "startsWith", "endsWith", "matches"]
            }
            FieldName::Amount => &["equals", "gt", "gte", "lt", "lte", "between"],
            FieldName::Type => &["equals"],
        }
    }
}

impl Op {
    /// The name as written in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Op::Contains => "contains",
            Op::Equals => "equals",
            Op::StartsWith => "startsWith",
            Op::EndsWith => "endsWith",
            Op::Matches => "matches",
            Op::Gt => "gt",
            Op::Gte => "gte",
            Op::Lt => "lt",
            Op::Lte => "lte",
            Op::Between => "between",
        }
    }
}

/// What a matching rule does. Ids are checked for visibility by the caller.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Actions {
    /// Category to set (skipped for a transaction whose type differs from the category's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category_id: Option<u64>,
    /// Provider to set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider_id: Option<u64>,
    /// Tags to add (at most [`crate::MAX_TAGS`]).
    #[serde(default)]
    pub tag_ids: Vec<u64>,
    /// Note to set when the transaction's note is empty (1..=[`crate::MAX_NOTE_CHARS`] chars).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// A transaction's type, as the sign of its amount and the type of its category.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Kind {
    /// Money out (negative amount).
    Debit,
    /// Money in (positive amount).
    Credit,
}

impl Kind {
    /// `"DEBIT"` or `"CREDIT"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Debit => "DEBIT",
            Kind::Credit => "CREDIT",
        }
    }

    /// Parses exactly `"DEBIT"` or `"CREDIT"`.
    pub fn parse(s: &str) -> Option<Kind> {
        match s {
            "DEBIT" => Some(Kind::Debit),
            "CREDIT" => Some(Kind::Credit),
            _ => None,
        }
    }
}

/// A malformed part of a rule: `field` is a JSON path such as `conditions[1].value`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("{field}: {message}")]
pub struct FieldError {
    /// JSON path of the offending value, e.g. `name`, `actions`, `conditions[0].op`.
    pub field: String,
    /// What is wrong, for a human.
    pub message: String,
}

impl FieldError {
    /// Builds an error for `field`.
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        FieldError {
            field: field.into(),
            message: message.into(),
        }
    }
}
