//! Large imports' jobs: the job item (its progress as a JSON document, written by one
//! worker at a time: each write expects the step the worker read) and the chunks of rows
//! it works through (JSON text, each well under DynamoDB's 400 KB item limit). Both
//! expire with `expiresAt` (the table's TTL). Beside them, one item per user names the
//! user's latest job (`SK = IMPRUNNING`), so that a user runs one job at a time: a job
//! starts only by a conditional write over the marker the starter read.

use super::attr::{get_opt_u64, get_s, n, s, Item};
use super::keys::{import_chunk_sk, import_job_sk, user_pk};
use super::{is_condition_failure, sdk_error, Store, StoreError, StoreResult};

/// The item naming the user's latest import job (`jobId`, `claimedAt` in Unix seconds).
const RUNNING_SK: &str = "IMPRUNNING";

/// Chunks put at once.
const PARALLEL_PUTS: usize = 4;

/// A job item as stored: its document and the number of progress writes so far.
#[derive(Debug, Clone)]
pub struct StoredJob {
    pub doc: String,
    pub step: u64,
}

impl Store {
    /// Puts a job's chunks (before its job item, which names how many there are).
    pub async fn put_import_chunks(
        &self,
        user_id: u64,
        job_id: u64,
        chunks: &[String],
        expires_at: i64,
    ) -> StoreResult<()> {
        use futures::stream::{self, StreamExt, TryStreamExt};
        // Owned requests (no closure over borrowed data is held across the awaits).
        let puts: Vec<_> = chunks
            .iter()
            .enumerate()
            .map(|(i, rows)| {
                let item = Item::from([
                    ("PK".into(), s(user_pk(user_id))),
                    ("SK".into(), s(import_chunk_sk(job_id, i))),
                    ("rows".into(), s(rows)),
                    ("expiresAt".into(), n(expires_at)),
                ]);
                let put = self.client.put_item().table_name(&self.table);
                put.set_item(Some(item)).send()
            })
            .collect();
        stream::iter(puts)
            .buffer_unordered(PARALLEL_PUTS)
            .map_err(sdk_error)
            .try_collect::<Vec<_>>()
            .await?;
        Ok(())
    }

    /// The user's latest import job as its marker names it: `(job id, claimed at)`.
    pub async fn latest_import_job(&self, user_id: u64) -> StoreResult<Option<(u64, i64)>> {
        let Some(item) = self.get_consistent(&user_pk(user_id), RUNNING_SK).await? else {
            return Ok(None);
        };
        let job_id = get_opt_u64(&item, "jobId").unwrap_or(0);
        let claimed_at = get_opt_u64(&item, "claimedAt").unwrap_or(0);
        Ok(Some((job_id, i64::try_from(claimed_at).unwrap_or(0))))
    }

    /// Names `job_id` the user's latest import job if the marker still names `was` (no
    /// marker: `None`); `Conflict(Changed)` when another job was named meanwhile.
    pub async fn claim_import_job(
        &self,
        user_id: u64,
        job_id: u64,
        was: Option<u64>,
        (now, expires_at): (i64, i64),
    ) -> StoreResult<()> {
        let mut item = super::batch::key(&user_pk(user_id), RUNNING_SK);
        item.extend([
            ("jobId".into(), n(job_id)),
            ("claimedAt".into(), n(now)),
            ("expiresAt".into(), n(expires_at)),
        ]);
        self.put_unless_moved(item, was.map(|was| ("jobId", was)))
            .await
    }

    /// Removes the marker if it names `job_id` (a job that could not start).
    pub async fn release_import_job(&self, user_id: u64, job_id: u64) -> StoreResult<()> {
        let out = self
            .client
            .delete_item()
            .table_name(&self.table)
            .key("PK", s(user_pk(user_id)))
            .key("SK", s(RUNNING_SK))
            .condition_expression("jobId = :id")
            .expression_attribute_values(":id", n(job_id))
            .send()
            .await;
        super::error::done_unless_other_error(out)
    }

    /// One chunk's rows; `None` once it expired.
    pub async fn get_import_chunk(
        &self,
        user_id: u64,
        job_id: u64,
        chunk: usize,
    ) -> StoreResult<Option<String>> {
        let item = self
            .get_consistent(&user_pk(user_id), &import_chunk_sk(job_id, chunk))
            .await?;
        Ok(match item {
            Some(item) => Some(get_s(&item, "rows")?.to_owned()),
            None => None,
        })
    }

    /// Writes a job's document as its step: the first write (step 0) only if the job
    /// does not exist, later ones only if the stored step is the one before. `Conflict`
    /// when another worker wrote meanwhile.
    pub async fn put_import_job(
        &self,
        user_id: u64,
        job_id: u64,
        job: &StoredJob,
        expires_at: i64,
    ) -> StoreResult<()> {
        let step = job.step;
        let mut item = super::batch::key(&user_pk(user_id), &import_job_sk(job_id));
        item.extend([
            ("job".into(), s(&job.doc)),
            ("step".into(), n(step)),
            ("expiresAt".into(), n(expires_at)),
        ]);
        self.put_unless_moved(item, step.checked_sub(1).map(|before| ("step", before)))
            .await
    }

    /// Puts `item` only if it is new (`None`) or its `attr` still holds the value read
    /// (`Some((attr, was))`); `Conflict` when another worker wrote meanwhile.
    async fn put_unless_moved(
        &self,
        item: std::collections::HashMap<String, aws_sdk_dynamodb::types::AttributeValue>,
        was: Option<(&str, u64)>,
    ) -> StoreResult<()> {
        let put = self
            .client
            .put_item()
            .table_name(&self.table)
            .set_item(Some(item));
        let put = match was {
            None => put.condition_expression("attribute_not_exists(PK)"),
            Some((attr, was)) => put
                .condition_expression("#moved = :was")
                .expression_attribute_names("#moved", attr)
                .expression_attribute_values(":was", n(was)),
        };
        match put.send().await {
            Ok(_) => Ok(()),
            Err(e) if is_condition_failure(&e) => {
                Err(StoreError::Conflict(super::ConflictKind::Changed))
            }
            Err(e) => Err(sdk_error(e)),
        }
    }

    /// A job of the user (strongly consistent); `None` when there is none (or it expired).
    pub async fn get_import_job(
        &self,
        user_id: u64,
        job_id: u64,
    ) -> StoreResult<Option<StoredJob>> {
        let item = self
            .get_consistent(&user_pk(user_id), &import_job_sk(job_id))
            .await?;
        Ok(match item {
            Some(item) => Some(StoredJob {
                doc: get_s(&item, "job")?.to_owned(),
                step: get_opt_u64(&item, "step").unwrap_or(0),
            }),
            None => None,
        })
    }

    async fn get_consistent(&self, pk: &str, sk: &str) -> StoreResult<Option<Item>> {
        let out = self
            .client
            .get_item()
            .table_name(&self.table)
            .key("PK", s(pk))
            .key("SK", s(sk))
            .consistent_read(true)
            .send()
            .await
            .map_err(sdk_error)?;
        Ok(out.item)
    }
}
