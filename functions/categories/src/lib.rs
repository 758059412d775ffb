//! Category endpoints: the global categories plus the caller's own.

mod write;

use axum::Router;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};
use write::{
    __path_create, __path_read, __path_remove, __path_update, create, read, remove, update,
};

use shared::domain::CategoryType;
use shared::http::auth::Caller;
use shared::http::extract::{Json, Query};
use shared::http::{docs, finish, ApiError, ApiResult, AppState, FieldError};
use shared::store::categories::Category;

/// The routes with their documentation: a route cannot exist without it.
pub fn api() -> OpenApiRouter<AppState> {
    let routes = OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(read, update, remove));
    docs::protected("categories", routes)
}

pub fn router(state: AppState) -> Router {
    finish(api().split_for_parts().0, state)
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = Category)]
pub struct CategoryResponse {
    pub id: u64,
    pub category_name: String,
    pub icon: String,
    /// `#RRGGBB`
    pub color: String,
    /// Global categories are shared by everyone; the others belong to the caller.
    pub is_global: bool,
    /// DEBIT subtracts from the balance, CREDIT adds.
    #[serde(rename = "type")]
    pub category_type: CategoryType,
    /// UTC, `YYYY-MM-DDTHH:MM:SS`.
    #[schema(example = "2026-11-22T10:00:00")]
    pub created_at: String,
    #[schema(example = "2026-11-22T10:00:00")]
    pub updated_at: String,
}

impl From<Category> for CategoryResponse {
    fn from(c: Category) -> Self {
        Self {
            is_global: c.is_global(),
            id: c.id,
            category_name: c.name,
            icon: c.icon,
            color: c.color,
            category_type: c.category_type,
            created_at: c.created_at.to_string(),
            updated_at: c.updated_at.to_string(),
        }
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// Only DEBIT or only CREDIT categories.
    #[serde(rename = "type")]
    #[param(value_type = Option<CategoryType>)]
    pub category_type: Option<String>,
}

/// Global categories first, then the caller's own, each by id; `type` filters.
#[utoipa::path(
    get,
    path = "/api/categories",
    params(ListQuery),
    responses(
        (status = 200, description = "Global categories, then the caller's own", body = Vec<CategoryResponse>),
        docs::ListErrors,
    )
)]
async fn list(me: Caller, Query(q): Query<ListQuery>) -> ApiResult<Json<Vec<CategoryResponse>>> {
    let wanted = match q.category_type.as_deref() {
        None => None,
        Some(t) => Some(CategoryType::parse(t).ok_or_else(|| {
            ApiError::validation(vec![FieldError::new("type", "must be DEBIT or CREDIT")])
        })?),
    };
    let all = shared::app::categories::list(me.store(), me.id, wanted).await?;
    Ok(Json(all.into_iter().map(CategoryResponse::from).collect()))
}
