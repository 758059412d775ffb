//! Categories: a DEBIT category takes money out of the wallet, a CREDIT one adds it.
//! Global categories are shared by everyone; the others belong to one user.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum CategoryType {
    Debit,
    Credit,
}

impl CategoryType {
    pub fn as_str(self) -> &'static str {
        match self {
            CategoryType::Debit => "DEBIT",
            CategoryType::Credit => "CREDIT",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "DEBIT" => Some(CategoryType::Debit),
            "CREDIT" => Some(CategoryType::Credit),
            _ => None,
        }
    }

    /// Sign applied to a transaction amount when it changes the wallet balance.
    pub fn signed(self, amount: rust_decimal::Decimal) -> rust_decimal::Decimal {
        match self {
            CategoryType::Debit => -amount,
            CategoryType::Credit => amount,
        }
    }
}

/// A category: global (no owner, shared by everyone) or one user's own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Category {
    pub id: u64,
    /// The user it belongs to; `None` for a global category.
    pub owner: Option<u64>,
    pub name: String,
    /// An icon name.
    pub icon: String,
    /// `#RRGGBB`, upper-case.
    pub color: String,
    pub category_type: CategoryType,
    /// Transactions using it (own categories only: counting uses of a global category
    /// would make it an item written by every user).
    pub use_count: u64,
    /// Starts at 1; every change adds one (the ETag).
    pub version: u64,
    pub created_at: super::time::Timestamp,
    pub updated_at: super::time::Timestamp,
}

impl Category {
    pub fn is_global(&self) -> bool {
        self.owner.is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal::Decimal;

    #[test]
    fn debits_subtract_and_credits_add() {
        assert_eq!(
            CategoryType::Debit.signed(Decimal::new(150, 2)),
            Decimal::new(-150, 2)
        );
        assert_eq!(
            CategoryType::Credit.signed(Decimal::new(150, 2)),
            Decimal::new(150, 2)
        );
    }

    #[test]
    fn parses_only_the_two_upper_case_names() {
        assert_eq!(CategoryType::parse("DEBIT"), Some(CategoryType::Debit));
        assert_eq!(CategoryType::parse("CREDIT"), Some(CategoryType::Credit));
        assert_eq!(CategoryType::parse("debit"), None);
        assert_eq!(
            serde_json::to_string(&CategoryType::Credit).unwrap(),
            "\"CREDIT\""
        );
    }
}
