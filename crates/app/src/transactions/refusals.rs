//! What a refused transaction write or a reused idempotency key means to the client.

use crate::{AppError, AppResult};
use pf_store::transactions::{IdempotencyRecord, MAX_TRANSACTIONS};
use pf_store::{ConflictKind, Ref, StoreError};

/// The idempotency rule: a key replays the result of its first request when the request
/// is the same, and refuses any other.
pub fn check_replay(stored: &IdempotencyRecord, request_hash: &str) -> AppResult<u64> {
    if stored.request_hash == request_hash {
        Ok(stored.transaction_id)
    } else {
        Err(AppError::Unprocessable(
            "Idempotency-Key was already used with a different request body".into(),
        ))
    }
}

/// A create past the user's [`MAX_TRANSACTIONS`].
pub fn too_many_transactions() -> AppError {
    AppError::Conflict(format!(
        "a user may hold at most {MAX_TRANSACTIONS} transactions; delete some first"
    ))
}

/// What a refused transaction write means to the client.
pub(super) fn write_error(e: StoreError) -> AppError {
    match e {
        StoreError::Conflict(ConflictKind::Wallet) => {
            AppError::Conflict("the wallet changed meanwhile (currency or account); retry".into())
        }
        StoreError::Conflict(ConflictKind::LimitReached) => too_many_transactions(),
        StoreError::Conflict(ConflictKind::Reference(r)) => {
            let (field, noun) = match r {
                Ref::Category => ("categoryId", "category"),
                Ref::Provider => ("providerId", "provider"),
                Ref::Tag => ("tagIds", "tag"),
            };
            AppError::invalid(
                field,
                format!("the {noun} was deleted or changed meanwhile"),
            )
        }
        StoreError::Conflict(ConflictKind::Changed) => {
            AppError::Conflict("the transaction changed meanwhile; retry".into())
        }
        StoreError::Conflict(ConflictKind::IdempotencyKey) => {
            AppError::Conflict("a request with this Idempotency-Key is in progress".into())
        }
        e => AppError::Store(e),
    }
}
