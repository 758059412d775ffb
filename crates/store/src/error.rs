//! The one error of the storage layer, [`StoreError`], with the kinds of failed
//! conditions it names, and how SDK errors map to it (kept as sources, with context).

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
    /// The wallet's currency cannot change while recurring schedules hold amounts in it.
    #[error("the user has recurring schedules")]
    HasSchedules,
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

/// True when a single conditional write's condition failed (`ConditionalCheckFailed`).
pub(super) fn is_condition_failure<E, R>(e: &aws_sdk_dynamodb::error::SdkError<E, R>) -> bool
where
    E: aws_sdk_dynamodb::error::ProvideErrorMetadata,
{
    e.as_service_error()
        .and_then(|se| se.code())
        .is_some_and(|code| code == "ConditionalCheckFailedException")
}

/// The outcome of a write whose condition only keeps it from repeating or overwriting a
/// newer change: a failed condition leaves nothing to do, so it counts as done.
pub(super) fn done_unless_other_error<T, E, R>(
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
pub(super) fn sdk_error<E, R>(err: aws_sdk_dynamodb::error::SdkError<E, R>) -> StoreError
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
