//! Where a job goes on once the request that started it has answered: a port with two
//! implementations. Locally (the local server, the tests) [`Background`] runs it on a
//! spawned task; in AWS the imports function installs one that invokes itself
//! asynchronously with [`JobRef::event`] (`pf_http::invoke`). The service is handed the
//! one to take; it looks none up.

use std::time::{Duration, Instant};

use futures::future::BoxFuture;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::AppResult;
use pf_store::Store;

/// How long a local worker works before it looks again (it simply goes on).
const LOCAL_SLICE: Duration = Duration::from_secs(60);

/// A job, by owner and id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JobRef {
    pub user_id: u64,
    pub job_id: u64,
}

impl JobRef {
    /// The event a function sends itself to go on with the job:
    /// `{"importJob": {"userId": …, "jobId": …}}`.
    pub fn event(self) -> Value {
        serde_json::json!({ "importJob": self })
    }

    /// The job an event names, if it is such an event (an API Gateway or a scheduled
    /// event is not).
    pub fn from_event(event: &Value) -> Option<Self> {
        serde_json::from_value(event.get("importJob")?.clone()).ok()
    }
}

/// Makes a job go on outside the current request (or invocation).
pub trait Continuation: Send + Sync {
    /// Hands the job over; returns once it is handed over, not when it is done.
    fn resume<'a>(&'a self, store: &'a Store, job: JobRef) -> BoxFuture<'a, AppResult<()>>;
}

/// Runs the job to its end on a task of this process.
pub struct Background;

impl Continuation for Background {
    fn resume<'a>(&'a self, store: &'a Store, job: JobRef) -> BoxFuture<'a, AppResult<()>> {
        let work = run_to_end(store.clone(), job);
        // The job goes on as the function that started it (its calls are that function's).
        match pf_store::current_function() {
            Some(function) => tokio::spawn(pf_store::on_behalf_of(function, work)),
            None => tokio::spawn(work),
        };
        Box::pin(async { Ok(()) })
    }
}

/// Works on the job until it is done or failed (or another worker took it over).
pub async fn run_to_end(store: Store, job: JobRef) {
    loop {
        match super::work(&store, job, Instant::now() + LOCAL_SLICE).await {
            Ok(true) => {}
            Ok(false) => return,
            Err(error) => {
                tracing::error!(?error, job_id = job.job_id, "an import job stopped");
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_job_event_names_its_job_and_no_other_event_does() {
        let job = JobRef {
            user_id: 7,
            job_id: 9_007_199_254_740_991,
        };
        let event = job.event();
        let expected =
            serde_json::json!({"importJob": {"userId": 7, "jobId": 9_007_199_254_740_991u64}});
        assert_eq!(event, expected);
        assert_eq!(JobRef::from_event(&event), Some(job));
        let http = serde_json::json!({"version": "2.0", "rawPath": "/api/imports"});
        let schedule = serde_json::json!({"source": "aws.events", "detail-type": "x"});
        let broken = serde_json::json!({"importJob": {"userId": "x"}});
        for other in [http, schedule, broken] {
            assert_eq!(JobRef::from_event(&other), None, "{other}");
        }
    }
}
