//! Rule endpoints (`/api/rules`): the caller's ordered categorisation rules, a dry test of
//! what they would do, and a run over existing transactions. The rules themselves
//! (conditions, folding, regexes, evaluation) are the `rules` crate; storage and where
//! they run are `pf_app::rules`.

mod apply;
pub use pf_http::dto::rules as dto;

use axum::http::StatusCode;
use serde_json::Value;
use utoipa_axum::{router::OpenApiRouter, routes};

use apply::{__path_apply_rules, __path_test_rules, apply_rules, test_rules};
use dto::{RuleRequest, RuleResponse};
use pf_app as app;
use pf_http::auth::Caller;
use pf_http::extract::{Json, Path, Query};
use pf_http::item::ItemChange;
use pf_http::paging::{PageQuery, Pager};
use pf_http::respond::{Created, Page, Versioned};
use pf_http::{docs, ApiError, ApiResult, AppState, FieldError};

/// The routes with their documentation: a route cannot exist without it.
pub fn api() -> OpenApiRouter<AppState> {
    let routes = OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(read, update, remove))
        .routes(routes!(test_rules))
        .routes(routes!(apply_rules));
    docs::protected("rules", routes)
}

/// A body as `rules::RuleBody`, every invalid field named.
fn body(value: Value) -> ApiResult<rules::RuleBody> {
    rules::RuleBody::from_value(value).map_err(|errors| {
        ApiError::validation(
            errors
                .into_iter()
                .map(|e| FieldError::new(e.field, e.message))
                .collect(),
        )
    })
}

fn versioned(v: app::rules::RuleView) -> Versioned<RuleResponse> {
    Versioned::new(v.version, RuleResponse::from(v))
}

/// The caller's rules in the order they run (by `position`; equal positions in creation
/// order), a page at a time (all of them, at most 200, read with one `Query`).
#[utoipa::path(get, path = "/api/rules", params(PageQuery),
    responses(
        (status = 200, description = "Rules in order", body = Vec<RuleResponse>, headers(
            ("Link" = String, description = "`<url>; rel=\"next\"` when another page may follow"))),
        docs::ListErrors,
    ))]
async fn list(me: Caller, Query(q): Query<PageQuery>) -> ApiResult<Page<RuleResponse>> {
    let pager = Pager::new(&me, "rules", "/api/rules");
    let (store, id) = (me.store(), me.id);
    pager
        .list(&q, |limit, after| async move {
            let all = app::rules::list(store, id).await?;
            // In run order: position, then creation (time, then id).
            let key = |v: &app::rules::RuleView| {
                let position = v.body.position.unwrap_or(0);
                format!("{position:010}|{}|{:020}", v.created_at, v.id)
            };
            let limit = limit as usize;
            Ok(app::page_after(all, key, after.as_deref(), limit))
        })
        .await
}

/// Creates a rule. Without `position` it goes after the last one. At most 200 per user,
/// with at most 50 `matches` conditions in all (`409` beyond); categories, providers
/// and tags it names must be the caller's (`404`).
#[utoipa::path(post, path = "/api/rules", request_body = RuleRequest,
    responses(
        (status = 201, description = "Created", body = RuleResponse, headers(
            ("Location" = String, description = "URL of the new rule"),
            ("ETag" = String, description = "Version, for If-Match"))),
        docs::CreateErrors,
        (status = 404, response = docs::NotFound),
    ))]
async fn create(me: Caller, Json(value): Json<Value>) -> ApiResult<Created<RuleResponse>> {
    let created = app::rules::create(me.store(), me.id, body(value)?).await?;
    let (id, version) = (created.id, created.version);
    Ok(Created::item(
        "/api/rules",
        id,
        version,
        RuleResponse::from(created),
    ))
}

/// One of the caller's rules.
#[utoipa::path(get, path = "/api/rules/{id}",
    params(("id" = inline(docs::Id), Path), docs::IfNoneMatch),
    responses(
        (status = 200, description = "The rule", body = RuleResponse, headers(
            ("ETag" = String, description = "Version, for If-Match"))),
        docs::Cached,
        docs::ReadErrors,
    ))]
async fn read(me: Caller, Path(id): Path<u64>) -> ApiResult<Versioned<RuleResponse>> {
    Ok(versioned(app::rules::get(me.store(), me.id, id).await?))
}

/// Replaces a rule; without `position` it keeps its place.
#[utoipa::path(put, path = "/api/rules/{id}",
    params(("id" = inline(docs::Id), Path), docs::IfMatch),
    request_body = RuleRequest,
    responses(
        (status = 200, description = "Updated", body = RuleResponse, headers(
            ("ETag" = String, description = "New version"))),
        docs::VersionedUpdateErrors,
    ))]
async fn update(
    ItemChange { me, id, expected }: ItemChange,
    Json(value): Json<Value>,
) -> ApiResult<Versioned<RuleResponse>> {
    let updated = app::rules::update(me.store(), me.id, id, body(value)?, expected).await?;
    Ok(versioned(updated))
}

/// Deletes a rule (transactions it categorised keep their category).
#[utoipa::path(delete, path = "/api/rules/{id}",
    params(("id" = inline(docs::Id), Path), docs::IfMatch),
    responses(
        (status = 204, description = "Deleted"),
        docs::VersionedDeleteErrors,
    ))]
async fn remove(ItemChange { me, id, expected }: ItemChange) -> ApiResult<StatusCode> {
    app::rules::delete(me.store(), me.id, id, expected).await?;
    Ok(StatusCode::NO_CONTENT)
}
