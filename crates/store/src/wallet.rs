//! The wallet: initial balance, the signed sum of its transactions, and their count.
//!
//! `txnSum` and `txnCount` change in the same transaction as every transaction item,
//! so `amountBalance = initialBalance + txnSum` is always exact and current (O(1) read).

use super::attr::{n, s, Item};
use super::caps::RECURRING_COUNT;
use super::feed::{head_seq, Entity, Feed};
use super::keys::{user_pk, PROFILE, WALLET};
use super::transact::TxItems;
use super::{ConflictKind, Store, StoreError, StoreResult, NEXT_VERSION};
use crate::FromItem;

use pf_domain::Wallet;

impl Store {
    /// The caller's wallet, one strongly consistent read.
    pub async fn get_wallet(&self, user_id: u64) -> StoreResult<Option<Wallet>> {
        let out = self.get(&user_pk(user_id), WALLET).await?;
        Ok(match out {
            Some(item) => Some(Wallet::from_item(&item)?),
            None => None,
        })
    }
}

impl Store {
    /// The wallet and the user's feed head (kept on the wallet), in one `GetItem`.
    pub async fn get_wallet_and_head(&self, user_id: u64) -> StoreResult<(Option<Wallet>, u64)> {
        Ok(match self.get(&user_pk(user_id), WALLET).await? {
            Some(item) => (Some(Wallet::from_item(&item)?), head_seq(&item)),
            None => (None, 0),
        })
    }

    /// Sets name, initial balance and currency if the wallet is still at the version read
    /// (`Conflict(Changed)` otherwise, or `NotFound` when it is gone); a currency change
    /// requires an empty wallet, without transactions or budgets (`budgetCount`, kept by
    /// `store::budgets`) and a user without recurring schedules (the profile's count),
    /// checked in the same transaction, so a concurrent transaction, budget or schedule
    /// cannot slip in (`HasTransactions`, `HasBudgets`, `HasSchedules`). One
    /// attempt: the caller retries, reading the wallet and `head` again.
    pub async fn update_wallet(
        &self,
        current: &Wallet,
        next: &Wallet,
        head: u64,
    ) -> StoreResult<()> {
        let mut tx = TxItems::new(self);
        tx.feed_head_is(Feed::User(current.user_id), head);
        let mut values = Item::from([
            (":name".into(), s(&next.name)),
            (":ib".into(), n(next.initial_balance)),
            (":cur".into(), s(next.currency.code())),
            (":now".into(), s(next.updated_at.to_string())),
            (":zero".into(), n(0)),
            (":one".into(), n(1)),
        ]);
        let condition = super::at_version(
            "attribute_exists(PK) AND (currencyCode = :cur OR (txnCount = :zero \
             AND (attribute_not_exists(budgetCount) OR budgetCount = :zero)))",
            Some(current.version),
            &mut values,
        );
        tx.update(
            &user_pk(current.user_id),
            WALLET,
            &format!("SET #name = :name, initialBalance = :ib, currencyCode = :cur, updatedAt = :now, {NEXT_VERSION}"),
            Some(&condition),
            values,
            Some(std::collections::HashMap::from([("#name".to_owned(), "name".to_owned())])),
        )?;
        if next.currency != current.currency {
            // Schedules hold amounts in the old currency (counted on the profile).
            tx.check(
                &user_pk(current.user_id),
                PROFILE,
                &format!("attribute_not_exists({RECURRING_COUNT}) OR {RECURRING_COUNT} = :zero"),
                Some(Item::from([(":zero".into(), n(0))])),
            )?;
            tx.on_conflict(ConflictKind::HasSchedules);
        }
        tx.upserted(current.user_id, Entity::Wallet, current.id, next.version);
        match self.transact_once(tx).await {
            Err(StoreError::Conflict(ConflictKind::Changed)) => {
                match self.get_wallet(current.user_id).await? {
                    None => Err(StoreError::NotFound),
                    Some(w) if w.version != current.version => {
                        Err(StoreError::Conflict(ConflictKind::Changed))
                    }
                    Some(w) if w.txn_count > 0 => {
                        Err(StoreError::Conflict(ConflictKind::HasTransactions))
                    }
                    // Budgets (counted on the wallet) do not move its version.
                    Some(_) => Err(StoreError::Conflict(ConflictKind::HasBudgets)),
                }
            }
            other => other,
        }
    }
}
