//! `TransactWriteItems` with retries on conflicts; a failed condition is reported as the
//! [`ConflictKind`] its item was given.

use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError;
use aws_sdk_dynamodb::types::{
    ConditionCheck, Delete, Put, ReturnValuesOnConditionCheckFailure, TransactWriteItem, Update,
};

use std::collections::BTreeMap;

use super::attr::{n, s, Item};
use super::feed::{entry_item, now_ms, Change, Entity, Feed};
use super::{backoff, sdk_error, ConflictKind, Store, StoreError, StoreResult, MAX_ATTEMPTS};

/// A feed head that moved meanwhile (or writers that kept conflicting) is read again and
/// the write re-sent this many times, within [`FEED_DEADLINE`].
const FEED_ATTEMPTS: u32 = 24;
const FEED_DEADLINE: std::time::Duration = std::time::Duration::from_secs(8);
/// Most items DynamoDB accepts in one `TransactWriteItems`.
pub const MAX_TRANSACT_ITEMS: usize = 100;

/// Builds the items of one transaction against the store's table.
#[derive(Clone)]
pub struct TxItems<'a> {
    table: &'a str,
    pub(crate) items: Vec<TransactWriteItem>,
    /// What a failed condition of each item means (`Changed` unless said otherwise).
    kinds: Vec<ConflictKind>,
    /// Changes to record in the feeds with this write (see [`super::feed`]).
    changes: Vec<Change>,
    /// The item each change put whole, carried by its entry (same order as `changes`).
    snapshots: Vec<Option<Item>>,
    /// Feed heads already read with the write's other items.
    heads: BTreeMap<FeedKey, u64>,
    /// Whether a head's move was merged into an update of the write's own.
    merged_heads: bool,
}

/// A feed as a map key.
type FeedKey = (bool, u64);

fn feed_key(feed: Feed) -> FeedKey {
    match feed {
        Feed::User(id) => (false, id),
        Feed::Global(shard) => (true, shard),
    }
}

fn key_feed(key: FeedKey) -> Feed {
    if key.0 {
        Feed::Global(key.1)
    } else {
        Feed::User(key.1)
    }
}

impl<'a> TxItems<'a> {
    pub fn new(store: &'a Store) -> Self {
        Self {
            table: &store.table,
            items: Vec::new(),
            kinds: Vec::new(),
            changes: Vec::new(),
            snapshots: Vec::new(),
            heads: BTreeMap::new(),
            merged_heads: false,
        }
    }

    /// Records a change in its feed with this write.
    pub fn record(&mut self, change: Change) -> &mut Self {
        self.changes.push(change);
        self.snapshots.push(None);
        self
    }

    /// Records in the user's feed that their `entity` `id` now is `item` (which this write
    /// puts whole at `version`): the entry carries the item, so a sync reads it there.
    pub fn upserted_as(
        &mut self,
        user_id: u64,
        entity: Entity,
        (id, version): (u64, u64),
        item: &Item,
    ) -> &mut Self {
        self.changes
            .push(Change::upsert(Feed::User(user_id), entity, id, version));
        self.snapshots.push(Some(item.clone()));
        self
    }

    /// Records in the user's feed that their `entity` `id` now is at `version`.
    pub fn upserted(&mut self, user_id: u64, entity: Entity, id: u64, version: u64) -> &mut Self {
        self.record(Change::upsert(Feed::User(user_id), entity, id, version))
    }

    /// Records in the user's feed that their `entity` `id` (last at `version`) is gone.
    pub fn deleted(&mut self, user_id: u64, entity: Entity, id: u64, version: u64) -> &mut Self {
        self.record(Change::delete(Feed::User(user_id), entity, id, version))
    }

    /// The feed's head as read with the write's other items (saves reading it again).
    pub fn feed_head_is(&mut self, feed: Feed, seq: u64) -> &mut Self {
        self.heads.insert(feed_key(feed), seq);
        self
    }

    /// Items the write will send, feed entries and heads included.
    pub fn planned_len(&self) -> usize {
        let feeds: std::collections::BTreeSet<FeedKey> =
            self.changes.iter().map(|c| feed_key(c.feed)).collect();
        self.items.len() + self.changes.len() + feeds.len()
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Puts an item; `condition` guards it (e.g. `attribute_not_exists(PK)`).
    pub fn put(
        &mut self,
        item: Item,
        condition: Option<&str>,
        values: Option<Item>,
    ) -> anyhow::Result<usize> {
        let put = Put::builder()
            .table_name(self.table)
            .set_item(Some(item))
            .set_condition_expression(condition.map(str::to_owned))
            .set_expression_attribute_values(values)
            .build()?;
        self.push(TransactWriteItem::builder().put(put).build())
    }

    pub fn update(
        &mut self,
        pk: &str,
        sk: &str,
        expression: &str,
        condition: Option<&str>,
        values: Item,
        names: Option<std::collections::HashMap<String, String>>,
    ) -> anyhow::Result<usize> {
        let update = Update::builder()
            .table_name(self.table)
            .key("PK", s(pk))
            .key("SK", s(sk))
            .update_expression(expression)
            .set_condition_expression(condition.map(str::to_owned))
            .set_expression_attribute_values(if values.is_empty() {
                None
            } else {
                Some(values)
            })
            .set_expression_attribute_names(names)
            .return_values_on_condition_check_failure(ReturnValuesOnConditionCheckFailure::None)
            .build()?;
        self.push(TransactWriteItem::builder().update(update).build())
    }

    pub fn delete(
        &mut self,
        pk: &str,
        sk: &str,
        condition: Option<&str>,
        values: Option<Item>,
    ) -> anyhow::Result<usize> {
        let delete = Delete::builder()
            .table_name(self.table)
            .key("PK", s(pk))
            .key("SK", s(sk))
            .set_condition_expression(condition.map(str::to_owned))
            .set_expression_attribute_values(values)
            .build()?;
        self.push(TransactWriteItem::builder().delete(delete).build())
    }

    pub fn check(
        &mut self,
        pk: &str,
        sk: &str,
        condition: &str,
        values: Option<Item>,
    ) -> anyhow::Result<usize> {
        let check = ConditionCheck::builder()
            .table_name(self.table)
            .key("PK", s(pk))
            .key("SK", s(sk))
            .condition_expression(condition)
            .set_expression_attribute_values(values)
            .build()?;
        self.push(TransactWriteItem::builder().condition_check(check).build())
    }

    /// Counts a use (or, with a negative `delta`, releases one) of a category, tag or
    /// provider: `ADD useCount`. With a `condition`, the item must satisfy it (e.g. exist).
    pub fn add_use(
        &mut self,
        pk: &str,
        sk: &str,
        delta: i64,
        condition: Option<(&str, Item)>,
    ) -> anyhow::Result<usize> {
        let mut values = Item::from([(":one".into(), super::attr::n(delta))]);
        let condition = condition.map(|(c, v)| {
            values.extend(v);
            c
        });
        self.update(pk, sk, "ADD useCount :one", condition, values, None)
    }

    /// Names what a failure of the last item's condition means.
    pub fn on_conflict(&mut self, kind: ConflictKind) -> &mut Self {
        if let Some(last) = self.kinds.last_mut() {
            *last = kind;
        }
        self
    }

    /// Moves `feed`'s head from `seq` to `next`, conditional on it still being at `seq`: in
    /// the write's own update of the head's item when it has one (a transaction write
    /// updates the wallet, a user's head), else in an update of its own.
    fn move_head(&mut self, feed: Feed, seq: u64, next: u64) -> anyhow::Result<()> {
        let (pk, sk) = feed.head_key();
        let (mut condition, mut values) = super::number_is("seq", ":headSeq", seq);
        values.insert(":headNext".into(), n(next));
        let own = self.items.iter().position(|i| {
            i.update().is_some_and(|u| {
                u.key().get("PK").and_then(|v| v.as_s().ok()) == Some(&pk)
                    && u.key()
                        .get("SK")
                        .and_then(|v| v.as_s().ok())
                        .map(String::as_str)
                        == Some(sk)
            })
        });
        if let Some(at) = own {
            let u = self.items[at].update().expect("found as an update").clone();
            let expression = match u.update_expression().strip_prefix("SET ") {
                Some(rest) => format!("SET seq = :headNext, {rest}"),
                None => format!("SET seq = :headNext {}", u.update_expression()),
            };
            if let Some(own) = u.condition_expression() {
                condition = format!("({own}) AND {condition}");
            }
            let mut all = u.expression_attribute_values().cloned().unwrap_or_default();
            all.extend(values);
            let merged = Update::builder()
                .table_name(u.table_name())
                .set_key(Some(u.key().clone()))
                .update_expression(expression)
                .condition_expression(condition)
                .set_expression_attribute_values(Some(all))
                .set_expression_attribute_names(u.expression_attribute_names().cloned())
                .return_values_on_condition_check_failure(ReturnValuesOnConditionCheckFailure::None)
                .build()?;
            self.items[at] = TransactWriteItem::builder().update(merged).build();
            self.merged_heads = true;
            return Ok(());
        }
        // A user's head is on their wallet, which must exist (no wallet item is made here).
        if matches!(feed, Feed::User(_)) {
            condition = format!("attribute_exists(PK) AND {condition}");
        }
        self.update(
            &pk,
            sk,
            "SET seq = :headNext",
            Some(&condition),
            values,
            None,
        )?;
        self.on_conflict(ConflictKind::FeedMoved);
        Ok(())
    }

    fn push(&mut self, item: TransactWriteItem) -> anyhow::Result<usize> {
        self.items.push(item);
        self.kinds.push(ConflictKind::Changed);
        Ok(self.items.len() - 1)
    }
}

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
