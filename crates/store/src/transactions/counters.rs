//! What a transaction write moves besides the transactions: the wallet's running sum and
//! count, the monthly totals and the use counts of categories, providers and tags, merged
//! per item in [`Deltas`] (a transaction may touch an item only once), and the
//! [`Counter`]s an importer groups new transactions by.

use std::collections::BTreeMap;

use rust_decimal::Decimal;

use super::Transaction;
use crate::attr::{n, s, Item};
use crate::insights::MonthTotals;
use crate::keys::{cat_sk, provider_sk, tag_sk, user_pk, WALLET};
use crate::transact::TxItems;
use crate::{ConflictKind, Ref};
use pf_domain::{CategoryType, Currency, Month};

/// Transactions one user may hold: the wallet's `txnCount`, moved in the same
/// transaction as every create and delete, bounds every create (a request's, a batch's,
/// an import's, a recurring occurrence's), so concurrent creates cannot pass it.
pub const MAX_TRANSACTIONS: u64 = 1_000_000;

/// Items of one [`Store::insert_transactions`](crate::Store::insert_transactions)
/// write: [`IMPORT_WRITE_ITEMS`] once (the wallet and the user's feed head),
/// [`IMPORT_TXN_ITEMS`] a transaction (it, its import marker, its feed entry), and one a
/// [`Counter`] its transactions move, however many of them move it. An importer groups
/// transactions that share counters with it.
pub const IMPORT_WRITE_ITEMS: usize = 2;
/// See [`IMPORT_WRITE_ITEMS`].
pub const IMPORT_TXN_ITEMS: usize = 3;

/// An item a new transaction moves besides the wallet: its month's total of its category
/// and the use counts of its own category, its provider and its tags.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Counter {
    Total(Month, bool, u64),
    Use(Use),
}

/// The [`Counter`]s a new transaction moves (a global category's use is not counted):
/// those of each category it counts in (each part's for a split).
pub fn counters(txn: &Transaction) -> impl Iterator<Item = Counter> + '_ {
    let d = &txn.details;
    let month = Month::of(txn.date);
    let shares = d.shares();
    let totals: Vec<Counter> = shares
        .iter()
        .map(|s| Counter::Total(month, s.category_global, s.category_id))
        .collect();
    let own = shares
        .into_iter()
        .filter(|s| !s.category_global)
        .map(|s| Use::Category {
            global: false,
            id: s.category_id,
        });
    let uses = own
        .chain(d.provider_id.map(Use::Provider))
        .chain(d.all_tag_ids().into_iter().map(Use::Tag));
    totals
        .into_iter()
        .chain(uses.map(Counter::Use).collect::<Vec<_>>())
}

/// What a transaction uses and counts a use of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Use {
    Category { global: bool, id: u64 },
    Provider(u64),
    Tag(u64),
}

/// The counters a write moves, merged per item: one user's wallet and the uses of their
/// categories, providers and tags. `add(txn, 1)` counts a transaction in, `add(txn, -1)`
/// out; an update is both, so what did not change nets to nothing and is not written.
#[derive(Debug, Default)]
pub struct Deltas {
    user_id: Option<u64>,
    currency: Option<Currency>,
    sum: Decimal,
    count: i64,
    uses: BTreeMap<Use, i64>,
    /// The type a category must have when a use of it is taken.
    category_types: BTreeMap<(bool, u64), CategoryType>,
    /// The monthly totals per category (`store::insights`).
    totals: MonthTotals,
}

impl Deltas {
    /// Counts `txn` in (`sign` = 1) or out (`sign` = -1). All transactions of one write
    /// belong to one user.
    pub fn add(&mut self, txn: &Transaction, sign: i64) {
        debug_assert!(self.user_id.is_none_or(|u| u == txn.user_id));
        let d = &txn.details;
        self.user_id = Some(txn.user_id);
        self.currency = Some(d.amount.currency());
        let signed = txn.signed_amount();
        self.sum += if sign > 0 { signed } else { -signed };
        self.count += sign;
        self.totals.add(txn, sign);
        let shares = d.shares();
        let mut uses: Vec<Use> = shares
            .iter()
            .map(|s| Use::Category {
                global: s.category_global,
                id: s.category_id,
            })
            .collect();
        uses.extend(d.provider_id.map(Use::Provider));
        uses.extend(d.all_tag_ids().into_iter().map(Use::Tag));
        for u in uses {
            *self.uses.entry(u).or_default() += sign;
        }
        if sign > 0 {
            for s in shares {
                let key = (s.category_global, s.category_id);
                self.category_types.insert(key, s.category_type);
            }
        }
    }

    /// Adds the wallet update (always, conditional on the wallet existing with the
    /// transactions' currency, and when it adds transactions on its count staying within
    /// [`MAX_TRANSACTIONS`]) and every use count that moved.
    pub fn emit(self, tx: &mut TxItems<'_>, now: &str) -> anyhow::Result<()> {
        let (Some(user_id), Some(currency)) = (self.user_id, self.currency) else {
            return Ok(());
        };
        let pk = user_pk(user_id);
        let mut values = Item::from([
            (":delta".into(), n(self.sum)),
            (":count".into(), n(self.count)),
            (":now".into(), s(now)),
            (":cur".into(), s(currency.code())),
            (":one".into(), n(1)),
        ]);
        let mut condition = "attribute_exists(PK) AND currencyCode = :cur".to_owned();
        if self.count > 0 {
            // `txnCount + count <= max`, as DynamoDB can compare it.
            let room = MAX_TRANSACTIONS.saturating_sub(self.count.unsigned_abs());
            values.insert(":room".into(), n(room));
            condition.push_str(" AND txnCount <= :room");
        }
        tx.update(
            &pk,
            WALLET,
            "SET txnSum = txnSum + :delta, txnCount = txnCount + :count, updatedAt = :now, version = if_not_exists(version, :one) + :one",
            Some(&condition),
            values,
            None,
        )?;
        tx.on_conflict(ConflictKind::Wallet);
        self.totals.emit(tx, &pk)?;
        for (u, delta) in self.uses {
            if delta == 0 {
                continue;
            }
            match u {
                // A global category is neither counted nor checked: it cannot be deleted
                // and its type cannot change (`app::categories`), so the copy the write's
                // references read stays true (a check would bill 2 write units per write).
                Use::Category { global: true, .. } => {}
                Use::Category { global: false, id } => {
                    let condition = "attribute_exists(PK) AND categoryType = :t";
                    let kind = self.category_types.get(&(false, id)).copied();
                    let values = |t: CategoryType| Item::from([(":t".into(), s(t.as_str()))]);
                    let taken = kind.filter(|_| delta > 0).map(|t| (condition, values(t)));
                    add_reference(tx, &pk, &cat_sk(id), delta, taken, Ref::Category)?;
                }
                Use::Provider(id) => {
                    let exists = Some(("attribute_exists(PK)", Item::new()));
                    add_reference(tx, &pk, &provider_sk(id), delta, exists, Ref::Provider)?;
                }
                Use::Tag(id) => {
                    let exists = Some(("attribute_exists(PK)", Item::new()));
                    add_reference(tx, &pk, &tag_sk(id), delta, exists, Ref::Tag)?;
                }
            }
        }
        Ok(())
    }
}

/// A use taken (`delta > 0`: the item must satisfy `condition`, e.g. exist) or released
/// (never conditional: a release must not fail the write).
fn add_reference(
    tx: &mut TxItems<'_>,
    pk: &str,
    sk: &str,
    delta: i64,
    condition: Option<(&str, Item)>,
    kind: Ref,
) -> anyhow::Result<()> {
    let condition = if delta > 0 { condition } else { None };
    tx.add_use(pk, sk, delta, condition)?;
    tx.on_conflict(ConflictKind::Reference(kind));
    Ok(())
}
