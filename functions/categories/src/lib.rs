//! Category endpoints: the global categories plus the caller's own.

mod write;

use axum::extract::State;
use axum::routing::get;
use axum::Router;
use serde::{Deserialize, Serialize};
use write::{create, read, remove, update};

use shared::domain::CategoryType;
use shared::http::auth::AuthUser;
use shared::http::extract::{Json, Query};
use shared::http::{finish, ApiError, ApiResult, AppState, FieldError};
use shared::store::categories::CategoryRecord;
use shared::store::keys::{user_pk, GLOBAL_PK};

/// Every (method, path) this function serves, in API Gateway syntax; template.yaml and
/// the OpenAPI document are checked against it.
pub const ROUTES: &[(&str, &str)] = &[
    ("GET", "/api/categories"),
    ("POST", "/api/categories"),
    ("GET", "/api/categories/{id}"),
    ("PUT", "/api/categories/{id}"),
    ("DELETE", "/api/categories/{id}"),
];

pub fn router(state: AppState) -> Router {
    let routes = Router::new()
        .route("/api/categories", get(list).post(create))
        .route("/api/categories/{id}", get(read).put(update).delete(remove));
    finish(routes, state)
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CategoryResponse {
    pub id: u64,
    pub category_name: String,
    pub icon: String,
    pub color: String,
    pub is_global: bool,
    #[serde(rename = "type")]
    pub category_type: CategoryType,
    pub created_at: String,
    pub updated_at: String,
}

impl From<CategoryRecord> for CategoryResponse {
    fn from(c: CategoryRecord) -> Self {
        Self {
            id: c.id,
            category_name: c.name,
            icon: c.icon,
            color: c.color,
            is_global: c.is_global,
            category_type: c.category_type,
            created_at: c.created_at,
            updated_at: c.updated_at,
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    #[serde(rename = "type")]
    pub category_type: Option<String>,
}

/// Global categories first, then the caller's own, each by id; `type` filters.
async fn list(
    State(state): State<AppState>,
    user: AuthUser,
    Query(q): Query<ListQuery>,
) -> ApiResult<Json<Vec<CategoryResponse>>> {
    let wanted = match q.category_type.as_deref() {
        None => None,
        Some(t) => Some(CategoryType::parse(t).ok_or_else(|| {
            ApiError::validation(vec![FieldError::new("type", "must be DEBIT or CREDIT")])
        })?),
    };
    let own_pk = user_pk(user.id);
    let (global, own) = tokio::try_join!(
        state.store.list_categories_in(GLOBAL_PK),
        state.store.list_categories_in(&own_pk),
    )?;
    let all = global
        .into_iter()
        .chain(own)
        .filter(|c| wanted.is_none_or(|t| c.category_type == t))
        .map(CategoryResponse::from)
        .collect();
    Ok(Json(all))
}
