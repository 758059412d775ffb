//! Request and response bodies of the recurring endpoints. Parsing here is shape only;
//! the rules of the transaction part are `TransactionDraft`'s, of the calendar the
//! service's.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};

use crate::fields::{parse_amount, FieldCheck};
use crate::ids::parse_id;
use crate::money::MoneyDto;
use crate::{ApiError, FieldError};
use pf_app::recurring::RecurringDraft;
use pf_app::transactions::TransactionDraft;
use pf_domain::recurring::{Exception, Next, Planned, Recurring};
use pf_domain::time::{format_date, parse_date};
use pf_domain::{CategorySource, CategoryType, Currency};

/// Body of create and update (PUT replaces every field).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[schema(as = RecurringInput)]
pub struct RecurringRequest {
    /// A positive amount (JSON number or string), in the wallet's currency.
    #[schema(schema_with = crate::docs::amount_input)]
    pub amount: Value,
    /// A category visible to the caller; its type gives the direction.
    #[schema(value_type = u64, minimum = 1, maximum = 9007199254740991.0)]
    pub category_id: Value,
    #[schema(value_type = Option<u64>, minimum = 1, maximum = 9007199254740991.0)]
    pub provider_id: Option<Value>,
    #[schema(value_type = Option<Vec<u64>>, max_items = 20)]
    pub tag_ids: Option<Vec<Value>>,
    #[schema(max_length = 1000)]
    pub note: Option<String>,
    /// A split's parts, as on a transaction (`categoryId` is then the first part's); each
    /// occurrence is created with them (one whose amount an exception changes, plain).
    #[serde(default, deserialize_with = "super::splits::present")]
    #[schema(value_type = Option<Vec<super::splits::PartRequest>>, nullable, min_items = 2, max_items = 50)]
    pub splits: Option<Value>,
    /// The earliest date (`YYYY-MM-DD`, 1900 to 2200): an occurrence only when the rule
    /// produces it.
    #[schema(format = Date, example = "2026-01-31", min_length = 10, max_length = 10)]
    pub start: String,
    /// An RFC 5545 `RRULE` value with RFC 7529 `SKIP`.
    #[schema(
        example = "FREQ=MONTHLY;BYMONTHDAY=-1",
        min_length = 1,
        max_length = 500
    )]
    pub rrule: String,
    /// Where an occurrence on a Saturday or Sunday lands: `keep` (default), `before`
    /// (Friday), `after` (Monday).
    #[schema(value_type = Option<String>, pattern = "^(keep|before|after)$", max_length = 6)]
    pub weekend: Option<String>,
    /// On create: also create the occurrences before today (from `start`; at most 1,000
    /// of them, else 400). An update keeps the schedule's; one that changes `rrule`,
    /// `start` or `weekend` plans from the day of the edit on (or from the third day after the
    /// last created occurrence's nominal date, when later).
    pub backfill: Option<bool>,
}

impl TryFrom<RecurringRequest> for RecurringDraft {
    type Error = ApiError;

    fn try_from(r: RecurringRequest) -> Result<Self, ApiError> {
        let mut check = FieldCheck::default();
        let amount = check.field("amount", parse_amount(&r.amount));
        let category_id = check.field("categoryId", parse_id(&r.category_id));
        let start = check.field("start", parse_date(&r.start));
        let references = check.references(r.provider_id.as_ref(), r.tag_ids.as_deref());
        let splits = super::splits::parse_splits(&mut check, r.splits.as_ref(), None);
        if r.rrule.len() > 500 {
            check.refuse("rrule", "must be at most 500 characters");
        }
        let (Some(amount), Some(category_id), Some(date), Some((provider_id, tag_ids))) =
            (amount, category_id, start, references)
        else {
            return Err(check.into_error());
        };
        if !check.is_empty() {
            return Err(check.into_error());
        }
        let mut transaction = TransactionDraft {
            amount,
            currency: None,
            category_id: Some(category_id),
            date,
            note: r.note,
            provider_id,
            tag_ids,
            category_source: CategorySource::User,
            splits: splits.unwrap_or_default(),
        };
        let broken = transaction.check();
        if !broken.is_empty() {
            let errors = broken.into_iter().map(FieldError::from).map(|mut e| {
                if e.field == "date" {
                    e.field = "start".into();
                }
                e
            });
            return Err(ApiError::validation(errors.collect()));
        }
        Ok(RecurringDraft {
            transaction,
            rrule: r.rrule,
            weekend: r.weekend,
            backfill: r.backfill.unwrap_or(false),
        })
    }
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = Recurring)]
pub struct RecurringResponse {
    pub id: u64,
    pub amount: MoneyDto,
    pub category_id: u64,
    /// DEBIT subtracts from the balance, CREDIT adds: the category's type.
    pub category_type: CategoryType,
    #[schema(required = true)]
    pub provider_id: Option<u64>,
    pub tag_ids: Vec<u64>,
    #[schema(required = true)]
    pub note: Option<String>,
    /// `null`, or a split's parts in order (as on a transaction).
    #[schema(required = true)]
    pub splits: Option<Vec<super::splits::PartResponse>>,
    #[schema(format = Date, example = "2026-01-31")]
    pub start: String,
    #[schema(example = "FREQ=MONTHLY;BYMONTHDAY=-1")]
    pub rrule: String,
    #[schema(example = "keep")]
    pub weekend: String,
    pub backfill: bool,
    /// The date of the next occurrence still to be created, if any.
    #[schema(format = Date, example = "2026-02-28", required = true)]
    pub next_date: Option<String>,
    #[schema(example = "2026-11-22T10:00:00")]
    pub created_at: String,
    #[schema(example = "2026-11-22T10:00:00")]
    pub updated_at: String,
}

impl From<&Recurring> for RecurringResponse {
    fn from(r: &Recurring) -> Self {
        let next_date = match r.next().1 {
            Next::Occurrence { date, .. } => Some(format_date(date)),
            _ => None,
        };
        Self {
            id: r.id,
            amount: r.details.amount.into(),
            category_id: r.details.category_id,
            category_type: r.details.category_type,
            provider_id: r.details.provider_id,
            tag_ids: r.details.tag_ids.clone(),
            note: r.details.note.clone(),
            splits: super::splits::parts_response(&r.details.splits),
            start: format_date(r.schedule.start),
            rrule: r.rrule.clone(),
            weekend: r.schedule.weekend.as_str().into(),
            backfill: r.backfill,
            next_date,
            created_at: r.created_at.to_string(),
            updated_at: r.updated_at.to_string(),
        }
    }
}

/// One occurrence.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = Occurrence)]
pub struct OccurrenceResponse {
    /// Its date, after the weekend move and any change.
    #[schema(format = Date, example = "2026-02-27")]
    pub date: String,
    /// The rule's date: the key to change this occurrence with.
    #[schema(format = Date, example = "2026-02-28")]
    pub nominal_date: String,
    pub amount: MoneyDto,
    #[schema(pattern = "^(scheduled|created|skipped)$", example = "scheduled")]
    pub status: String,
    /// The transaction it became, once created (`null` before).
    #[schema(required = true)]
    pub transaction_id: Option<u64>,
}

impl OccurrenceResponse {
    pub fn new(p: &Planned, currency: Currency) -> Self {
        Self {
            date: format_date(p.date),
            nominal_date: format_date(p.nominal),
            amount: MoneyDto::total(p.amount, currency),
            status: p.status.as_str().into(),
            transaction_id: p.transaction_id,
        }
    }
}

/// `{"skip": true}`, or another `date` and/or `amount` for one occurrence.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[schema(as = OccurrenceChange)]
pub struct OccurrenceRequest {
    pub skip: Option<bool>,
    /// `YYYY-MM-DD`, within 31 days of the occurrence's nominal date, and not past another
    /// occurrence still to come (the same day is no pass).
    #[schema(format = Date, min_length = 10, max_length = 10)]
    pub date: Option<String>,
    #[schema(schema_with = crate::docs::amount_input)]
    pub amount: Option<Value>,
}

impl TryFrom<OccurrenceRequest> for Exception {
    type Error = ApiError;

    fn try_from(r: OccurrenceRequest) -> Result<Self, ApiError> {
        let bad = |field: &str, e: String| ApiError::validation(vec![FieldError::new(field, e)]);
        match (r.skip, r.date, r.amount) {
            (Some(true), None, None) => Ok(Exception::Skip),
            (Some(true), _, _) => Err(bad("skip", "comes without date or amount".into())),
            (_, None, None) => Err(bad(
                "date",
                "give {\"skip\": true}, a date or an amount".into(),
            )),
            (_, date, amount) => Ok(Exception::Change {
                date: date
                    .map(|d| parse_date(&d))
                    .transpose()
                    .map_err(|e| bad("date", e))?,
                amount: amount
                    .map(|a| parse_amount(&a))
                    .transpose()
                    .map_err(|e| bad("amount", e))?,
            }),
        }
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct WindowQuery {
    /// First date included (`YYYY-MM-DD`; default today).
    #[param(format = Date, value_type = Option<String>, max_length = 10)]
    pub from: Option<String>,
    /// Last date included (`YYYY-MM-DD`; default a year after `from`; at most two years
    /// after it).
    #[param(format = Date, value_type = Option<String>, max_length = 10)]
    pub to: Option<String>,
}
