//! The bodies of the rule endpoints. Requests are parsed by `rules::RuleBody` (every
//! invalid field named); the structs here describe them in the OpenAPI document.

use std::borrow::Cow;

use serde::Serialize;
use utoipa::openapi::schema::{ObjectBuilder, Schema, SchemaType, Type};
use utoipa::openapi::RefOr;
use utoipa::{PartialSchema, ToSchema};

use pf_app::rules::RuleView;

/// What a condition tests (the document's names; `rules::FieldName` parses them).
#[allow(dead_code)]
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = RuleField)]
pub enum FieldDoc {
    Payee,
    Note,
    Amount,
    Type,
}

/// How a condition compares: the `RuleOp` component, every op some field takes, as the
/// `rules` crate names them (`rules::Op` parses them). `Serialize` only as the bodies that
/// hold it derive it.
#[derive(Debug, Serialize)]
pub struct OpDoc;

impl OpDoc {
    /// Each field's ops in turn, each op once.
    fn names() -> Vec<&'static str> {
        use rules::FieldName::{Amount, Note, Payee, Type as Kind};
        let mut ops = Vec::new();
        for &op in [Payee, Note, Amount, Kind]
            .into_iter()
            .flat_map(rules::FieldName::valid_ops)
        {
            if !ops.contains(&op) {
                ops.push(op);
            }
        }
        ops
    }
}

impl ToSchema for OpDoc {
    fn name() -> Cow<'static, str> {
        "RuleOp".into()
    }
}

impl PartialSchema for OpDoc {
    fn schema() -> RefOr<Schema> {
        let description =
            "How a condition compares (the document's names; `rules::Op` parses them).";
        ObjectBuilder::new()
            .schema_type(SchemaType::new(Type::String))
            .description(Some(description))
            .enum_values(Some(OpDoc::names()))
            .into()
    }
}

/// How conditions combine (the document's names; `rules::Match` parses them).
#[allow(dead_code)]
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = RuleMatch)]
pub enum MatchDoc {
    All,
    Any,
}

/// One condition: `field` (`payee`, `note`, `amount`, `type`), `op` and `value`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = RuleCondition)]
pub struct ConditionDoc {
    /// `payee` (the provider's name, or an import row's payee text), `note`, `amount`
    /// (the absolute amount) or `type` (`DEBIT`/`CREDIT`).
    pub field: FieldDoc,
    /// Text: `contains`, `equals`, `startsWith`, `endsWith`, `matches` (a regular
    /// expression, case-insensitive, unanchored unless anchored; at most 500 characters).
    /// Amount: `equals`, `gt`, `gte`, `lt`, `lte`, `between` (value `[low, high]`).
    /// Type: `equals`. Text comparisons ignore case and accents.
    pub op: OpDoc,
    /// A string, a decimal (number or string) or `[low, high]` for `between`.
    #[schema(schema_with = condition_value, example = "starbucks")]
    pub value: serde_json::Value,
}

/// A condition's value: text (at most 500 characters), a decimal, or `[low, high]`.
fn condition_value() -> utoipa::openapi::schema::Schema {
    use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, OneOfBuilder, SchemaType, Type};
    let text = || {
        ObjectBuilder::new()
            .schema_type(SchemaType::new(Type::String))
            .max_length(Some(500))
    };
    let number = || ObjectBuilder::new().schema_type(SchemaType::new(Type::Number));
    let bound = OneOfBuilder::new().item(number()).item(text());
    let pair = ArrayBuilder::new()
        .items(bound)
        .min_items(Some(2))
        .max_items(Some(2));
    OneOfBuilder::new()
        .item(text())
        .item(number())
        .item(pair)
        .into()
}

/// What a matching rule does.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = RuleActions)]
pub struct ActionsDoc {
    /// Sets the category (never one the user chose; skipped when its type does not match
    /// the transaction's sign).
    #[schema(nullable)]
    pub category_id: Option<u64>,
    /// Sets the provider.
    #[schema(nullable)]
    pub provider_id: Option<u64>,
    /// Added to the transaction's tags as far as its 20 leave room (the rest are left out).
    /// Optional in a request (absent: none); always in an answer.
    #[serde(default)]
    #[schema(max_items = 20)]
    pub tag_ids: Vec<u64>,
    /// Set when the transaction has no note (no control characters but line breaks and
    /// tabs).
    #[schema(max_length = 1000, nullable)]
    pub note: Option<String>,
}

/// A rule: conditions (1 to 10, `match` `all` or `any`) and at least one action.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = RuleInput)]
pub struct RuleRequest {
    #[schema(value_type = crate::docs::Name, example = "Coffee")]
    pub name: String,
    /// `all` (default) or `any`.
    #[serde(rename = "match")]
    pub match_: Option<MatchDoc>,
    #[schema(min_items = 1, max_items = 10)]
    pub conditions: Vec<ConditionDoc>,
    pub actions: ActionsDoc,
    /// No later rule runs after this one matched.
    pub stop: Option<bool>,
    /// Where it runs; absent: after the last one (equal positions keep creation order).
    #[schema(nullable, value_type = Option<u64>, maximum = 4294967295.0)]
    pub position: Option<u32>,
}

/// A stored rule.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = Rule)]
pub struct RuleResponse {
    pub id: u64,
    pub name: String,
    #[serde(rename = "match")]
    #[schema(value_type = MatchDoc)]
    pub match_: rules::Match,
    #[schema(value_type = Vec<ConditionDoc>)]
    pub conditions: Vec<rules::Condition>,
    #[schema(value_type = ActionsDoc)]
    pub actions: rules::Actions,
    pub stop: bool,
    #[schema(value_type = u64, maximum = 4294967295.0)]
    pub position: u32,
    /// UTC, `YYYY-MM-DDTHH:MM:SS`.
    #[schema(example = "2026-11-22T10:00:00")]
    pub created_at: String,
    #[schema(example = "2026-11-22T10:00:00")]
    pub updated_at: String,
}

impl From<RuleView> for RuleResponse {
    fn from(v: RuleView) -> Self {
        Self {
            id: v.id,
            name: v.body.name,
            match_: v.body.r#match,
            conditions: v.body.conditions,
            actions: v.body.actions,
            stop: v.body.stop,
            position: v.body.position.unwrap_or(0),
            created_at: v.created_at.to_string(),
            updated_at: v.updated_at.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documented_ops_are_the_ten_the_parser_takes() {
        let names = OpDoc::names();
        assert_eq!(names.len(), 10);
        for name in names {
            let op: rules::Op = serde_json::from_value(name.into()).unwrap();
            assert_eq!(op.as_str(), name);
        }
    }
}
