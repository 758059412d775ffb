//! Working on a job: chunk after chunk, each imported as an import within a request
//! would (rules, names, markers), its progress saved as the job's next step.

use std::time::Instant;

use super::chunks;
use super::{load, save, Job, JobRef, JobStatus, Progress, CHUNK_TIME};
use crate::imports::write::{create, not_imported};
use crate::imports::{default_category, plan, ImportRow, Names, ParsedFile, RowError};
use crate::{AppError, AppResult};
use pf_store::{ConflictKind, Store, StoreError};

/// Works on a job until it is done or `deadline` is near; `true` when more is left.
pub async fn work(store: &Store, job: JobRef, deadline: Instant) -> AppResult<bool> {
    work_chunks(store, job, deadline, usize::MAX).await
}

/// [`work`] through at most `max_chunks` chunks (the tests stop a job half way with it).
pub async fn work_chunks(
    store: &Store,
    job_ref: JobRef,
    deadline: Instant,
    max_chunks: usize,
) -> AppResult<bool> {
    let Some(mut job) = load(store, job_ref).await? else {
        return Ok(false);
    };
    let user_id = job_ref.user_id;
    for _ in 0..max_chunks {
        if job.status != JobStatus::Running {
            return Ok(false);
        }
        if deadline.saturating_duration_since(Instant::now()) < CHUNK_TIME {
            return Ok(true);
        }
        match chunk(store, user_id, &job, deadline).await {
            Ok(done) => {
                job.created += done.created;
                job.duplicates += done.duplicates;
                job.add_errors(done.errors);
                match done.resume_row {
                    Some(row) => job.progress.resume_row = row,
                    None => {
                        job.progress.next_chunk += 1;
                        job.progress.resume_row = 0;
                    }
                }
                if job.progress.next_chunk >= job.progress.chunks {
                    job.finish(JobStatus::Done);
                }
            }
            Err((row, e)) => {
                tracing::warn!(error = ?e, job_id = job.id, "an import job failed");
                job.fail(stopped(row, &e));
            }
        }
        match save(store, user_id, &mut job).await {
            // Another worker went on meanwhile (a retried invocation): it carries on.
            Err(AppError::Store(StoreError::Conflict(ConflictKind::Changed))) => return Ok(false),
            other => other?,
        }
    }
    Ok(job.status == JobStatus::Running)
}

/// The error of a job that stopped at `row`.
pub(super) fn stopped(row: usize, e: &AppError) -> RowError {
    let why = match e {
        AppError::Conflict(m) | AppError::NotFound(m) | AppError::Unprocessable(m) => m.clone(),
        _ => "the import stopped part way".into(),
    };
    let message = format!(
        "{why}; rows from this one on were not imported: post the file again (rows already \
         imported are skipped)"
    );
    RowError::new(row.max(1), "row", message)
}

/// What one chunk did.
struct ChunkDone {
    created: usize,
    duplicates: usize,
    errors: Vec<RowError>,
    /// The row it stopped at, when the deadline came first.
    resume_row: Option<usize>,
}

/// Imports the job's next chunk (from its resume row on); an error names the row it
/// stopped at.
async fn chunk(
    store: &Store,
    user_id: u64,
    job: &Job,
    deadline: Instant,
) -> Result<ChunkDone, (usize, AppError)> {
    let p = &job.progress;
    let first = p.resume_row.max(1);
    let text = store
        .get_import_chunk(user_id, job.id, p.next_chunk)
        .await
        .map_err(|e| (first, e.into()))?
        .ok_or_else(|| (first, AppError::Conflict("the job's rows expired".into())))?;
    let mut rows = chunks::decode(&text).map_err(|e| (first, e))?;
    rows.retain(|r| r.row >= p.resume_row);
    let first = rows.first().map_or(first, |r| r.row);
    chunk_rows(store, user_id, job.id, p, rows, deadline)
        .await
        .map_err(|e| (first, e))
}

async fn chunk_rows(
    store: &Store,
    user_id: u64,
    job_id: u64,
    p: &Progress,
    rows: Vec<ImportRow>,
    deadline: Instant,
) -> AppResult<ChunkDone> {
    let (names, rules) = tokio::try_join!(
        Names::load(store, user_id),
        crate::ruleset::Ruleset::load(store, user_id),
    )?;
    let now = names.wallet.currency.code();
    if let Some(was) = p.currency.as_deref().filter(|was| *was != now) {
        let m = format!("the wallet's currency changed from {was} to {now} meanwhile");
        return Err(AppError::Conflict(m));
    }
    let default = default_category(&names, p.default_category_id)
        .map_err(|_| AppError::Conflict("the default category was deleted meanwhile".into()))?;
    let file = ParsedFile {
        rows: rows.len(),
        parsed: rows,
        ..ParsedFile::default()
    };
    let (planned, mut errors) = plan(file, &names, default, Some(&rules));
    let (fresh, seen) = not_imported(store, user_id, planned, Some(job_id)).await?;
    let done = create(store, user_id, &names, fresh, deadline, &mut errors).await?;
    // Only what came before the row it stopped at counts: the rest is done again.
    let resume_row = done.left.first().copied();
    let before = |row: usize| resume_row.is_none_or(|r| row < r);
    errors.retain(|e| before(e.row));
    Ok(ChunkDone {
        created: done.created,
        duplicates: seen.into_iter().filter(|&r| before(r)).count() + done.raced,
        errors,
        resume_row,
    })
}
