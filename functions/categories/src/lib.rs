//! Category endpoints: the global categories plus the caller's own.

mod write;

use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::{router::OpenApiRouter, routes};
use write::{
    __path_create, __path_read, __path_remove, __path_update, create, read, remove, update,
};

use pf_app as app;
use pf_domain::CategoryType;
use pf_http::auth::Caller;
use pf_http::extract::Query;
use pf_http::paging::Pager;
use pf_http::respond::Page;
use pf_http::{docs, ApiError, ApiResult, AppState, FieldError};

/// The routes with their documentation: a route cannot exist without it.
pub fn api() -> OpenApiRouter<AppState> {
    let routes = OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(read, update, remove));
    docs::protected("categories", routes)
}

pub use pf_http::dto::categories::CategoryResponse;

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// Only DEBIT or only CREDIT categories.
    #[serde(rename = "type")]
    #[param(value_type = Option<CategoryType>)]
    pub category_type: Option<String>,
    /// Page size, 1 to 200 (default 50).
    #[param(value_type = Option<u32>, minimum = 1, maximum = 200)]
    pub limit: Option<String>,
    /// Opaque cursor from the previous page's `Link` header.
    #[param(max_length = 512)]
    pub cursor: Option<String>,
}

/// Global categories first, then the caller's own, each by key (id), one page at a time;
/// `type` filters (a filtered page may hold fewer than `limit` while more follow).
#[utoipa::path(get, path = "/api/categories", params(ListQuery),
    responses(
        (status = 200, description = "One page: global categories, then the caller's own",
            body = Vec<CategoryResponse>, headers(
            ("Link" = String, description = "`<url>; rel=\"next\"` when another page may follow"))),
        docs::ListErrors,
    ))]
async fn list(me: Caller, Query(q): Query<ListQuery>) -> ApiResult<Page<CategoryResponse>> {
    let wanted = match q.category_type.as_deref() {
        None => None,
        Some(t) => Some(CategoryType::parse(t).ok_or_else(|| {
            ApiError::validation(vec![FieldError::new("type", "must be DEBIT or CREDIT")])
        })?),
    };
    let pager = Pager::new(&me, "categories", "/api/categories");
    let (limit, position) = pager.start(q.limit.as_deref(), q.cursor.as_deref())?;
    let (items, next) =
        app::categories::list_page(me.store(), me.id, wanted, limit as i32, position.as_deref())
            .await?;
    let items = items.into_iter().map(CategoryResponse::from).collect();
    let filters = [("type", q.category_type.as_deref())];
    Ok(pager.page(items, next, q.limit.as_deref(), &filters))
}
