//! The one retry policy: every write that can lose a race (a conflict with a concurrent
//! writer, a feed head moved meanwhile, a generated id taken, a read that came back
//! incomplete) goes round [`retry`], and nowhere else loops.
//!
//! An attempt that fails is classified by its caller ([`Again`]): a conflict waits a
//! backoff (10 ms doubling, with jitter, capped at 320 ms) and tries again, a taken id
//! tries again at once (the attempt draws another), anything else is the answer. Attempts
//! are bounded by number ([`ATTEMPTS`]) and by time: none starts after [`MAX_TIME`] from
//! the first, nor within [`MARGIN`] of the invocation's deadline when one is known. The
//! Lambda entry points (`pf_http::lambda`) run each invocation [`within`] its deadline (the
//! function's remaining time); elsewhere (the local server, tests) [`MAX_TIME`] bounds it.
//!
//! Each attempt reads what it needs again and writes once (no loop inside an attempt):
//! a create passes this loop once, not loops inside loops.

use std::future::Future;
use std::time::{Duration, Instant};

use super::{ConflictKind, StoreError, StoreResult};

/// Most attempts of one operation.
pub const ATTEMPTS: u32 = 32;
/// No attempt starts this long after the first.
pub const MAX_TIME: Duration = Duration::from_secs(8);
/// No attempt starts this close to the invocation's deadline (time left to answer).
pub const MARGIN: Duration = Duration::from_secs(1);

tokio::task_local! {
    static DEADLINE: Instant;
}

/// Runs `work` with `deadline` as the end of the invocation: retries inside it stop in
/// time to answer (see the module).
pub async fn within<F: Future>(deadline: Instant, work: F) -> F::Output {
    DEADLINE.scope(deadline, work).await
}

/// Whether the invocation's deadline, when one is known, is within [`MARGIN`]: work not
/// begun yet should not begin (a batch answers its remaining operations unapplied).
pub fn out_of_time() -> bool {
    DEADLINE
        .try_with(|d| Instant::now() + MARGIN >= *d)
        .unwrap_or(false)
}

/// What follows a failed attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Again {
    /// Another attempt after a backoff: a concurrent writer got there first.
    Backoff,
    /// Another attempt at once: it draws a new id, or replays what a concurrent request
    /// stored.
    Now,
    /// No other attempt: the error is the answer.
    No,
}

impl StoreError {
    /// How an attempt that reads again and draws a new id retries this error: a conflict
    /// with a concurrent writer (`Contention`, `FeedMoved`) after a backoff, a taken id at
    /// once, anything else not at all.
    pub fn again(&self) -> Again {
        match self {
            StoreError::Conflict(ConflictKind::Contention | ConflictKind::FeedMoved) => {
                Again::Backoff
            }
            StoreError::Conflict(ConflictKind::IdTaken) => Again::Now,
            _ => Again::No,
        }
    }
}

/// Runs `attempt` (given its number, from 1) until it succeeds, `classify` says its error
/// is the answer, or the policy's bounds are reached (the last error is then the answer).
pub async fn retry<T, E, F, Fut>(classify: impl Fn(&E) -> Again, mut attempt: F) -> Result<T, E>
where
    F: FnMut(u32) -> Fut,
    Fut: Future<Output = Result<T, E>>,
{
    let limit = limit(Instant::now());
    let mut n = 1;
    loop {
        let e = match attempt(n).await {
            Ok(v) => return Ok(v),
            Err(e) => e,
        };
        let wait = match classify(&e) {
            Again::No => return Err(e),
            Again::Now => Duration::ZERO,
            Again::Backoff => backoff(n),
        };
        if n >= ATTEMPTS || Instant::now() + wait >= limit {
            return Err(e);
        }
        tokio::time::sleep(wait).await;
        n += 1;
    }
}

/// Runs `write` with a fresh id until it does not clash with an existing item (the write
/// reports a clash as `Conflict(IdTaken)`): ids are redrawn, never overwritten. A conflict
/// with a concurrent writer is retried here too, after a backoff: `write` builds its
/// transaction again each time and sends it once (`Store::transact_once`), so a create
/// passes this one loop. A `write` that retries its own conflicts still works: they rarely
/// reach this loop.
pub async fn with_fresh_id<T, F, Fut>(mut write: F) -> StoreResult<T>
where
    F: FnMut(u64) -> Fut,
    Fut: Future<Output = StoreResult<T>>,
{
    retry(StoreError::again, |_| write(pf_domain::ids::new_id())).await
}

/// The time after which no attempt starts, for operations starting at `start`.
fn limit(start: Instant) -> Instant {
    let own = start + MAX_TIME;
    DEADLINE
        .try_with(|d| d.checked_sub(MARGIN).unwrap_or(start))
        .map_or(own, |d| d.min(own))
}

/// Backoff before attempt `n + 1`: 10 ms doubling, with jitter, capped at 320 ms.
fn backoff(n: u32) -> Duration {
    use rand::Rng;
    let base = 10u64 << n.min(5);
    let jitter = rand::rng().random_range(0..=base);
    Duration::from_millis(base / 2 + jitter / 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn contended(e: &StoreError) -> Again {
        e.again()
    }

    #[tokio::test]
    async fn conflicts_are_retried_and_other_errors_answer() {
        let mut seen = 0;
        let out = retry(contended, |n| {
            seen = n;
            async move {
                if n < 3 {
                    Err(StoreError::Conflict(ConflictKind::Contention))
                } else {
                    Ok(n)
                }
            }
        })
        .await;
        assert_eq!((out.unwrap(), seen), (3, 3));
        let out: StoreResult<()> = retry(contended, |_| async { Err(StoreError::NotFound) }).await;
        assert!(matches!(out, Err(StoreError::NotFound)));
    }

    #[tokio::test]
    async fn attempts_are_bounded_by_number_and_by_the_deadline() {
        let taken = || StoreError::Conflict(ConflictKind::IdTaken);
        let mut tries = 0;
        let out: StoreResult<()> = retry(contended, |_| {
            tries += 1;
            async { Err(taken()) }
        })
        .await;
        assert!(out.unwrap_err().is_conflict(ConflictKind::IdTaken));
        assert_eq!(tries, ATTEMPTS);
        // Within a second of the deadline, nothing is tried again.
        let mut tries = 0;
        let soon = Instant::now() + MARGIN;
        let _ = within(
            soon,
            retry(contended, |_| {
                tries += 1;
                async { Err::<(), _>(taken()) }
            }),
        )
        .await;
        assert_eq!(tries, 1);
    }
}
