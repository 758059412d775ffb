//! Writing planned rows: those not imported before (`not_imported`), their names and
//! records (`create`), in chunks of one `TransactWriteItems` each with their markers.

use std::collections::VecDeque;
use std::time::Instant;

use super::build::{build_all, Record};
use super::grouping::grouped;
use super::names::Names;
use super::{Planned, RowError, REPEAT_MESSAGE};
use crate::AppError;
use crate::AppResult;
use pf_domain::time::Timestamp;
use pf_domain::Transaction;
use pf_store::feed::Feed;
use pf_store::{retry, Again, ConflictKind, Store, StoreError, StoreResult};

/// Records written between two looks at the deadline, a few chunks' worth: a window is
/// written whole, in chunks that share counters ([`grouped`]), so the rows left at the
/// deadline are those of the later windows, in file order.
pub(super) const WINDOW: usize = 256;

/// What [`write`] (or [`create`]) did.
#[derive(Debug, Default)]
pub(super) struct Written {
    pub(super) created: usize,
    /// Of `created`, those in a seeded `Uncategorized` category.
    pub(super) uncategorized: usize,
    /// Found imported meanwhile (a concurrent import of the same rows).
    pub(super) raced: usize,
    /// Rows left at the deadline (unwritten; by [`create`], also those whose names were
    /// not created in time), ascending: none of them and nothing after the first was
    /// written.
    pub(super) left: Vec<usize>,
}

/// The planned rows an import writes: those not imported before, under the job (if any)
/// whose markers they get.
pub(super) struct Fresh {
    pub(super) rows: Vec<Planned>,
    job: Option<u64>,
    /// Rows whose markers the same job wrote (a worker retried after writing part of a
    /// chunk), with whether each is uncategorized: created, not duplicates.
    mine: Vec<(usize, bool)>,
}

/// The planned rows not imported before (for `job`, also those its own markers name: see
/// [`Fresh`]), and the rows that were.
pub(super) async fn not_imported(
    store: &Store,
    user_id: u64,
    planned: Vec<Planned>,
    job: Option<u64>,
) -> AppResult<(Fresh, Vec<usize>)> {
    let ids: Vec<&str> = planned.iter().map(|p| p.import_id.as_str()).collect();
    let done = store.imported_by(user_id, &ids).await?;
    let mut fresh = Fresh {
        rows: Vec::new(),
        job,
        mine: Vec::new(),
    };
    let mut seen = Vec::new();
    for p in planned {
        match done.get(&p.import_id) {
            None => fresh.rows.push(p),
            Some(by) if job.is_some() && *by == job => fresh.mine.push((p.row, p.uncategorized)),
            Some(_) => seen.push(p.row),
        }
    }
    Ok((fresh, seen))
}

/// Creates the names the rows need and writes the rows, until the deadline. The rows the
/// same job wrote before count as created when they precede the first row left.
pub(super) async fn create(
    store: &Store,
    user_id: u64,
    names: &Names,
    fresh: Fresh,
    deadline: Instant,
    errors: &mut Vec<RowError>,
) -> AppResult<Written> {
    let Fresh { rows, job, mine } = fresh;
    let mut built = Vec::new();
    let records = build_all(store, user_id, names, rows, deadline, &mut built).await?;
    let (repeat, other): (Vec<RowError>, Vec<RowError>) =
        built.into_iter().partition(|e| e.message == REPEAT_MESSAGE);
    errors.extend(other);
    let mut written = write(store, user_id, records, deadline, job).await?;
    written.left.extend(repeat.iter().map(|e| e.row));
    written.left.sort_unstable();
    // The rest (from the first row left on) is done again, and found again then.
    let first_left = written.left.first().copied();
    for (row, uncategorized) in mine {
        if first_left.is_none_or(|left| row < left) {
            written.created += 1;
            written.uncategorized += usize::from(uncategorized);
        }
    }
    Ok(written)
}

/// Writes the records window by window (see [`WINDOW`]), in chunks of one
/// `TransactWriteItems` each (markers included), until `deadline`.
pub(super) async fn write(
    store: &Store,
    user_id: u64,
    records: Vec<Record>,
    deadline: Instant,
    job: Option<u64>,
) -> AppResult<Written> {
    let mut records = records.into_iter();
    let mut done = Written::default();
    let now = Timestamp::now().to_string();
    // The user's feed head as the last chunk left it (read by the first).
    let mut head = None;
    loop {
        let window: Vec<Record> = records.by_ref().take(WINDOW).collect();
        if window.is_empty() {
            return Ok(done);
        }
        if Instant::now() >= deadline {
            done.left = window
                .iter()
                .chain(records.as_slice())
                .map(|r| r.row)
                .collect();
            return Ok(done);
        }
        let mut chunks: VecDeque<Vec<Record>> = grouped(window).into();
        while let Some(chunk) = chunks.pop_front() {
            let take = chunk.len();
            let (written, mut chunk, mine) =
                write_chunk(store, user_id, chunk, &mut head, &now, job)
                    .await
                    .map_err(write_error)?;
            done.raced += take - chunk.len() - mine.len();
            done.created += written + mine.len();
            done.uncategorized += mine.iter().filter(|&&u| u).count();
            done.uncategorized += chunk[..written].iter().filter(|r| r.uncategorized).count();
            let rest = chunk.split_off(written);
            if !rest.is_empty() {
                chunks.push_front(rest);
            }
        }
    }
}

/// Writes the start of `chunk` under the one retry: how many were written, the chunk
/// without its rows found imported meanwhile (a concurrent import of the same rows
/// cancelled an attempt), and of those the ones whose markers the same `job` wrote (an
/// attempt that wrote but whose answer was lost), by whether each is uncategorized. A taken id is drawn again. `head` is the user's feed head as
/// the write leaves it (`None`: read again), from where the write before left it.
async fn write_chunk(
    store: &Store,
    user_id: u64,
    chunk: Vec<Record>,
    head: &mut Option<u64>,
    now: &str,
    job: Option<u64>,
) -> StoreResult<(usize, Vec<Record>, Vec<bool>)> {
    let chunk = std::sync::Mutex::new(chunk);
    let rows = &chunk;
    let mine = std::sync::Mutex::new(Vec::new());
    let mine = &mine;
    let known = std::sync::Mutex::new(head.take());
    let known = &known;
    let raced = |e: &StoreError| match e {
        StoreError::Conflict(ConflictKind::AlreadyImported) => Again::Now,
        e => e.again(),
    };
    let written = retry(raced, |_| async move {
        let batch: Vec<(Transaction, String)> = rows
            .lock()
            .expect("not poisoned")
            .iter()
            .map(|r| (r.txn.clone(), r.import_id.clone()))
            .collect();
        let at = known.lock().expect("not poisoned").take();
        let at = match at {
            Some(seq) => seq,
            None => store.feed_head(Feed::User(user_id)).await?,
        };
        let e = match store.insert_transactions(&batch, Some(at), now, job).await {
            Err(e) => e,
            Ok(written) => {
                // One feed entry a transaction written.
                *known.lock().expect("not poisoned") = Some(at + written as u64);
                return Ok(written);
            }
        };
        if e.is_conflict(ConflictKind::AlreadyImported) {
            let ids: Vec<&str> = batch.iter().map(|(_, id)| id.as_str()).collect();
            let imported = store.imported_by(user_id, &ids).await?;
            let mut rows = rows.lock().expect("not poisoned");
            let mut mine = mine.lock().expect("not poisoned");
            rows.retain(|r| match imported.get(&r.import_id) {
                None => true,
                Some(by) => {
                    if job.is_some() && *by == job {
                        mine.push(r.uncategorized);
                    }
                    false
                }
            });
        } else if e.is_conflict(ConflictKind::IdTaken) {
            let mut fresh = std::collections::HashSet::new();
            for r in rows.lock().expect("not poisoned").iter_mut() {
                r.txn.id = loop {
                    let id = pf_domain::ids::new_id();
                    if fresh.insert(id) {
                        break id;
                    }
                };
            }
        }
        Err(e)
    })
    .await?;
    *head = *known.lock().expect("not poisoned");
    let mine = std::mem::take(&mut *mine.lock().expect("not poisoned"));
    Ok((written, chunk.into_inner().expect("not poisoned"), mine))
}

/// A write refused midway: what was written stays (with its markers), so the client
/// repeats the import and only the rest is created.
fn write_error(e: StoreError) -> AppError {
    let retry = "the import stopped part way; repeat it: rows already imported are skipped";
    match e {
        StoreError::Conflict(ConflictKind::Wallet) => AppError::Conflict(format!(
            "the wallet changed meanwhile (currency or account); {retry}"
        )),
        StoreError::Conflict(ConflictKind::LimitReached) => {
            crate::transactions::too_many_transactions()
        }
        StoreError::Conflict(ConflictKind::Reference(_)) => AppError::Conflict(format!(
            "a category, provider or tag was deleted or changed meanwhile; {retry}"
        )),
        StoreError::Conflict(_) => AppError::Conflict(retry.into()),
        e => AppError::Store(e),
    }
}
