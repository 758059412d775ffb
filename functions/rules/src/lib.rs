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
use pf_http::paging::{PageQuery, Pager};
use pf_http::respond::{Created, Versioned};
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

pf_http::item_list!(
    /// The caller's rules in the order they run (by `position`; equal positions in creation
    /// order), a page at a time (all of them, at most 200, read with one `Query`).
    "/api/rules", PageQuery, "Rules in order" => RuleResponse;
    |me, q| {
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
);

pf_http::item_create!(
    /// Creates a rule. Without `position` it goes after the last one. At most 200 per user,
    /// with at most 50 `matches` conditions in all (`409` beyond); categories, providers
    /// and tags it names must be the caller's (`404`).
    "/api/rules", RuleRequest => RuleResponse, "URL of the new rule",
        responses: [(status = 404, response = docs::NotFound)];
    |me, value: Value| {
        let created = app::rules::create(me.store(), me.id, body(value)?).await?;
        let (id, version) = (created.id, created.version);
        Created::item("/api/rules", id, version, RuleResponse::from(created))
    }
);

pf_http::item_read!(
    /// One of the caller's rules.
    "/api/rules/{id}", "The rule" => RuleResponse;
    |me, id| versioned(app::rules::get(me.store(), me.id, id).await?)
);

pf_http::item_update!(
    /// Replaces a rule; without `position` it keeps its place.
    "/api/rules/{id}", RuleRequest => RuleResponse, "Updated";
    |me, id, value: Value, expected| {
        versioned(app::rules::update(me.store(), me.id, id, body(value)?, expected).await?)
    }
);

pf_http::item_delete!(
    /// Deletes a rule (transactions it categorised keep their category).
    "/api/rules/{id}", "Deleted";
    |me, id, expected| {
        app::rules::delete(me.store(), me.id, id, expected).await?;
        StatusCode::NO_CONTENT
    }
);
