//! Writing planned records in chunks, one `TransactWriteItems` each with their markers.

use std::collections::VecDeque;

use crate::app::AppError;
use crate::app::AppResult;
use crate::domain::time::Timestamp;
use crate::store::transactions::Transaction;
use crate::store::{ConflictKind, Store, StoreError};

/// Transactions offered to one `TransactWriteItems` (two items each, plus the counters;
/// the store takes fewer when they do not fit in 100 items).
const CHUNK: usize = 48;
/// Writing stops after this long (API Gateway gives up at 30 s): the rows left are
/// reported as errors, and repeating the import writes them.
const WRITE_BUDGET: std::time::Duration = std::time::Duration::from_secs(24);
/// Passes over one chunk that a concurrent import keeps cancelling before giving up.
const CHUNK_ATTEMPTS: usize = 5;

/// A row to write: its number, its record and its import id.
pub(super) type Record = (usize, Transaction, String);

/// Writes the records in chunks (one `TransactWriteItems` each, markers included) and
/// returns (created, found imported meanwhile, left unwritten at the time limit). A chunk
/// cancelled by a marker (a concurrent import of the same rows) is re-read and retried
/// without those rows.
pub(super) async fn write(
    store: &Store,
    user_id: u64,
    records: Vec<Record>,
) -> AppResult<(usize, usize, Vec<Record>)> {
    let started = std::time::Instant::now();
    let mut queue: VecDeque<Record> = records.into();
    let (mut created, mut raced, mut attempts) = (0, 0, 0);
    let now = Timestamp::now().to_string();
    while !queue.is_empty() {
        if started.elapsed() > WRITE_BUDGET {
            return Ok((created, raced, queue.into()));
        }
        let take = queue.len().min(CHUNK);
        let mut chunk: Vec<Record> = queue.drain(..take).collect();
        let batch: Vec<(Transaction, String)> = chunk
            .iter()
            .map(|(_, t, id)| (t.clone(), id.clone()))
            .collect();
        match store.insert_transactions(&batch, &now).await {
            Ok(written) => {
                created += written;
                attempts = 0;
                for rest in chunk.drain(written..).rev() {
                    queue.push_front(rest);
                }
            }
            Err(e) if attempts >= CHUNK_ATTEMPTS => return Err(write_error(e)),
            Err(StoreError::Conflict(ConflictKind::AlreadyImported)) => {
                attempts += 1;
                let ids: Vec<&str> = chunk.iter().map(|(_, _, id)| id.as_str()).collect();
                let done = store.imported(user_id, &ids).await?;
                chunk.retain(|(_, _, id)| !done.contains(id));
                raced += take - chunk.len();
                for rest in chunk.into_iter().rev() {
                    queue.push_front(rest);
                }
            }
            Err(StoreError::Conflict(ConflictKind::IdTaken)) => {
                attempts += 1;
                let mut fresh = std::collections::HashSet::new();
                for (_, t, _) in &mut chunk {
                    t.id = loop {
                        let id = crate::domain::ids::new_id();
                        if fresh.insert(id) {
                            break id;
                        }
                    };
                }
                for rest in chunk.into_iter().rev() {
                    queue.push_front(rest);
                }
            }
            Err(e) => return Err(write_error(e)),
        }
    }
    Ok((created, raced, Vec::new()))
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
