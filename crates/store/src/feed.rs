//! The change log behind `GET /api/sync`: every write of something a client syncs records
//! a change entry in the same `TransactWriteItems` as the write itself, so an entry never
//! exists without its write and a failed write leaves none.
//!
//! Each feed (one per user, in their partition, and one feed of the global categories per
//! shard, in `GLOBAL#<shard>` beside that shard's copies: a change of a global category is
//! recorded in every shard's feed, and a user reads their shard's) has a head: the
//! attribute `seq` of an item ([`Feed::head_key`]). A user's head is on their wallet, which
//! every transaction write updates anyway (a head item of its own would bill 2 more write
//! units per write); a shard's is its item `FEED`. Entries are `CHG#<seq, 16 digits>`. A write reads the head, puts the next entries and moves the head
//! conditionally on it being unchanged: writers of one feed commit one after another, so
//! sequence order is commit order and a reader never skips an entry that commits later
//! with a lower number. When the head moved meanwhile, only the feed items are rebuilt and
//! the write is sent again; the write's own conditions still guard everything else.
//!
//! Entries expire after [`RETENTION_DAYS`] (the table's TTL deletes them some time later).

use aws_sdk_dynamodb::types::AttributeValue;

use super::attr::{get_opt_u64, get_s, get_u64, n, s, Item};
use super::keys::{global_pk, shard_of, user_pk};
pub use super::snapshot::Phase;
use super::{sdk_error, Store, StoreResult};

/// Changes are kept at least this long.
pub const RETENTION_DAYS: i64 = 90;
/// Entries live a day beyond the retention, so a reader at the edge still finds them.
const TTL_SECS: i64 = (RETENTION_DAYS + 1) * 24 * 3600;

pub const FEED_SK: &str = "FEED";
pub const CHANGE_PREFIX: &str = "CHG#";

pub fn change_sk(seq: u64) -> String {
    format!("{CHANGE_PREFIX}{seq:016}")
}

/// Which feed a change belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Feed {
    User(u64),
    /// The global categories' feed of one shard.
    Global(u64),
}

impl Feed {
    pub fn pk(self) -> String {
        match self {
            Feed::User(id) => user_pk(id),
            Feed::Global(shard) => global_pk(shard),
        }
    }

    /// The key of the item whose `seq` is the feed's head: a user's wallet, a shard's
    /// `FEED` item.
    pub fn head_key(self) -> (String, &'static str) {
        match self {
            Feed::User(id) => (user_pk(id), super::keys::WALLET),
            Feed::Global(shard) => (global_pk(shard), FEED_SK),
        }
    }

    /// The global feed `user_id` reads: their shard's.
    pub fn global_of(user_id: u64) -> Self {
        Feed::Global(shard_of(user_id))
    }
}

/// What changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Entity {
    User,
    Wallet,
    Category,
    Tag,
    Provider,
    Transaction,
    Rule,
    Recurring,
}

impl Entity {
    pub fn as_str(self) -> &'static str {
        match self {
            Entity::User => "user",
            Entity::Wallet => "wallet",
            Entity::Category => "category",
            Entity::Tag => "tag",
            Entity::Provider => "provider",
            Entity::Transaction => "transaction",
            Entity::Rule => "rule",
            Entity::Recurring => "recurring",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        Some(match text {
            "user" => Entity::User,
            "wallet" => Entity::Wallet,
            "category" => Entity::Category,
            "tag" => Entity::Tag,
            "provider" => Entity::Provider,
            "transaction" => Entity::Transaction,
            "rule" => Entity::Rule,
            "recurring" => Entity::Recurring,
            _ => return None,
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Upsert,
    Delete,
}

/// One change to record with a write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Change {
    pub feed: Feed,
    pub entity: Entity,
    pub id: u64,
    pub op: Op,
    /// The version the write leaves (for a delete: the version deleted).
    pub version: u64,
}

impl Change {
    pub fn upsert(feed: Feed, entity: Entity, id: u64, version: u64) -> Self {
        Self {
            feed,
            entity,
            id,
            op: Op::Upsert,
            version,
        }
    }

    pub fn delete(feed: Feed, entity: Entity, id: u64, version: u64) -> Self {
        Self {
            op: Op::Delete,
            ..Self::upsert(feed, entity, id, version)
        }
    }
}

/// A change entry as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub seq: u64,
    pub entity: Entity,
    pub id: u64,
    pub op: Op,
    pub version: u64,
    /// Commit time, epoch milliseconds (orders the user's and the global feed).
    pub at_ms: i64,
    /// The item as this change wrote it, when the write put it whole (a transaction's
    /// create or update): a sync page reads it here instead of reading the item again.
    pub item: Option<Item>,
}

/// The entry of `change` as `seq`, carrying `snapshot` (the item the change put) if any.
pub fn entry_item(change: &Change, seq: u64, at_ms: i64, snapshot: Option<&Item>) -> Item {
    let op = match change.op {
        Op::Upsert => "upsert",
        Op::Delete => "delete",
    };
    let mut entry = Item::from([
        ("PK".into(), s(change.feed.pk())),
        ("SK".into(), s(change_sk(seq))),
        ("entity".into(), s(change.entity.as_str())),
        ("id".into(), n(change.id)),
        ("op".into(), s(op)),
        ("version".into(), n(change.version)),
        ("atMs".into(), n(at_ms)),
        ("expiresAt".into(), n(at_ms / 1000 + TTL_SECS)),
    ]);
    if let (Some(item), Op::Upsert) = (snapshot, change.op) {
        let carried = item
            .iter()
            .filter(|(name, _)| !DERIVED.contains(&name.as_str()))
            .map(|(name, value)| (name.clone(), value.clone()))
            .collect();
        entry.insert(SNAPSHOT.into(), AttributeValue::M(carried));
    }
    entry
}

/// Attributes of an item an entry does not carry: its key and id (the entry's own and
/// [`Entry::restore`]d on reading), and what is computed from the rest for indexes and
/// searches. A page's entries are read as fast as a list page's items when they are
/// about as large.
const DERIVED: [&str; 5] = ["PK", "SK", "id", "LSI1SK", "noteLc"];

impl Entry {
    /// The item this entry carries, whole again under its key `(pk, sk)`.
    /// It is taken out of the entry: a page restores each carried item once.
    pub fn restore(&mut self, (pk, sk): (String, String)) -> Option<Item> {
        let mut item = self.item.take()?;
        item.insert("PK".into(), s(pk));
        item.insert("SK".into(), s(sk));
        item.entry("id".into()).or_insert_with(|| n(self.id));
        Some(item)
    }
}

/// The attribute of an entry that holds the item it wrote.
const SNAPSHOT: &str = "item";

impl TryFrom<Item> for Entry {
    type Error = anyhow::Error;

    fn try_from(mut item: Item) -> anyhow::Result<Self> {
        let carried = match item.remove(SNAPSHOT) {
            Some(AttributeValue::M(m)) => Some(m),
            _ => None,
        };
        let item = &item;
        let sk = get_s(item, "SK")?;
        let seq = sk
            .strip_prefix(CHANGE_PREFIX)
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| anyhow::anyhow!("change entry with a malformed SK"))?;
        let entity = get_s(item, "entity")?;
        Ok(Self {
            seq,
            entity: Entity::parse(entity)
                .ok_or_else(|| anyhow::anyhow!("unknown entity {entity}"))?,
            id: get_u64(item, "id")?,
            op: if get_s(item, "op")? == "delete" {
                Op::Delete
            } else {
                Op::Upsert
            },
            version: get_opt_u64(item, "version").unwrap_or(1),
            at_ms: get_opt_u64(item, "atMs").unwrap_or(0) as i64,
            item: carried,
        })
    }
}

pub fn now_ms() -> i64 {
    (time::OffsetDateTime::now_utc().unix_timestamp_nanos() / 1_000_000) as i64
}

impl Store {
    /// The last sequence number of a feed (0 when it has none yet).
    pub async fn feed_head(&self, feed: Feed) -> StoreResult<u64> {
        let (pk, sk) = feed.head_key();
        Ok(self
            .get(&pk, sk)
            .await?
            .and_then(|item| get_opt_u64(&item, "seq"))
            .unwrap_or(0))
    }

    /// Up to `limit` entries of a feed after sequence number `after`, oldest first.
    pub async fn feed_entries(
        &self,
        feed: Feed,
        after: u64,
        limit: i32,
    ) -> StoreResult<Vec<Entry>> {
        let out = self
            .query_table()
            .key_condition_expression("PK = :pk AND SK BETWEEN :from AND :to")
            .expression_attribute_values(":pk", s(feed.pk()))
            .expression_attribute_values(":from", s(change_sk(after.saturating_add(1))))
            .expression_attribute_values(":to", s(change_sk(u64::MAX / 10)))
            .consistent_read(true)
            .limit(limit)
            .send()
            .await
            .map_err(sdk_error)?;
        out.items
            .unwrap_or_default()
            .into_iter()
            .map(|item| Entry::try_from(item).map_err(Into::into))
            .collect()
    }
}

/// Reads `seq` from a head item fetched with other items.
pub fn head_seq(item: &Item) -> u64 {
    match item.get("seq") {
        Some(AttributeValue::N(v)) => v.parse().unwrap_or(0),
        _ => 0,
    }
}

impl Store {
    /// The items among `keys` that exist, any number of keys (`BatchGetItem`s of 100 at
    /// once, concurrently).
    pub async fn batch_get_all(&self, keys: Vec<Item>) -> StoreResult<Vec<Item>> {
        let chunks: Vec<Vec<Item>> = keys.chunks(100).map(<[Item]>::to_vec).collect();
        let found =
            futures::future::try_join_all(chunks.into_iter().map(|c| self.batch_get(c))).await?;
        Ok(found.into_iter().flatten().collect())
    }
}
