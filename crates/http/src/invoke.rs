//! A function invoking itself asynchronously (`InvocationType::Event`), the one way work
//! goes on after the answer in AWS: the auth function hands each mail over this way
//! (`functions/auth/src/mail.rs`), the imports function the rest of a large import's job
//! (`functions/imports/src/job.rs`). Lambda queues the event and runs it as a separate
//! invocation.
//!
//! Which continuation an import job takes is the process's, installed once at start-up
//! ([`set_continuation`]); the handler hands it to the service ([`continuation`]), which
//! never looks it up itself.

use std::sync::OnceLock;

use aws_sdk_lambda::primitives::Blob;
use aws_sdk_lambda::types::InvocationType;
use futures::future::BoxFuture;
use serde_json::Value;
use tokio::sync::OnceCell;

use pf_app::imports::job::{Background, Continuation, JobRef};
use pf_app::{AppError, AppResult};
use pf_mail::{Mail, Mailer, Outbox};
use pf_store::Store;

/// Invokes this function (its own name, `AWS_LAMBDA_FUNCTION_NAME`) with an event.
pub struct SelfInvoke {
    /// Made at the first event sent, not at cold start: most invocations never send one
    /// (a small import, a request that mails nothing), and loading the SDK's
    /// configuration a second time (the store loads it once) is a cold start's
    /// millisecond (`BENCHMARKS.md`).
    client: OnceCell<aws_sdk_lambda::Client>,
    function_name: String,
}

impl SelfInvoke {
    /// Invokes the function of `AWS_LAMBDA_FUNCTION_NAME`, with a client of its own
    /// region and credentials (made when the first event is sent).
    pub fn from_env() -> anyhow::Result<Self> {
        let function_name = std::env::var("AWS_LAMBDA_FUNCTION_NAME")
            .map_err(|_| anyhow::anyhow!("AWS_LAMBDA_FUNCTION_NAME is not set"))?;
        Ok(Self {
            client: OnceCell::new(),
            function_name,
        })
    }

    async fn client(&self) -> &aws_sdk_lambda::Client {
        self.client
            .get_or_init(|| async {
                aws_sdk_lambda::Client::new(&pf_store::sdk_defaults().load().await)
            })
            .await
    }

    /// Hands `event` to a new invocation of this function; returns once Lambda has it.
    pub async fn send(&self, event: &Value) -> anyhow::Result<()> {
        self.client()
            .await
            .invoke()
            .function_name(&self.function_name)
            .invocation_type(InvocationType::Event)
            .payload(Blob::new(event.to_string()))
            .send()
            .await
            .map_err(|e| {
                let e = aws_sdk_lambda::error::DisplayErrorContext(e);
                anyhow::anyhow!("invoking {}: {e}", self.function_name)
            })?;
        Ok(())
    }
}

/// A mail goes out in an invocation of its own ([`Mail::event`]).
impl Outbox for SelfInvoke {
    fn post<'a>(&'a self, _mailer: &'a Mailer, mail: Mail) -> BoxFuture<'a, anyhow::Result<()>> {
        Box::pin(async move { self.send(&mail.event()).await })
    }
}

/// A job goes on in an invocation of its own ([`JobRef::event`]).
impl Continuation for SelfInvoke {
    fn resume<'a>(&'a self, _store: &'a Store, job: JobRef) -> BoxFuture<'a, AppResult<()>> {
        Box::pin(async move {
            self.send(&job.event())
                .await
                .map_err(|e| AppError::Store(e.into()))
        })
    }
}

static CONTINUATION: OnceLock<Box<dyn Continuation>> = OnceLock::new();

/// Installs how jobs go on in this process (once, at start-up); [`Background`] if never.
pub fn set_continuation(continuation: Box<dyn Continuation>) {
    if CONTINUATION.set(continuation).is_err() {
        tracing::warn!("the import jobs' continuation was already set");
    }
}

/// How jobs go on in this process.
pub fn continuation() -> &'static dyn Continuation {
    CONTINUATION.get().map_or(&Background, |c| c.as_ref())
}
