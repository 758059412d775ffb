//! A user's resources kept whole in one versioned item each, at most so many per user
//! (rules, recurring schedules): one way to create them (a fresh id under the cap, through
//! the one retry loop). Each is deleted at the version read, through
//! [`super::delete_at_read_version`].

use std::future::Future;

use super::{AppError, AppResult};
use pf_store::{with_fresh_id, ConflictKind, StoreError, StoreResult};

/// Creates an item with a fresh id when its user has room (`count` of at most `max`,
/// else `full`): `put` writes the item with the id it is given (see [`with_fresh_id`])
/// and gives it back. The write counts too: a concurrent create that took the last place
/// makes this one `full` as well.
pub(crate) async fn create<T, Fut>(
    (count, max): (usize, usize),
    full: impl Fn() -> AppError,
    put: impl FnMut(u64) -> Fut,
) -> AppResult<T>
where
    Fut: Future<Output = StoreResult<T>>,
{
    if count >= max {
        return Err(full());
    }
    match with_fresh_id(put).await {
        Err(StoreError::Conflict(ConflictKind::LimitReached)) => Err(full()),
        other => Ok(other?),
    }
}
