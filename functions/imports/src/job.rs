//! Large imports in AWS: the imports function goes on with a job by invoking itself
//! asynchronously (`InvocationType::Event`, the payload [`JobRef::event`]); the
//! invocation works through chunks until its time runs low, then invokes itself again
//! for the rest (`pf_http::invoke::SelfInvoke`). A thin adapter: the work is `pf_app::imports::job`'s.

use std::time::Instant;

use pf_app as app;
use pf_app::imports::job::JobRef;
use pf_app::AppResult;
use pf_app::Store;
use serde_json::Value;

/// Whether an invocation's event is a job's (else it is an API Gateway request).
pub fn is_job_event(event: &Value) -> bool {
    JobRef::from_event(event).is_some()
}

/// Works on the job an event names until `deadline` is near, then hands the rest over.
pub async fn on_event(store: Store, event: Value, deadline: Instant) -> AppResult<Value> {
    let Some(job_ref) = JobRef::from_event(&event) else {
        return Ok(Value::Null);
    };
    let more = app::imports::job::work(&store, job_ref, deadline).await?;
    if more {
        pf_http::invoke::continuation()
            .resume(&store, job_ref)
            .await?;
    }
    Ok(serde_json::json!({ "jobId": job_ref.job_id, "more": more }))
}
