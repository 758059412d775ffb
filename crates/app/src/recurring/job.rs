//! The job that turns due occurrences into transactions, exactly once however often and
//! however concurrently it runs: each occurrence is written with an id derived from
//! (schedule, nominal date), in one `TransactWriteItems` with the schedule's progress,
//! conditional on the schedule still being the version read. A run that loses a race
//! reads the schedule again and finds the occurrence done.
//!
//! No user starves the others: a run creates at most [`PER_USER_PER_RUN`] occurrences of
//! one user (the rest stays due for the next run), and it starts at another shard of the
//! due-date index each hour ([`first_shard`]), so no shard is always the one a deadline
//! cuts off.

use std::collections::HashMap;
use std::time::Instant;

use time::Date;

use crate::transactions::{build_record, keys, Stamp, TransactionDraft};
use crate::{AppError, AppResult};
use pf_domain::recurring::{Next, Recurring};
use pf_domain::time::Timestamp;
use pf_domain::CategorySource;
use pf_store::keys::SHARDS;
use pf_store::{ConflictKind, Store, StoreError};

/// What one run did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct JobReport {
    /// Schedules the due-date index named.
    pub schedules: usize,
    /// Transactions created.
    pub created: usize,
    /// Schedules that failed (logged; the next run tries again).
    pub failed: usize,
    /// Schedules left due for the next run because their user had their share of this
    /// one ([`PER_USER_PER_RUN`]).
    pub deferred: usize,
    /// Whether every due schedule was seen before the deadline.
    pub finished: bool,
}

/// Occurrences one user gets per run, however many are due: a backlog of thousands
/// (schedules backfilled years back) is caught up over several runs, and the other
/// users' due occurrences are still created in the first (a run of about a minute
/// writes some thousands).
pub const PER_USER_PER_RUN: usize = 200;

/// The shard a run that starts at `unix_secs` walks first: the next one each hour (the
/// job's schedule in AWS), all 16 in turn.
pub fn first_shard(unix_secs: i64) -> u64 {
    (unix_secs.div_euclid(3600) as u64) % SHARDS
}

/// Every shard once, from `first` on and round.
fn shard_order(first: u64) -> impl Iterator<Item = u64> {
    let first = first % SHARDS;
    (first..SHARDS).chain(0..first)
}

/// Races lost on one schedule without progress before leaving it to the next run.
const CONFLICTS: usize = 5;

/// Creates every occurrence due on or before `today` of every schedule the due-date
/// index names (one `Query` page at a time per shard, from this hour's
/// [`first_shard`]), until `deadline` and at most [`PER_USER_PER_RUN`] a user; what is
/// left stays due for the next run.
pub async fn run_due(store: &Store, today: Date, deadline: Instant) -> AppResult<JobReport> {
    let now = time::OffsetDateTime::now_utc().unix_timestamp();
    run_due_from(store, today, deadline, first_shard(now)).await
}

/// [`run_due`] walking the shards from `first`.
pub async fn run_due_from(
    store: &Store,
    today: Date,
    deadline: Instant,
    first: u64,
) -> AppResult<JobReport> {
    let mut report = JobReport::default();
    let mut given: HashMap<u64, usize> = HashMap::new();
    for shard in shard_order(first) {
        let mut start = None;
        loop {
            if Instant::now() >= deadline {
                return Ok(report);
            }
            let (keys, next) = store.due_recurring(shard, today, start).await?;
            for (user_id, id) in keys {
                if Instant::now() >= deadline {
                    return Ok(report);
                }
                report.schedules += 1;
                let share = given.entry(user_id).or_default();
                let left = PER_USER_PER_RUN.saturating_sub(*share);
                if left == 0 {
                    report.deferred += 1;
                    continue;
                }
                match catch_up(store, user_id, id, today, (deadline, left)).await {
                    Ok(n) => {
                        *share += n;
                        report.created += n;
                    }
                    // One schedule's trouble (a deleted category) never stops the others.
                    Err(error) => {
                        report.failed += 1;
                        tracing::warn!(user_id, id, ?error, "recurring: occurrence not created");
                    }
                }
            }
            match next {
                Some(key) => start = Some(key),
                None => break,
            }
        }
    }
    report.finished = true;
    Ok(report)
}

/// Creates the due occurrences of one schedule in date order, until `deadline` and at
/// most `max`; answers how many.
async fn catch_up(
    store: &Store,
    user_id: u64,
    id: u64,
    today: Date,
    (deadline, max): (Instant, usize),
) -> AppResult<usize> {
    let (mut created, mut conflicts) = (0, 0);
    let Some(mut r) = store.get_recurring(user_id, id).await? else {
        return Ok(0);
    };
    while Instant::now() < deadline && created < max {
        let (passed, next) = r.next();
        let mut after = r.clone();
        after.version += 1;
        match next {
            Next::Occurrence {
                nominal,
                date,
                amount,
            } if date <= today => {
                after.done = Some(nominal);
                after.prune_past();
                match create_occurrence(store, &r, &after, nominal, date, amount).await {
                    Ok(()) => {
                        created += 1;
                        r = after;
                    }
                    Err(AppError::Store(StoreError::Conflict(
                        ConflictKind::Changed | ConflictKind::IdTaken,
                    ))) if conflicts < CONFLICTS => {
                        // Another run (or an edit) got there first: read what it left.
                        // Only a race without progress counts against the budget.
                        let Some(fresh) = store.get_recurring(user_id, id).await? else {
                            return Ok(created);
                        };
                        conflicts += usize::from(fresh.version == r.version);
                        r = fresh;
                    }
                    Err(e) => return Err(e),
                }
            }
            _ => {
                // Nothing due: keep the skipped ones passed, so the next look starts after
                // them, but only those of days that are over: a skip of today or later
                // stays the user's to restore.
                let yesterday = today.previous_day().unwrap_or(today);
                let passed = passed
                    .map(|p| p.min(yesterday))
                    .filter(|p| r.done < Some(*p));
                if passed.is_some() {
                    after.done = passed;
                    after.prune_past();
                    match store.put_recurring(&after, Some(r.version)).await {
                        Ok(()) | Err(StoreError::Conflict(_)) => {}
                        Err(e) => return Err(e.into()),
                    }
                }
                return Ok(created);
            }
        }
    }
    Ok(created)
}

/// Writes the occurrence at `nominal` as a transaction through the transaction's own
/// constructor, with the schedule moved to `after` in the same write.
async fn create_occurrence(
    store: &Store,
    r: &Recurring,
    after: &Recurring,
    nominal: Date,
    date: Date,
    amount: rust_decimal::Decimal,
) -> AppResult<()> {
    // The user chose the category when they made the schedule.
    let draft = TransactionDraft::of(&r.details, date, amount, CategorySource::User);
    let keys = keys(Some(&draft), None, None);
    let refs = store.fetch_refs(r.user_id, keys).await?;
    let now = Timestamp::now();
    let stamp = Stamp {
        id: r.transaction_id(nominal),
        version: 1,
        created_at: None,
        now,
    };
    let mut txn = build_record(r.user_id, draft, &refs, stamp)?;
    txn.recurring_id = Some(r.id);
    let head = Some(refs.feed_head);
    store
        .insert_occurrence(&txn, after, r.version, head, &now.to_string())
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_hour_starts_at_the_next_shard_and_a_run_walks_every_shard_once() {
        let hour = 3600;
        let firsts: Vec<u64> = (0..SHARDS as i64)
            .map(|h| first_shard(h * hour + 59))
            .collect();
        assert_eq!(firsts, (0..SHARDS).collect::<Vec<_>>());
        assert_eq!(first_shard(SHARDS as i64 * hour), 0);
        let order: Vec<u64> = shard_order(5).collect();
        assert_eq!(order[..2], [5, 6]);
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..SHARDS).collect::<Vec<_>>());
    }
}
