//! The change feed for offline clients (`GET /api/sync`): a first sync pages through
//! everything the caller can see (a snapshot, then the changes made meanwhile), later syncs
//! read the changes since their cursor, in commit order, from the caller's feed and their
//! shard's feed of global categories merged by commit time. A page costs O(its changes):
//! one `Query` per feed and the current items in `BatchGetItem`s.
//!
//! Each change carries the item as it is now (or a delete when it is gone), so a later
//! change of the same item may already show in an earlier one; applying changes in order
//! always converges to the current state.

use std::collections::HashMap;

use super::{AppError, AppResult};
use crate::domain::{Category, Label, Transaction, User, Wallet};
use crate::store::feed::{
    head_seq, now_ms, Entity, Entry, Feed, Op, Phase, FEED_SK, RETENTION_DAYS,
};
use crate::store::keys::{cat_sk, provider_sk, tag_sk, txn_sk, user_pk, PROFILE, WALLET};
use crate::store::{Item, Store};

pub const DEFAULT_LIMIT: usize = 200;
pub const MAX_LIMIT: usize = 500;

/// Where a sync continues.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Position {
    /// Paging through the current items; then the changes after the feed heads read when
    /// the snapshot began.
    Snapshot {
        phase: Phase,
        after: Option<String>,
        user_seq: u64,
        global_seq: u64,
    },
    /// After these entries of the caller's feed and their shard's global one.
    Log {
        user_seq: u64,
        global_seq: u64,
        /// When the cursor was issued (epoch ms): older than the retention is gone.
        issued_ms: i64,
    },
}

impl Position {
    /// The cursor payload (sealed by the HTTP layer before it reaches a client).
    pub fn encode(&self) -> String {
        match self {
            Position::Snapshot {
                phase,
                after,
                user_seq,
                global_seq,
            } => format!(
                "s|{}|{}|{}|{}",
                phase.index(),
                user_seq,
                global_seq,
                after.as_deref().unwrap_or("")
            ),
            Position::Log {
                user_seq,
                global_seq,
                issued_ms,
            } => format!("l|{user_seq}|{global_seq}|{issued_ms}"),
        }
    }

    pub fn decode(text: &str) -> Option<Self> {
        let mut parts = text.splitn(5, '|');
        match parts.next()? {
            "s" => {
                let phase = *Phase::ALL.get(parts.next()?.parse::<usize>().ok()?)?;
                let user_seq = parts.next()?.parse().ok()?;
                let global_seq = parts.next()?.parse().ok()?;
                let after = parts.next()?;
                Some(Position::Snapshot {
                    phase,
                    after: (!after.is_empty()).then(|| after.to_owned()),
                    user_seq,
                    global_seq,
                })
            }
            "l" => Some(Position::Log {
                user_seq: parts.next()?.parse().ok()?,
                global_seq: parts.next()?.parse().ok()?,
                issued_ms: parts.next()?.parse().ok()?,
            }),
            _ => None,
        }
    }
}

/// An item as it is now.
#[derive(Debug, Clone, PartialEq)]
pub enum Resource {
    User(User),
    Wallet(Wallet),
    Category(Category),
    Tag(Label),
    Provider(Label),
    Transaction(Transaction),
}

impl Resource {
    /// The item's id and version.
    fn id_version(&self) -> (u64, u64) {
        match self {
            Resource::User(u) => (u.id, u.version),
            Resource::Wallet(w) => (w.id, w.version),
            Resource::Category(c) => (c.id, c.version),
            Resource::Tag(l) | Resource::Provider(l) => (l.id, l.version),
            Resource::Transaction(t) => (t.id, t.version),
        }
    }

    fn entity(&self) -> Entity {
        match self {
            Resource::User(_) => Entity::User,
            Resource::Wallet(_) => Entity::Wallet,
            Resource::Category(_) => Entity::Category,
            Resource::Tag(_) => Entity::Tag,
            Resource::Provider(_) => Entity::Provider,
            Resource::Transaction(_) => Entity::Transaction,
        }
    }

    /// Reads an item of a synced kind (`None` for other items).
    fn from_item(item: &Item) -> anyhow::Result<Option<Self>> {
        let sk = item
            .get("SK")
            .and_then(|v| v.as_s().ok())
            .map(String::as_str)
            .unwrap_or_default();
        Ok(Some(if sk == PROFILE {
            Resource::User(User::try_from(item)?)
        } else if sk == WALLET {
            Resource::Wallet(Wallet::try_from(item)?)
        } else if sk.starts_with("CAT#") {
            Resource::Category(Category::try_from(item)?)
        } else if sk.starts_with("TAG#") {
            Resource::Tag(Label::try_from(item)?)
        } else if sk.starts_with("PROV#") {
            Resource::Provider(Label::try_from(item)?)
        } else if sk.starts_with("TXN#") {
            Resource::Transaction(Transaction::try_from(item)?)
        } else {
            return Ok(None);
        }))
    }
}

/// One change as a client sees it: the item now, or its deletion.
#[derive(Debug, Clone, PartialEq)]
pub struct SyncChange {
    pub entity: Entity,
    pub id: u64,
    pub op: Op,
    pub version: u64,
    pub data: Option<Resource>,
}

impl SyncChange {
    fn upsert(r: Resource) -> Self {
        let (id, version) = r.id_version();
        Self {
            entity: r.entity(),
            id,
            op: Op::Upsert,
            version,
            data: Some(r),
        }
    }
}

#[derive(Debug)]
pub struct SyncPage {
    pub changes: Vec<SyncChange>,
    pub next: Position,
    pub has_more: bool,
}

impl SyncPage {
    /// A page after which more changes wait.
    fn more(changes: Vec<SyncChange>, next: Position) -> Self {
        Self {
            changes,
            next,
            has_more: true,
        }
    }
}

fn gone() -> AppError {
    AppError::Gone(format!(
        "this cursor is older than the {RETENTION_DAYS} days of changes kept: sync again without a cursor"
    ))
}

/// One page of the caller's feed from `position` (`None`: a first sync).
pub async fn page(
    store: &Store,
    user_id: u64,
    position: Option<Position>,
    limit: usize,
) -> AppResult<SyncPage> {
    let position = match position {
        Some(p) => p,
        None => {
            let (user_seq, global_seq) = heads(store, user_id).await?;
            Position::Snapshot {
                phase: Phase::Profile,
                after: None,
                user_seq,
                global_seq,
            }
        }
    };
    match position {
        Position::Snapshot {
            phase,
            after,
            user_seq,
            global_seq,
        } => snapshot(store, user_id, phase, after, (user_seq, global_seq), limit).await,
        Position::Log {
            user_seq,
            global_seq,
            issued_ms,
        } => {
            if now_ms() - issued_ms > RETENTION_DAYS * 24 * 3600 * 1000 {
                return Err(gone());
            }
            log(store, user_id, user_seq, global_seq, limit).await
        }
    }
}

async fn heads(store: &Store, user_id: u64) -> AppResult<(u64, u64)> {
    let global_pk = Feed::global_of(user_id).pk();
    let items = store
        .batch_get(vec![
            crate::store::batch::key(&user_pk(user_id), FEED_SK),
            crate::store::batch::key(&global_pk, FEED_SK),
        ])
        .await?;
    let (mut user, mut global) = (0, 0);
    for item in &items {
        match item.get("PK").and_then(|v| v.as_s().ok()) {
            Some(pk) if *pk == global_pk => global = head_seq(item),
            _ => user = head_seq(item),
        }
    }
    Ok((user, global))
}

async fn snapshot(
    store: &Store,
    user_id: u64,
    mut phase: Phase,
    mut after: Option<String>,
    (user_seq, global_seq): (u64, u64),
    limit: usize,
) -> AppResult<SyncPage> {
    let mut changes = Vec::new();
    loop {
        let want = (limit - changes.len()) as i32;
        let (items, next) = store
            .snapshot_page(user_id, phase, after.as_deref(), want)
            .await?;
        for item in &items {
            if let Some(r) = Resource::from_item(item)? {
                changes.push(SyncChange::upsert(r));
            }
        }
        if let Some(sk) = next {
            let next = Position::Snapshot {
                phase,
                after: Some(sk),
                user_seq,
                global_seq,
            };
            return Ok(SyncPage::more(changes, next));
        }
        after = None;
        match phase.next() {
            Some(p) => phase = p,
            // The snapshot is complete: the changes made since it began come next.
            None => {
                let next = Position::Log {
                    user_seq,
                    global_seq,
                    issued_ms: now_ms(),
                };
                return Ok(SyncPage::more(changes, next));
            }
        }
        if changes.len() >= limit {
            let next = Position::Snapshot {
                phase,
                after: None,
                user_seq,
                global_seq,
            };
            return Ok(SyncPage::more(changes, next));
        }
    }
}

/// The key of the item an entry of `feed` is about.
fn item_key(user_id: u64, feed: Feed, entry: &Entry) -> (String, String) {
    let pk = match feed {
        Feed::Global(_) => feed.pk(),
        Feed::User(_) => user_pk(user_id),
    };
    let sk = match entry.entity {
        Entity::User => PROFILE.to_owned(),
        Entity::Wallet => WALLET.to_owned(),
        Entity::Category => cat_sk(entry.id),
        Entity::Tag => tag_sk(entry.id),
        Entity::Provider => provider_sk(entry.id),
        Entity::Transaction => txn_sk(entry.id),
    };
    (pk, sk)
}

/// Checks that a feed still holds everything after `seq`: the first entry read must be
/// the next one, and an empty read must mean the head has not moved (else they expired).
fn check_continuous(seq: u64, entries: &[Entry], head: u64) -> AppResult<()> {
    match entries.first() {
        Some(first) if first.seq != seq + 1 => Err(gone()),
        None if head > seq => Err(gone()),
        _ => Ok(()),
    }
}

async fn log(
    store: &Store,
    user_id: u64,
    user_seq: u64,
    global_seq: u64,
    limit: usize,
) -> AppResult<SyncPage> {
    let fetch = (limit + 1) as i32;
    let global = Feed::global_of(user_id);
    let (own, shared) = tokio::try_join!(
        store.feed_entries(Feed::User(user_id), user_seq, fetch),
        store.feed_entries(global, global_seq, fetch),
    )?;
    // Merged by commit time; the feeds are independent, each stays in its own order.
    let mut merged: Vec<(Feed, Entry)> = own
        .iter()
        .cloned()
        .map(|e| (Feed::User(user_id), e))
        .chain(shared.iter().cloned().map(|e| (global, e)))
        .collect();
    merged.sort_by_key(|(feed, e)| (e.at_ms, matches!(feed, Feed::User(_)), e.seq));
    let has_more = merged.len() > limit;
    merged.truncate(limit);

    let (mut next_user, mut next_global) = (user_seq, global_seq);
    for (feed, e) in &merged {
        match feed {
            Feed::User(_) => next_user = next_user.max(e.seq),
            Feed::Global(_) => next_global = next_global.max(e.seq),
        }
    }
    // A later change of an item replaces an earlier one within the page.
    let mut last: HashMap<(String, String), usize> = HashMap::new();
    for (i, (feed, e)) in merged.iter().enumerate() {
        last.insert(item_key(user_id, *feed, e), i);
    }
    let mut keys: Vec<(String, String)> = last.keys().cloned().collect();
    // Every transaction change moves the wallet: it is sent after them.
    let wallet_key = (user_pk(user_id), WALLET.to_owned());
    let moves_wallet = merged.iter().any(|(_, e)| e.entity == Entity::Transaction);
    if moves_wallet && !last.contains_key(&wallet_key) {
        keys.push(wallet_key.clone());
    }
    let mut wanted: Vec<Item> = keys
        .iter()
        .map(|(pk, sk)| crate::store::batch::key(pk, sk))
        .collect();
    wanted.push(crate::store::batch::key(&user_pk(user_id), FEED_SK));
    wanted.push(crate::store::batch::key(&global.pk(), FEED_SK));
    let found = store.batch_get_all(wanted).await?;

    let mut current: HashMap<(String, String), Resource> = HashMap::new();
    let (mut user_head, mut global_head) = (0, 0);
    for item in &found {
        let pk = item
            .get("PK")
            .and_then(|v| v.as_s().ok())
            .cloned()
            .unwrap_or_default();
        let sk = item
            .get("SK")
            .and_then(|v| v.as_s().ok())
            .cloned()
            .unwrap_or_default();
        if sk == FEED_SK {
            if pk == global.pk() {
                global_head = head_seq(item);
            } else {
                user_head = head_seq(item);
            }
        } else if let Some(r) = Resource::from_item(item)? {
            current.insert((pk, sk), r);
        }
    }
    check_continuous(user_seq, &own, user_head)?;
    check_continuous(global_seq, &shared, global_head)?;

    let mut changes = Vec::with_capacity(merged.len() + 1);
    for (i, (feed, e)) in merged.iter().enumerate() {
        let key = item_key(user_id, *feed, e);
        if last.get(&key) != Some(&i) {
            continue;
        }
        changes.push(match current.remove(&key) {
            Some(r) => SyncChange::upsert(r),
            None => SyncChange {
                entity: e.entity,
                id: e.id,
                op: Op::Delete,
                version: e.version,
                data: None,
            },
        });
    }
    if moves_wallet {
        if let Some(w) = current.remove(&wallet_key) {
            changes.push(SyncChange::upsert(w));
        }
    }
    Ok(SyncPage {
        changes,
        next: Position::Log {
            user_seq: next_user,
            global_seq: next_global,
            issued_ms: now_ms(),
        },
        has_more,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_survive_their_encoding() {
        let all = [
            Position::Snapshot {
                phase: Phase::Tags,
                after: Some("TAG#12".into()),
                user_seq: 4,
                global_seq: 9,
            },
            Position::Snapshot {
                phase: Phase::Profile,
                after: None,
                user_seq: 0,
                global_seq: 0,
            },
            Position::Log {
                user_seq: 17,
                global_seq: 3,
                issued_ms: 1_790_000_000_000,
            },
        ];
        for p in all {
            assert_eq!(Position::decode(&p.encode()), Some(p));
        }
        assert_eq!(Position::decode("x|1"), None);
        assert_eq!(Position::decode("s|99|0|0|"), None);
    }

    fn entry(seq: u64) -> Entry {
        Entry {
            seq,
            entity: Entity::Tag,
            id: 1,
            op: Op::Upsert,
            version: 1,
            at_ms: 0,
        }
    }

    #[test]
    fn a_gap_after_the_cursor_means_its_changes_expired() {
        assert!(check_continuous(4, &[entry(5), entry(6)], 6).is_ok());
        assert!(check_continuous(6, &[], 6).is_ok());
        assert!(matches!(
            check_continuous(4, &[entry(7)], 7),
            Err(AppError::Gone(_))
        ));
        assert!(matches!(
            check_continuous(4, &[], 9),
            Err(AppError::Gone(_))
        ));
    }
}
