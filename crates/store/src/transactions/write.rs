//! Transaction writes: each is one `TransactWriteItems` with the transactions it puts or
//! deletes and the counters they move, merged per item in [`Deltas`] (`counters`; a
//! transaction may touch an item only once): the wallet's running sum and count, and the reference counts
//! of what they use. Every condition names its [`ConflictKind`]: `IdTaken`/`Changed` (the
//! transaction), `Wallet`, `Reference(..)`, `IdempotencyKey`.
//!
//! A capability that keeps something in step with transactions (a change log, monthly
//! totals) adds its items here, to the same `TxItems`, so it is never out of step.

use aws_sdk_dynamodb::types::AttributeValue;

use super::counters::{Deltas, MAX_TRANSACTIONS};
use super::Transaction;
use crate::attr::{n, s, Item};
use crate::feed::{Entity, Feed};
use crate::keys::{idem_sk, import_sk, txn_sk, user_pk};
use crate::transact::{TxItems, MAX_TRANSACT_ITEMS};
use crate::{ConflictKind, Store, StoreError, StoreResult};

/// Idempotency keys are remembered for a day.
const IDEMPOTENCY_TTL_SECS: u64 = 24 * 3600;

impl Store {
    /// Writes a new transaction, its balance change and reference counts atomically, and
    /// the idempotency record `(key, request hash)` when given: one attempt, for the
    /// caller's retry (which reads `head` again).
    pub async fn insert_transaction(
        &self,
        txn: &Transaction,
        idempotency: Option<(&str, &str)>,
        head: Option<u64>,
        now: &str,
    ) -> StoreResult<()> {
        let idem = |tx: &mut TxItems<'_>| {
            idempotency.map_or(Ok(()), |k| put_idempotency(tx, txn, k, "create", None))
        };
        let sent = self
            .transact_once(self.new_txn(txn, head, now, idem)?)
            .await;
        self.wallet_refusal(sent, txn.user_id, 1).await
    }

    /// A new transaction as above, with what `also` adds to its `TransactWriteItems`,
    /// retried on conflicts with other writers.
    pub async fn insert_transaction_with(
        &self,
        txn: &Transaction,
        head: Option<u64>,
        now: &str,
        also: impl FnOnce(&mut TxItems<'_>) -> anyhow::Result<()>,
    ) -> StoreResult<()> {
        let sent = self.transact(self.new_txn(txn, head, now, also)?).await;
        self.wallet_refusal(sent, txn.user_id, 1).await
    }

    /// A create refused on the wallet (`Conflict(Wallet)`) is `Conflict(LimitReached)` when
    /// the wallet has no room for `added` more transactions ([`MAX_TRANSACTIONS`]); else
    /// the wallet changed or is gone, as the error says.
    async fn wallet_refusal<T>(
        &self,
        sent: StoreResult<T>,
        user_id: u64,
        added: usize,
    ) -> StoreResult<T> {
        match sent {
            Err(e) if e.is_conflict(ConflictKind::Wallet) => match self.get_wallet(user_id).await {
                Ok(Some(w)) if w.txn_count.saturating_add(added as u64) > MAX_TRANSACTIONS => {
                    Err(StoreError::Conflict(ConflictKind::LimitReached))
                }
                _ => Err(e),
            },
            other => other,
        }
    }

    fn new_txn(
        &self,
        txn: &Transaction,
        head: Option<u64>,
        now: &str,
        also: impl FnOnce(&mut TxItems<'_>) -> anyhow::Result<()>,
    ) -> StoreResult<TxItems<'_>> {
        let mut tx = TxItems::new(self);
        known_head(&mut tx, txn.user_id, head);
        put_new(&mut tx, txn)?;
        let mut deltas = Deltas::default();
        deltas.add(txn, 1);
        deltas.emit(&mut tx, now)?;
        also(&mut tx)?;
        Ok(tx)
    }

    /// Puts new transactions, each with the marker of its import id (`IMPORT#<id>`, which
    /// must not exist: `Conflict(AlreadyImported)` otherwise), and their counters merged in
    /// one [`Deltas`], in ONE `TransactWriteItems`. It takes as many from the start of
    /// `batch` as fit in [`MAX_TRANSACT_ITEMS`], counted on what was built (other
    /// capabilities add items per transaction and per counter), and returns how many it
    /// wrote: the caller passes the rest again. With the user's feed `head` (as the
    /// caller knows it; else it is read), the write expects it there and moves it by one
    /// a transaction written. The markers of an import job's rows carry its `job` id
    /// (`jobId`). One attempt: the caller retries.
    pub async fn insert_transactions(
        &self,
        batch: &[(Transaction, String)],
        head: Option<u64>,
        now: &str,
        job: Option<u64>,
    ) -> StoreResult<usize> {
        let mut take = batch.len();
        loop {
            let tx = self.imported_txns(&batch[..take], head, now, job)?;
            if tx.planned_len() <= MAX_TRANSACT_ITEMS || take <= 1 {
                if tx.planned_len() > MAX_TRANSACT_ITEMS {
                    return Err(anyhow::anyhow!(
                        "one transaction needs {} items",
                        tx.planned_len()
                    )
                    .into());
                }
                if take > 0 {
                    let user_id = batch[0].0.user_id;
                    let sent = self.transact_once(tx).await;
                    self.wallet_refusal(sent, user_id, take).await?;
                }
                return Ok(take);
            }
            // Shrink in proportion to the overshoot (at least by one) and build again.
            take = (take * MAX_TRANSACT_ITEMS / tx.planned_len()).clamp(1, take - 1);
        }
    }

    /// The write of [`Store::insert_transactions`] for `batch`, as built (not sent).
    fn imported_txns(
        &self,
        batch: &[(Transaction, String)],
        head: Option<u64>,
        now: &str,
        job: Option<u64>,
    ) -> anyhow::Result<TxItems<'_>> {
        let mut tx = TxItems::new(self);
        if let Some((txn, _)) = batch.first() {
            known_head(&mut tx, txn.user_id, head);
        }
        let mut deltas = Deltas::default();
        for (txn, import_id) in batch {
            put_new(&mut tx, txn)?;
            let mut marker = Item::from([
                ("PK".into(), s(user_pk(txn.user_id))),
                ("SK".into(), s(import_sk(import_id))),
                ("transactionId".into(), n(txn.id)),
                ("createdAt".into(), s(now)),
            ]);
            if let Some(job) = job {
                marker.insert("jobId".into(), n(job));
            }
            tx.put(marker, Some("attribute_not_exists(PK)"), None)?;
            tx.on_conflict(ConflictKind::AlreadyImported);
            deltas.add(txn, 1);
        }
        deltas.emit(&mut tx, now)?;
        Ok(tx)
    }

    /// Replaces `old` by `new` if `old` is still the stored version, moving the balance by
    /// the difference and the reference counts of what changed.
    pub async fn replace_transaction(
        &self,
        old: &Transaction,
        new: &Transaction,
        head: Option<u64>,
        idempotency: Option<(&str, &str)>,
        now: &str,
    ) -> StoreResult<()> {
        self.write_over(old, Some(new), head, idempotency, now)
            .await
    }

    /// Deletes `old` if it is still the stored version, reverting its balance change and
    /// releasing its references.
    pub async fn remove_transaction(
        &self,
        old: &Transaction,
        head: Option<u64>,
        idempotency: Option<(&str, &str)>,
        now: &str,
    ) -> StoreResult<()> {
        self.write_over(old, None, head, idempotency, now).await
    }

    /// Replaces `old` by `new`, or deletes it without one, in one transaction with the
    /// counters, the feed entry and the idempotency record; conditional on `old` still
    /// being the stored version. One attempt: the caller retries (reading `head` again).
    async fn write_over(
        &self,
        old: &Transaction,
        new: Option<&Transaction>,
        head: Option<u64>,
        idempotency: Option<(&str, &str)>,
        now: &str,
    ) -> StoreResult<()> {
        let mut tx = TxItems::new(self);
        known_head(&mut tx, old.user_id, head);
        let still_at_old = Some("attribute_exists(PK) AND version = :v");
        let values = Some(Item::from([(":v".into(), n(old.version))]));
        let mut deltas = Deltas::default();
        deltas.add(old, -1);
        let (user_id, id) = (old.user_id, old.id);
        let op = match new {
            Some(new) => {
                let item = crate::items::transaction::to_item(new);
                tx.upserted_as(user_id, Entity::Transaction, (id, new.version), &item);
                tx.put(item, still_at_old, values)?;
                deltas.add(new, 1);
                "update"
            }
            None => {
                tx.delete(&user_pk(user_id), &txn_sk(id), still_at_old, values)?;
                tx.deleted(user_id, Entity::Transaction, id, old.version);
                "delete"
            }
        };
        deltas.emit(&mut tx, now)?;
        if let Some(key) = idempotency {
            put_idempotency(&mut tx, new.unwrap_or(old), key, op, new)?;
        }
        self.transact_once(tx).await
    }
}

/// Remembers an idempotency key `(key, request hash)` for a day with what its request did
/// to `txn` (`op`), and for an update the transaction it left (its first result).
fn put_idempotency(
    tx: &mut TxItems<'_>,
    txn: &Transaction,
    (key, hash): (&str, &str),
    op: &str,
    result: Option<&Transaction>,
) -> anyhow::Result<()> {
    let now = super::refs::now_unix();
    let expires = now + IDEMPOTENCY_TTL_SECS;
    let mut item = Item::from([
        ("PK".into(), s(user_pk(txn.user_id))),
        ("SK".into(), s(idem_sk(key))),
        ("requestHash".into(), s(hash)),
        ("transactionId".into(), n(txn.id)),
        ("op".into(), s(op)),
        ("expiresAt".into(), n(expires)),
    ]);
    if let Some(r) = result {
        let stored = crate::items::transaction::to_item(r);
        item.insert("result".into(), AttributeValue::M(stored));
    }
    // A record past its day (TTL deletes it some time later) is no longer the key's.
    let expired = Item::from([(":now".into(), n(now))]);
    let condition = "attribute_not_exists(PK) OR expiresAt <= :now";
    tx.put(item, Some(condition), Some(expired))?;
    tx.on_conflict(ConflictKind::IdempotencyKey);
    Ok(())
}

/// The user's feed head when it was read with the write's references (`head`).
fn known_head(tx: &mut TxItems<'_>, user_id: u64, head: Option<u64>) {
    if let Some(seq) = head {
        tx.feed_head_is(Feed::User(user_id), seq);
    }
}

/// Puts a transaction that must not exist yet, and records it in the user's feed.
pub(crate) fn put_new(tx: &mut TxItems<'_>, txn: &Transaction) -> anyhow::Result<()> {
    let item = crate::items::transaction::to_item(txn);
    let at = (txn.id, txn.version);
    tx.upserted_as(txn.user_id, Entity::Transaction, at, &item);
    tx.put(item, Some("attribute_not_exists(PK)"), None)?;
    tx.on_conflict(ConflictKind::IdTaken);
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::transactions::{counters, Counter, IMPORT_TXN_ITEMS, IMPORT_WRITE_ITEMS};
    use crate::CallCounter;

    fn offline_store() -> Store {
        let config = aws_sdk_dynamodb::Config::builder()
            .behavior_version(aws_sdk_dynamodb::config::BehaviorVersion::latest())
            .build();
        Store::new(
            aws_sdk_dynamodb::Client::from_conf(config),
            "t",
            CallCounter::default(),
        )
    }

    #[test]
    fn an_import_write_has_its_items_per_write_per_transaction_and_per_counter() {
        let store = offline_store();
        let dates = [
            time::macros::date!(2026 - 01 - 05),
            time::macros::date!(2026 - 01 - 20),
            time::macros::date!(2026 - 02 - 03),
        ];
        let mut batch = Vec::new();
        for i in 0..9u64 {
            let mut txn = Transaction::example(dates[i as usize % 3], 10 + i % 2, 100);
            txn.id = 100 + i;
            txn.details.category_global = i % 2 == 0;
            txn.details.provider_id = (i % 4 != 0).then_some(i % 3);
            txn.details.tag_ids = (0..i % 3).map(|t| 50 + t).collect();
            batch.push((txn, format!("import-{i}")));
        }
        for k in 1..=batch.len() {
            let tx = store
                .imported_txns(&batch[..k], Some(7), "now", None)
                .unwrap();
            let moved: BTreeSet<Counter> =
                batch[..k].iter().flat_map(|(t, _)| counters(t)).collect();
            assert_eq!(
                tx.planned_len(),
                IMPORT_WRITE_ITEMS + IMPORT_TXN_ITEMS * k + moved.len(),
                "{k} transactions"
            );
        }
    }
}
