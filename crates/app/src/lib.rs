//! The service layer: the rules of each aggregate, between the HTTP handlers (which parse,
//! call one service, and respond) and the store (items and conditional writes). Services
//! take and return domain values and [`AppError`]; they never see HTTP. A new rule goes
//! here, in the module of its aggregate, with a unit test beside it when it is pure.

pub mod accounts;
pub mod categories;
pub mod imports;
pub mod insights;
mod kept;
pub mod labels;
mod named;
pub mod recurring;
pub mod rules;
mod ruleset;
pub mod sync;
pub mod transactions;
pub mod users;
pub mod wallet;

use pf_domain::Violation;

/// What the functions name of the layers below the services: the store's types that
/// requests and answers carry (never the store's calls or keys), the tokens' and
/// cursors' keys.
pub use pf_auth::{cursor, token};
pub use pf_store::retry::out_of_time;
pub use pf_store::{accounts::Purge, feed::Op, pictures::Picture, transactions::TxnFilter, Store};

use pf_store::{retry, Again, StoreError};

/// What a service refuses, in domain terms (the HTTP layer maps each to a status).
/// A variant without a message of its own shows the one it holds.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub enum AppError {
    /// The request breaks rules, field by field.
    #[error("invalid request")]
    Invalid(Vec<Violation>),
    /// Absent, or someone else's (never told apart).
    NotFound(String),
    /// The credentials are wrong (a login, a refresh token).
    Unauthorized(String),
    /// Not allowed (e.g. the caller's account is gone).
    Forbidden(String),
    /// A sensitive change needs a recent password login (or the current password).
    ReauthenticationRequired(String),
    /// Taken, in use, or changed meanwhile.
    Conflict(String),
    /// The version the client based its change on is no longer the current one.
    PreconditionFailed(String),
    /// What the request continues from is no longer kept (an expired sync cursor).
    Gone(String),
    /// A repeated request that is not the same request (an idempotency key reused).
    Unprocessable(String),
    /// Too many attempts: wait this many seconds.
    #[error("{message}")]
    Throttled { message: String, retry_after: u64 },
    /// Storage failed (unavailable, or unexpectedly).
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl AppError {
    pub fn invalid(field: &str, message: impl Into<String>) -> Self {
        AppError::Invalid(vec![Violation::new(field, message)])
    }

    /// `NotFound` with the message every service uses: "`what` not found".
    pub fn not_found(what: &str) -> Self {
        AppError::NotFound(format!("{what} not found"))
    }

    /// How a service's retry (see [`pf_store::retry`]) retries this error: a store
    /// error as the store does, any other not at all.
    pub fn again(&self) -> Again {
        match self {
            AppError::Store(e) => e.again(),
            _ => Again::No,
        }
    }
}

/// A cursor that is not one this service issued to the caller.
pub fn invalid_cursor() -> AppError {
    AppError::invalid("cursor", "is not a cursor this service issued")
}

/// A list page's store error: a position the store did not write is an invalid cursor.
pub(crate) fn page_error(e: StoreError) -> AppError {
    match e {
        StoreError::NotFound => invalid_cursor(),
        e => AppError::Store(e),
    }
}

/// A page of a list loaded whole (rules, at most 200): the items whose `key` comes after
/// `after`, at most `limit` of them, and the last one's key when more follow. The items
/// are sorted by `key`, which orders them as the list does.
pub fn page_after<T>(
    items: Vec<T>,
    key: impl Fn(&T) -> String,
    after: Option<&str>,
    limit: usize,
) -> (Vec<T>, Option<String>) {
    let mut rest: Vec<T> = items
        .into_iter()
        .filter(|i| after.is_none_or(|a| key(i).as_str() > a))
        .collect();
    let more = rest.len() > limit;
    rest.truncate(limit);
    let next = if more { rest.last().map(&key) } else { None };
    (rest, next)
}

/// The fields an `Invalid` error names, in order; any other error fails the test.
#[cfg(test)]
pub(crate) fn invalid_fields(e: AppError) -> Vec<String> {
    match e {
        AppError::Invalid(v) => v.into_iter().map(|v| v.field).collect(),
        other => panic!("expected Invalid, got {other:?}"),
    }
}

impl From<anyhow::Error> for AppError {
    fn from(e: anyhow::Error) -> Self {
        // A saturated password hasher is an outage of this instance, not a bug.
        if e.downcast_ref::<pf_auth::password::Busy>().is_some() {
            return AppError::Store(StoreError::Unavailable(e));
        }
        AppError::Store(StoreError::Unexpected(e))
    }
}

pub type AppResult<T> = Result<T, AppError>;

/// The version a change is based on (`If-Match`): any current one, or one version (`None`
/// for a tag this service never issued, which matches nothing).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IfMatch {
    Any,
    Version(Option<u64>),
}

impl IfMatch {
    pub fn matches(self, version: u64) -> bool {
        match self {
            IfMatch::Any => true,
            IfMatch::Version(v) => v == Some(version),
        }
    }
}

/// The answer when `If-Match` names another version than the current one.
pub(crate) fn stale() -> AppError {
    AppError::PreconditionFailed("If-Match does not match the current version".into())
}

/// Checks `If-Match` against the version read: `412` when it names another.
pub(crate) fn check_version(expected: Option<IfMatch>, version: u64) -> AppResult<()> {
    if expected.is_some_and(|e| !e.matches(version)) {
        return Err(stale());
    }
    Ok(())
}

/// Checks `If-Match` against the version read and gives the version the write must
/// still find (`None`: unconditional).
pub(crate) fn version_to_keep(expected: Option<IfMatch>, version: u64) -> AppResult<Option<u64>> {
    check_version(expected, version)?;
    Ok(match expected {
        Some(IfMatch::Version(_)) => Some(version),
        _ => None,
    })
}

/// Checks `If-Match` and gives the version read as the one the write must find, `If-Match`
/// or not: what the write changes is what it read (a name it releases, the version its
/// answer claims), and a concurrent change makes it fail, see [`moved_on`].
pub(crate) fn at_read_version(expected: Option<IfMatch>, version: u64) -> AppResult<Option<u64>> {
    check_version(expected, version)?;
    Ok(Some(version))
}

/// A write at the version read that found `what` moved on: `412` with `If-Match`, else
/// `409` (read again and retry).
pub(crate) fn moved_on(what: &str, expected: Option<IfMatch>, e: AppError) -> AppError {
    match (expected, e) {
        (None, AppError::PreconditionFailed(_)) => {
            AppError::Conflict(format!("the {what} changed meanwhile; retry"))
        }
        (_, e) => e,
    }
}

/// Deletes an item at the version `read` finds (`None`: absent, a 404 naming `what`),
/// which `If-Match` must name. When the item moved on between the read and the delete,
/// an `If-Match` naming a version answers `412`; otherwise it is read again and retried.
pub(crate) async fn delete_at_read_version<R, D>(
    what: &str,
    expected: Option<IfMatch>,
    read: impl Fn() -> R,
    delete: impl Fn(u64) -> D,
) -> AppResult<()>
where
    R: std::future::Future<Output = AppResult<Option<u64>>>,
    D: std::future::Future<Output = pf_store::StoreResult<()>>,
{
    let moved = |e: &AppError| match e {
        AppError::Store(StoreError::Conflict(pf_store::ConflictKind::Changed)) => Again::Now,
        e => e.again(),
    };
    let (read, delete) = (&read, &delete);
    let deleted = retry(moved, |_| async move {
        let version = read().await?.ok_or_else(|| AppError::not_found(what))?;
        check_version(expected, version)?;
        match delete(version).await {
            Err(StoreError::NotFound) => Err(AppError::not_found(what)),
            Err(StoreError::Conflict(_)) if matches!(expected, Some(IfMatch::Version(_))) => {
                Err(stale())
            }
            other => Ok(other?),
        }
    })
    .await;
    deleted.map_err(|e| match e {
        AppError::Store(StoreError::Conflict(_)) => {
            AppError::Conflict(format!("the {what} changed meanwhile; retry"))
        }
        e => e,
    })
}

#[cfg(test)]
mod page_tests {
    #[test]
    fn pages_after_a_key_walk_every_item_once() {
        let items: Vec<u32> = (1..=5).collect();
        let key = |i: &u32| format!("{i:03}");
        let (first, next) = super::page_after(items.clone(), key, None, 2);
        assert_eq!((first, next.as_deref()), (vec![1, 2], Some("002")));
        let (last, next) = super::page_after(items.clone(), key, Some("004"), 2);
        assert_eq!((last, next), (vec![5], None));
        let (exact, next) = super::page_after(items, key, Some("003"), 2);
        assert_eq!((exact, next), (vec![4, 5], None));
    }
}
