//! Sending a [`TxItems`]: its feed entries numbered from the heads, in one
//! `TransactWriteItems` per attempt ([`Store::transact_once`]), or retried under the one
//! policy ([`Store::transact`], see [`super::retry`]) while DynamoDB reports conflicts with
//! concurrent transactions on the same items or another write moved a feed head.

use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError;

use super::feed::{entry_item, now_ms};
use super::retry::{retry, Again};
use super::transact::{feed_key, key_feed, FeedKey, TxItems};
use super::{sdk_error, ConflictKind, Store, StoreError, StoreResult};

/// What `transact` retries: a write built once retries only conflicts with other writers.
fn contended(e: &StoreError) -> Again {
    match e.again() {
        Again::Backoff => Again::Backoff,
        _ => Again::No,
    }
}

impl Store {
    /// Runs the transaction with its feed entries (when it records changes), retrying
    /// (see [`super::retry`]) while DynamoDB reports conflicts with concurrent
    /// transactions on the same items (`Contention`) or another write moved a feed head
    /// (`FeedMoved`: it is read again). A failed condition is `StoreError::Conflict` with
    /// the kind its item was given.
    pub async fn transact(&self, tx: TxItems<'_>) -> StoreResult<()> {
        retry(contended, |n| self.send_tx(&tx, n > 1)).await
    }

    /// One attempt of [`Store::transact`], for a caller whose own retry reads again what
    /// the write is built from (the heads given with [`TxItems::feed_head_is`] included):
    /// `Contention` and `FeedMoved` are left to that retry.
    pub async fn transact_once(&self, tx: TxItems<'_>) -> StoreResult<()> {
        self.send_tx(&tx, false).await
    }

    /// Sends `tx` once with its feed entries numbered from the heads it was given (read
    /// again when `reread`) and those it lacks (read now).
    async fn send_tx(&self, tx: &TxItems<'_>, reread: bool) -> StoreResult<()> {
        if tx.changes.is_empty() {
            return self.transact_items(tx).await;
        }
        let mut heads = if reread {
            Default::default()
        } else {
            tx.heads.clone()
        };
        for change in &tx.changes {
            if let std::collections::btree_map::Entry::Vacant(e) =
                heads.entry(feed_key(change.feed))
            {
                e.insert(self.feed_head(change.feed).await?);
            }
        }
        let mut full = tx.clone();
        let at = now_ms();
        let mut next = heads.clone();
        for (change, snapshot) in tx.changes.iter().zip(&tx.snapshots) {
            let seq = next.entry(feed_key(change.feed)).or_default();
            *seq += 1;
            full.put(
                entry_item(change, *seq, at, snapshot.as_ref()),
                Some("attribute_not_exists(PK)"),
                None,
            )?;
            full.on_conflict(ConflictKind::FeedMoved);
        }
        for (key, seq) in &heads {
            let Some(new) = next.get(key).filter(|n| *n != seq) else {
                continue;
            };
            full.move_head(key_feed(*key), *seq, *new)?;
        }
        match self.transact_items(&full).await {
            // A head kept on an item the write updates anyway (a user's wallet) shares
            // that item's condition: a failure there may be the head moving.
            Err(e @ StoreError::Conflict(_))
                if full.merged_heads && e.again() == Again::No && self.moved(&heads).await? =>
            {
                Err(StoreError::Conflict(ConflictKind::FeedMoved))
            }
            other => other,
        }
    }

    /// Whether any of the feed heads moved from `heads`.
    async fn moved(&self, heads: &std::collections::BTreeMap<FeedKey, u64>) -> StoreResult<bool> {
        for (key, seq) in heads {
            if self.feed_head(key_feed(*key)).await? != *seq {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// One `TransactWriteItems`: a failed condition is the kind its item was given, a
    /// conflict with a concurrent transaction `Contention`.
    async fn transact_items(&self, tx: &TxItems<'_>) -> StoreResult<()> {
        let result = self
            .client
            .transact_write_items()
            .set_transact_items(Some(tx.items.clone()))
            .send()
            .await;
        let Err(err) = result else {
            return Ok(());
        };
        let contended = match err.as_service_error() {
            Some(TransactWriteItemsError::TransactionCanceledException(c)) => {
                let reasons = c.cancellation_reasons();
                if let Some(pos) = reasons
                    .iter()
                    .position(|r| r.code() == Some("ConditionalCheckFailed"))
                {
                    let kind = tx.kinds.get(pos).copied();
                    return Err(StoreError::Conflict(kind.unwrap_or(ConflictKind::Changed)));
                }
                reasons
                    .iter()
                    .any(|r| r.code() == Some("TransactionConflict"))
            }
            Some(TransactWriteItemsError::TransactionInProgressException(_)) => true,
            _ => false,
        };
        if contended {
            return Err(StoreError::Conflict(ConflictKind::Contention));
        }
        Err(sdk_error(err))
    }
}
