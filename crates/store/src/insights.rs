//! Monthly totals per category, kept in step with transactions: one item per (month,
//! category) in the user's partition, moved by `ADD` in the same `TransactWriteItems` as
//! every transaction create, update and delete ([`MonthTotals`] is the part of the write's
//! `Deltas` that does it). A range of months is one `Query` (`SK BETWEEN`), so a read costs
//! O(months × categories used), never O(transactions).

use crate::FromItem;
use std::collections::{BTreeMap, HashMap};

use aws_sdk_dynamodb::types::ReturnConsumedCapacity;
use rust_decimal::Decimal;

use super::attr::{get_decimal, get_s, get_u64, n, s, Item};
use super::items::category::category_pk;
use super::keys::{agg_sk, cat_ref_prefix, cat_sk, user_pk, AGG_PREFIX, LSI1};
use super::transact::TxItems;
use super::{sdk_error, Store, StoreResult};
use pf_domain::{Category, CategoryType, Month, Transaction};

/// What a write moves in one month's total of one category.
#[derive(Debug, Clone, Copy)]
struct Cell {
    category_type: CategoryType,
    total: Decimal,
    count: i64,
}

/// The monthly totals a write moves, merged per (month, category): an update that keeps
/// month, category and amount nets to nothing and writes nothing.
#[derive(Debug, Default)]
pub struct MonthTotals {
    cells: BTreeMap<(Month, bool, u64), Cell>,
}

impl MonthTotals {
    /// Counts `txn` in (`sign` > 0) or out of its month's total of each category it
    /// counts in (each part's, for a split: its parts there summed, counted once).
    pub fn add(&mut self, txn: &Transaction, sign: i64) {
        for share in txn.details.shares() {
            let key = (
                Month::of(txn.date),
                share.category_global,
                share.category_id,
            );
            let cell = self.cells.entry(key).or_insert(Cell {
                category_type: share.category_type,
                total: Decimal::ZERO,
                count: 0,
            });
            cell.total += if sign > 0 {
                share.amount
            } else {
                -share.amount
            };
            cell.count += sign;
        }
    }

    /// One unconditional `ADD` per total that moved (the transaction item and the wallet
    /// carry the write's conditions). Totals carry no local-index key: indexing them would
    /// cost every transaction write 2 more write units per total, and only a category's
    /// deletion looks them up by category ([`Store::category_totals`]).
    pub fn emit(self, tx: &mut TxItems<'_>, pk: &str) -> anyhow::Result<()> {
        for ((month, global, id), cell) in self.cells {
            if cell.total.is_zero() && cell.count == 0 {
                continue;
            }
            let sk = agg_sk(&month.to_string(), global, id);
            tx.update(
                pk,
                &sk,
                "ADD amountTotal :t, txnCount :c SET categoryType = :type",
                None,
                Item::from([
                    (":t".into(), n(cell.total)),
                    (":c".into(), n(cell.count)),
                    (":type".into(), s(cell.category_type.as_str())),
                ]),
                None,
            )?;
        }
        Ok(())
    }
}

/// One month's total of one category.
#[derive(Debug, Clone, PartialEq)]
pub struct MonthTotal {
    pub month: Month,
    pub category_global: bool,
    pub category_id: u64,
    pub category_type: CategoryType,
    /// Sum of the amounts (positive, whatever the type).
    pub total: Decimal,
    pub count: u64,
}

impl FromItem for MonthTotal {
    fn from_item(item: &Item) -> anyhow::Result<Self> {
        let sk = get_s(item, "SK")?;
        let malformed = || anyhow::anyhow!("malformed total key {sk}");
        let rest = sk.strip_prefix(AGG_PREFIX).ok_or_else(malformed)?;
        let (month, category) = rest.split_once('#').ok_or_else(malformed)?;
        let global = match category.chars().next() {
            Some('G') => true,
            Some('U') => false,
            _ => return Err(malformed()),
        };
        let kind = get_s(item, "categoryType")?;
        Ok(Self {
            month: Month::parse(month).map_err(|_| malformed())?,
            category_global: global,
            category_id: category[1..].parse().map_err(|_| malformed())?,
            category_type: CategoryType::parse(kind)
                .ok_or_else(|| anyhow::anyhow!("unknown category type {kind}"))?,
            total: get_decimal(item, "amountTotal")?,
            count: get_u64(item, "txnCount")?,
        })
    }
}

/// The totals of a range and what reading them consumed.
#[derive(Debug)]
pub struct Totals {
    /// Only totals with transactions, by month then key.
    pub items: Vec<MonthTotal>,
    /// Read capacity units consumed by the `Query` (all its pages).
    pub read_units: f64,
}

impl Store {
    /// The totals of the months `from..=to` with at least one transaction: one strongly
    /// consistent `Query` (more pages only past 1 MB).
    pub async fn month_totals(&self, user_id: u64, from: Month, to: Month) -> StoreResult<Totals> {
        let mut totals = Totals {
            items: Vec::new(),
            read_units: 0.0,
        };
        let mut start = None;
        loop {
            let page = self
                .query_table()
                .key_condition_expression("PK = :pk AND SK BETWEEN :lo AND :hi")
                .expression_attribute_values(":pk", s(user_pk(user_id)))
                .expression_attribute_values(":lo", s(format!("{AGG_PREFIX}{from}#")))
                .expression_attribute_values(":hi", s(format!("{AGG_PREFIX}{to}#~")))
                .consistent_read(true)
                .return_consumed_capacity(ReturnConsumedCapacity::Total)
                .set_exclusive_start_key(start)
                .send()
                .await
                .map_err(sdk_error)?;
            totals.read_units += page
                .consumed_capacity
                .as_ref()
                .and_then(|c| c.capacity_units)
                .unwrap_or(0.0);
            for item in page.items.unwrap_or_default() {
                let total = MonthTotal::from_item(&item)?;
                if total.count > 0 {
                    totals.items.push(total);
                }
            }
            start = page.last_evaluated_key;
            if start.is_none() {
                return Ok(totals);
            }
        }
    }

    /// The categories among `keys` (`(global, id)`) that still exist, read at request time
    /// so that a renamed category shows its new name: `BatchGetItem`s of 100.
    pub async fn categories_by_key(
        &self,
        user_id: u64,
        keys: impl IntoIterator<Item = (bool, u64)>,
    ) -> StoreResult<HashMap<(bool, u64), Category>> {
        let keys: Vec<Item> = keys
            .into_iter()
            .map(|(global, id)| super::batch::key(&category_pk(user_id, global), &cat_sk(id)))
            .collect();
        let mut found = HashMap::new();
        for chunk in keys.chunks(100) {
            for item in self.batch_get(chunk.to_vec()).await? {
                let category = Category::from_item(&item)?;
                found.insert((category.is_global(), category.id), category);
            }
        }
        Ok(found)
    }

    /// The keys of every monthly total of an own category: one `Query` of the user's
    /// totals (keys only), filtered here by the key's category. Only a category's deletion
    /// needs it, so it reads every month of every category rather than make each
    /// transaction write index the totals.
    pub(crate) async fn category_totals(
        &self,
        user_id: u64,
        category_id: u64,
    ) -> StoreResult<Vec<Item>> {
        let suffix = format!("#U{category_id}");
        let mut keys = self.keys_beginning(user_id, None, AGG_PREFIX).await?;
        keys.retain(|k| get_s(k, "SK").is_ok_and(|sk| sk.ends_with(&suffix)));
        Ok(keys)
    }

    /// The keys of every budget that refers to an own category (one `Query` on the index per page).
    pub async fn category_refs(&self, user_id: u64, category_id: u64) -> StoreResult<Vec<Item>> {
        let prefix = cat_ref_prefix(false, category_id);
        self.keys_beginning(user_id, Some(LSI1), &prefix).await
    }

    /// The keys (`PK`, `SK`) of the user's items whose sort key in `index` (the table's
    /// `SK` when `None`, else the local index's `LSI1SK`) begins with `prefix`: a strongly
    /// consistent `Query`, every page.
    async fn keys_beginning(
        &self,
        user_id: u64,
        index: Option<&str>,
        prefix: &str,
    ) -> StoreResult<Vec<Item>> {
        let query = self
            .query_prefix_range(&user_pk(user_id), index, prefix)
            .projection_expression("PK, SK")
            .consistent_read(true);
        super::batch::query_all(query).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_update_moves_the_amount_between_months_and_nets_what_did_not_change() {
        let old = Transaction::example(time::macros::date!(2026 - 01 - 31), 4, 1250);
        let mut totals = MonthTotals::default();
        totals.add(&old, -1);
        totals.add(&old, 1);
        assert!(totals
            .cells
            .values()
            .all(|c| c.total.is_zero() && c.count == 0));

        let new = Transaction::example(time::macros::date!(2026 - 02 - 01), 4, 1000);
        let mut totals = MonthTotals::default();
        totals.add(&old, -1);
        totals.add(&new, 1);
        let moved: Vec<_> = totals
            .cells
            .iter()
            .map(|((m, _, _), c)| (m.to_string(), c.total.to_string(), c.count))
            .collect();
        assert_eq!(
            moved,
            [
                ("2026-01".to_owned(), "-12.50".to_owned(), -1),
                ("2026-02".to_owned(), "10.00".to_owned(), 1)
            ]
        );
    }

    #[test]
    fn a_total_survives_its_key() {
        let item = Item::from([
            ("SK".into(), s(agg_sk("2026-11", false, 77))),
            ("categoryType".into(), s("CREDIT")),
            ("amountTotal".into(), n("10.50")),
            ("txnCount".into(), n(2)),
        ]);
        let t = MonthTotal::from_item(&item).unwrap();
        assert_eq!(
            (t.month.to_string(), t.category_global, t.category_id),
            ("2026-11".to_owned(), false, 77)
        );
        assert_eq!((t.total.to_string(), t.count), ("10.50".to_owned(), 2));
    }
}
