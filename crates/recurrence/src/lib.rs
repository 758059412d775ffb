//! Date-only recurrence for scheduled transactions: RFC 5545 `RRULE`s with
//! RFC 7529 `SKIP`, a `start` that is only the earliest date, and a weekend move.
//!
//! # Example
//! ```
//! use recurrence::{Schedule, Weekend};
//! use time::macros::date;
//!
//! // Salary on the last business day, starting on the 1st (which is no occurrence).
//! let rule = "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1".parse().unwrap();
//! let salary = Schedule::new(date!(2026 - 01 - 01), rule, Weekend::Keep);
//! let dates: Vec<_> = salary
//!     .between(date!(2026 - 01 - 01), date!(2026 - 03 - 31))
//!     .into_iter()
//!     .map(|o| o.date)
//!     .collect();
//! assert_eq!(dates, [date!(2026 - 01 - 30), date!(2026 - 02 - 27), date!(2026 - 03 - 31)]);
//!
//! // Rent on the 1st, moved off the weekend to the Monday after.
//! let rent = Schedule::new(date!(2026 - 01 - 01), "FREQ=MONTHLY".parse().unwrap(), Weekend::After);
//! let feb = rent.next_on_or_after(date!(2026 - 01 - 02)).unwrap();
//! assert_eq!((feb.nominal, feb.date), (date!(2026 - 02 - 01), date!(2026 - 02 - 02)));
//! ```
//!
//! # Rules
//! [`RRule`] parses `FREQ` (`DAILY` `WEEKLY` `MONTHLY` `YEARLY`), `INTERVAL`,
//! `COUNT` or `UNTIL` (a date `YYYYMMDD` or date-time `YYYYMMDDTHHMMSS[Z]`, of
//! which only the date counts), `BYDAY` (ordinals only with `MONTHLY` /
//! `YEARLY`), `BYMONTHDAY`, `BYMONTH`, `BYSETPOS`, `WKST`, and RFC 7529's
//! `SKIP=OMIT|BACKWARD|FORWARD` (with or without `RSCALE=GREGORIAN`; no other
//! `RSCALE`). Anything else is a [`RuleError`] naming the part.
//!
//! # Semantics (where they differ from, or refine, RFC 5545)
//! - `start` is only the earliest date: it is an occurrence only when the rule
//!   produces it. Parts the rule lacks come from `start` as in RFC 5545
//!   (`WEEKLY` → its weekday; `MONTHLY` → its day; `YEARLY` → its month and day;
//!   `YEARLY` with only `BYMONTH` → its day). `YEARLY` with `BYMONTHDAY` but no
//!   `BYMONTH` means every month; with only `BYDAY`, every such weekday of the year.
//! - `INTERVAL` counts periods from start's period (the week by `WKST`, the
//!   month, the year); `COUNT` counts nominal occurrences from `start`.
//! - A day a month lacks: `SKIP=OMIT` (default) drops it, `BACKWARD` takes the
//!   month's last day, `FORWARD` the next month's first (duplicates merge).
//!   Negative `BYMONTHDAY` counts from the month's end (`-1` = last day); one
//!   reaching before the 1st (`-31` in April) goes to the previous month's last
//!   day (`BACKWARD`) or the month's first (`FORWARD`). `BYSETPOS` applies
//!   after `SKIP`.
//! - [`Weekend`] moves an occurrence on a Saturday or Sunday. The move keeps
//!   the date order; nominal dates landing on the same day merge into one
//!   occurrence: the one whose nominal date is that day wins, otherwise the
//!   earliest. The moved date may precede `start` (a Saturday start moved to
//!   Friday). `COUNT` counts nominal dates, merged ones included.
//!
//! # Bounds
//! Only dates in 1900-01-01..=2200-12-31 are produced (a `start` before 1900
//! acts as 1900-01-01, also for `COUNT`). Without `COUNT`, a query jumps
//! straight to its window's period, so any window costs what its length does;
//! with `COUNT` it walks from `start`. No query expands more than
//! [`MAX_PERIODS`] periods. Nothing here panics on any input.

mod calendar;
mod expand;
mod iter;
mod parse;
mod rule;

use std::fmt;
use std::str::FromStr;

use time::Date;

pub use calendar::{MAX_DATE, MIN_DATE};
pub use iter::MAX_PERIODS;
pub use parse::RuleError;
pub use rule::{Freq, RRule, Skip, WeekdayNum};

use calendar::shift;
use expand::Plan;
use iter::{Moved, Nominals};

/// Where an occurrence on a Saturday or Sunday lands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Weekend {
    /// Stays on the weekend day.
    #[default]
    Keep,
    /// Moves to the Friday before.
    Before,
    /// Moves to the Monday after.
    After,
}

impl Weekend {
    /// The most days a move carries an occurrence away from its nominal date (Saturday to
    /// Monday, Sunday to Friday).
    pub const MOST_DAYS: i64 = 2;

    /// `keep`, `before` or `after`.
    pub fn as_str(self) -> &'static str {
        match self {
            Weekend::Keep => "keep",
            Weekend::Before => "before",
            Weekend::After => "after",
        }
    }
}

impl fmt::Display for Weekend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Weekend {
    type Err = RuleError;

    /// `keep`, `before` or `after` (case-insensitive); the error's part is `weekend`.
    fn from_str(text: &str) -> Result<Self, RuleError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "keep" => Ok(Weekend::Keep),
            "before" => Ok(Weekend::Before),
            "after" => Ok(Weekend::After),
            _ => Err(RuleError::new("weekend", "expected keep, before or after")),
        }
    }
}

/// A rule anchored at a start date, with a weekend move.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Schedule {
    pub start: Date,
    pub rule: RRule,
    pub weekend: Weekend,
}

/// One occurrence of a schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Occurrence {
    /// The rule's date: the stable key for exceptions.
    pub nominal: Date,
    /// The date after the weekend move.
    pub date: Date,
}

impl Schedule {
    pub fn new(start: Date, rule: RRule, weekend: Weekend) -> Self {
        Schedule {
            start,
            rule,
            weekend,
        }
    }

    /// Occurrences whose moved `date` lies in `[from, to]` (inclusive), in date order.
    pub fn between(&self, from: Date, to: Date) -> Vec<Occurrence> {
        self.moved_around(from, to)
            .into_iter()
            .filter(|o| (from..=to).contains(&o.date))
            .collect()
    }

    /// Nominal dates in `[from, to]` (inclusive), ascending: the `nominal` of
    /// every occurrence whose nominal date is in the window. A nominal date
    /// merged into another by the weekend move (see the crate docs) is left
    /// out, as it has no occurrence of its own.
    pub fn nominal_between(&self, from: Date, to: Date) -> Vec<Date> {
        self.by_nominal(from, to)
            .into_iter()
            .map(|o| o.nominal)
            .collect()
    }

    /// Like [`nominal_between`](Self::nominal_between), with each one's moved date.
    pub fn by_nominal(&self, from: Date, to: Date) -> Vec<Occurrence> {
        self.moved_around(from, to)
            .into_iter()
            .filter(|o| (from..=to).contains(&o.nominal))
            .collect()
    }

    /// The first occurrence whose moved date is on or after `day`, if any.
    pub fn next_on_or_after(&self, day: Date) -> Option<Occurrence> {
        let plan = Plan::new(self.start, &self.rule)?;
        let nominals = Nominals::new(&plan, shift(day, -3), MAX_DATE);
        Moved::new(nominals, self.weekend).find(|o| o.date >= day)
    }

    /// Occurrences whose nominal dates lie within three days of `[from, to]`:
    /// enough for every merge group touching the window to be complete.
    fn moved_around(&self, from: Date, to: Date) -> Vec<Occurrence> {
        if from > to {
            return Vec::new();
        }
        let Some(plan) = Plan::new(self.start, &self.rule) else {
            return Vec::new();
        };
        let (lower, upper) = (shift(from, -3), shift(to, 3));
        if lower > MAX_DATE || upper < MIN_DATE {
            return Vec::new();
        }
        let nominals = Nominals::new(&plan, lower, upper);
        Moved::new(nominals, self.weekend).collect()
    }
}
