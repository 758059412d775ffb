//! Categories: global ones (partition `GLOBAL`, seeded) and each user's own.

use serde::{Deserialize, Serialize};

use super::attr::s;
use super::keys::{cat_sk, CAT_PREFIX, GLOBAL_PK};
use super::{sdk_error, Store, StoreResult};
use crate::domain::CategoryType;

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct CategoryRecord {
    #[serde(rename = "PK")]
    pub pk: String,
    #[serde(rename = "SK")]
    pub sk: String,
    pub id: u64,
    #[serde(rename = "categoryName")]
    pub name: String,
    pub icon: String,
    pub color: String,
    #[serde(rename = "isGlobal")]
    pub is_global: bool,
    #[serde(rename = "categoryType")]
    pub category_type: CategoryType,
    /// Transactions referencing this category (own categories only: counting uses of a
    /// global category would make it a key written by every user).
    #[serde(rename = "useCount", default)]
    pub use_count: u64,
    #[serde(rename = "createdAt")]
    pub created_at: String,
    #[serde(rename = "updatedAt")]
    pub updated_at: String,
}

/// Global categories every user starts with: (id, name, icon, color, type).
/// Their ids are small and fixed so seeding is idempotent; generated ids are far larger.
pub const GLOBAL_CATEGORIES: &[(u64, &str, &str, &str, CategoryType)] = &[
    (1, "Salary", "briefcase", "#2E7D32", CategoryType::Credit),
    (
        2,
        "Other income",
        "plus-circle",
        "#66BB6A",
        CategoryType::Credit,
    ),
    (3, "Refunds", "rotate-ccw", "#26A69A", CategoryType::Credit),
    (
        4,
        "Groceries",
        "shopping-cart",
        "#EF6C00",
        CategoryType::Debit,
    ),
    (5, "Rent", "home", "#6D4C41", CategoryType::Debit),
    (6, "Utilities", "zap", "#FBC02D", CategoryType::Debit),
    (7, "Transport", "bus", "#1E88E5", CategoryType::Debit),
    (8, "Restaurants", "coffee", "#D81B60", CategoryType::Debit),
    (9, "Health", "heart", "#E53935", CategoryType::Debit),
    (10, "Leisure", "film", "#8E24AA", CategoryType::Debit),
    (
        11,
        "Shopping",
        "shopping-bag",
        "#5E35B1",
        CategoryType::Debit,
    ),
    (
        12,
        "Other expenses",
        "more-horizontal",
        "#757575",
        CategoryType::Debit,
    ),
];

impl Store {
    /// Writes the global categories that are missing; existing ones (perhaps edited by
    /// an admin) are left as they are.
    pub async fn seed_global_categories(&self, now: &str) -> StoreResult<()> {
        for &(id, name, icon, color, category_type) in GLOBAL_CATEGORIES {
            let record = CategoryRecord {
                pk: GLOBAL_PK.into(),
                sk: cat_sk(id),
                id,
                name: name.into(),
                icon: icon.into(),
                color: color.into(),
                is_global: true,
                category_type,
                use_count: 0,
                created_at: now.into(),
                updated_at: now.into(),
            };
            let result = self
                .client
                .put_item()
                .table_name(&self.table)
                .set_item(Some(
                    serde_dynamo::to_item(&record).map_err(anyhow::Error::from)?,
                ))
                .condition_expression("attribute_not_exists(PK)")
                .send()
                .await;
            match result {
                Ok(_) => {}
                Err(e)
                    if e.as_service_error()
                        .is_some_and(|se| se.is_conditional_check_failed_exception()) => {}
                Err(e) => return Err(sdk_error(e)),
            }
        }
        Ok(())
    }

    /// Categories in one partition (`GLOBAL` or a user's), ordered by id.
    pub async fn list_categories_in(&self, pk: &str) -> StoreResult<Vec<CategoryRecord>> {
        let mut out = Vec::new();
        let mut start = None;
        loop {
            let page = self
                .client
                .query()
                .table_name(&self.table)
                .key_condition_expression("PK = :pk AND begins_with(SK, :prefix)")
                .expression_attribute_values(":pk", s(pk))
                .expression_attribute_values(":prefix", s(CAT_PREFIX))
                .set_exclusive_start_key(start)
                .send()
                .await
                .map_err(sdk_error)?;
            for item in page.items.unwrap_or_default() {
                out.push(serde_dynamo::from_item(item).map_err(anyhow::Error::from)?);
            }
            start = page.last_evaluated_key;
            if start.is_none() {
                break;
            }
        }
        out.sort_by_key(|c: &CategoryRecord| c.id);
        Ok(out)
    }
}
