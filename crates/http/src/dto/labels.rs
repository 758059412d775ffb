//! A tag's and a provider's answers (their functions', the sync's and the export's).

use pf_domain::Label;
use serde::Serialize;
use utoipa::ToSchema;

#[derive(Debug, Serialize, ToSchema)]
pub struct Tag {
    pub id: u64,
    #[serde(rename = "tagName")]
    pub name: String,
    /// Transactions using it (it cannot be deleted while any do).
    #[serde(rename = "transactionCount")]
    pub transaction_count: u64,
    /// UTC, `YYYY-MM-DDTHH:MM:SS`.
    #[serde(rename = "createdAt")]
    pub created_at: String,
    #[serde(rename = "updatedAt")]
    pub updated_at: String,
}

impl From<Label> for Tag {
    fn from(r: Label) -> Self {
        Self {
            id: r.id,
            name: r.name,
            transaction_count: r.use_count,
            created_at: r.created_at.to_string(),
            updated_at: r.updated_at.to_string(),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Provider {
    pub id: u64,
    #[serde(rename = "providerName")]
    pub name: String,
    /// Transactions using it (it cannot be deleted while any do).
    #[serde(rename = "transactionCount")]
    pub transaction_count: u64,
    /// The provider's default category, if any.
    #[serde(rename = "defaultCategoryId")]
    #[schema(nullable, minimum = 1, maximum = 9007199254740991.0, required = true)]
    pub default_category_id: Option<u64>,
    /// UTC, `YYYY-MM-DDTHH:MM:SS`.
    #[serde(rename = "createdAt")]
    pub created_at: String,
    #[serde(rename = "updatedAt")]
    pub updated_at: String,
}

impl From<Label> for Provider {
    fn from(r: Label) -> Self {
        Self {
            id: r.id,
            name: r.name,
            transaction_count: r.use_count,
            default_category_id: r.default_category_id,
            created_at: r.created_at.to_string(),
            updated_at: r.updated_at.to_string(),
        }
    }
}
