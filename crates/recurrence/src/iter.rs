//! Lazy iteration over a plan's nominal dates, and the weekend move with its
//! de-duplication.

use std::collections::BTreeSet;
use std::iter::Peekable;

use time::{Date, Weekday};

use crate::calendar::{add_days, shift};
use crate::expand::Plan;
use crate::{Occurrence, Weekend};

/// Hard cap on the periods expanded by one query. DAILY from 1900-01-01 to
/// 2200-12-31 is 109,938 periods, so the cap only cuts pathological cases.
pub const MAX_PERIODS: u32 = 150_000;

/// Nominal dates in `[lower, upper]`, ascending, respecting start, `UNTIL` and
/// `COUNT` (counted from start, so a `COUNT` rule is walked from period 0).
pub(crate) struct Nominals<'a> {
    plan: &'a Plan,
    next_period: i64,
    pending: BTreeSet<Date>,
    /// Pending dates before this are final (later periods start at most one
    /// day earlier than their first day); `None` once nothing more is expanded.
    settled_before: Option<Date>,
    lower: Date,
    upper: Date,
    counted: u32,
    periods: u32,
    done: bool,
}

impl<'a> Nominals<'a> {
    pub fn new(plan: &'a Plan, lower: Date, upper: Date) -> Self {
        let lower = lower.max(plan.first);
        let upper = upper.min(plan.last);
        let next_period = if plan.count.is_some() {
            0
        } else {
            // Two days of margin: the period before may spill one day forward.
            plan.period_of(shift(lower, -2))
        };
        Nominals {
            plan,
            next_period,
            pending: BTreeSet::new(),
            settled_before: Some(lower),
            lower,
            upper,
            counted: 0,
            periods: 0,
            done: lower > upper,
        }
    }

    /// Expands the next period; clears `settled_before` when there is none.
    fn expand(&mut self) {
        let begin = self.plan.period_start(self.next_period);
        let beyond = begin.is_none_or(|b| b > shift(self.upper, 1));
        if beyond || self.periods >= MAX_PERIODS {
            self.settled_before = None;
            return;
        }
        self.pending.extend(self.plan.period_set(self.next_period));
        self.periods += 1;
        self.next_period += 1;
        self.settled_before = self
            .plan
            .period_start(self.next_period)
            .and_then(|next| add_days(next, -1));
    }
}

impl Iterator for Nominals<'_> {
    type Item = Date;

    fn next(&mut self) -> Option<Date> {
        while !self.done {
            let settled = match (self.pending.first(), self.settled_before) {
                (Some(&first), Some(bound)) => first < bound,
                (Some(_), None) => true,
                (None, None) => {
                    self.done = true;
                    return None;
                }
                (None, Some(_)) => false,
            };
            if !settled {
                self.expand();
                continue;
            }
            let Some(day) = self.pending.pop_first() else {
                continue;
            };
            if day < self.plan.first {
                continue;
            }
            if day > self.upper {
                self.done = true;
                return None;
            }
            if let Some(count) = self.plan.count {
                if self.counted >= count {
                    self.done = true;
                    return None;
                }
                self.counted += 1;
            }
            if day >= self.lower {
                return Some(day);
            }
        }
        None
    }
}

/// Where `day` lands under `weekend`.
pub fn moved(day: Date, weekend: Weekend) -> Date {
    let offset = match (weekend, day.weekday()) {
        (Weekend::Before, Weekday::Saturday) => -1,
        (Weekend::Before, Weekday::Sunday) => -2,
        (Weekend::After, Weekday::Saturday) => 2,
        (Weekend::After, Weekday::Sunday) => 1,
        _ => 0,
    };
    add_days(day, offset).unwrap_or(day)
}

/// Occurrences after the weekend move. The move never changes the order, so
/// nominal dates landing on the same day are neighbours; of those, the one
/// whose nominal date is that day wins, otherwise the earliest.
pub(crate) struct Moved<'a> {
    inner: Peekable<Nominals<'a>>,
    weekend: Weekend,
}

impl<'a> Moved<'a> {
    pub fn new(inner: Nominals<'a>, weekend: Weekend) -> Self {
        Moved {
            inner: inner.peekable(),
            weekend,
        }
    }
}

impl Iterator for Moved<'_> {
    type Item = Occurrence;

    fn next(&mut self) -> Option<Occurrence> {
        let first = self.inner.next()?;
        let date = moved(first, self.weekend);
        let mut nominal = first;
        while let Some(next) = self.inner.next_if(|&n| moved(n, self.weekend) == date) {
            if next == date {
                nominal = next;
            }
        }
        Some(Occurrence { nominal, date })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::date;

    #[test]
    fn weekend_moves() {
        let (fri, sat, sun) = (
            date!(2026 - 01 - 02),
            date!(2026 - 01 - 03),
            date!(2026 - 01 - 04),
        );
        let mon = date!(2026 - 01 - 05);
        assert_eq!(moved(sat, Weekend::Keep), sat);
        assert_eq!(moved(sat, Weekend::Before), fri);
        assert_eq!(moved(sun, Weekend::Before), fri);
        assert_eq!(moved(sat, Weekend::After), mon);
        assert_eq!(moved(sun, Weekend::After), mon);
        assert_eq!(moved(fri, Weekend::After), fri);
        assert_eq!(moved(Date::MAX, Weekend::After), Date::MAX);
    }

    #[test]
    fn a_count_walk_covers_the_whole_range() {
        let rule = "FREQ=DAILY;COUNT=1000000".parse().expect("valid");
        let plan = Plan::new(date!(1900 - 01 - 01), &rule).expect("plan");
        let days = Nominals::new(&plan, date!(1900 - 01 - 01), date!(2200 - 12 - 31)).count();
        assert_eq!(days, 109_938);
    }
}
