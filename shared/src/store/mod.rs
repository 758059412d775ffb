//! DynamoDB storage: one table, items partitioned by user.
//!
//! The store knows nothing of HTTP: it returns [`StoreError`] and the call site
//! decides what a failed condition means for the client.

pub mod accounts;
mod attr;
pub mod batch;
pub mod budgets;
pub mod categories;
mod counter;
pub mod feed;
pub mod imports;
pub mod insights;
pub mod items;
pub mod keys;
pub mod named;
pub mod pictures;
pub mod seed;
pub mod sessions;
pub mod table;
pub mod throttle;
pub mod transact;
pub mod transactions;
pub mod user_list;
pub mod users;
pub mod wallet;

use std::time::Duration;

use aws_sdk_dynamodb::operation::delete_item::builders::DeleteItemFluentBuilder;
use aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder;
use aws_sdk_dynamodb::operation::query::QueryOutput;
use aws_sdk_dynamodb::operation::update_item::builders::UpdateItemFluentBuilder;
use aws_sdk_dynamodb::Client;

pub use attr::Item;
pub use counter::CallCounter;

/// A reference a transaction makes, named when it vanished or changed meanwhile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ref {
    Category,
    Provider,
    Tag,
}

/// Why a conditional write was refused: each condition of a write names its kind, so
/// callers match on types, never on text or positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ConflictKind {
    /// The item is gone or no longer the version that was read.
    #[error("the item changed or vanished meanwhile")]
    Changed,
    /// A freshly generated id is taken (astronomically rare; retry with another).
    #[error("the generated id is taken")]
    IdTaken,
    #[error("the e-mail is already registered")]
    EmailTaken,
    #[error("the name is already used")]
    NameTaken,
    #[error("the limit is reached")]
    LimitReached,
    #[error("the item is in use")]
    InUse,
    /// The wallet is gone (account deleted) or its currency changed.
    #[error("the wallet changed or is gone")]
    Wallet,
    /// The wallet's currency cannot change while it has transactions.
    #[error("the wallet has transactions")]
    HasTransactions,
    /// The wallet's currency cannot change while it has budgets.
    #[error("the wallet has budgets")]
    HasBudgets,
    /// A referenced category, provider or tag vanished or changed type.
    #[error("a referenced {0:?} changed or is gone")]
    Reference(Ref),
    /// A row with this import id was imported already (by a concurrent import).
    #[error("the row was imported already")]
    AlreadyImported,
    /// Another request with the same idempotency key won the race.
    #[error("the idempotency key is taken")]
    IdempotencyKey,
    /// The user's sessions were ended (session epoch moved) or the profile is gone.
    #[error("the user's sessions were ended")]
    SessionsEnded,
    /// Another write moved the feed head meanwhile (handled inside `transact`).
    #[error("the change feed moved on")]
    FeedMoved,
    /// Concurrent writers kept conflicting after every retry.
    #[error("too much contention")]
    Contention,
}

/// The one error of the storage layer. Callers map the expected ones to client errors.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The item the operation needs does not exist.
    #[error("not found")]
    NotFound,
    /// A condition of the write failed; the kind says which.
    #[error("conflict: {0}")]
    Conflict(ConflictKind),
    /// DynamoDB was unreachable, timed out or throttled us.
    #[error("storage unavailable")]
    Unavailable(#[source] anyhow::Error),
    /// Anything else: a bug or a malformed item, logged with its source.
    #[error("unexpected storage error")]
    Unexpected(#[source] anyhow::Error),
}

impl From<anyhow::Error> for StoreError {
    fn from(e: anyhow::Error) -> Self {
        StoreError::Unexpected(e)
    }
}

impl StoreError {
    /// True when a condition of this kind failed.
    pub fn is_conflict(&self, kind: ConflictKind) -> bool {
        matches!(self, StoreError::Conflict(k) if *k == kind)
    }
}

pub type StoreResult<T> = Result<T, StoreError>;

/// `condition` and, with an `expected` version (`If-Match`), that the item is still at it
/// (items written before versions existed are at 1). Adds `:ver` to `values`.
pub(crate) fn at_version(condition: &str, expected: Option<u64>, values: &mut Item) -> String {
    let Some(v) = expected else {
        return condition.to_owned();
    };
    values.insert(":ver".into(), attr::n(v));
    if v == 1 {
        format!("({condition}) AND (attribute_not_exists(version) OR version = :ver)")
    } else {
        format!("({condition}) AND version = :ver")
    }
}

/// The condition that the number attribute `name` is `value`, an item without it counting
/// as 0 (items written before the attribute existed), with `value` as `placeholder`.
pub(crate) fn number_is(name: &str, placeholder: &str, value: u64) -> (String, Item) {
    let condition = if value == 0 {
        format!("(attribute_not_exists({name}) OR {name} = {placeholder})")
    } else {
        format!("{name} = {placeholder}")
    };
    (
        condition,
        Item::from([(placeholder.to_owned(), attr::n(value))]),
    )
}

/// The update clause that moves an item to its next version.
pub(crate) const NEXT_VERSION: &str = "version = if_not_exists(version, :one) + :one";

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

    /// A `Query` of the table, for the caller to complete and send.
    fn query_table(&self) -> QueryFluentBuilder {
        self.client.query().table_name(&self.table)
    }

    /// One page of `query`, strongly consistent: at most `limit` items after `start`.
    async fn query_page(
        &self,
        query: QueryFluentBuilder,
        start: Option<Item>,
        limit: i32,
    ) -> StoreResult<QueryOutput> {
        query
            .consistent_read(true)
            .set_exclusive_start_key(start)
            .limit(limit)
            .send()
            .await
            .map_err(sdk_error)
    }

    /// An `UpdateItem` of the item at (`pk`, `sk`), for the caller to complete and send.
    fn update_at(&self, pk: &str, sk: &str) -> UpdateItemFluentBuilder {
        self.client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(batch::key(pk, sk)))
    }

    /// A `DeleteItem` of the item at (`pk`, `sk`), for the caller to complete and send.
    fn delete_at(&self, pk: &str, sk: &str) -> DeleteItemFluentBuilder {
        self.client
            .delete_item()
            .table_name(&self.table)
            .set_key(Some(batch::key(pk, sk)))
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

/// Generated ids tried before a write gives up (each clash is astronomically rare).
const ID_ATTEMPTS: usize = 5;

/// Runs `write` with a fresh id until it does not clash with an existing item (the write
/// reports a clash as `Conflict(IdTaken)`): ids are retried, never overwritten. This is
/// the one place that loop lives.
pub async fn with_fresh_id<T, F, Fut>(mut write: F) -> StoreResult<T>
where
    F: FnMut(u64) -> Fut,
    Fut: std::future::Future<Output = StoreResult<T>>,
{
    for _ in 0..ID_ATTEMPTS {
        match write(crate::domain::ids::new_id()).await {
            Err(e) if e.is_conflict(ConflictKind::IdTaken) => continue,
            other => return other,
        }
    }
    Err(StoreError::Conflict(ConflictKind::Contention))
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

/// True when a single conditional write's condition failed (`ConditionalCheckFailed`).
fn is_condition_failure<E, R>(e: &aws_sdk_dynamodb::error::SdkError<E, R>) -> bool
where
    E: aws_sdk_dynamodb::error::ProvideErrorMetadata,
{
    e.as_service_error()
        .and_then(|se| se.code())
        .is_some_and(|code| code == "ConditionalCheckFailedException")
}

/// The outcome of a write whose condition only keeps it from repeating or overwriting a
/// newer change: a failed condition leaves nothing to do, so it counts as done.
fn done_unless_other_error<T, E, R>(
    result: Result<T, aws_sdk_dynamodb::error::SdkError<E, R>>,
) -> StoreResult<()>
where
    E: std::error::Error + Send + Sync + 'static + aws_sdk_dynamodb::error::ProvideErrorMetadata,
    R: std::fmt::Debug + Send + Sync + 'static,
{
    match result {
        Ok(_) => Ok(()),
        Err(e) if is_condition_failure(&e) => Ok(()),
        Err(e) => Err(sdk_error(e)),
    }
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
    // The SDK error stays the source (its chain names the operation and the cause).
    let err = anyhow::Error::new(err).context("DynamoDB request failed");
    if unavailable {
        StoreError::Unavailable(err)
    } else {
        StoreError::Unexpected(err)
    }
}
