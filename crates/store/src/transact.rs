//! The items of one `TransactWriteItems` (sent by [`Store::transact`], `commit.rs`, with
//! retries on conflicts); a failed condition is reported as the [`ConflictKind`] its item
//! was given.

use aws_sdk_dynamodb::types::{
    ConditionCheck, Delete, Put, ReturnValuesOnConditionCheckFailure, TransactWriteItem, Update,
};

use std::collections::BTreeMap;

use super::attr::{n, Item};
use super::feed::{Change, Entity, Feed};
use super::{ConflictKind, Store};

/// Most items DynamoDB accepts in one `TransactWriteItems`.
pub const MAX_TRANSACT_ITEMS: usize = 100;

/// Builds the items of one transaction against the store's table.
#[derive(Clone)]
pub struct TxItems<'a> {
    table: &'a str,
    pub(crate) items: Vec<TransactWriteItem>,
    /// What a failed condition of each item means (`Changed` unless said otherwise).
    pub(super) kinds: Vec<ConflictKind>,
    /// Changes to record in the feeds with this write (see [`super::feed`]).
    pub(super) changes: Vec<Change>,
    /// The item each change put whole, carried by its entry (same order as `changes`).
    pub(super) snapshots: Vec<Option<Item>>,
    /// Feed heads already read with the write's other items.
    pub(super) heads: BTreeMap<FeedKey, u64>,
    /// Whether a head's move was merged into an update of the write's own.
    pub(super) merged_heads: bool,
}

/// A feed as a map key.
pub(super) type FeedKey = (bool, u64);

pub(super) fn feed_key(feed: Feed) -> FeedKey {
    match feed {
        Feed::User(id) => (false, id),
        Feed::Global(shard) => (true, shard),
    }
}

pub(super) fn key_feed(key: FeedKey) -> Feed {
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
            .set_key(Some(super::batch::key(pk, sk)))
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
            .set_key(Some(super::batch::key(pk, sk)))
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
            .set_key(Some(super::batch::key(pk, sk)))
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
    pub(super) fn move_head(&mut self, feed: Feed, seq: u64, next: u64) -> anyhow::Result<()> {
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
