//! DynamoDB storage: one table, items partitioned by user.
//!
//! The store knows nothing of HTTP: it returns [`StoreError`] and the call site
//! decides what a failed condition means for the client.

pub mod accounts;
mod attr;
pub mod batch;
pub mod budgets;
mod caps;
pub mod categories;
mod commit;
pub mod counter;
pub mod devices;
pub mod epochs;
mod error;
pub mod feed;
pub mod import_jobs;
pub mod imports;
pub mod insights;
pub mod items;
pub mod keys;
pub mod labels;
pub mod links;
pub mod pages;
pub mod pictures;
pub mod recurring;
pub mod retry;
pub mod rules;
pub mod seed;
pub mod sessions;
mod snapshot;
pub mod table;
pub mod throttle;
pub mod transact;
pub mod transactions;
pub mod user_list;
pub mod users;
mod versioned;
pub mod wallet;

use std::time::Duration;

use aws_sdk_dynamodb::operation::delete_item::builders::DeleteItemFluentBuilder;
use aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder;
use aws_sdk_dynamodb::operation::query::QueryOutput;
use aws_sdk_dynamodb::operation::update_item::builders::UpdateItemFluentBuilder;
use aws_sdk_dynamodb::Client;

pub use attr::Item;
pub use counter::{current_function, on_behalf_of, CallCounter};
use error::{done_unless_other_error, is_condition_failure, sdk_error};
pub use error::{ConflictKind, Ref, StoreError, StoreResult};
pub use retry::{retry, with_fresh_id, Again};

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
    limits: pf_config::Limits,
    /// Shared by the clones: the global categories a first sync page read, per shard.
    globals: snapshot::GlobalsCache,
    /// Shared by the clones: the session epochs this instance read lately, per user.
    epochs: epochs::EpochCache,
}

impl Store {
    pub fn new(client: Client, table: impl Into<String>, counter: CallCounter) -> Self {
        Self {
            client,
            table: table.into(),
            counter,
            limits: pf_config::Limits::default(),
            globals: snapshot::GlobalsCache::default(),
            epochs: epochs::EpochCache::default(),
        }
    }

    /// The same store, enforcing `limits` (what one user may own).
    pub fn with_limits(mut self, limits: pf_config::Limits) -> Self {
        self.limits = limits;
        self
    }

    /// What one user may own.
    pub fn limits(&self) -> pf_config::Limits {
        self.limits
    }

    /// A `Query` of the table, for the caller to complete and send.
    fn query_table(&self) -> QueryFluentBuilder {
        self.client.query().table_name(&self.table)
    }

    /// A `Query` of the items of partition `pk` whose sort key (`SK`, or `LSI1SK` on the
    /// local index `index`) begins with `prefix`, for the caller to complete and send.
    ///
    /// The range is a `BETWEEN` of `prefix` and `prefix` followed by the highest character
    /// rather than `begins_with`: the same range (every key continues its prefix with ASCII)
    /// and the same seek in DynamoDB, but DynamoDB Local answers it faster in a partition
    /// that also holds many other items, as a user's holds their change feed (`make bench`,
    /// its sync section: a `Query` of 200 transactions beside 10,000 feed entries took
    /// 1.44× to 1.49× as long by `begins_with` in three runs).
    fn query_prefix_range(
        &self,
        pk: &str,
        index: Option<&str>,
        prefix: &str,
    ) -> QueryFluentBuilder {
        let sort_key = if index.is_some() { "LSI1SK" } else { "SK" };
        self.query_table()
            .set_index_name(index.map(str::to_owned))
            .key_condition_expression(format!(
                "PK = :pk AND {sort_key} BETWEEN :prefix AND :beyond"
            ))
            .expression_attribute_values(":pk", attr::s(pk))
            .expression_attribute_values(":prefix", attr::s(prefix))
            .expression_attribute_values(":beyond", attr::s(format!("{prefix}{}", char::MAX)))
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

    /// Deletes the item at (`pk`, `sk`), if there is one.
    async fn delete_item(&self, pk: &str, sk: &str) -> StoreResult<()> {
        self.delete_at(pk, sk).send().await.map_err(sdk_error)?;
        Ok(())
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

/// Every SDK call is bounded: a connection within [`CONNECT_TIMEOUT`], each attempt within
/// [`ATTEMPT_TIMEOUT`], all attempts ([`SDK_MAX_ATTEMPTS`], the standard retry mode with
/// backoff) within [`OPERATION_TIMEOUT`], well under API Gateway's 30 s: an unreachable or
/// hanging DynamoDB becomes a 503 with `Retry-After`, never a request that hangs. These
/// retry one call; an operation that lost a race is retried by [`retry`].
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(2);
pub const ATTEMPT_TIMEOUT: Duration = Duration::from_secs(3);
pub const OPERATION_TIMEOUT: Duration = Duration::from_secs(6);
pub const SDK_MAX_ATTEMPTS: u32 = 3;

/// An entity read back from its item (a trait of the store's: the entities are the
/// domain's, the item DynamoDB's).
pub trait FromItem: Sized {
    fn from_item(item: &attr::Item) -> anyhow::Result<Self>;
}

/// An AWS SDK call's error, saying what failed and the whole chain of its causes.
pub fn aws_error(what: &str, e: impl std::error::Error) -> anyhow::Error {
    let e = aws_sdk_dynamodb::error::DisplayErrorContext(e);
    anyhow::anyhow!("{what}: {e}")
}

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
