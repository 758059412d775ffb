//! Imports too large for one request (more than [`SYNC_ROWS`] valid rows): the request
//! reads and checks the file, stores its rows in chunk items and a job item, and answers;
//! the work goes on elsewhere ([`Continuation`]), one chunk at a time, each within a
//! function's time, through the same steps as an import within the request (`plan`,
//! `create`). Every step records its progress on the job item, which a client polls.
//!
//! Exactly once: each row is written with its import id's marker, as always, and every
//! chunk skips the rows imported before; a chunk cut short by a deadline records the row
//! it stopped at and the next worker resumes there. A job whose worker vanished is
//! finished by posting the file again (a new job skips what the first one wrote).
//!
//! One job at a time per user: a job starts by naming itself on the user's marker over
//! the job it named before, which must have ended (done, failed, or stalled for
//! [`STALL_SECS`]); else the file is refused with `409` naming the running job.

mod chunks;
mod continuation;
mod work;

use std::collections::HashMap;
use std::time::Duration;

use serde::{Deserialize, Serialize};

pub use continuation::{run_to_end, Background, Continuation, JobRef};
pub use work::{work, work_chunks};

use super::{ImportRow, Prepared, RowError};
use crate::{AppError, AppResult};
use pf_domain::time::Timestamp;
use pf_store::import_jobs::StoredJob;
use pf_store::{ConflictKind, Store, StoreError};

/// Valid rows an import writes within its request; beyond, it is a job.
pub const SYNC_ROWS: usize = 3_000;
/// How long a job (and its rows) is kept: seven days.
pub const JOB_TTL_SECS: i64 = 7 * 24 * 3600;
/// Row errors a job lists (the first ones, by row).
pub const MAX_JOB_ERRORS: usize = 500;
/// A worker starts a chunk only with this much time left.
const CHUNK_TIME: Duration = Duration::from_secs(10);
/// A running job that has saved no progress for this long lost its worker (a chunk takes
/// seconds, an invocation at most 29 s, and template.yaml drops a step Lambda could not
/// run within 10 minutes): it is failed when read, and a late worker, if any, then finds
/// its step taken and stops.
pub const STALL_SECS: i64 = 15 * 60;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum JobStatus {
    Running,
    Done,
    Failed,
}

/// Where the work stands.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Progress {
    chunks: usize,
    next_chunk: usize,
    /// The first row of `next_chunk` not done yet (0: all of it).
    resume_row: usize,
    default_category_id: Option<u64>,
    expires_at: i64,
    /// The wallet's currency the file was checked against: the job fails if it changes.
    #[serde(default)]
    currency: Option<String>,
    /// When the job was last saved (Unix seconds).
    #[serde(default)]
    saved_at: i64,
}

/// A large import: what it did so far.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Job {
    pub id: u64,
    pub status: JobStatus,
    /// Data rows in the file.
    pub rows: usize,
    pub created: usize,
    pub duplicates: usize,
    /// The first [`MAX_JOB_ERRORS`] row errors, by row.
    pub errors: Vec<RowError>,
    pub started_at: String,
    pub finished_at: Option<String>,
    progress: Progress,
    /// Progress writes so far (each expects the one before).
    #[serde(skip)]
    step: u64,
}

impl Job {
    fn add_errors(&mut self, errors: Vec<RowError>) {
        self.errors.extend(errors);
        self.errors.sort_by_key(|e| e.row);
        self.errors.truncate(MAX_JOB_ERRORS);
    }

    /// Fails the job with why it stopped, kept whatever the row errors before it.
    fn fail(&mut self, why: RowError) {
        self.errors.truncate(MAX_JOB_ERRORS - 1);
        self.errors.push(why);
        self.finish(JobStatus::Failed);
    }

    fn finish(&mut self, status: JobStatus) {
        self.status = status;
        self.finished_at = Some(Timestamp::now().to_string());
    }
}

fn now_secs() -> i64 {
    time::OffsetDateTime::now_utc().unix_timestamp()
}

/// Stores the file's planned rows and its job, and hands the job over.
pub(super) async fn start(
    store: &Store,
    user_id: u64,
    prepared: Prepared,
    originals: Vec<ImportRow>,
    default_category_id: Option<u64>,
    continuation: &dyn Continuation,
) -> AppResult<Job> {
    let ids: HashMap<usize, String> = prepared
        .planned
        .into_iter()
        .map(|p| (p.row, p.import_id))
        .collect();
    let rows: Vec<ImportRow> = originals
        .into_iter()
        .filter_map(|mut r| {
            r.import_id = Some(ids.get(&r.row)?.clone());
            Some(r)
        })
        .collect();
    let chunks = chunks::encode(&rows)?;
    let id = pf_domain::ids::new_id();
    let expires_at = now_secs() + JOB_TTL_SECS;
    claim(store, user_id, id, expires_at).await?;
    let mut job = Job {
        id,
        status: JobStatus::Running,
        rows: prepared.rows,
        created: 0,
        duplicates: 0,
        errors: Vec::new(),
        started_at: Timestamp::now().to_string(),
        finished_at: None,
        progress: Progress {
            chunks: chunks.len(),
            default_category_id,
            expires_at,
            currency: Some(prepared.names.wallet.currency.code().to_owned()),
            ..Progress::default()
        },
        step: 0,
    };
    job.add_errors(prepared.errors);
    let stored = async {
        store
            .put_import_chunks(user_id, id, &chunks, expires_at)
            .await?;
        save(store, user_id, &mut job).await
    };
    if let Err(e) = stored.await {
        // Never saved: the marker lets the next file start at once.
        if let Err(release) = store.release_import_job(user_id, id).await {
            tracing::warn!(?release, job_id = id, "an import job's marker stays");
        }
        return Err(e);
    }
    let job_ref = JobRef {
        user_id,
        job_id: id,
    };
    if let Err(e) = continuation.resume(store, job_ref).await {
        job.fail(work::stopped(1, &e));
        save(store, user_id, &mut job).await?;
        return Err(e);
    }
    Ok(job)
}

/// Names job `id` the user's running import: `409` naming the one running, if any.
async fn claim(store: &Store, user_id: u64, id: u64, expires_at: i64) -> AppResult<()> {
    for _ in 0..3 {
        let latest = store.latest_import_job(user_id).await?;
        if let Some((running, claimed_at)) = latest {
            if still_running(store, user_id, running, claimed_at).await? {
                return Err(AppError::Conflict(format!(
                    "import job {running} is still running: one import job at a time; \
                     post this file when GET /api/imports/{running} says it ended"
                )));
            }
        }
        let was = latest.map(|(job, _)| job);
        match store
            .claim_import_job(user_id, id, was, (now_secs(), expires_at))
            .await
        {
            Err(StoreError::Conflict(ConflictKind::Changed)) => continue,
            other => return Ok(other?),
        }
    }
    Err(AppError::Conflict(
        "another import job is starting meanwhile; retry".into(),
    ))
}

/// Whether the job a marker names still runs: `running` as read (a stalled one is failed
/// by the read), or named less than [`STALL_SECS`] ago and not saved yet.
async fn still_running(
    store: &Store,
    user_id: u64,
    job_id: u64,
    claimed_at: i64,
) -> AppResult<bool> {
    match get(store, user_id, job_id).await {
        Ok(job) => Ok(job.status == JobStatus::Running),
        Err(AppError::NotFound(_)) => Ok(now_secs() - claimed_at < STALL_SECS),
        Err(e) => Err(e),
    }
}

/// Writes the job as its next step.
async fn save(store: &Store, user_id: u64, job: &mut Job) -> AppResult<()> {
    job.progress.saved_at = now_secs();
    let doc =
        serde_json::to_string(job).map_err(|e| AppError::Store(anyhow::Error::from(e).into()))?;
    let stored = StoredJob {
        doc,
        step: job.step,
    };
    store
        .put_import_job(user_id, job.id, &stored, job.progress.expires_at)
        .await?;
    job.step += 1;
    Ok(())
}

async fn load(store: &Store, job: JobRef) -> AppResult<Option<Job>> {
    let Some(stored) = store.get_import_job(job.user_id, job.job_id).await? else {
        return Ok(None);
    };
    let mut loaded: Job = serde_json::from_str(&stored.doc)
        .map_err(|e| AppError::Store(anyhow::Error::from(e).into()))?;
    loaded.step = stored.step + 1;
    Ok(Some(loaded))
}

/// A job of the caller (another user's is not found).
pub async fn get(store: &Store, user_id: u64, job_id: u64) -> AppResult<Job> {
    let job_ref = JobRef { user_id, job_id };
    // Kept 7 days: DynamoDB's TTL deletes it some time later, until then it is gone too.
    let mut job = load(store, job_ref)
        .await?
        .filter(|j| j.progress.expires_at > now_secs())
        .ok_or_else(|| AppError::not_found("import"))?;
    let saved = job.progress.saved_at;
    if job.status == JobStatus::Running && saved > 0 && now_secs() - saved > STALL_SECS {
        let row = next_row(store, user_id, &job).await?;
        let why = AppError::Conflict("the import stopped part way (its worker stopped)".into());
        job.fail(work::stopped(row, &why));
        match save(store, user_id, &mut job).await {
            Ok(()) => {}
            // A worker saved meanwhile: it is alive; answer what it wrote.
            Err(AppError::Store(StoreError::Conflict(ConflictKind::Changed))) => {
                return load(store, job_ref)
                    .await?
                    .ok_or_else(|| AppError::not_found("import"));
            }
            Err(e) => return Err(e),
        }
    }
    Ok(job)
}

/// The first row a job has not done: its resume row, or the first of its next chunk.
async fn next_row(store: &Store, user_id: u64, job: &Job) -> AppResult<usize> {
    let p = &job.progress;
    if p.resume_row > 0 {
        return Ok(p.resume_row);
    }
    let text = store
        .get_import_chunk(user_id, job.id, p.next_chunk)
        .await?;
    let first = match text {
        Some(text) => chunks::decode(&text)?.first().map(|r| r.row),
        None => None,
    };
    Ok(first.unwrap_or(1))
}

#[cfg(test)]
mod tests;
