//! Insights and budgets: per-month, per-category totals kept with every transaction write
//! (a range of months costs one `Query`, never a read of the transactions), and monthly
//! budgets of DEBIT categories with what was spent against them.

mod dto;

use axum::http::StatusCode;
use utoipa_axum::{router::OpenApiRouter, routes};

use dto::{BudgetRequest, BudgetResponse, MonthInsightResponse, MonthlyQuery};
use pf_app as app;
use pf_http::auth::Caller;
use pf_http::extract::{Json, Path, Query};
use pf_http::{decimal, docs, ApiResult, AppState};

/// The routes with their documentation: a route cannot exist without it.
pub fn api() -> OpenApiRouter<AppState> {
    let routes = OpenApiRouter::new()
        .routes(routes!(monthly))
        .routes(routes!(list_budgets))
        .routes(routes!(put_budget, delete_budget));
    docs::protected("insights", routes)
}

/// Income, expenses, net and per-category totals of every month from `from` to `to`
/// (at most 36 months; months without transactions are listed with zeros), in the
/// wallet's currency. Kept with every transaction write: the cost depends on the number
/// of months, not of transactions.
#[utoipa::path(
    get,
    path = "/api/insights/monthly",
    params(MonthlyQuery),
    responses(
        (status = 200, description = "One entry per month of the range, oldest first", body = Vec<MonthInsightResponse>),
        docs::ListErrors,
    )
)]
async fn monthly(
    me: Caller,
    Query(query): Query<MonthlyQuery>,
) -> ApiResult<Json<Vec<MonthInsightResponse>>> {
    let (from, to) = app::insights::parse_range(query.from.as_deref(), query.to.as_deref())?;
    let insights = app::insights::monthly(me.store(), me.id, from, to).await?;
    Ok(Json(dto::insights(&insights)))
}

/// Every budget of the month with what was spent (the month's DEBIT total of its
/// category) and what remains (negative when overspent), by category id.
#[utoipa::path(
    get,
    path = "/api/budgets/{month}",
    params(("month" = inline(dto::MonthParam), Path)),
    responses(
        (status = 200, description = "The month's budgets", body = Vec<BudgetResponse>),
        docs::ListErrors,
    )
)]
async fn list_budgets(
    me: Caller,
    Path(month): Path<String>,
) -> ApiResult<Json<Vec<BudgetResponse>>> {
    let month = app::insights::parse_path_month(&month)?;
    let budgets = app::insights::budgets(me.store(), me.id, month).await?;
    Ok(Json(
        budgets
            .items
            .iter()
            .map(|b| BudgetResponse::new(b, budgets.currency))
            .collect(),
    ))
}

/// Sets the month's budget of a DEBIT category the caller can see (a global one or their
/// own; someone else's is 404). The amount is at least 0, with at most the wallet
/// currency's decimals; the month lies in the years 1900 to 2999. A user holds at most
/// 10,000 budgets over all months (409 for a new one beyond). While budgets exist, the
/// wallet's currency cannot change.
#[utoipa::path(
    put,
    path = "/api/budgets/{month}/{categoryId}",
    params(
        ("month" = inline(dto::BudgetMonthParam), Path),
        ("categoryId" = inline(docs::Id), Path),
    ),
    request_body = BudgetRequest,
    responses(
        (status = 200, description = "The budget with what was spent", body = BudgetResponse),
        docs::UpdateErrors,
    )
)]
async fn put_budget(
    me: Caller,
    Path((month, category_id)): Path<(String, u64)>,
    Json(body): Json<BudgetRequest>,
) -> ApiResult<Json<BudgetResponse>> {
    let month = app::insights::parse_path_month(&month)?;
    let amount = decimal::from_json(&body.amount, false);
    let (status, currency) =
        app::insights::put_budget(me.store(), me.id, month, category_id, amount).await?;
    Ok(Json(BudgetResponse::new(&status, currency)))
}

/// Deletes the month's budget of a category (404 when there is none).
#[utoipa::path(
    delete,
    path = "/api/budgets/{month}/{categoryId}",
    params(
        ("month" = inline(dto::MonthParam), Path),
        ("categoryId" = inline(docs::Id), Path),
    ),
    responses(
        (status = 204, description = "Deleted"),
        docs::ReadErrors,
    )
)]
async fn delete_budget(
    me: Caller,
    Path((month, category_id)): Path<(String, u64)>,
) -> ApiResult<StatusCode> {
    let month = app::insights::parse_path_month(&month)?;
    app::insights::delete_budget(me.store(), me.id, month, category_id).await?;
    Ok(StatusCode::NO_CONTENT)
}
