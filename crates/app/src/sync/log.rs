//! A page of changes after a cursor: the caller's feed and their shard's feed of global
//! categories, merged by commit time.
//!
//! Reads, at once: the `Query` of the user's feed and one `BatchGetItem` of both feed heads
//! (to tell a cursor whose changes expired); the shard's feed of global categories, which
//! seldom changes, is read only when its head moved past the cursor. Entries of
//! transactions carry the item their write put, so nothing is read again for them, and the
//! user's head is their wallet, whose balance the page ends with: a page is one round trip.
//! Only when a write committed between the reads (the wallet's head is behind the
//! entries), or entries carry no item (profile, wallet, renames), one more `BatchGetItem`
//! reads those items after the entries.

use std::collections::HashMap;

use super::{gone, AppResult, Position, Resource, SyncChange, SyncPage};
use pf_store::batch::key;
use pf_store::feed::{head_seq, now_ms, Entity, Entry, Feed, Op};
use pf_store::keys::{cat_sk, provider_sk, tag_sk, txn_sk, user_pk, PROFILE, WALLET};
use pf_store::recurring::recur_sk;
use pf_store::rules::rule_sk;
use pf_store::{Item, Store};

type Key = (String, String);

/// The key of the item an entry of `feed` is about.
fn item_key(user_id: u64, feed: Feed, entry: &Entry) -> Key {
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

fn key_of(item: &Item) -> Key {
    let text = |name: &str| {
        item.get(name)
            .and_then(|v| v.as_s().ok())
            .cloned()
            .unwrap_or_default()
    };
    (text("PK"), text("SK"))
}

/// Checks that a feed still holds everything after `seq`: the first entry read must be
/// the next one, and an empty read must mean the head has not moved (else they expired).
/// Entries expire one by one (DynamoDB's TTL), so one missing further on is a gap too.
fn check_continuous(seq: u64, entries: &[Entry], head: u64) -> AppResult<()> {
    let gap = entries.windows(2).any(|w| w[1].seq != w[0].seq + 1);
    match entries.first() {
        Some(first) if first.seq != seq + 1 || gap => Err(gone()),
        None if head > seq => Err(gone()),
        _ => Ok(()),
    }
}

/// The caller's feed and the global one merged by commit time, neither reordered: each
/// stays in `seq` order (a writer's clock may run behind another's, so `at_ms` need not
/// rise with `seq`), and of the two heads the earlier goes first (the global one on a tie).
/// A feed read `short` of its head (DynamoDB ends a Query at 1 MB) ends the merge where
/// its entries run out: the other feed's later entries wait for its unread ones.
fn merge(
    (mine, own): (Feed, Vec<Entry>),
    (global, shared): (Feed, Vec<Entry>),
    short: (bool, bool),
) -> Vec<(Feed, Entry)> {
    let mut merged = Vec::with_capacity(own.len() + shared.len());
    let (mut own, mut shared) = (own.into_iter().peekable(), shared.into_iter().peekable());
    loop {
        let own_first = match (own.peek(), shared.peek()) {
            (Some(o), Some(g)) => o.at_ms < g.at_ms,
            (Some(_), None) if !short.1 => true,
            (None, Some(_)) if !short.0 => false,
            _ => return merged,
        };
        match own_first {
            true => merged.extend(own.next().map(|e| (mine, e))),
            false => merged.extend(shared.next().map(|e| (global, e))),
        }
    }
}

/// The entries of `feed` after `seq`, checked against its `head` as read at the same time.
/// A read that found nothing while the head had moved is made again once: the entries may
/// have committed between the two reads (a head and its entries commit together, so they
/// are there now), or they expired.
async fn continuous(
    store: &Store,
    feed: Feed,
    seq: u64,
    fetch: i32,
    (entries, head): (Vec<Entry>, u64),
) -> AppResult<Vec<Entry>> {
    let entries = if entries.is_empty() && head > seq {
        store.feed_entries(feed, seq, fetch).await?
    } else {
        entries
    };
    check_continuous(seq, &entries, head)?;
    Ok(entries)
}

pub(super) async fn log(
    store: &Store,
    user_id: u64,
    user_seq: u64,
    global_seq: u64,
    limit: usize,
) -> AppResult<SyncPage> {
    let fetch = (limit + 1) as i32;
    let (mine, global) = (Feed::User(user_id), Feed::global_of(user_id));
    let head_key = |feed: Feed| {
        let (pk, sk) = feed.head_key();
        key(&pk, sk)
    };
    let heads = vec![head_key(mine), head_key(global)];
    let (own, heads) = tokio::try_join!(
        store.feed_entries(mine, user_seq, fetch),
        store.batch_get(heads),
    )?;
    let head_of = |feed: Feed| {
        heads
            .iter()
            .find(|h| key_of(h).0 == feed.pk())
            .map_or(0, head_seq)
    };
    // The global categories seldom change: their feed is read only when its head moved
    // past the cursor (then after the heads; a read that races a global change finds it
    // on the next page).
    let shared = if head_of(global) > global_seq {
        store.feed_entries(global, global_seq, fetch).await?
    } else {
        Vec::new()
    };
    let (own, shared) = tokio::try_join!(
        continuous(store, mine, user_seq, fetch, (own, head_of(mine))),
        continuous(store, global, global_seq, fetch, (shared, head_of(global))),
    )?;

    // A read that ends short of `fetch` with its head further on stopped at 1 MB.
    let short = |entries: &[Entry], seq: u64, feed: Feed| {
        entries.len() < fetch as usize && entries.last().map_or(seq, |e| e.seq) < head_of(feed)
    };
    let short = (
        short(&own, user_seq, mine),
        short(&shared, global_seq, global),
    );
    let mut merged = merge((mine, own), (global, shared), short);
    let has_more = merged.len() > limit;
    merged.truncate(limit);
    let (mut next_user, mut next_global) = (user_seq, global_seq);
    for (feed, e) in &merged {
        match feed {
            Feed::User(_) => next_user = next_user.max(e.seq),
            Feed::Global(_) => next_global = next_global.max(e.seq),
        }
    }
    // A Query stops at 1 MB whatever its limit (entries carry whole items, a note up to
    // 4 KB): a page may end short of `limit` with changes left. The heads say so.
    let has_more = has_more || next_user < head_of(mine) || next_global < head_of(global);

    // A later change of an item replaces an earlier one within the page.
    let mut last: HashMap<Key, usize> = HashMap::new();
    for (i, (feed, e)) in merged.iter().enumerate() {
        last.insert(item_key(user_id, *feed, e), i);
    }
    // Every transaction change moves the wallet: it is sent after them. The wallet read
    // with the heads is its head: when its `seq` covers the page, it is at least as new as
    // every entry taken and serves as is; else (a write committed between the two reads)
    // it is read again, after the entries.
    let wallet_key = (user_pk(user_id), WALLET.to_owned());
    let moves_wallet = merged.iter().any(|(_, e)| e.entity == Entity::Transaction);
    let mut current: HashMap<Key, Resource> = HashMap::new();
    if let Some(wallet) = heads.iter().find(|h| key_of(h) == wallet_key) {
        if head_seq(wallet) >= next_user {
            if let Some(r) = Resource::from_item(wallet)? {
                current.insert(wallet_key.clone(), r);
            }
        }
    }
    let wanted: Vec<Item> = last
        .iter()
        .filter(|(_, &i)| merged[i].1.item.is_none() && merged[i].1.op == Op::Upsert)
        .map(|(k, _)| k)
        .chain((moves_wallet && !last.contains_key(&wallet_key)).then_some(&wallet_key))
        .filter(|k| !current.contains_key(*k))
        .map(|(pk, sk)| key(pk, sk))
        .collect();
    let found = if wanted.is_empty() {
        Vec::new()
    } else {
        store.batch_get_all(wanted).await?
    };
    for item in &found {
        if let Some(r) = Resource::from_item(item)? {
            current.insert(key_of(item), r);
        }
    }

    let mut changes = Vec::with_capacity(merged.len() + 1);
    for (i, (feed, mut e)) in merged.into_iter().enumerate() {
        let at = item_key(user_id, feed, &e);
        if last.get(&at) != Some(&i) {
            continue;
        }
        let carried = match e.op {
            Op::Upsert => match e.restore(at.clone()) {
                Some(item) => Resource::from_item(&item)?,
                None => None,
            },
            Op::Delete => None,
        };
        changes.push(match carried.or_else(|| current.remove(&at)) {
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
    use crate::AppError;

    fn entry(seq: u64) -> Entry {
        at(seq, 0)
    }

    fn at(seq: u64, at_ms: i64) -> Entry {
        Entry {
            seq,
            entity: Entity::Tag,
            id: 1,
            op: Op::Upsert,
            version: 1,
            at_ms,
            item: None,
        }
    }

    #[test]
    fn a_feed_keeps_its_order_whatever_its_writers_clocks_said() {
        let (mine, global) = (Feed::User(7), Feed::global_of(7));
        // Seq 7 was committed by a host whose clock ran 2 ms behind the one of seq 6.
        let own = vec![at(6, 105), at(7, 103), at(8, 110)];
        let shared = vec![at(3, 104), at(4, 120)];
        let order: Vec<(bool, u64)> = merge((mine, own), (global, shared), (false, false))
            .iter()
            .map(|(f, e)| (matches!(f, Feed::User(_)), e.seq))
            .collect();
        let (user, other) = (true, false);
        assert_eq!(
            order,
            [(other, 3), (user, 6), (user, 7), (user, 8), (other, 4)]
        );
        // A tie goes to the global feed, as before.
        let seqs = |short| -> Vec<u64> {
            let (own, shared) = ((mine, vec![at(1, 5)]), (global, vec![at(9, 5)]));
            merge(own, shared, short)
                .iter()
                .map(|(_, e)| e.seq)
                .collect()
        };
        assert_eq!(seqs((false, false)), [9, 1]);
        // A feed read short of its head: the other's entries after its last one wait.
        let own = vec![at(6, 105), at(7, 103)];
        let shared = vec![at(3, 104), at(4, 120)];
        let order: Vec<u64> = merge((mine, own), (global, shared), (true, false))
            .iter()
            .map(|(_, e)| e.seq)
            .collect();
        assert_eq!(order, [3, 6, 7]);
        assert_eq!(seqs((false, true)), [9]);
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
        // The first one is there, a later one expired.
        assert!(matches!(
            check_continuous(4, &[entry(5), entry(7)], 7),
            Err(AppError::Gone(_))
        ));
    }
}
