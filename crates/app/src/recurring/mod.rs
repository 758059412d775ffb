//! Recurring transactions: schedules checked by the transaction's own constructor
//! ([`build_record`]) plus their calendar, at most [`MAX_SCHEDULES`] per user, versioned
//! like every resource. Their occurrences (`occurrences`), the job that creates the due
//! ones exactly once (`job`) and the balance forecast (`forecast`) are beside this.

mod forecast;
mod job;
mod occurrences;

pub use forecast::{forecast, Forecast, ForecastPoint};
pub use job::{first_shard, run_due, run_due_from, JobReport, PER_USER_PER_RUN};
pub use occurrences::{change_occurrence, parse_window, restore_occurrence};

use recurrence::{RRule, Schedule, Weekend};
use time::Date;

use super::transactions::{build_record, keys, Stamp, TransactionDraft};
use super::{check_version, kept, AppError, AppResult, IfMatch};
use pf_domain::recurring::{Recurring, MAX_MOVE_DAYS, MAX_SCHEDULES};
use pf_domain::time::Timestamp;
use pf_domain::Violation;
use pf_store::{ConflictKind, Store, StoreError};

/// A schedule as a client describes it: the transaction's fields (its `date` is `start`)
/// and the calendar, not yet checked.
#[derive(Debug, Clone)]
pub struct RecurringDraft {
    pub transaction: TransactionDraft,
    pub rrule: String,
    pub weekend: Option<String>,
    pub backfill: bool,
}

/// Today in UTC: what is due is due on or before it.
pub fn today() -> Date {
    time::OffsetDateTime::now_utc().date()
}

/// The calendar of a draft, every broken part named.
fn calendar(draft: &RecurringDraft, errors: &mut Vec<Violation>) -> Option<Schedule> {
    let rule = draft
        .rrule
        .parse::<RRule>()
        .map_err(|e| {
            errors.push(Violation::new(
                "rrule",
                format!("{}: {}", e.part, e.message),
            ))
        })
        .ok();
    let weekend = match &draft.weekend {
        None => Some(Weekend::Keep),
        Some(w) => w
            .parse::<Weekend>()
            .map_err(|e| errors.push(Violation::new("weekend", e.message)))
            .ok(),
    };
    let start = draft.transaction.date;
    if !(recurrence::MIN_DATE..=recurrence::MAX_DATE).contains(&start) {
        errors.push(Violation::new(
            "start",
            "must lie between 1900-01-01 and 2200-12-31",
        ));
    }
    Some(Schedule::new(start, rule?, weekend?))
}

/// A schedule created with `backfill` creates at most this many past occurrences.
pub const MAX_BACKFILL: usize = 1_000;

/// A backfill creates at most [`MAX_BACKFILL`] past occurrences: a daily rule from decades
/// ago would otherwise book tens of thousands of transactions in one job run.
fn check_backfill(schedule: &Schedule, today: Date) -> AppResult<()> {
    let past = schedule.nominal_between(schedule.start, today).len();
    if past > MAX_BACKFILL {
        let message = format!(
            "would create {past} past occurrences, at most {MAX_BACKFILL}: choose a later start"
        );
        return Err(AppError::invalid("backfill", message));
    }
    Ok(())
}

/// Checks a draft with the transaction's constructor and builds the schedule over
/// `base` (the stored one on an update: its progress and exceptions are kept).
async fn build(
    store: &Store,
    user_id: u64,
    draft: RecurringDraft,
    base: Option<&Recurring>,
) -> AppResult<Recurring> {
    let mut errors = Vec::new();
    let schedule = calendar(&draft, &mut errors);
    let keys = keys(Some(&draft.transaction), None, None);
    let refs = store.fetch_refs(user_id, keys).await?;
    let now = Timestamp::now();
    let stamp = Stamp {
        id: 0,
        version: base.map_or(1, |b| b.version + 1),
        created_at: base.map(|b| b.created_at),
        now,
    };
    let record = match build_record(user_id, draft.transaction.clone(), &refs, stamp) {
        Ok(record) => Some(record),
        Err(AppError::Invalid(v)) => {
            errors.extend(v);
            None
        }
        Err(e) => return Err(e),
    };
    let (Some(schedule), Some(r), true) = (schedule, record, errors.is_empty()) else {
        return Err(AppError::Invalid(errors));
    };
    let today = today();
    let calendar_kept = base.is_some_and(|b| b.schedule == schedule);
    let not_before = match (base, draft.backfill) {
        (Some(b), _) if calendar_kept => b.not_before,
        // Another calendar plans from today on, as a new schedule without backfill: its
        // dates before today neither repeat what the old one created nor show as created,
        // nor do those up to the last one created (moved earlier than its nominal date),
        // even moved off a weekend. That one lies at most a move after today.
        (Some(b), _) => {
            let days = |n| time::Duration::days(n);
            let after_done = b.done.map_or(today, |d| d + days(Weekend::MOST_DAYS + 1));
            let latest = today + days(MAX_MOVE_DAYS + Weekend::MOST_DAYS + 1);
            b.not_before.max(today).max(after_done.min(latest))
        }
        (None, true) => {
            check_backfill(&schedule, today)?;
            schedule.start
        }
        (None, false) => today,
    };
    // Exceptions of dates a new calendar no longer has could be neither listed nor
    // restored: they go (those of created or passed occurrences stay, as history).
    let mut exceptions = base.map(|b| b.exceptions.clone()).unwrap_or_default();
    if let (Some(b), false) = (base, calendar_kept) {
        exceptions.retain(|&nominal, _| {
            b.done.is_some_and(|d| nominal <= d)
                || !schedule.by_nominal(nominal, nominal).is_empty()
        });
    }
    Ok(Recurring {
        user_id,
        id: base.map_or(0, |b| b.id),
        details: r.details,
        schedule,
        rrule: draft.rrule.trim().to_owned(),
        // Counts at creation only: an update keeps what the schedule was created with.
        backfill: base.map_or(draft.backfill, |b| b.backfill),
        not_before,
        done: base.and_then(|b| b.done),
        exceptions,
        version: r.version,
        created_at: r.created_at,
        updated_at: r.updated_at,
    })
}

/// Creates a schedule; its due occurrences are created by the job.
pub async fn create(store: &Store, user_id: u64, draft: RecurringDraft) -> AppResult<Recurring> {
    let r = build(store, user_id, draft, None).await?;
    let full = || {
        AppError::Conflict(format!(
            "at most {MAX_SCHEDULES} recurring transactions per user"
        ))
    };
    let count = store.all_recurring(user_id).await?.len();
    kept::create((count, MAX_SCHEDULES), full, |id| {
        let r = Recurring { id, ..r.clone() };
        async move { store.put_recurring(&r, None).await.map(|()| r) }
    })
    .await
}

pub async fn get(store: &Store, user_id: u64, id: u64) -> AppResult<Recurring> {
    store
        .get_recurring(user_id, id)
        .await?
        .ok_or_else(|| AppError::not_found("recurring transaction"))
}

/// Every schedule of the user, oldest first.
pub async fn all(store: &Store, user_id: u64) -> AppResult<Vec<Recurring>> {
    Ok(store.all_recurring(user_id).await?)
}

/// One page of the user's schedules, oldest first.
pub async fn list(
    store: &Store,
    user_id: u64,
    limit: i32,
    after: Option<u64>,
) -> AppResult<(Vec<Recurring>, Option<u64>)> {
    Ok(store.list_recurring(user_id, limit, after).await?)
}

/// Replaces a schedule's fields; occurrences already created stay as they are, and so
/// do the exceptions (keyed by nominal dates the new rule may no longer have).
pub async fn update(
    store: &Store,
    user_id: u64,
    id: u64,
    draft: RecurringDraft,
    expected: Option<IfMatch>,
) -> AppResult<Recurring> {
    let old = get(store, user_id, id).await?;
    let new = build(store, user_id, draft, Some(&old)).await?;
    check_version(expected, old.version)?;
    save(store, &new, old.version).await?;
    Ok(new)
}

/// Writes `r` over the stored version `version`: `409` when it moved on meanwhile.
pub(crate) async fn save(store: &Store, r: &Recurring, version: u64) -> AppResult<()> {
    store
        .put_recurring(r, Some(version))
        .await
        .map_err(|e| match e {
            StoreError::Conflict(ConflictKind::Changed) => {
                AppError::Conflict("the recurring transaction changed meanwhile; retry".into())
            }
            e => AppError::Store(e),
        })
}

/// Deletes a schedule (`If-Match` honoured), leaving a tombstone in the change feed;
/// the transactions it created stay.
pub async fn delete(store: &Store, user: u64, id: u64, expected: Option<IfMatch>) -> AppResult<()> {
    let read = || async move { Ok(store.get_recurring(user, id).await?.map(|r| r.version)) };
    let delete = |version| store.delete_recurring(user, id, version);
    super::delete_at_read_version("recurring transaction", expected, read, delete).await
}
