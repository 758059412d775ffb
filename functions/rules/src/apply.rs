//! `POST /api/rules/test` (what the rules would do to a described transaction, writing
//! nothing) and `POST /api/rules/apply` (run them over existing transactions).

use std::time::{Duration, Instant};

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use pf_app as app;
use pf_app::rules::Ruleset;
use pf_app::transactions::TransactionDraft;
use pf_app::TxnFilter;
use pf_domain::time::{format_date, parse_date};
use pf_http::auth::Caller;
use pf_http::extract::{Json, Query};
use pf_http::fields::FieldCheck;
use pf_http::{decimal, docs, ApiResult};

/// A transaction as the test describes it; every field optional.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = RuleTestInput)]
pub struct TestRequest {
    #[schema(max_length = 1000, nullable, example = "STARBUCKS STORE 12345")]
    pub payee: Option<String>,
    #[schema(max_length = 1000, nullable)]
    pub note: Option<String>,
    /// The amount (absolute): a number, or a string of digits with an optional fraction.
    #[schema(schema_with = amount_schema)]
    pub amount: Option<serde_json::Value>,
    /// `DEBIT` or `CREDIT`; absent: as for a create without category (`type` conditions
    /// do not match).
    #[serde(rename = "type")]
    #[schema(value_type = Option<pf_domain::CategoryType>, nullable)]
    pub kind: Option<String>,
}

/// What the rules would do.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = RuleTestResult)]
pub struct TestResponse {
    /// The ids of the rules that matched, in the order they ran.
    pub matched: Vec<u64>,
    pub result: Fields,
}

/// The fields rules set.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = RuleFields)]
pub struct Fields {
    #[schema(required = true)]
    pub category_id: Option<u64>,
    #[schema(required = true)]
    pub provider_id: Option<u64>,
    pub tag_ids: Vec<u64>,
    #[schema(required = true)]
    pub note: Option<String>,
}

/// A non-negative decimal below 10^13: a number, or digits with an optional fraction.
fn amount_schema() -> utoipa::openapi::schema::Schema {
    use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, SchemaType, Type};
    let number = ObjectBuilder::new()
        .schema_type(SchemaType::new(Type::Number))
        .minimum(Some(0.0))
        .maximum(Some(9_999_999_999_999.0));
    let text = ObjectBuilder::new()
        .schema_type(SchemaType::new(Type::String))
        .pattern(Some(r"^[0-9]{1,13}(\.[0-9]{1,12})?$"))
        .max_length(Some(26));
    let null = ObjectBuilder::new().schema_type(SchemaType::new(Type::Null));
    OneOfBuilder::new()
        .item(number)
        .item(text)
        .item(null)
        .into()
}

/// The amount of a test: what [`amount_schema`] allows, exactly.
fn test_amount(v: &serde_json::Value) -> Option<Decimal> {
    let limit = pf_domain::money::MAX_AMOUNT_EXCLUSIVE;
    match v {
        serde_json::Value::String(s) => {
            let (int, frac) = s.split_once('.').unwrap_or((s, "0"));
            let digits = |p: &str, max: usize| {
                (1..=max).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_digit())
            };
            if !(digits(int, 13) && digits(frac, 12)) {
                return None;
            }
            s.parse::<Decimal>().ok()
        }
        // Exact digits when they fit a decimal; a number finer than a decimal holds (a
        // JSON number may be 6e-307) is as good as its nearest decimal for a comparison.
        // Below zero, however little (-1e-185 included), is not an absolute amount.
        serde_json::Value::Number(n) if n.as_f64().is_some_and(|f| f < 0.0) => None,
        serde_json::Value::Number(n) => decimal::from_json(v, false).or_else(|| {
            n.as_f64().filter(|f| f.is_finite()).and_then(|f| {
                Decimal::try_from(f)
                    .ok()
                    .or((f.abs() < 1.0).then_some(Decimal::ZERO))
            })
        }),
        _ => None,
    }
    .filter(|d| *d >= Decimal::ZERO && *d < limit)
}

/// An optional field: `None` when absent, else what `parse` makes of it (`None` with its
/// error kept when it refuses it).
fn optional<T, U>(
    check: &mut FieldCheck,
    field: &str,
    value: Option<T>,
    parse: impl FnOnce(T) -> Result<U, String>,
) -> Option<U> {
    check.field(field, value.map(parse).transpose()).flatten()
}

/// A test's payee or note: at most 1000 characters.
fn at_most_1000(s: &str) -> Result<(), String> {
    match s.chars().count() {
        0..=1000 => Ok(()),
        _ => Err("must be at most 1000 characters".into()),
    }
}

/// Explains what the caller's rules would do to a transaction: which rules match, in
/// order, and the fields they would set. Writes nothing.
#[utoipa::path(
    post,
    path = "/api/rules/test",
    request_body = TestRequest,
    responses(
        (status = 200, description = "What the rules would do", body = TestResponse),
        docs::ActionErrors,
    )
)]
pub async fn test_rules(
    me: Caller,
    Json(body): Json<TestRequest>,
) -> ApiResult<Json<TestResponse>> {
    let mut check = FieldCheck::default();
    optional(&mut check, "payee", body.payee.as_deref(), at_most_1000);
    optional(&mut check, "note", body.note.as_deref(), at_most_1000);
    let amount = body.amount.as_ref().filter(|v| !v.is_null());
    let amount = optional(&mut check, "amount", amount, |v| {
        test_amount(v).ok_or_else(|| "must be a decimal from 0 to below 10^13".into())
    });
    let kind = optional(&mut check, "type", body.kind.as_deref(), |k| {
        rules::Kind::parse(k).ok_or_else(|| "must be DEBIT or CREDIT".into())
    });
    if !check.is_empty() {
        return Err(check.into_error());
    }
    let ruleset = Ruleset::load(me.store(), me.id).await?;
    let outcome = ruleset.evaluate(&rules::Subject {
        payee: body.payee.as_deref(),
        note: body.note.as_deref(),
        amount,
        kind,
    });
    Ok(Json(TestResponse {
        matched: outcome.matched,
        result: Fields {
            category_id: outcome.actions.category_id,
            provider_id: outcome.actions.provider_id,
            tag_ids: outcome.actions.tag_ids,
            note: outcome.actions.note,
        },
    }))
}

/// The range to run over; both dates optional and inclusive.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = RuleApplyInput)]
pub struct ApplyRequest {
    #[schema(format = Date, example = "2026-01-01", pattern = r"^(19[0-9]{2}|2[0-9]{3})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$", min_length = 10, max_length = 10, nullable)]
    pub from: Option<String>,
    #[schema(format = Date, example = "2026-12-31", pattern = r"^(19[0-9]{2}|2[0-9]{3})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$", min_length = 10, max_length = 10, nullable)]
    pub to: Option<String>,
    /// From an earlier answer that ran out of time: continue there.
    #[schema(max_length = 512, nullable)]
    pub cursor: Option<String>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct ApplyQuery {
    /// `true`: write nothing; answer the first 50 changes.
    pub dry_run: Option<bool>,
}

/// One change of a dry run.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = RuleChange)]
pub struct ChangeResponse {
    pub id: u64,
    pub from: Fields,
    pub to: Fields,
}

/// What a run did.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = RuleApplyResult)]
pub struct ApplyResponse {
    pub examined: u64,
    pub matched: u64,
    /// Transactions whose fields changed (or, dry, would change).
    pub changed: u64,
    /// Dry run only: the first 50 changes.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub changes: Option<Vec<ChangeResponse>>,
    /// Present when the run stopped for time: send it back as `cursor` to continue.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub cursor: Option<String>,
}

fn fields(d: &TransactionDraft) -> Fields {
    Fields {
        category_id: d.category_id,
        provider_id: d.provider_id,
        tag_ids: d.tag_ids.clone(),
        note: d.note.clone(),
    }
}

/// Time a run may spend before answering with a cursor (API Gateway waits 30 s).
const BUDGET: Duration = Duration::from_secs(20);

/// Runs the rules over the caller's transactions dated `from`..`to`: a transaction
/// changes only when a rule matches it, its category was not chosen by the user
/// (`categorySource` other than `user`: such a transaction is left whole) and the rule's
/// actions change one of its fields. Writes go through the same path as an update (balance, monthly
/// totals and the change feed stay exact); a change the transaction would refuse leaves it
/// as it is. A long run answers with a `cursor` to continue.
#[utoipa::path(
    post,
    path = "/api/rules/apply",
    params(ApplyQuery),
    request_body = ApplyRequest,
    responses(
        (status = 200, description = "What the run did", body = ApplyResponse),
        docs::ActionErrors,
    )
)]
pub async fn apply_rules(
    me: Caller,
    Query(q): Query<ApplyQuery>,
    Json(body): Json<ApplyRequest>,
) -> ApiResult<Json<ApplyResponse>> {
    let mut check = FieldCheck::default();
    let date = |d: &str| parse_date(d).map(format_date);
    let filter = TxnFilter {
        from: optional(&mut check, "from", body.from.as_deref(), date),
        to: optional(&mut check, "to", body.to.as_deref(), date),
        ..Default::default()
    };
    let cursors = me.state.tokens.cursors();
    let position = optional(&mut check, "cursor", body.cursor.as_ref(), |c| {
        cursors
            .open("rules-apply", me.id, c)
            .ok_or_else(|| "invalid cursor".into())
    });
    if !check.is_empty() {
        return Err(check.into_error());
    }
    let dry = q.dry_run.unwrap_or(false);
    let deadline = Instant::now() + BUDGET;
    let report = app::rules::apply(me.store(), me.id, &filter, position, dry, deadline).await?;
    Ok(Json(ApplyResponse {
        examined: report.examined,
        matched: report.matched,
        changed: report.changed,
        changes: dry.then(|| {
            report
                .changes
                .iter()
                .map(|c| ChangeResponse {
                    id: c.id,
                    from: fields(&c.from),
                    to: fields(&c.to),
                })
                .collect()
        }),
        cursor: report.next.map(|p| cursors.seal("rules-apply", me.id, &p)),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_test_amount_is_what_its_schema_allows() {
        let amount = |text: &str| test_amount(&serde_json::from_str(text).unwrap());
        assert_eq!(amount("4.5"), Some(Decimal::new(45, 1)));
        assert_eq!(amount("\"4.50\""), Some(Decimal::new(450, 2)));
        assert_eq!(amount("6e-307"), Some(Decimal::ZERO));
        assert_eq!(amount("-0.0"), Some(Decimal::ZERO));
        for refused in [
            "-1.3195082350733208e-185",
            "-4.5",
            "\"-4.5\"",
            "1e13",
            "\"1.\"",
        ] {
            assert_eq!(amount(refused), None, "{refused}");
        }
    }
}
