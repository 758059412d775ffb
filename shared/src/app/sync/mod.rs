//! The change feed for offline clients (`GET /api/sync`): a first sync pages through
//! everything the caller can see (a snapshot, then the changes made meanwhile), later syncs
//! read the changes since their cursor, in commit order, from the caller's feed and their
//! shard's feed of global categories merged by commit time. A page costs O(its changes):
//! one `Query` per feed and the current items in `BatchGetItem`s.
//!
//! Each change carries the item as it is now (or a delete when it is gone), so a later
//! change of the same item may already show in an earlier one; applying changes in order
//! always converges to the current state.

mod position;
mod resource;

pub use position::Position;
pub use resource::{Resource, SyncChange, SyncPage};

use std::collections::HashMap;

use super::{AppError, AppResult};
use crate::store::feed::{
    head_seq, now_ms, Entity, Entry, Feed, Op, Phase, FEED_SK, RETENTION_DAYS,
};
use crate::store::keys::{cat_sk, provider_sk, tag_sk, txn_sk, user_pk, PROFILE, WALLET};
use crate::store::recurring::recur_sk;
use crate::store::rules::rule_sk;
use crate::store::{Item, Store};

pub const DEFAULT_LIMIT: usize = 200;
pub const MAX_LIMIT: usize = 500;

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
        Entity::Rule => rule_sk(entry.id),
        Entity::Recurring => recur_sk(entry.id),
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

    fn entry(seq: u64) -> Entry {
        Entry {
            seq,
            entity: Entity::Tag,
            id: 1,
            op: Op::Upsert,
            version: 1,
            at_ms: 0,
            item: None,
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
