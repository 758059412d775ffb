//! Category endpoints: the global categories plus the caller's own.

mod write;

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};
use write::{
    __path_create, __path_read, __path_remove, __path_update, create, read, remove, update,
};

use pf_app as app;
use pf_domain::{Category, CategoryType};
use pf_http::paging::Pager;
use pf_http::{docs, ApiError, AppState, FieldError};

/// The routes with their documentation: a route cannot exist without it.
pub fn api() -> OpenApiRouter<AppState> {
    let routes = OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(read, update, remove));
    docs::protected("categories", routes)
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
    /// Page size, 1 to 200 (default 50).
    #[param(value_type = Option<u32>, minimum = 1, maximum = 200)]
    pub limit: Option<String>,
    /// Opaque cursor from the previous page's `Link` header.
    #[param(max_length = 512)]
    pub cursor: Option<String>,
}

pf_http::item_list!(
    /// Global categories first, then the caller's own, each by key (id), one page at a time;
    /// `type` filters (a filtered page may hold fewer than `limit` while more follow).
    "/api/categories", ListQuery,
        "One page: global categories, then the caller's own" => CategoryResponse;
    |me, q| {
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
);
