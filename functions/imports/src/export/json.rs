//! The JSON export: everything of the caller. The first page holds the profile, wallet,
//! categories, tags, providers, budgets, rules and recurring schedules (with their
//! changed occurrences), each in the shape its own `GET` answers where it has one; every
//! page holds transactions.

use serde::Serialize;
use serde_json::{json, Value};
use utoipa::ToSchema;

use pf_app as app;
use pf_domain::recurring::{Exception, Recurring};
use pf_domain::time::format_date;
use pf_http::dto::recurring::RecurringResponse;
use pf_http::dto::rules::RuleResponse;
use pf_http::money::MoneyDto;
use pf_http::users::UserResponse;
use pf_http::{ApiError, ApiResult, AppState};

use super::{each_transaction, ExportPage, Names};

/// One changed occurrence of a schedule, keyed by its rule date (`nominalDate`): skipped,
/// or moved to another `date` and/or `amount` (as `PUT
/// /api/recurring/{id}/occurrences/{nominalDate}` set it).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OccurrenceException {
    #[schema(format = Date, example = "2026-02-28")]
    pub nominal_date: String,
    pub skip: bool,
    #[schema(format = Date, example = "2026-02-27", required = true)]
    pub date: Option<String>,
    #[schema(required = true)]
    pub amount: Option<MoneyDto>,
}

/// A recurring schedule as `GET /api/recurring/{id}` answers it, with its changed
/// occurrences.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RecurringExport {
    #[serde(flatten)]
    pub schedule: RecurringResponse,
    pub exceptions: Vec<OccurrenceException>,
}

impl From<&Recurring> for RecurringExport {
    fn from(r: &Recurring) -> Self {
        let currency = r.details.amount.currency();
        let exceptions = r
            .exceptions
            .iter()
            .map(|(nominal, e)| {
                let (skip, date, amount) = match e {
                    Exception::Skip => (true, None, None),
                    Exception::Change { date, amount } => (false, *date, *amount),
                };
                OccurrenceException {
                    nominal_date: format_date(*nominal),
                    skip,
                    date: date.map(format_date),
                    amount: amount.map(|a| MoneyDto::total(a, currency)),
                }
            })
            .collect();
        Self {
            schedule: RecurringResponse::from(r),
            exceptions,
        }
    }
}

/// One page of `GET /api/export?format=json`: the first page holds every member, the
/// next ones only `transactions` (the rest of them).
#[allow(dead_code)]
#[derive(ToSchema)]
#[schema(as = ExportPage)]
pub struct ExportDocument {
    /// The profile, as `GET /users/me` answers it.
    #[schema(value_type = Option<UserResponse>, nullable = false)]
    profile: (),
    /// `{id, name, initialBalance, amountBalance}`.
    #[schema(value_type = Option<Object>, nullable = false)]
    wallet: (),
    /// Global and own: `{id, categoryName, categoryType, icon, color, isGlobal}`.
    #[schema(value_type = Option<Vec<Object>>, nullable = false)]
    categories: (),
    /// `{id, name}` each.
    #[schema(value_type = Option<Vec<Object>>, nullable = false)]
    tags: (),
    /// `{id, name, defaultCategoryId}` each.
    #[schema(value_type = Option<Vec<Object>>, nullable = false)]
    providers: (),
    /// `{month, categoryId, isGlobal, amount}` each.
    #[schema(value_type = Option<Vec<Object>>, nullable = false)]
    budgets: (),
    /// The rules in rule order, as `GET /api/rules` answers them.
    #[schema(value_type = Option<Vec<RuleResponse>>, nullable = false)]
    rules: (),
    /// The recurring schedules with their changed occurrences.
    #[schema(value_type = Option<Vec<RecurringExport>>, nullable = false)]
    recurring: (),
    /// Newest date first: `{id, amount, date, note, categoryId, categoryType,
    /// providerId, tagIds, createdAt, updatedAt}` each.
    #[schema(value_type = Vec<Object>)]
    transactions: (),
}

/// The caller's rules (in rule order) and recurring schedules, as the first page shows
/// them.
async fn rules_and_schedules(state: &AppState, user_id: u64) -> ApiResult<(Value, Value)> {
    let store = &state.store;
    let (rules, schedules) = tokio::try_join!(
        app::rules::list(store, user_id),
        app::recurring::all(store, user_id)
    )?;
    let rules: Vec<RuleResponse> = rules.into_iter().map(RuleResponse::from).collect();
    let schedules: Vec<RecurringExport> = schedules.iter().map(RecurringExport::from).collect();
    Ok((json!(rules), json!(schedules)))
}

/// A transaction as the JSON export shows it (the API's transaction shape).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct TransactionJson<'a> {
    id: u64,
    amount: MoneyDto,
    date: String,
    note: Option<&'a str>,
    category_id: u64,
    category_type: pf_domain::CategoryType,
    provider_id: Option<u64>,
    tag_ids: &'a [u64],
    splits: Option<Vec<pf_http::dto::splits::PartResponse>>,
    created_at: String,
    updated_at: String,
}

/// A JSON page. The first holds the profile (never the password hash), the wallet,
/// categories, tags, providers, budgets, rules and recurring schedules, read at the same
/// time as its transactions; every page holds transactions.
pub(super) async fn json_page(
    state: &AppState,
    user_id: u64,
    position: Option<String>,
) -> ApiResult<ExportPage> {
    let first = position.is_none();
    let members = async {
        if first {
            first_members(state, user_id).await
        } else {
            Ok(serde_json::Map::new())
        }
    };
    let transactions = async {
        let mut items = Vec::new();
        let mut size = 0;
        let next = each_transaction(state, user_id, position, |t| {
            let item = serde_json::to_value(TransactionJson {
                id: t.id,
                amount: MoneyDto::from(t.details.amount),
                date: format_date(t.date),
                note: t.details.note.as_deref(),
                category_id: t.details.category_id,
                category_type: t.details.category_type,
                provider_id: t.details.provider_id,
                tag_ids: &t.details.tag_ids,
                splits: pf_http::dto::splits::parts_response(&t.details.splits),
                created_at: t.created_at.to_string(),
                updated_at: t.updated_at.to_string(),
            })
            .map_err(anyhow::Error::from)?;
            size += item.to_string().len() + 1;
            items.push(item);
            Ok(size)
        })
        .await?;
        Ok::<_, ApiError>((items, next))
    };
    let (mut doc, (items, next)) = tokio::try_join!(members, transactions)?;
    doc.insert("transactions".into(), Value::Array(items));
    let body = serde_json::to_vec(&Value::Object(doc)).map_err(anyhow::Error::from)?;
    Ok(ExportPage { body, next })
}

/// What only the first page holds, every part read at once.
async fn first_members(
    state: &AppState,
    user_id: u64,
) -> ApiResult<serde_json::Map<String, Value>> {
    let store = &state.store;
    let (profile, w, (_, lists), budgets, (rules, schedules)) = tokio::try_join!(
        async { Ok::<_, ApiError>(app::users::own(store, user_id).await?) },
        async { Ok(app::wallet::get(store, user_id).await?) },
        Names::load(state, user_id),
        async { Ok(app::insights::all_budgets(store, user_id).await?) },
        rules_and_schedules(state, user_id),
    )?;
    let mut doc = serde_json::Map::new();
    doc.insert("profile".into(), json!(UserResponse::from(&profile)));
    doc.insert(
        "wallet".into(),
        json!({
            "id": w.id,
            "name": w.name,
            "initialBalance": MoneyDto::total(w.initial_balance, w.currency),
            "amountBalance": MoneyDto::total(w.balance(), w.currency),
        }),
    );
    if let Value::Object(lists) = lists {
        doc.extend(lists);
    }
    let budgets: Vec<Value> = budgets
        .into_iter()
        .map(|b| {
            json!({
                "month": b.month.to_string(),
                "categoryId": b.category_id,
                "isGlobal": b.category_global,
                "amount": MoneyDto::total(b.amount, w.currency),
            })
        })
        .collect();
    doc.insert("budgets".into(), Value::Array(budgets));
    doc.insert("rules".into(), rules);
    doc.insert("recurring".into(), schedules);
    Ok(doc)
}
