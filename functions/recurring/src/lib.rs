//! Recurring transactions (`/api/recurring`): schedules with RFC 5545 rules, their
//! occurrences and per-occurrence changes, the balance forecast (`/api/forecast`), and
//! the job that creates due occurrences exactly once (run hourly by a scheduled event in
//! AWS, every `RECURRING_JOB_SECONDS` by the local server).

pub use pf_http::dto::recurring as dto;
mod forecast;

use std::time::{Duration, Instant};

use axum::http::StatusCode;
use utoipa_axum::{router::OpenApiRouter, routes};

use dto::{
    OccurrenceRequest, OccurrenceResponse, RecurringRequest, RecurringResponse, WindowQuery,
};
use pf_app as app;
use pf_app::recurring::{JobReport, RecurringDraft};
use pf_app::Store;
use pf_domain::recurring::{Exception, Recurring};
use pf_domain::time::parse_date;
use pf_http::auth::Caller;
use pf_http::extract::{IfMatchHeader, Json, Path, Query};
use pf_http::item::ItemChange;
use pf_http::paging::{PageQuery, Pager};
use pf_http::respond::{Created, Page, Versioned};
use pf_http::{docs, ApiError, ApiResult, AppState};

/// The routes with their documentation: a route cannot exist without it.
pub fn api() -> OpenApiRouter<AppState> {
    let routes = OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(read, update, remove))
        .routes(routes!(occurrences))
        .routes(routes!(change_occurrence, restore_occurrence))
        .routes(routes!(forecast::forecast));
    docs::protected("recurring", routes)
}

/// One run of the job: every due occurrence up to today (UTC), until `deadline`.
pub async fn run_job(store: Store, deadline: Instant) -> Result<JobReport, ApiError> {
    let report = app::recurring::run_due(&store, app::recurring::today(), deadline).await?;
    tracing::info!(?report, "recurring job");
    Ok(report)
}

/// The job's deadline when it has `budget` left, with a margin to finish the last write.
pub fn deadline_within(budget: Duration) -> Instant {
    Instant::now() + budget.saturating_sub(Duration::from_secs(2))
}

fn versioned(r: &Recurring) -> Versioned<RecurringResponse> {
    Versioned::new(r.version, RecurringResponse::from(r))
}

/// Creates a recurring transaction (at most 100 per user). Its due occurrences become
/// transactions through the job, within a minute locally and an hour in AWS.
#[utoipa::path(post, path = "/api/recurring", request_body = RecurringRequest,
    responses(
        (status = 201, description = "Created", body = RecurringResponse, headers(
            ("Location" = String, description = "URL of the new schedule"),
            ("ETag" = String, description = "Version, for If-Match"))),
        docs::CreateErrors,
    ))]
async fn create(
    me: Caller,
    Json(body): Json<RecurringRequest>,
) -> ApiResult<Created<RecurringResponse>> {
    let r = app::recurring::create(me.store(), me.id, RecurringDraft::try_from(body)?).await?;
    let created = RecurringResponse::from(&r);
    Ok(Created::item("/api/recurring", r.id, r.version, created))
}

/// The caller's recurring transactions, oldest first, one page at a time.
#[utoipa::path(get, path = "/api/recurring", params(PageQuery),
    responses(
        (status = 200, description = "One page", body = Vec<RecurringResponse>, headers(
            ("Link" = String, description = "`<url>; rel=\"next\"` when another page may follow"))),
        docs::ListErrors,
    ))]
async fn list(me: Caller, Query(query): Query<PageQuery>) -> ApiResult<Page<RecurringResponse>> {
    let pager = Pager::new(&me, "recurring", "/api/recurring");
    let (limit, position) = pager.start(query.limit.as_deref(), query.cursor.as_deref())?;
    let after = position
        .map(|p| {
            p.parse::<u64>()
                .map_err(|_| app::transactions::invalid_cursor())
        })
        .transpose()?;
    let (items, next) = app::recurring::list(me.store(), me.id, limit as i32, after).await?;
    let items = items.iter().map(RecurringResponse::from).collect();
    let next = next.map(|id| id.to_string());
    Ok(pager.page(items, next, query.limit.as_deref(), &[]))
}

/// One of the caller's recurring transactions; someone else's is 404.
#[utoipa::path(get, path = "/api/recurring/{id}",
    params(("id" = inline(docs::Id), Path), docs::IfNoneMatch),
    responses(
        (status = 200, description = "The schedule", body = RecurringResponse, headers(
            ("ETag" = String, description = "Version, for If-Match"))),
        docs::Cached,
        docs::ReadErrors,
    ))]
async fn read(me: Caller, Path(id): Path<u64>) -> ApiResult<Versioned<RecurringResponse>> {
    let schedule = app::recurring::get(me.store(), me.id, id).await?;
    Ok(versioned(&schedule))
}

/// Replaces every field of a schedule. Occurrences already created stay as they are.
#[utoipa::path(put, path = "/api/recurring/{id}",
    params(("id" = inline(docs::Id), Path), docs::IfMatch),
    request_body = RecurringRequest,
    responses(
        (status = 200, description = "Updated", body = RecurringResponse, headers(
            ("ETag" = String, description = "New version"))),
        docs::VersionedUpdateErrors,
    ))]
async fn update(
    ItemChange { me, id, expected }: ItemChange,
    Json(body): Json<RecurringRequest>,
) -> ApiResult<Versioned<RecurringResponse>> {
    let draft = RecurringDraft::try_from(body)?;
    let updated = app::recurring::update(me.store(), me.id, id, draft, expected).await?;
    Ok(versioned(&updated))
}

/// Deletes a schedule. The transactions it created stay.
#[utoipa::path(delete, path = "/api/recurring/{id}",
    params(("id" = inline(docs::Id), Path), docs::IfMatch),
    responses(
        (status = 204, description = "Deleted"),
        docs::VersionedDeleteErrors,
    ))]
async fn remove(ItemChange { me, id, expected }: ItemChange) -> ApiResult<StatusCode> {
    app::recurring::delete(me.store(), me.id, id, expected).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The schedule's occurrences dated from `from` to `to` (inclusive, at most two years
/// apart), in date order: scheduled, created (with the transaction) or skipped.
#[utoipa::path(
    get,
    path = "/api/recurring/{id}/occurrences",
    params(("id" = inline(docs::Id), Path), WindowQuery),
    responses(
        (status = 200, description = "The occurrences", body = Vec<OccurrenceResponse>),
        docs::ReadErrors,
    )
)]
async fn occurrences(
    me: Caller,
    Path(id): Path<u64>,
    Query(query): Query<WindowQuery>,
) -> ApiResult<Json<Vec<OccurrenceResponse>>> {
    let (from, to) = app::recurring::parse_window(query.from.as_deref(), query.to.as_deref())?;
    let r = app::recurring::get(me.store(), me.id, id).await?;
    let currency = r.details.amount.currency();
    let items = r.occurrences(from, to);
    Ok(Json(
        items
            .iter()
            .map(|p| OccurrenceResponse::new(p, currency))
            .collect(),
    ))
}

/// The path's nominal date of an occurrence.
fn nominal(date: &str) -> Result<time::Date, ApiError> {
    parse_date(date).map_err(|_| ApiError::NotFound("occurrence not found".into()))
}

/// Skips one occurrence (`{"skip": true}`) or gives it another date (within 31 days, not
/// past another occurrence still to come: they are created in order) and/or amount;
/// `{date}` is its nominal date. Created occurrences cannot change (409), nor can passed
/// ones (a skip whose day is over, a date before the schedule began).
#[utoipa::path(
    put,
    path = "/api/recurring/{id}/occurrences/{date}",
    params(("id" = inline(docs::Id), Path), ("date" = String, Path, format = Date, description = "The occurrence's nominal date"), docs::IfMatch),
    request_body = OccurrenceRequest,
    responses(
        (status = 200, description = "The occurrence as now planned", body = OccurrenceResponse, headers(("ETag" = String, description = "The schedule's new version"))),
        docs::VersionedUpdateErrors,
    )
)]
async fn change_occurrence(
    me: Caller,
    Path((id, date)): Path<(u64, String)>,
    IfMatchHeader(expected): IfMatchHeader,
    Json(body): Json<OccurrenceRequest>,
) -> ApiResult<Versioned<OccurrenceResponse>> {
    let nominal = nominal(&date)?;
    let change = Exception::try_from(body)?;
    let (planned, r) =
        app::recurring::change_occurrence(me.store(), me.id, id, nominal, change, expected).await?;
    let currency = r.details.amount.currency();
    Ok(Versioned::new(
        r.version,
        OccurrenceResponse::new(&planned, currency),
    ))
}

/// Restores an occurrence to what the rule says (409 once it was created or has passed,
/// or when it would come back past another occurrence still to come).
#[utoipa::path(
    delete,
    path = "/api/recurring/{id}/occurrences/{date}",
    params(("id" = inline(docs::Id), Path), ("date" = String, Path, format = Date, description = "The occurrence's nominal date"), docs::IfMatch),
    responses(
        (status = 204, description = "Restored"),
        docs::VersionedDeleteErrors,
    )
)]
async fn restore_occurrence(
    me: Caller,
    Path((id, date)): Path<(u64, String)>,
    IfMatchHeader(expected): IfMatchHeader,
) -> ApiResult<StatusCode> {
    let nominal = nominal(&date)?;
    app::recurring::restore_occurrence(me.store(), me.id, id, nominal, expected).await?;
    Ok(StatusCode::NO_CONTENT)
}
