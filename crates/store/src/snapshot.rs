//! What a first sync pages through: every item the caller can see, phase by phase (one
//! `Query` of a sort-key prefix each), before the changes made meanwhile.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::attr::{s, Item};
use super::feed::Feed;
use super::keys::user_pk;
use super::{Store, StoreResult};

/// What an initial sync pages through, in order: every item the caller can see. A
/// cursor names a phase by its index here: new phases go last.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    Profile,
    Wallet,
    GlobalCategories,
    Categories,
    Tags,
    Providers,
    Transactions,
    Rules,
    Recurring,
}

impl Phase {
    pub const ALL: [Phase; 9] = [
        Phase::Profile,
        Phase::Wallet,
        Phase::GlobalCategories,
        Phase::Categories,
        Phase::Tags,
        Phase::Providers,
        Phase::Transactions,
        Phase::Rules,
        Phase::Recurring,
    ];

    pub fn index(self) -> usize {
        Self::ALL.iter().position(|p| *p == self).unwrap_or(0)
    }

    pub fn next(self) -> Option<Phase> {
        Self::ALL.get(self.index() + 1).copied()
    }

    /// How many items each counted phase held as of the feed head `profile` was read with,
    /// by the counters changed with every create and delete ([`super::caps::counted`]; none
    /// on a profile older than its counters). A snapshot skips the phases that held
    /// nothing, since what they hold now was written after that head and comes from the
    /// feed, and sizes the `Query`s of the phases after the others by their counts.
    pub fn counted_at(profile: &Item) -> Vec<(Phase, u64)> {
        use super::caps::*;
        let counter = |phase| match phase {
            Phase::Categories => Some(CATEGORY_COUNT),
            Phase::Tags => Some(TAG_COUNT),
            Phase::Providers => Some(PROVIDER_COUNT),
            Phase::Rules => Some(RULE_COUNT),
            Phase::Recurring => Some(RECURRING_COUNT),
            _ => None,
        };
        Self::ALL
            .into_iter()
            .filter_map(|p| Some((p, counted(profile, counter(p)?)?)))
            .collect()
    }

    /// The partition and sort-key prefix of the phase's items.
    fn range(self, user_id: u64) -> (String, &'static str) {
        let own = user_pk(user_id);
        match self {
            Phase::Profile => (own, super::keys::PROFILE),
            Phase::Wallet => (own, super::keys::WALLET),
            Phase::GlobalCategories => (Feed::global_of(user_id).pk(), super::keys::CAT_PREFIX),
            Phase::Categories => (own, super::keys::CAT_PREFIX),
            Phase::Tags => (own, "TAG#"),
            Phase::Providers => (own, "PROV#"),
            Phase::Transactions => (own, super::keys::TXN_PREFIX),
            Phase::Rules => (own, super::rules::RULE_PREFIX),
            Phase::Recurring => (own, super::recurring::RECUR_PREFIX),
        }
    }
}

impl Store {
    /// Up to `limit` items of a snapshot phase after sort key `after`, and the sort key to
    /// continue from when more may follow (one `Query`).
    pub async fn snapshot_page(
        &self,
        user_id: u64,
        phase: Phase,
        after: Option<&str>,
        limit: i32,
    ) -> StoreResult<(Vec<Item>, Option<String>)> {
        let (pk, prefix) = phase.range(user_id);
        let start = after.map(|sk| {
            std::collections::HashMap::from([("PK".to_owned(), s(&pk)), ("SK".to_owned(), s(sk))])
        });
        let query = self.query_prefix_range(&pk, None, prefix);
        let out = self.query_page(query, start, limit).await?;
        let next = out
            .last_evaluated_key
            .and_then(|k| k.get("SK").and_then(|v| v.as_s().ok()).cloned());
        Ok((out.items.unwrap_or_default(), next))
    }
}

/// The global categories of each shard as a first sync page last read them, with the
/// shard's feed head read just before that `Query`. While the head has not moved, they have
/// not changed: every write of a global category moves its shard's head in the same
/// transaction. (What the `Query` saw of a write after that head is also replayed from
/// the feed, as for any item of a snapshot.) At most one entry per shard.
#[derive(Clone, Debug, Default)]
pub(crate) struct GlobalsCache(Arc<Mutex<HashMap<String, Cached>>>);

/// A shard's global categories and the feed head they were read under.
type Cached = (u64, Arc<Vec<Item>>);

impl GlobalsCache {
    fn get(&self, pk: &str, head: u64) -> Option<Arc<Vec<Item>>> {
        let cache = self.0.lock().unwrap_or_else(|e| e.into_inner());
        cache
            .get(pk)
            .filter(|(at, _)| *at == head)
            .map(|(_, items)| Arc::clone(items))
    }

    fn put(&self, pk: String, head: u64, items: Vec<Item>) {
        let mut cache = self.0.lock().unwrap_or_else(|e| e.into_inner());
        cache.insert(pk, (head, Arc::new(items)));
    }
}

impl Store {
    /// The shard's global categories as a first sync page last read them, all of them, while
    /// the shard's head `global_head` (read just before) has not moved since.
    pub fn cached_globals(&self, user_id: u64, global_head: u64) -> Option<Vec<Item>> {
        let pk = Feed::global_of(user_id).pk();
        self.globals
            .get(&pk, global_head)
            .map(|items| items.to_vec())
    }

    /// The start of a phase on a first sync page, `global_head` the caller's shard's feed
    /// head read just before: as [`Store::snapshot_page`], and the global categories, when
    /// read whole, kept in the cache under that head (see [`Store::cached_globals`]).
    pub async fn snapshot_start(
        &self,
        user_id: u64,
        phase: Phase,
        limit: i32,
        global_head: u64,
    ) -> StoreResult<(Vec<Item>, Option<String>)> {
        let (items, next) = self.snapshot_page(user_id, phase, None, limit).await?;
        if phase == Phase::GlobalCategories && next.is_none() {
            let pk = Feed::global_of(user_id).pk();
            self.globals.put(pk, global_head, items.clone());
        }
        Ok((items, next))
    }
}
