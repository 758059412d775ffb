//! The change feed for offline clients (`GET /api/sync`): a first sync pages through
//! everything the caller can see (a snapshot, then the changes made meanwhile), later syncs
//! read the changes since their cursor, in commit order, from the caller's feed and their
//! shard's feed of global categories merged by commit time. A page of the feed costs what
//! a list page of its items costs: one `Query` of the user's feed, whose entries carry the
//! items their writes put whole (transactions), and a `BatchGetItem` of the feed heads at
//! the same time (the user's head is their wallet); the shard's feed only when a global
//! category changed, and items written by partial updates, are read afterwards.
//!
//! Each change carries the item as its write left it or as it is now (or a delete when
//! it is gone), so a later change of the same item may already show in an earlier one;
//! applying changes in order always converges to the current state.

mod log;
mod position;
mod resource;

pub use position::Position;
pub use resource::{Resource, SyncChange, SyncPage};

use super::{AppError, AppResult};
use pf_store::batch::key;
use pf_store::feed::{head_seq, now_ms, Feed, Phase, RETENTION_DAYS};
use pf_store::keys::{user_pk, PROFILE};
use pf_store::{Item, Store};

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
    // A first sync reads the heads first, with the user's wallet (their head) and profile
    // as of that moment: the snapshot takes those from there instead of a `Query`, and
    // skips the phases the profile's counters say were empty.
    let (position, known) = match position {
        Some(p) => (p, Known::default()),
        None => {
            let (user_seq, global_seq, known) = heads(store, user_id).await?;
            let start = Position::Snapshot {
                phase: Phase::Profile,
                after: None,
                user_seq,
                global_seq,
            };
            (start, known)
        }
    };
    match position {
        Position::Snapshot {
            phase,
            after,
            user_seq,
            global_seq,
        } => {
            let at = (phase, after);
            snapshot(store, user_id, at, known, (user_seq, global_seq), limit).await
        }
        Position::Log {
            user_seq,
            global_seq,
            issued_ms,
        } => {
            if now_ms() - issued_ms > RETENTION_DAYS * 24 * 3600 * 1000 {
                return Err(gone());
            }
            log::log(store, user_id, user_seq, global_seq, limit).await
        }
    }
}

/// What a first page knows of the snapshot from what it read with the heads: the phases
/// it holds in full (the profile and the wallet), and how many items each counted phase
/// held then (none: the phase is skipped).
#[derive(Default)]
struct Known {
    whole: Vec<(Phase, Vec<Item>)>,
    counts: Vec<(Phase, u64)>,
}

/// The user's and their shard's feed heads, with the user's head item (their wallet) and
/// profile, all as of one moment (one `TransactGetItems`), and what they tell of the
/// snapshot.
async fn heads(store: &Store, user_id: u64) -> AppResult<(u64, u64, Known)> {
    let keys = [Feed::User(user_id), Feed::global_of(user_id)]
        .map(|f| {
            let (pk, sk) = f.head_key();
            key(&pk, sk)
        })
        .into_iter()
        .chain([key(&user_pk(user_id), PROFILE)]);
    let mut items = store.transact_get(keys.collect()).await?.into_iter();
    let (wallet, global, profile) = (items.next(), items.next(), items.next());
    let (wallet, global, profile) = (wallet.flatten(), global.flatten(), profile.flatten());
    let user_seq = wallet.as_ref().map_or(0, head_seq);
    let global_seq = global.as_ref().map_or(0, head_seq);
    let counts = profile.as_ref().map(Phase::counted_at).unwrap_or_default();
    let whole = vec![
        (Phase::Profile, profile.into_iter().collect()),
        (Phase::Wallet, wallet.into_iter().collect()),
    ];
    Ok((user_seq, global_seq, Known { whole, counts }))
}

/// The phases whose `Query`s one round trip sends together: from `phase` up to the first
/// that can fill a page by itself (transactions), so a first page costs one round trip
/// after the heads, and the few rules and schedules are read only once the transactions
/// are done.
fn window(phase: Phase) -> Vec<Phase> {
    let mut phases = vec![phase];
    let mut at = phase;
    while at != Phase::Transactions {
        match at.next() {
            Some(next) => {
                phases.push(next);
                at = next;
            }
            None => break,
        }
    }
    phases
}

/// A page of the snapshot from `after` in `phase`; `known`, when the heads were read with
/// this page (its first), serves for the phases it holds and sizes the others, and the
/// shard's global categories may come from the store's cache (see
/// [`Store::cached_globals`]).
async fn snapshot(
    store: &Store,
    user_id: u64,
    (mut phase, mut after): (Phase, Option<String>),
    mut known: Known,
    (user_seq, global_seq): (u64, u64),
    limit: usize,
) -> AppResult<SyncPage> {
    let at = |phase, after| Position::Snapshot {
        phase,
        after,
        user_seq,
        global_seq,
    };
    // The first page reads right after the heads: what the shard's head says of the
    // global categories holds for it.
    let mut first = !known.whole.is_empty();
    let mut changes = Vec::new();
    loop {
        // The phases of the window the page already has (the known ones and, on a first
        // page, the shard's cached global categories). Each phase asks for what the page
        // still lacks after the phases before it that it has or whose size the heads told
        // (their counters then); the phases after those that fill the page wait for a next
        // round. What a phase returns beyond what fits is read again by the next page, and
        // a page that ends short (a counted phase lost items since) ends with a cursor.
        let phases = window(phase);
        let (mut ahead, mut sized) = (changes.len(), true);
        let mut plan = Vec::new();
        for (i, p) in phases.iter().enumerate() {
            let from = if i == 0 { after.clone() } else { None };
            let count = known.counts.iter().find(|(q, _)| q == p).map(|(_, n)| *n);
            let count = count.filter(|_| from.is_none());
            let have = match known.whole.iter().position(|(q, _)| q == p) {
                Some(i) if from.is_none() => Some(known.whole.swap_remove(i).1),
                _ if count == Some(0) => Some(Vec::new()),
                _ if first && from.is_none() && *p == Phase::GlobalCategories => {
                    store.cached_globals(user_id, global_seq)
                }
                _ => None,
            };
            let want = limit.saturating_sub(if sized { ahead } else { changes.len() });
            if want == 0 && !plan.is_empty() {
                break;
            }
            match (&have, count) {
                (Some(items), _) => ahead += items.len(),
                (None, Some(n)) => ahead += n as usize,
                (None, None) => sized = false,
            }
            plan.push((*p, from, have, want.max(1) as i32));
        }
        let pages = futures::future::try_join_all(plan.into_iter().map(
            |(p, from, have, want)| async move {
                match have {
                    Some(items) => Ok((items, None)),
                    None if first && from.is_none() => {
                        store.snapshot_start(user_id, p, want, global_seq).await
                    }
                    None => store.snapshot_page(user_id, p, from.as_deref(), want).await,
                }
            },
        ))
        .await?;
        first = false;
        for (p, (items, next)) in phases.into_iter().zip(pages) {
            phase = p;
            for item in &items {
                if changes.len() == limit {
                    // Full inside this phase: the next page goes on after the last taken.
                    let taken = item_sk(&items, item);
                    return Ok(SyncPage::more(changes, at(phase, taken)));
                }
                if let Some(r) = Resource::from_item(item)? {
                    changes.push(SyncChange::upsert(r));
                }
            }
            if let Some(sk) = next {
                return Ok(SyncPage::more(changes, at(phase, Some(sk))));
            }
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
            return Ok(SyncPage::more(changes, at(phase, None)));
        }
    }
}

/// The sort key of the item before `item` in `items` (the last one a page took), or
/// `None` when `item` is the first (the phase starts again from its beginning).
fn item_sk(items: &[Item], item: &Item) -> Option<String> {
    let i = items.iter().position(|x| std::ptr::eq(x, item))?;
    let before = items.get(i.checked_sub(1)?)?;
    before.get("SK").and_then(|v| v.as_s().ok()).cloned()
}
