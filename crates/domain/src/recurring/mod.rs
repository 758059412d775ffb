//! A recurring transaction: a transaction's fields, a calendar ([`recurrence::Schedule`]),
//! per-occurrence exceptions keyed by the nominal date, and how far creation has come.
//! Pure: which occurrences exist, which are due, and which transaction id each one gets.

use std::collections::BTreeMap;

use recurrence::{Occurrence, Schedule, Weekend};
use rust_decimal::Decimal;
use sha2::{Digest, Sha256};
use time::{Date, Duration};

use super::ids::MAX_SAFE_ID;
use super::time::Timestamp;
use super::Details;

/// At most this many schedules per user.
pub const MAX_SCHEDULES: usize = 100;
/// At most this many exceptions of occurrences still to come (after `done`) per schedule.
pub const MAX_EXCEPTIONS: usize = 200;
/// At most this many exceptions per schedule in all, past ones included: they live on its
/// item (about 60 bytes each, far below DynamoDB's 400 KB).
pub const MAX_ALL_EXCEPTIONS: usize = 2_000;
/// A moved occurrence stays within this many days of its nominal date.
pub const MAX_MOVE_DAYS: i64 = 31;
/// Occurrence windows (and the forecast) span at most this many days (two years).
pub const MAX_WINDOW_DAYS: i64 = 731;
/// Exceptions of occurrences created or passed stay this many days (a widest window)
/// before `done`, as the list's history; older ones are pruned ([`Recurring::prune_past`]),
/// so past edits never fill [`MAX_ALL_EXCEPTIONS`] (one a day at most: 732 past, plus
/// [`MAX_EXCEPTIONS`] to come).
pub const KEPT_PAST_DAYS: i64 = MAX_WINDOW_DAYS;

/// What happens to one occurrence instead of the rule's plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exception {
    Skip,
    /// Another date, another amount, or both.
    Change {
        date: Option<Date>,
        amount: Option<Decimal>,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub struct Recurring {
    pub user_id: u64,
    pub id: u64,
    /// What each occurrence is (its amount unless an exception changes it).
    pub details: Details,
    pub schedule: Schedule,
    /// The rule as the client wrote it.
    pub rrule: String,
    pub backfill: bool,
    /// The day the schedule begins creating (the creation day without backfill, `start`
    /// with it; after a calendar change, the day of the edit or a few days after `done`):
    /// an occurrence counts when its nominal date or, moved off a weekend, its date is on
    /// or after it (see [`Recurring::counts`]).
    pub not_before: Date,
    /// Every occurrence whose nominal date is on or before this one is created or passed.
    pub done: Option<Date>,
    pub exceptions: BTreeMap<Date, Exception>,
    pub version: u64,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Scheduled,
    Created,
    Skipped,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Scheduled => "scheduled",
            Status::Created => "created",
            Status::Skipped => "skipped",
        }
    }
}

/// One occurrence as the schedule plans it now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Planned {
    pub nominal: Date,
    pub date: Date,
    pub amount: Decimal,
    pub status: Status,
    /// The transaction it became (or becomes): see [`Recurring::transaction_id`].
    pub transaction_id: Option<u64>,
}

/// The next occurrence to create, or when to look again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    Occurrence {
        nominal: Date,
        date: Date,
        amount: Decimal,
    },
    /// None in the scanned years: look again on this day.
    Recheck(Date),
    /// The rule has no further occurrence.
    Never,
}

/// Windows of nominal dates scanned for the next occurrence before settling for a recheck.
const SCAN_WINDOWS: i64 = 12;
const SCAN_DAYS: i64 = 400;

impl Recurring {
    /// The transaction id of the occurrence at `nominal`: the same on every run, so a
    /// second attempt can only find it taken. Positive and below 2^53.
    pub fn transaction_id(&self, nominal: Date) -> u64 {
        let digest = Sha256::digest(format!("recurring:{}:{nominal}", self.id));
        let mut bytes = [0u8; 8];
        bytes.copy_from_slice(&digest[..8]);
        (u64::from_be_bytes(bytes) & MAX_SAFE_ID).max(1)
    }

    /// The date and amount of an occurrence after its exception (`None`: skipped).
    pub fn effective(&self, o: Occurrence) -> Option<(Date, Decimal)> {
        let amount = self.details.amount.amount();
        match self.exceptions.get(&o.nominal) {
            None => Some((o.date, amount)),
            Some(Exception::Skip) => None,
            Some(Exception::Change { date, amount: a }) => {
                Some((date.unwrap_or(o.date), a.unwrap_or(amount)))
            }
        }
    }

    /// Exceptions of occurrences not yet created nor passed: the ones a user still plans.
    pub fn upcoming_exceptions(&self) -> usize {
        let upcoming = |d: &&Date| self.done.is_none_or(|done| **d > done);
        self.exceptions.keys().filter(upcoming).count()
    }

    /// Drops the exceptions of occurrences created or passed more than
    /// [`KEPT_PAST_DAYS`] before `done`: they can change nothing any more. Answers how
    /// many went.
    pub fn prune_past(&mut self) -> usize {
        let Some(cut) = self
            .done
            .and_then(|d| d.checked_sub(Duration::days(KEPT_PAST_DAYS)))
        else {
            return 0;
        };
        let before = self.exceptions.len();
        self.exceptions = self.exceptions.split_off(&cut);
        before - self.exceptions.len()
    }

    fn is_created(&self, nominal: Date) -> bool {
        self.done.is_some_and(|d| nominal <= d)
    }

    /// Whether an occurrence is the schedule's to create: its nominal date is on or after
    /// [`not_before`](Self::not_before) (a first one moved to the Friday before still
    /// counts), or a weekend move carries it there (a Saturday's moved to the Monday).
    pub fn counts(&self, nominal: Date, date: Date) -> bool {
        let weekend_before = self.not_before - Duration::days(Weekend::MOST_DAYS);
        nominal >= self.not_before || (date >= self.not_before && nominal >= weekend_before)
    }

    /// Occurrences dated within `[from, to]` (after moves), in date order; those before
    /// [`not_before`](Self::not_before) count as skipped.
    pub fn occurrences(&self, from: Date, to: Date) -> Vec<Planned> {
        let margin = Duration::days(MAX_MOVE_DAYS + 3);
        let lo = from.checked_sub(margin).unwrap_or(from);
        let hi = to.checked_add(margin).unwrap_or(to);
        let mut out: Vec<Planned> = self
            .schedule
            .by_nominal(lo, hi)
            .into_iter()
            .map(|o| self.plan(o))
            .filter(|p| (from..=to).contains(&p.date))
            .collect();
        out.sort_by_key(|p| (p.date, p.nominal));
        out
    }

    /// One occurrence as planned now.
    pub fn plan(&self, o: Occurrence) -> Planned {
        let (date, amount, status) = match self.effective(o) {
            None => (o.date, self.details.amount.amount(), Status::Skipped),
            // Before the schedule began creating (no backfill, or a new calendar): passed
            // over.
            Some((date, amount)) if !self.counts(o.nominal, date) => {
                (date, amount, Status::Skipped)
            }
            Some((date, amount)) if self.is_created(o.nominal) => (date, amount, Status::Created),
            Some((date, amount)) => (date, amount, Status::Scheduled),
        };
        Planned {
            nominal: o.nominal,
            date,
            amount,
            status,
            transaction_id: (status == Status::Created).then(|| self.transaction_id(o.nominal)),
        }
    }

    /// An occurrence still to create that the one at `nominal` passes, as planned now: one
    /// of an earlier nominal date dated after it, or of a later one dated before it. The
    /// job creates occurrences in nominal order, so one moved past another would wait
    /// for it (or hold it back); the same day is no pass.
    pub fn passed_by(&self, nominal: Date) -> Option<Planned> {
        // A date lies within a move and a weekend of its nominal date.
        let reach = Duration::days(MAX_MOVE_DAYS + Weekend::MOST_DAYS);
        let (lo, hi) = (nominal.checked_sub(reach)?, nominal.checked_add(reach)?);
        let planned = self.occurrences(lo.checked_sub(reach)?, hi.checked_add(reach)?);
        let still = |p: &&Planned| p.status == Status::Scheduled;
        let me = planned
            .iter()
            .filter(still)
            .find(|p| p.nominal == nominal)?;
        planned.iter().filter(still).copied().find(|p| {
            (p.nominal < nominal && p.date > me.date) || (p.nominal > nominal && p.date < me.date)
        })
    }

    /// Occurrences not yet created nor skipped whose date is on or before `to`, in
    /// nominal order (what the forecast adds up).
    pub fn pending_until(&self, to: Date) -> Vec<Planned> {
        let lo = self.scan_start();
        let hi = to
            .checked_add(Duration::days(MAX_MOVE_DAYS + 3))
            .unwrap_or(to);
        if lo > hi {
            return vec![];
        }
        self.schedule
            .by_nominal(lo, hi)
            .into_iter()
            .map(|o| self.plan(o))
            .filter(|p| p.status == Status::Scheduled && p.date <= to)
            .collect()
    }

    /// The first nominal date not yet handled: none a weekend before `not_before` counts.
    fn scan_start(&self) -> Date {
        let weekend_before = self.not_before - Duration::days(Weekend::MOST_DAYS);
        let first = self.schedule.start.max(weekend_before);
        match self.done.and_then(Date::next_day) {
            Some(d) => d.max(first),
            None if self.done.is_some() => recurrence::MAX_DATE,
            None => first,
        }
    }

    /// The next occurrence to create, and the nominal date up to which everything before
    /// it is passed (skipped, or dated before `not_before`), if that moves `done`.
    pub fn next(&self) -> (Option<Date>, Next) {
        let mut passed = None;
        let mut lo = self.scan_start();
        for _ in 0..SCAN_WINDOWS {
            let rule = &self.schedule.rule;
            if lo > recurrence::MAX_DATE || rule.until().is_some_and(|u| lo > u) {
                return (passed, Next::Never);
            }
            // A counted rule is finite: one look to its end costs what its count does.
            let hi = match rule.count() {
                Some(_) => recurrence::MAX_DATE,
                None => lo.saturating_add(Duration::days(SCAN_DAYS)),
            };
            for o in self.schedule.by_nominal(lo, hi) {
                match self.effective(o) {
                    Some((date, amount)) if self.counts(o.nominal, date) => {
                        let nominal = o.nominal;
                        return (
                            passed,
                            Next::Occurrence {
                                nominal,
                                date,
                                amount,
                            },
                        );
                    }
                    _ => passed = Some(o.nominal),
                }
            }
            match hi.next_day() {
                Some(next) if hi < recurrence::MAX_DATE => lo = next,
                _ => return (passed, Next::Never),
            }
        }
        // No nominal date before `lo` is left to create: passing them all lets the job
        // save its progress, so the next look scans on from `lo` (an occurrence more
        // than the scanned years ahead is reached, not looked for from `done` forever).
        (lo.previous_day().or(passed), Next::Recheck(lo))
    }

    /// When the job should look at this schedule next (`None`: never again).
    pub fn due_date(&self) -> Option<Date> {
        match self.next().1 {
            Next::Occurrence { date, .. } => Some(date),
            Next::Recheck(day) => Some(day),
            Next::Never => None,
        }
    }
}

#[cfg(test)]
mod tests;
