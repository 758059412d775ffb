//! A category's answer (the categories function's, and the sync's for a category change).

use serde::Serialize;
use utoipa::ToSchema;

use pf_domain::{Category, CategoryType};

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
