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
    /// conflict with a concurrent transaction `Contention` (see [`transact_error`]).
    async fn transact_items(&self, tx: &TxItems<'_>) -> StoreResult<()> {
        self.client
            .transact_write_items()
            .set_transact_items(Some(tx.items.clone()))
            .send()
            .await
            .map(|_| ())
            .map_err(|e| transact_error(e, &tx.kinds))
    }
}

/// What a failed `TransactWriteItems` of items guarded by `kinds` means.
///
/// `TransactionInProgressException`: the SDK sent the request again after a timeout
/// (with the same client token) while the first send still runs. That one may yet
/// commit, so the outcome is unknown: `Unavailable` (503), as a timeout, never a conflict
/// that a retry would answer by writing again (a create without `Idempotency-Key` would
/// then be saved twice).
fn transact_error(
    err: aws_sdk_dynamodb::error::SdkError<
        TransactWriteItemsError,
        aws_smithy_runtime_api::client::orchestrator::HttpResponse,
    >,
    kinds: &[ConflictKind],
) -> StoreError {
    match err.as_service_error() {
        Some(TransactWriteItemsError::TransactionCanceledException(c)) => {
            let reasons = c.cancellation_reasons();
            if let Some(pos) = reasons
                .iter()
                .position(|r| r.code() == Some("ConditionalCheckFailed"))
            {
                let kind = kinds.get(pos).copied();
                return StoreError::Conflict(kind.unwrap_or(ConflictKind::Changed));
            }
            if reasons
                .iter()
                .any(|r| r.code() == Some("TransactionConflict"))
            {
                return StoreError::Conflict(ConflictKind::Contention);
            }
            sdk_error(err)
        }
        Some(TransactWriteItemsError::TransactionInProgressException(_)) => {
            StoreError::Unavailable(
                anyhow::Error::new(err)
                    .context("an earlier send of this transaction is still running"),
            )
        }
        _ => sdk_error(err),
    }
}

#[cfg(test)]
mod tests {
    use aws_sdk_dynamodb::error::SdkError;
    use aws_sdk_dynamodb::types::error::{
        TransactionCanceledException, TransactionInProgressException,
    };
    use aws_sdk_dynamodb::types::CancellationReason;
    use aws_smithy_runtime_api::http::{Response, StatusCode};
    use aws_smithy_types::body::SdkBody;

    use super::*;

    fn failed(e: TransactWriteItemsError) -> StoreError {
        let response = Response::new(StatusCode::try_from(400).unwrap(), SdkBody::empty());
        let kinds = [ConflictKind::Changed, ConflictKind::IdTaken];
        transact_error(SdkError::service_error(e, response), &kinds)
    }

    fn cancelled(codes: &[&str]) -> TransactWriteItemsError {
        let reasons = codes
            .iter()
            .map(|c| CancellationReason::builder().code(*c).build());
        TransactWriteItemsError::TransactionCanceledException(
            TransactionCanceledException::builder()
                .set_cancellation_reasons(Some(reasons.collect()))
                .build(),
        )
    }

    #[test]
    fn a_transaction_still_in_progress_is_an_unknown_outcome_not_a_conflict_to_retry() {
        let e = TransactionInProgressException::builder().build();
        let e = failed(TransactWriteItemsError::TransactionInProgressException(e));
        assert!(matches!(e, StoreError::Unavailable(_)), "{e:?}");
        assert_eq!(e.again(), Again::No);
    }

    #[test]
    fn a_failed_condition_is_its_items_kind_and_a_conflict_is_contention() {
        let e = failed(cancelled(&["None", "ConditionalCheckFailed"]));
        assert!(e.is_conflict(ConflictKind::IdTaken), "{e:?}");
        let e = failed(cancelled(&["TransactionConflict", "None"]));
        assert!(e.is_conflict(ConflictKind::Contention), "{e:?}");
    }
}
