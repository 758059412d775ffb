//! Large imports in AWS: the imports function goes on with a job by invoking itself
//! asynchronously (`InvocationType::Event`, the payload [`JobRef::event`]); the
//! invocation works through chunks until its time runs low, then invokes itself again
//! for the rest. A thin adapter: the work is `shared::app::imports::job`'s.

use std::time::Instant;

use aws_sdk_lambda::primitives::Blob;
use aws_sdk_lambda::types::InvocationType;
use futures::future::BoxFuture;
use serde_json::Value;
use shared::app;
use shared::app::imports::job::{Continuation, JobRef};
use shared::app::{AppError, AppResult};
use shared::store::Store;

/// Invokes this function (its own name, `AWS_LAMBDA_FUNCTION_NAME`) with a job's event.
pub struct SelfInvoke {
    client: aws_sdk_lambda::Client,
    function_name: String,
}

impl SelfInvoke {
    /// The client of the function's own region and credentials, and its name.
    pub async fn from_env() -> anyhow::Result<Self> {
        let function_name = std::env::var("AWS_LAMBDA_FUNCTION_NAME")
            .map_err(|_| anyhow::anyhow!("AWS_LAMBDA_FUNCTION_NAME is not set"))?;
        let sdk = shared::store::sdk_defaults().load().await;
        Ok(Self {
            client: aws_sdk_lambda::Client::new(&sdk),
            function_name,
        })
    }
}

impl Continuation for SelfInvoke {
    fn resume<'a>(&'a self, _store: &'a Store, job: JobRef) -> BoxFuture<'a, AppResult<()>> {
        Box::pin(async move {
            self.client
                .invoke()
                .function_name(&self.function_name)
                .invocation_type(InvocationType::Event)
                .payload(Blob::new(job.event().to_string()))
                .send()
                .await
                .map_err(|e| {
                    let e = aws_sdk_lambda::error::DisplayErrorContext(e);
                    AppError::Store(anyhow::anyhow!("invoking {}: {e}", self.function_name).into())
                })?;
            Ok(())
        })
    }
}

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
        app::imports::job::continuation()
            .resume(&store, job_ref)
            .await?;
    }
    Ok(serde_json::json!({ "jobId": job_ref.job_id, "more": more }))
}
