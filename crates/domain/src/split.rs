//! A split transaction's parts: one receipt in several categories. A part has its own
//! amount (positive; the parts add up to the transaction's), category (all of one type,
//! the transaction's), note and tags. [`Share`] is what a transaction counts in one
//! category: its whole amount for a plain one, the sum of its parts there for a split.

use std::collections::BTreeSet;

use rust_decimal::Decimal;

use super::transaction::Details;
use super::{CategoryType, Money};

/// At least this many parts in a split.
pub const MIN_PARTS: usize = 2;
/// At most this many parts in a split.
pub const MAX_PARTS: usize = 50;
/// At most this many distinct categories, tags and providers across a split's parts
/// (with the transaction's own): the write stays one `TransactWriteItems`.
pub const MAX_SPLIT_REFS: usize = 40;

/// One part of a split transaction.
#[derive(Debug, Clone, PartialEq)]
pub struct Part {
    pub amount: Money,
    pub category_id: u64,
    pub category_type: CategoryType,
    pub category_global: bool,
    pub note: Option<String>,
    pub tag_ids: Vec<u64>,
}

/// What a transaction counts in one category.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Share {
    pub category_global: bool,
    pub category_id: u64,
    pub category_type: CategoryType,
    /// Positive, whatever the type.
    pub amount: Decimal,
}

impl Details {
    /// Whether this is a split transaction.
    pub fn is_split(&self) -> bool {
        !self.splits.is_empty()
    }

    /// What it counts per category, once per category, in the order first named: the
    /// whole amount in its category for a plain transaction, each category's parts summed
    /// for a split.
    pub fn shares(&self) -> Vec<Share> {
        if self.splits.is_empty() {
            return vec![Share {
                category_global: self.category_global,
                category_id: self.category_id,
                category_type: self.category_type,
                amount: self.amount.amount(),
            }];
        }
        let mut shares: Vec<Share> = Vec::new();
        for p in &self.splits {
            let same = |s: &&mut Share| {
                s.category_id == p.category_id && s.category_global == p.category_global
            };
            match shares.iter_mut().find(same) {
                Some(s) => s.amount += p.amount.amount(),
                None => shares.push(Share {
                    category_global: p.category_global,
                    category_id: p.category_id,
                    category_type: p.category_type,
                    amount: p.amount.amount(),
                }),
            }
        }
        shares
    }

    /// Every tag the transaction or one of its parts carries, once each.
    pub fn all_tag_ids(&self) -> BTreeSet<u64> {
        let parts = self.splits.iter().flat_map(|p| p.tag_ids.iter());
        self.tag_ids.iter().chain(parts).copied().collect()
    }

    /// The distinct categories, tags and providers it names (for [`MAX_SPLIT_REFS`]).
    pub fn references(&self) -> BTreeSet<(u8, u64)> {
        let categories = self.shares().into_iter().map(|s| (0, s.category_id));
        let tags = self.all_tag_ids().into_iter().map(|t| (1, t));
        let provider = self.provider_id.map(|p| (2, p));
        categories.chain(tags).chain(provider).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Currency, Transaction};

    fn part(cents: i64, category_id: u64, tags: &[u64]) -> Part {
        Part {
            amount: Money::new(Decimal::new(cents, 2), Currency::eur()).unwrap(),
            category_id,
            category_type: CategoryType::Debit,
            category_global: false,
            note: None,
            tag_ids: tags.to_vec(),
        }
    }

    #[test]
    fn a_split_counts_each_category_once_with_its_parts_summed() {
        let mut t = Transaction::example(time::macros::date!(2026 - 11 - 03), 4, 1000);
        assert_eq!(t.details.shares().len(), 1);
        t.details.splits = vec![part(300, 5, &[1]), part(200, 6, &[]), part(500, 5, &[2])];
        let shares = t.details.shares();
        assert_eq!(shares.len(), 2);
        assert_eq!(
            (shares[0].category_id, shares[0].amount),
            (5, Decimal::new(800, 2))
        );
        assert_eq!(
            (shares[1].category_id, shares[1].amount),
            (6, Decimal::new(200, 2))
        );
        assert_eq!(t.details.all_tag_ids().len(), 2);
        assert_eq!(t.details.references().len(), 4);
    }
}
