//! Writing planned rows: those not imported before (`not_imported`), their names and
//! records (`create`), in chunks of one `TransactWriteItems` each with their markers.

use std::collections::VecDeque;
use std::time::Instant;

use super::build::build_all;
use super::names::Names;
use super::{Planned, RowError, REPEAT_MESSAGE};
use crate::app::AppError;
use crate::app::AppResult;
use crate::domain::time::Timestamp;
use crate::domain::Transaction;
use crate::store::{retry, Again, ConflictKind, Store, StoreError, StoreResult};

/// Transactions offered to one `TransactWriteItems` (two items each, plus the counters;
/// the store takes fewer when they do not fit in 100 items).
const CHUNK: usize = 48;

/// A row to write.
#[derive(Debug, Clone)]
pub(super) struct Record {
    pub(super) row: usize,
    pub(super) txn: Transaction,
    pub(super) import_id: String,
    /// In a seeded `Uncategorized` category.
    pub(super) uncategorized: bool,
}

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

/// The planned rows not imported before, and the rows that were.
pub(super) async fn not_imported(
    store: &Store,
    user_id: u64,
    planned: Vec<Planned>,
) -> AppResult<(Vec<Planned>, Vec<usize>)> {
    let ids: Vec<&str> = planned.iter().map(|p| p.import_id.as_str()).collect();
    let done = store.imported(user_id, &ids).await?;
    let (seen, fresh): (Vec<Planned>, Vec<Planned>) = planned
        .into_iter()
        .partition(|p| done.contains(&p.import_id));
    Ok((fresh, seen.into_iter().map(|p| p.row).collect()))
}

/// Creates the names the rows need and writes the rows, until the deadline.
pub(super) async fn create(
    store: &Store,
    user_id: u64,
    names: &Names,
    fresh: Vec<Planned>,
    deadline: Instant,
    errors: &mut Vec<RowError>,
) -> AppResult<Written> {
    let mut built = Vec::new();
    let records = build_all(store, user_id, names, fresh, deadline, &mut built).await?;
    let (repeat, other): (Vec<RowError>, Vec<RowError>) =
        built.into_iter().partition(|e| e.message == REPEAT_MESSAGE);
    errors.extend(other);
    let mut written = write(store, user_id, records, deadline).await?;
    written.left.extend(repeat.iter().map(|e| e.row));
    written.left.sort_unstable();
    Ok(written)
}

/// Writes the records in chunks (one `TransactWriteItems` each, markers included) until
/// `deadline`.
pub(super) async fn write(
    store: &Store,
    user_id: u64,
    records: Vec<Record>,
    deadline: Instant,
) -> AppResult<Written> {
    let mut queue: VecDeque<Record> = records.into();
    let mut done = Written::default();
    let now = Timestamp::now().to_string();
    while !queue.is_empty() {
        if Instant::now() >= deadline {
            done.left = queue.iter().map(|r| r.row).collect();
            return Ok(done);
        }
        let take = queue.len().min(CHUNK);
        let chunk: Vec<Record> = queue.drain(..take).collect();
        let (written, mut chunk) = write_chunk(store, user_id, chunk, &now)
            .await
            .map_err(write_error)?;
        done.raced += take - chunk.len();
        done.created += written;
        done.uncategorized += chunk[..written].iter().filter(|r| r.uncategorized).count();
        for rest in chunk.drain(written..).rev() {
            queue.push_front(rest);
        }
    }
    Ok(done)
}

/// Writes the start of `chunk` under the one retry: how many were written, and the chunk
/// without its rows found imported meanwhile (a concurrent import of the same rows
/// cancelled an attempt). A taken id is drawn again.
async fn write_chunk(
    store: &Store,
    user_id: u64,
    chunk: Vec<Record>,
    now: &str,
) -> StoreResult<(usize, Vec<Record>)> {
    let chunk = std::sync::Mutex::new(chunk);
    let rows = &chunk;
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
        let e = match store.insert_transactions(&batch, now).await {
            Err(e) => e,
            written => return written,
        };
        if e.is_conflict(ConflictKind::AlreadyImported) {
            let ids: Vec<&str> = batch.iter().map(|(_, id)| id.as_str()).collect();
            let imported = store.imported(user_id, &ids).await?;
            let mut rows = rows.lock().expect("not poisoned");
            rows.retain(|r| !imported.contains(&r.import_id));
        } else if e.is_conflict(ConflictKind::IdTaken) {
            let mut fresh = std::collections::HashSet::new();
            for r in rows.lock().expect("not poisoned").iter_mut() {
                r.txn.id = loop {
                    let id = crate::domain::ids::new_id();
                    if fresh.insert(id) {
                        break id;
                    }
                };
            }
        }
        Err(e)
    })
    .await?;
    Ok((written, chunk.into_inner().expect("not poisoned")))
}

/// A write refused midway: what was written stays (with its markers), so the client
/// repeats the import and only the rest is created.
fn write_error(e: StoreError) -> AppError {
    let retry = "the import stopped part way; repeat it: rows already imported are skipped";
    match e {
        StoreError::Conflict(ConflictKind::Wallet) => AppError::Conflict(format!(
            "the wallet changed meanwhile (currency or account); {retry}"
        )),
        StoreError::Conflict(ConflictKind::Reference(_)) => AppError::Conflict(format!(
            "a category, provider or tag was deleted or changed meanwhile; {retry}"
        )),
        StoreError::Conflict(_) => AppError::Conflict(retry.into()),
        e => AppError::Store(e),
    }
}
