//! DynamoDB storage: one table, items partitioned by user.
//!
//! The store knows nothing of HTTP: it returns [`StoreError`] and the call site
//! decides what a failed condition means for the client.

pub mod accounts;
mod attr;
pub mod categories;
mod counter;
pub mod keys;
pub mod named;
pub mod pictures;
pub mod sessions;
pub mod table;
pub mod throttle;
pub mod transact;
pub mod transactions;
pub mod users;
pub mod wallet;

use std::time::Duration;

use aws_sdk_dynamodb::Client;

pub use attr::Item;
pub use counter::CallCounter;

/// Errors of the storage layer. Callers map the expected ones to client errors.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The item a write was conditional on is absent or in another state.
    #[error("condition failed: {0}")]
    Condition(&'static str),
    /// Concurrent writers kept conflicting after every retry.
    #[error("too much contention")]
    Contention,
    /// DynamoDB was unreachable or throttled us.
    #[error("storage unavailable")]
    Unavailable(#[source] anyhow::Error),
    #[error(transparent)]
    Other(#[from] anyhow::Error),
}

pub type StoreResult<T> = Result<T, StoreError>;

/// Handle on the table, cheap to clone (the SDK client is reference counted).
#[derive(Clone, Debug)]
pub struct Store {
    client: Client,
    table: String,
    counter: CallCounter,
}

/// Retries of a transaction that DynamoDB cancelled for a conflict with another writer.
const MAX_ATTEMPTS: u32 = 8;

impl Store {
    pub fn new(client: Client, table: impl Into<String>, counter: CallCounter) -> Self {
        Self {
            client,
            table: table.into(),
            counter,
        }
    }

    /// Builds a client from the environment (region, credentials) with an optional
    /// endpoint override for DynamoDB Local, counting every call it makes.
    pub async fn connect(table: &str, endpoint: Option<&str>) -> Self {
        let counter = CallCounter::default();
        let mut loader = sdk_defaults();
        if let Some(url) = endpoint {
            loader = loader.endpoint_url(url);
            // DynamoDB Local accepts any credentials; supply some so a laptop without
            // an AWS profile works.
            if std::env::var_os("AWS_ACCESS_KEY_ID").is_none() {
                loader = loader.credentials_provider(aws_sdk_dynamodb::config::Credentials::new(
                    "local", "local", None, None, "local",
                ));
            }
            if std::env::var_os("AWS_REGION").is_none()
                && std::env::var_os("AWS_DEFAULT_REGION").is_none()
            {
                loader = loader.region(aws_config::Region::new("eu-west-1"));
            }
        }
        let sdk = loader.load().await;
        let config = aws_sdk_dynamodb::config::Builder::from(&sdk)
            .interceptor(counter.clone())
            .build();
        Self::new(Client::from_conf(config), table, counter)
    }

    pub fn client(&self) -> &Client {
        &self.client
    }

    pub fn table(&self) -> &str {
        &self.table
    }

    pub fn calls(&self) -> &CallCounter {
        &self.counter
    }
}

/// Every SDK call is bounded: a connection within [`CONNECT_TIMEOUT`], each attempt within
/// [`ATTEMPT_TIMEOUT`], all attempts ([`SDK_MAX_ATTEMPTS`], the standard retry mode with
/// backoff) within [`OPERATION_TIMEOUT`], well under API Gateway's 30 s: an unreachable or
/// hanging DynamoDB becomes a 503 with `Retry-After`, never a request that hangs.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(2);
pub const ATTEMPT_TIMEOUT: Duration = Duration::from_secs(3);
pub const OPERATION_TIMEOUT: Duration = Duration::from_secs(6);
pub const SDK_MAX_ATTEMPTS: u32 = 3;

/// The SDK configuration loader with the timeouts and retries above.
pub fn sdk_defaults() -> aws_config::ConfigLoader {
    aws_config::defaults(aws_config::BehaviorVersion::latest())
        .timeout_config(
            aws_config::timeout::TimeoutConfig::builder()
                .connect_timeout(CONNECT_TIMEOUT)
                .operation_attempt_timeout(ATTEMPT_TIMEOUT)
                .operation_timeout(OPERATION_TIMEOUT)
                .build(),
        )
        .retry_config(
            aws_config::retry::RetryConfig::standard().with_max_attempts(SDK_MAX_ATTEMPTS),
        )
}

/// Backoff before retry `attempt` (1-based): 10 ms doubling, with jitter, capped at 320 ms.
async fn backoff(attempt: u32) {
    use rand::Rng;
    let base = 10u64 << attempt.min(5);
    let jitter = rand::rng().random_range(0..=base);
    tokio::time::sleep(Duration::from_millis(base / 2 + jitter / 2)).await;
}

/// Maps an SDK error to `Unavailable` when it is about reaching the service or throttling.
fn sdk_error<E, R>(err: aws_sdk_dynamodb::error::SdkError<E, R>) -> StoreError
where
    E: std::error::Error + Send + Sync + 'static + aws_sdk_dynamodb::error::ProvideErrorMetadata,
    R: std::fmt::Debug + Send + Sync + 'static,
{
    use aws_sdk_dynamodb::error::SdkError;
    let unavailable = match &err {
        SdkError::DispatchFailure(_) | SdkError::TimeoutError(_) | SdkError::ResponseError(_) => {
            true
        }
        SdkError::ServiceError(se) => matches!(
            se.err().code(),
            Some(
                "ProvisionedThroughputExceededException"
                    | "ThrottlingException"
                    | "RequestLimitExceeded"
                    | "InternalServerError"
            )
        ),
        _ => false,
    };
    let err =
        anyhow::Error::new(aws_sdk_dynamodb::error::DisplayErrorContext(err).to_string_error());
    if unavailable {
        StoreError::Unavailable(err)
    } else {
        StoreError::Other(err)
    }
}

/// Small adapter so `DisplayErrorContext` (which carries the whole error chain) becomes an error value.
trait ToStringError {
    fn to_string_error(self) -> StringError;
}

impl<T: std::fmt::Display> ToStringError for T {
    fn to_string_error(self) -> StringError {
        StringError(self.to_string())
    }
}

#[derive(Debug)]
struct StringError(String);

impl std::fmt::Display for StringError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for StringError {}
