//! The service layer: the rules of each aggregate, between the HTTP handlers (which parse,
//! call one service, and respond) and the store (items and conditional writes). Services
//! take and return domain values and [`AppError`]; they never see HTTP. A new rule goes
//! here, in the module of its aggregate, with a unit test beside it when it is pure.

pub mod accounts;
pub mod categories;
pub mod imports;
pub mod named;
pub mod transactions;
pub mod users;
pub mod wallet;

use crate::domain::Violation;
use crate::store::StoreError;

/// What a service refuses, in domain terms (the HTTP layer maps each to a status).
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// The request breaks rules, field by field.
    #[error("invalid request")]
    Invalid(Vec<Violation>),
    /// Absent, or someone else's (never told apart).
    #[error("{0}")]
    NotFound(String),
    /// The credentials are wrong (a login, a refresh token).
    #[error("{0}")]
    Unauthorized(String),
    /// Not allowed (e.g. the caller's account is gone).
    #[error("{0}")]
    Forbidden(String),
    /// Taken, in use, or changed meanwhile.
    #[error("{0}")]
    Conflict(String),
    /// The version the client based its change on is no longer the current one.
    #[error("{0}")]
    PreconditionFailed(String),
    /// A repeated request that is not the same request (an idempotency key reused).
    #[error("{0}")]
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
}

impl From<anyhow::Error> for AppError {
    fn from(e: anyhow::Error) -> Self {
        // A saturated password hasher is an outage of this instance, not a bug.
        if e.downcast_ref::<crate::auth::password::Busy>().is_some() {
            return AppError::Store(StoreError::Unavailable(e));
        }
        AppError::Store(StoreError::Unexpected(e))
    }
}

pub type AppResult<T> = Result<T, AppError>;

/// Attempts at a read-modify-write that lost a race before giving up.
pub(crate) const WRITE_ATTEMPTS: usize = 5;
