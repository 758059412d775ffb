//! A transaction: an exact amount in its wallet's currency, on a calendar date, in a
//! category whose type gives its direction (DEBIT subtracts, CREDIT adds).

use rust_decimal::Decimal;
use time::Date;

use super::time::Timestamp;
use super::{CategoryType, Money, Part};

#[derive(Debug, Clone, PartialEq)]
pub struct Transaction {
    pub user_id: u64,
    pub id: u64,
    pub date: Date,
    pub details: Details,
    /// How the category was chosen: rules never change one the user chose.
    pub category_source: CategorySource,
    /// The recurring schedule that created it, kept as a reference after the schedule is
    /// deleted or the transaction edited.
    pub recurring_id: Option<u64>,
    /// Starts at 1; every change adds one (the ETag).
    pub version: u64,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
}

/// What a transaction says, apart from which one it is and when: its amount, category,
/// provider, tags and note. A recurring schedule keeps one and repeats it on each date.
#[derive(Debug, Clone, PartialEq)]
pub struct Details {
    /// Always positive; the category type gives the direction.
    pub amount: Money,
    pub note: Option<String>,
    pub category_id: u64,
    pub category_type: CategoryType,
    /// The category is a global one (shared by everyone) rather than the user's own.
    pub category_global: bool,
    pub provider_id: Option<u64>,
    pub tag_ids: Vec<u64>,
    /// A split transaction's parts, in order (empty: a plain one). The transaction's own
    /// category is the first part's.
    pub splits: Vec<Part>,
}

/// How a transaction's category was chosen.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Default,
    serde::Serialize,
    serde::Deserialize,
    utoipa::ToSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum CategorySource {
    /// In a create or update request (any update that sets the category).
    #[default]
    User,
    /// By a rule.
    Rule,
    /// The provider's default category.
    Provider,
    /// Named in an imported file.
    File,
    /// An import's fallback (`defaultCategoryId` or `Uncategorized`).
    Default,
}

impl CategorySource {
    pub fn as_str(self) -> &'static str {
        match self {
            CategorySource::User => "user",
            CategorySource::Rule => "rule",
            CategorySource::Provider => "provider",
            CategorySource::File => "file",
            CategorySource::Default => "default",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "user" => CategorySource::User,
            "rule" => CategorySource::Rule,
            "provider" => CategorySource::Provider,
            "file" => CategorySource::File,
            "default" => CategorySource::Default,
            _ => return None,
        })
    }
}

impl Transaction {
    /// The change this transaction makes to its wallet's balance.
    pub fn signed_amount(&self) -> Decimal {
        let d = &self.details;
        d.category_type.signed(d.amount.amount())
    }
}

/// A DEBIT transaction of `cents` in EUR, in a global category, for unit tests to vary.
#[cfg(any(test, feature = "testing"))]
impl Transaction {
    pub fn example(date: Date, category_id: u64, cents: i64) -> Self {
        let at = Timestamp::parse("2026-01-01T00:00:00").unwrap();
        Self {
            user_id: 1,
            id: 2,
            date,
            details: Details {
                amount: Money::new(Decimal::new(cents, 2), super::Currency::eur()).unwrap(),
                note: None,
                category_id,
                category_type: CategoryType::Debit,
                category_global: true,
                provider_id: None,
                tag_ids: vec![],
                splits: vec![],
            },
            category_source: CategorySource::User,
            recurring_id: None,
            version: 1,
            created_at: at,
            updated_at: at,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debits_subtract_and_credits_add() {
        let mut t = Transaction::example(time::macros::date!(2026 - 11 - 03), 4, 4210);
        assert_eq!(t.signed_amount(), Decimal::new(-4210, 2));
        t.details.category_type = CategoryType::Credit;
        assert_eq!(t.signed_amount(), Decimal::new(4210, 2));
    }
}
