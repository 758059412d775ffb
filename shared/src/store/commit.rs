//! Sending a [`TxItems`]: its feed entries numbered from the heads, retried with backoff
//! while DynamoDB reports conflicts with concurrent transactions on the same items, and
//! sent again with fresh heads when another write moved one meanwhile.

use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError;

use super::feed::{entry_item, now_ms};
use super::transact::{feed_key, key_feed, TxItems};
use super::{backoff, sdk_error, ConflictKind, Store, StoreError, StoreResult, MAX_ATTEMPTS};

/// A feed head that moved meanwhile (or writers that kept conflicting) is read again and
/// the write re-sent this many times, within [`FEED_DEADLINE`].
const FEED_ATTEMPTS: u32 = 24;
const FEED_DEADLINE: std::time::Duration = std::time::Duration::from_secs(8);

impl Store {
    /// Runs the transaction with its feed entries (when it records changes), retrying with
    /// backoff while DynamoDB reports conflicts with concurrent transactions on the same
    /// items, and re-reading a feed head another write moved meanwhile.
    /// A failed condition is `StoreError::Conflict` with the kind its item was given.
    pub async fn transact(&self, tx: TxItems<'_>) -> StoreResult<()> {
        if tx.changes.is_empty() {
            return self.transact_items(&tx).await;
        }
        let mut heads = tx.heads.clone();
        for change in &tx.changes {
            if let std::collections::btree_map::Entry::Vacant(e) =
                heads.entry(feed_key(change.feed))
            {
                e.insert(self.feed_head(change.feed).await?);
            }
        }
        let started = std::time::Instant::now();
        for attempt in 1..=FEED_ATTEMPTS {
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
            let result = self.transact_items(&full).await;
            let retry = match &result {
                Err(StoreError::Conflict(ConflictKind::FeedMoved | ConflictKind::Contention)) => {
                    true
                }
                // A head kept on an item the write updates anyway (a user's wallet) shares
                // that item's condition: a failure there may be the head moving.
                Err(StoreError::Conflict(_)) if full.merged_heads => {
                    let mut moved = false;
                    for (key, seq) in &heads {
                        moved |= self.feed_head(key_feed(*key)).await? != *seq;
                    }
                    moved
                }
                _ => false,
            };
            if !retry || started.elapsed() >= FEED_DEADLINE {
                return result;
            }
            // Wait first, then read the head: it is then as fresh as possible.
            backoff(attempt).await;
            for (key, seq) in heads.iter_mut() {
                *seq = self.feed_head(key_feed(*key)).await?;
            }
        }
        Err(StoreError::Conflict(ConflictKind::Contention))
    }

    async fn transact_items(&self, tx: &TxItems<'_>) -> StoreResult<()> {
        let mut attempt = 0;
        loop {
            attempt += 1;
            let result = self
                .client
                .transact_write_items()
                .set_transact_items(Some(tx.items.clone()))
                .send()
                .await;
            let err = match result {
                Ok(_) => return Ok(()),
                Err(e) => e,
            };
            let retryable = match err.as_service_error() {
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
            if !retryable {
                return Err(sdk_error(err));
            }
            if attempt >= MAX_ATTEMPTS {
                return Err(StoreError::Conflict(ConflictKind::Contention));
            }
            backoff(attempt).await;
        }
    }
}
