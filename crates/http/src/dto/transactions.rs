//! Request and response bodies of the transaction endpoints. Parsing here is shape only
//! (numbers, ids, dates, strings); the rules of a transaction live with
//! [`TransactionDraft`] in `pf_app::transactions`, which this module calls so that
//! a request reports every broken field at once.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use crate::fields::{self, FieldCheck};
use crate::ids::parse_optional_id;
use crate::money::MoneyDto;
use crate::{ApiError, FieldError};
use pf_domain::time::{format_date, parse_date};
use pf_domain::{CategoryType, Transaction};

/// Body of create and update (PUT replaces every field).
#[derive(Debug, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[schema(as = TransactionInput)]
pub struct TransactionRequest {
    /// A positive amount: a JSON number, a string, or a Money object
    /// `{"amount": .., "currency": {"code": ..}}` in the wallet's currency.
    #[schema(schema_with = crate::docs::amount_input)]
    pub amount: Value,
    /// Optional ISO 4217 code; must be the wallet's currency.
    #[schema(schema_with = crate::docs::optional_currency_code)]
    pub currency: Option<String>,
    /// A category visible to the caller (global or own); its type gives the direction.
    /// Optional on create: without it the caller's rules choose one (`categorySource:
    /// rule`), else the provider's `defaultCategoryId` (`categorySource: provider`), else
    /// `400` naming `categoryId`. Required on update.
    #[schema(value_type = Option<u64>, minimum = 1, maximum = 9007199254740991.0)]
    pub category_id: Option<Value>,
    /// `YYYY-MM-DD`, years 1900 to 2999.
    #[schema(format = Date, example = "2026-11-03", pattern = r"^(19[0-9]{2}|2[0-9]{3})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$", min_length = 10, max_length = 10)]
    pub date: String,
    /// Free text; line breaks and tabs allowed, other control characters not.
    #[schema(max_length = 1000, pattern = r"^[^\x00-\x08\x0B-\x1F\x7F-\x9F]*$")]
    pub note: Option<String>,
    /// One of the caller's providers.
    #[schema(value_type = Option<u64>, minimum = 1, maximum = 9007199254740991.0)]
    pub provider_id: Option<Value>,
    /// The caller's tags (duplicates are ignored).
    #[schema(value_type = Option<Vec<u64>>, max_items = 20)]
    pub tag_ids: Option<Vec<Value>>,
    /// A split transaction's parts: 2 to 50, positive, adding up exactly to `amount`, all
    /// in categories of one type; `categoryId` may then be omitted (it is the first
    /// part's). On update, absent keeps the parts when `amount` and `categoryId` stay
    /// those stored (else the transaction becomes plain); `null` makes it plain.
    #[serde(default, deserialize_with = "super::splits::present")]
    #[schema(value_type = Option<Vec<super::splits::PartRequest>>, nullable, min_items = 2, max_items = 50)]
    pub splits: Option<Value>,
}

use pf_app::transactions::TransactionDraft;

/// The amount and the currency it names, if any.
pub(crate) fn parse_amount(value: &Value) -> Result<(Decimal, Option<String>), String> {
    match value {
        Value::Object(map) => {
            let unknown = map.keys().any(|k| k != "amount" && k != "currency");
            let inner = map.get("amount").ok_or("must contain an amount")?;
            if unknown || matches!(inner, Value::Object(_)) {
                return Err("must be a number, a string or {amount, currency}".into());
            }
            let (amount, _) = parse_amount(inner)?;
            let code = match map.get("currency") {
                None => None,
                Some(Value::Object(c)) => match c.get("code") {
                    Some(Value::String(code)) => Some(code.clone()),
                    _ => return Err("currency must be {\"code\": \"<ISO 4217>\"}".into()),
                },
                Some(_) => return Err("currency must be {\"code\": \"<ISO 4217>\"}".into()),
            };
            Ok((amount, code))
        }
        _ => Ok((fields::parse_amount(value)?, None)),
    }
}

impl TryFrom<TransactionRequest> for TransactionDraft {
    type Error = ApiError;

    fn try_from(r: TransactionRequest) -> Result<Self, ApiError> {
        let mut check = FieldCheck::default();
        let amount = check.field("amount", parse_amount(&r.amount));
        let category_id = check.field("categoryId", parse_optional_id(r.category_id.as_ref()));
        let date = check.field("date", parse_date(&r.date));
        let note = Some(r.note);
        let references = check.references(r.provider_id.as_ref(), r.tag_ids.as_deref());
        let body_currency = match (&r.currency, amount.as_ref().and_then(|(_, c)| c.clone())) {
            (Some(a), Some(b)) if *a != b => {
                check.refuse("currency", "conflicts with the amount's currency");
                None
            }
            (Some(a), _) => Some(a.clone()),
            (None, b) => b,
        };
        let body_currency = match body_currency {
            Some(code) if pf_domain::Currency::from_code(&code).is_none() => {
                check.refuse("currency", "must be a supported ISO 4217 code");
                None
            }
            other => other,
        };
        let splits =
            super::splits::parse_splits(&mut check, r.splits.as_ref(), body_currency.as_deref());
        match (amount, category_id, date, note, references, splits) {
            (
                Some((amount, _)),
                Some(category_id),
                Some(date),
                Some(note),
                Some((provider_id, tag_ids)),
                Some(splits),
            ) if check.is_empty() => {
                let mut draft = Self {
                    amount,
                    currency: body_currency,
                    category_id,
                    date,
                    note,
                    provider_id,
                    tag_ids,
                    category_source: pf_domain::CategorySource::User,
                    splits,
                };
                // The draft's own rules (note, date range, ...): reported with the request.
                let broken = draft.check();
                if broken.is_empty() {
                    Ok(draft)
                } else {
                    Err(ApiError::validation(
                        broken.into_iter().map(FieldError::from).collect(),
                    ))
                }
            }
            _ => Err(check.into_error()),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = Transaction)]
pub struct TransactionResponse {
    pub id: u64,
    pub amount: MoneyDto,
    pub date: String,
    #[schema(required = true)]
    pub note: Option<String>,
    pub category_id: u64,
    /// DEBIT subtracts from the balance, CREDIT adds: the category's type.
    pub category_type: CategoryType,
    #[schema(required = true)]
    pub provider_id: Option<u64>,
    pub tag_ids: Vec<u64>,
    /// How the category was chosen: `user` (in a create or update request), `rule`,
    /// `provider` (its default category), `file` (named in an imported file) or `default`
    /// (an import's fallback). Rules never change a category whose source is `user`.
    pub category_source: pf_domain::CategorySource,
    /// The recurring schedule that created it (`/api/recurring/{id}`; kept after the
    /// schedule is deleted).
    #[schema(minimum = 1, maximum = 9007199254740991.0, required = true)]
    pub recurring_id: Option<u64>,
    /// `null` for a plain transaction, else a split's parts in order; `categoryId` and
    /// `categoryType` are then the first part's.
    #[schema(required = true)]
    pub splits: Option<Vec<super::splits::PartResponse>>,
    /// UTC, `YYYY-MM-DDTHH:MM:SS`.
    #[schema(example = "2026-11-22T10:00:00")]
    pub created_at: String,
    #[schema(example = "2026-11-22T10:00:00")]
    pub updated_at: String,
}

impl From<&Transaction> for TransactionResponse {
    fn from(t: &Transaction) -> Self {
        Self {
            id: t.id,
            amount: t.details.amount.into(),
            date: format_date(t.date),
            note: t.details.note.clone(),
            category_id: t.details.category_id,
            category_type: t.details.category_type,
            provider_id: t.details.provider_id,
            tag_ids: t.details.tag_ids.clone(),
            category_source: t.category_source,
            recurring_id: t.recurring_id,
            splits: super::splits::parts_response(&t.details.splits),
            created_at: t.created_at.to_string(),
            updated_at: t.updated_at.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::parse_id;
    use serde_json::json;

    fn request(v: Value) -> Result<TransactionDraft, ApiError> {
        TransactionDraft::try_from(serde_json::from_value::<TransactionRequest>(v).unwrap())
    }

    #[test]
    fn amounts_keep_their_exact_digits_in_every_accepted_form() {
        let numeric: TransactionRequest =
            serde_json::from_str(r#"{"amount": 0.1, "categoryId": 4, "date": "2026-01-31"}"#)
                .unwrap();
        assert_eq!(
            TransactionDraft::try_from(numeric)
                .unwrap()
                .amount
                .to_string(),
            "0.1"
        );
        let text =
            request(json!({"amount": "12.50", "categoryId": 4, "date": "2026-01-31"})).unwrap();
        assert_eq!(text.amount.to_string(), "12.50");
        let money = request(json!({"amount": {"amount": "3", "currency": {"code": "EUR"}}, "categoryId": 4, "date": "2026-01-31"})).unwrap();
        assert_eq!(money.currency.as_deref(), Some("EUR"));
    }

    #[test]
    fn every_invalid_field_is_reported() {
        let Err(ApiError::BadRequest { errors, .. }) = request(json!({
            "amount": -1, "categoryId": 0, "date": "2026-13-01", "tagIds": [1, "x"]
        })) else {
            panic!("expected a validation error");
        };
        let fields: Vec<_> = errors.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(fields, ["amount", "categoryId", "date", "tagIds"]);
    }

    #[test]
    fn integral_ids_parse_in_any_integer_spelling() {
        assert_eq!(parse_id(&json!(4)), Ok(4));
        assert_eq!(
            parse_id(&serde_json::from_str::<Value>("4.0").unwrap()),
            Ok(4)
        );
        assert_eq!(parse_id(&json!("4.0")), Ok(4));
        assert!(parse_id(&json!("4.5")).is_err());
        assert!(parse_id(&json!(0)).is_err());
    }

    #[test]
    fn tags_are_bounded_and_deduplicated() {
        let many: Vec<u64> = (1..=21).collect();
        assert!(request(
            json!({"amount": 1, "categoryId": 4, "date": "2026-01-01", "tagIds": many})
        )
        .is_err());
        let dup = request(
            json!({"amount": 1, "categoryId": 4, "date": "2026-01-01", "tagIds": [3, 3, 2]}),
        )
        .unwrap();
        assert_eq!(dup.tag_ids, [2, 3]);
    }
}
