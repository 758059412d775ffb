//! A split transaction's parts in request and response bodies (issue 52). Parsing here is
//! shape only; the rules of a split live in `pf_app::transactions` (`splits`).

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use crate::fields::FieldCheck;
use crate::ids::{parse_id, parse_tag_ids};
use crate::money::MoneyDto;
use pf_app::transactions::{PartDraft, Splits};
use pf_domain::{CategoryType, Part};

/// One part of a split, as a request gives it.
#[derive(Debug, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[schema(as = SplitPartInput)]
pub struct PartRequest {
    /// A positive amount in the wallet's currency (a number, a string or Money); the
    /// parts add up exactly to the transaction's amount.
    #[schema(schema_with = crate::docs::amount_input)]
    pub amount: Value,
    /// A category visible to the caller, of the transaction's type (every part's is).
    #[schema(value_type = u64, minimum = 1, maximum = 9007199254740991.0)]
    pub category_id: Value,
    /// Free text; line breaks and tabs allowed, other control characters not.
    #[schema(max_length = 1000, pattern = r"^[^\x00-\x08\x0B-\x1F\x7F-\x9F]*$")]
    pub note: Option<String>,
    /// The caller's tags (duplicates are ignored).
    #[schema(value_type = Option<Vec<u64>>, max_items = 20)]
    pub tag_ids: Option<Vec<Value>>,
}

/// One part of a split transaction, in order.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = SplitPart)]
pub struct PartResponse {
    pub amount: MoneyDto,
    pub category_id: u64,
    pub category_type: CategoryType,
    #[schema(required = true)]
    pub note: Option<String>,
    pub tag_ids: Vec<u64>,
}

/// `null` for a plain transaction, else its parts in order.
pub fn parts_response(parts: &[Part]) -> Option<Vec<PartResponse>> {
    if parts.is_empty() {
        return None;
    }
    let answer = parts.iter().map(|p| PartResponse {
        amount: p.amount.into(),
        category_id: p.category_id,
        category_type: p.category_type,
        note: p.note.clone(),
        tag_ids: p.tag_ids.clone(),
    });
    Some(answer.collect())
}

/// A member that tells `null` (`Some(Value::Null)`) from absent (`None`, with
/// `#[serde(default)]`).
pub fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

/// The `splits` member: absent, `null` or 2 to 50 parts (the count is the app's rule).
/// A part's amount given as Money names the body's currency, if any (`currency`).
pub fn parse_splits(
    check: &mut FieldCheck,
    raw: Option<&Value>,
    currency: Option<&str>,
) -> Option<Splits> {
    let items = match raw {
        None => return Some(Splits::Absent),
        Some(Value::Null) => return Some(Splits::Plain),
        Some(Value::Array(items)) => items,
        Some(_) => {
            check.refuse("splits", "must be null or an array of parts");
            return None;
        }
    };
    if items.len() > pf_domain::split::MAX_PARTS {
        let max = pf_domain::split::MAX_PARTS;
        check.refuse("splits", format!("must hold 2 to {max} parts"));
        return None;
    }
    let mut parts = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let at = |field: &str| format!("splits[{i}].{field}");
        let part: PartRequest = match serde_json::from_value(item.clone()) {
            Ok(p) => p,
            Err(e) => {
                check.refuse(&format!("splits[{i}]"), format!("is not a part: {e}"));
                continue;
            }
        };
        let amount = check.field(
            &at("amount"),
            super::transactions::parse_amount(&part.amount),
        );
        let category = check.field(&at("categoryId"), parse_id(&part.category_id));
        let tags = check.field(&at("tagIds"), parse_tag_ids(part.tag_ids.as_deref()));
        if let Some((_, Some(code))) = &amount {
            if currency.is_some_and(|c| c != code) {
                check.refuse(&at("amount"), "must be in the transaction's currency");
            }
        }
        if let (Some((amount, _)), Some(category_id), Some(tag_ids)) = (amount, category, tags) {
            parts.push(PartDraft {
                amount,
                category_id,
                note: part.note,
                tag_ids,
            });
        }
    }
    Some(Splits::Parts(parts))
}
