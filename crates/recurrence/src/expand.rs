//! The rule resolved against a start date ([`Plan`]) and the candidate set of
//! one period (a day, week, month or year), following RFC 5545's expand /
//! limit table and RFC 7529's `SKIP`.

use time::{Date, Weekday};

use crate::calendar::{
    add_days, days_between, days_in_month, from_month_index, month_index, week_start, ymd,
    MAX_DATE, MIN_DATE,
};
use crate::rule::{Freq, RRule, Skip, WeekdayNum};

/// A rule with the parts implied by `start` filled in, and its period grid.
#[derive(Debug, Clone)]
pub(crate) struct Plan {
    freq: Freq,
    /// Distance between counted periods in grid units (days for WEEKLY: 7 × INTERVAL).
    step: i64,
    pub count: Option<u32>,
    by_month: Vec<u8>,
    by_month_day: Vec<i8>,
    by_day: Vec<WeekdayNum>,
    by_set_pos: Vec<i16>,
    wkst: Weekday,
    skip: Skip,
    /// The earliest date produced: `start`, raised to [`MIN_DATE`].
    pub first: Date,
    /// The latest date produced: `UNTIL`, lowered to [`MAX_DATE`].
    pub last: Date,
    /// Grid key of start's period (period 0).
    base: i64,
}

impl Plan {
    /// `None` when the schedule can have no occurrence at all.
    pub fn new(start: Date, rule: &RRule) -> Option<Plan> {
        let mut by_month = rule.by_month.clone();
        let mut by_month_day = rule.by_month_day.clone();
        let mut by_day = rule.by_day.clone();
        let nothing = by_month_day.is_empty() && by_day.is_empty();
        let start_day = i8::try_from(start.day()).ok()?;
        match rule.freq {
            Freq::Daily => {}
            Freq::Weekly if by_day.is_empty() => by_day.push(WeekdayNum {
                ordinal: None,
                weekday: start.weekday(),
            }),
            Freq::Weekly => {}
            Freq::Monthly if nothing => by_month_day.push(start_day),
            Freq::Monthly => {}
            Freq::Yearly if nothing => {
                if by_month.is_empty() {
                    by_month.push(u8::from(start.month()));
                }
                by_month_day.push(start_day);
            }
            Freq::Yearly => {}
        }
        let interval = i64::from(rule.interval.max(1));
        let plan = Plan {
            freq: rule.freq,
            step: if rule.freq == Freq::Weekly {
                7 * interval
            } else {
                interval
            },
            count: rule.count,
            by_month,
            by_month_day,
            by_day,
            by_set_pos: rule.by_set_pos.clone(),
            wkst: rule.wkst,
            skip: rule.skip,
            first: start.max(MIN_DATE),
            last: rule.until.map_or(MAX_DATE, |u| u.min(MAX_DATE)),
            base: 0,
        };
        let base = plan.key(start)?;
        (plan.first <= plan.last).then_some(Plan { base, ..plan })
    }

    /// The grid key of the period containing `day`.
    fn key(&self, day: Date) -> Option<i64> {
        Some(match self.freq {
            Freq::Daily => i64::from(day.to_julian_day()),
            Freq::Weekly => i64::from(week_start(day, self.wkst)?.to_julian_day()),
            Freq::Monthly => month_index(day),
            Freq::Yearly => i64::from(day.year()),
        })
    }

    /// The counted period (0 = start's) containing `day`, or the last one
    /// before it; 0 for days before start.
    pub fn period_of(&self, day: Date) -> i64 {
        self.key(day)
            .map_or(0, |key| (key - self.base).div_euclid(self.step).max(0))
    }

    /// The first day of counted period `k`.
    pub fn period_start(&self, k: i64) -> Option<Date> {
        let key = k.checked_mul(self.step)?.checked_add(self.base)?;
        match self.freq {
            Freq::Daily | Freq::Weekly => Date::from_julian_day(i32::try_from(key).ok()?).ok(),
            Freq::Monthly => {
                let (year, month) = from_month_index(key)?;
                ymd(year, month, 1)
            }
            Freq::Yearly => ymd(i32::try_from(key).ok()?, 1, 1),
        }
    }

    /// The sorted, de-duplicated occurrences of period `k` after `BYSETPOS`
    /// (before the start / `UNTIL` / `COUNT` filters). Dates may lie one day
    /// outside the period (`SKIP=FORWARD` / `BACKWARD`).
    pub fn period_set(&self, k: i64) -> Vec<Date> {
        let Some(begin) = self.period_start(k) else {
            return Vec::new();
        };
        let mut set = match self.freq {
            Freq::Daily => self.days(begin, 1),
            Freq::Weekly => self.days(begin, 7),
            Freq::Monthly => self.month_set(begin.year(), u8::from(begin.month()), true),
            Freq::Yearly => self.year_set(begin.year()),
        };
        set.sort();
        set.dedup();
        self.set_pos(set)
    }

    fn month_ok(&self, day: Date) -> bool {
        self.by_month.is_empty() || self.by_month.contains(&u8::from(day.month()))
    }

    /// DAILY / WEEKLY: every day of the period that passes the limits.
    fn days(&self, begin: Date, len: i64) -> Vec<Date> {
        (0..len)
            .filter_map(|i| add_days(begin, i))
            .filter(|&day| {
                let month_day_ok = self.by_month_day.is_empty()
                    || self.by_month_day.iter().any(|&md| {
                        let len = days_in_month(day.year(), u8::from(day.month()));
                        resolve_day(md, len) == Some(day.day())
                    });
                let weekday_ok = self.by_day.is_empty()
                    || self.by_day.iter().any(|d| d.weekday == day.weekday());
                self.month_ok(day) && month_day_ok && weekday_ok
            })
            .collect()
    }

    /// One month's set. `limit_month` applies BYMONTH (MONTHLY); YEARLY has
    /// already chosen its months.
    fn month_set(&self, year: i32, month: u8, limit_month: bool) -> Vec<Date> {
        let (Some(first), Some(last)) = (
            ymd(year, month, 1),
            ymd(year, month, days_in_month(year, month)),
        ) else {
            return Vec::new();
        };
        if limit_month && !self.month_ok(first) {
            return Vec::new();
        }
        if self.by_month_day.is_empty() {
            return expand_weekdays(&self.by_day, first, last);
        }
        self.month_days(year, month)
            .into_iter()
            .filter(|&day| self.weekday_limit(day, first, last))
            .collect()
    }

    /// YEARLY: BYMONTH expands (or every month), then as MONTHLY; BYDAY
    /// ordinals count in the year when BYMONTH is absent.
    fn year_set(&self, year: i32) -> Vec<Date> {
        let months: Vec<u8> = if self.by_month.is_empty() {
            (1..=12).collect()
        } else {
            self.by_month.clone()
        };
        let (Some(jan1), Some(dec31)) = (ymd(year, 1, 1), ymd(year, 12, 31)) else {
            return Vec::new();
        };
        if !self.by_month.is_empty() {
            return months
                .iter()
                .flat_map(|&m| self.month_set(year, m, false))
                .collect();
        }
        if self.by_month_day.is_empty() {
            return expand_weekdays(&self.by_day, jan1, dec31);
        }
        months
            .iter()
            .flat_map(|&m| self.month_days(year, m))
            .filter(|&day| self.weekday_limit(day, jan1, dec31))
            .collect()
    }

    /// BYMONTHDAY in one month, with `SKIP` for days the month lacks.
    fn month_days(&self, year: i32, month: u8) -> Vec<Date> {
        let len = days_in_month(year, month);
        self.by_month_day
            .iter()
            .filter_map(|&md| match resolve_day(md, len) {
                Some(day) => ymd(year, month, day),
                None => self.skipped(year, month, md),
            })
            .collect()
    }

    /// RFC 7529 `SKIP` for a day-of-month `md` that `month` lacks. Past the
    /// month's end (`31` in April): BACKWARD → the month's last day, FORWARD →
    /// the next month's first. Before its start (`-31` in April): BACKWARD →
    /// the previous month's last day, FORWARD → the month's first.
    fn skipped(&self, year: i32, month: u8, md: i8) -> Option<Date> {
        let first = ymd(year, month, 1)?;
        let last = ymd(year, month, days_in_month(year, month))?;
        match (self.skip, md > 0) {
            (Skip::Omit, _) => None,
            (Skip::Backward, true) | (Skip::Forward, false) => {
                Some(if md > 0 { last } else { first })
            }
            (Skip::Forward, true) => add_days(last, 1),
            (Skip::Backward, false) => add_days(first, -1),
        }
    }

    /// BYDAY as a limit (with BYMONTHDAY): ordinals count within `[first, last]`.
    fn weekday_limit(&self, day: Date, first: Date, last: Date) -> bool {
        self.by_day.is_empty()
            || self.by_day.iter().any(|spec| {
                spec.weekday == day.weekday()
                    && spec.ordinal.is_none_or(|n| {
                        let from_start = days_between(first, day).div_euclid(7) + 1;
                        let from_end = -(days_between(day, last).div_euclid(7) + 1);
                        i64::from(n) == from_start || i64::from(n) == from_end
                    })
            })
    }

    /// BYSETPOS: 1-based positions in the period's set, negative from its end.
    fn set_pos(&self, set: Vec<Date>) -> Vec<Date> {
        if self.by_set_pos.is_empty() {
            return set;
        }
        let len = i64::try_from(set.len()).unwrap_or(i64::MAX);
        let mut picked: Vec<Date> = self
            .by_set_pos
            .iter()
            .filter_map(|&pos| {
                let pos = i64::from(pos);
                let index = if pos > 0 { pos - 1 } else { len + pos };
                usize::try_from(index)
                    .ok()
                    .and_then(|i| set.get(i).copied())
            })
            .collect();
        picked.sort();
        picked.dedup();
        picked
    }
}

/// Day number of BYMONTHDAY `md` in a month of `len` days, if it has one.
fn resolve_day(md: i8, len: u8) -> Option<u8> {
    let len = i16::from(len);
    let md = i16::from(md);
    let day = if md > 0 { md } else { len + md + 1 };
    if (1..=len).contains(&day) {
        u8::try_from(day).ok()
    } else {
        None
    }
}

/// BYDAY as an expansion over `[first, last]` (a month or a year).
fn expand_weekdays(specs: &[WeekdayNum], first: Date, last: Date) -> Vec<Date> {
    let mut out = Vec::new();
    for spec in specs {
        let wd = i64::from(spec.weekday.number_days_from_monday());
        let offset = (wd - i64::from(first.weekday().number_days_from_monday())).rem_euclid(7);
        let first_match = add_days(first, offset);
        let back = (i64::from(last.weekday().number_days_from_monday()) - wd).rem_euclid(7);
        let last_match = add_days(last, -back);
        let (Some(first_match), Some(last_match)) = (first_match, last_match) else {
            continue;
        };
        match spec.ordinal.map(i64::from) {
            None => {
                let weeks = days_between(first_match, last_match).div_euclid(7);
                out.extend((0..=weeks).filter_map(|w| add_days(first_match, 7 * w)));
            }
            Some(n) => {
                let day = if n > 0 {
                    add_days(first_match, 7 * (n - 1))
                } else {
                    add_days(last_match, 7 * (n + 1))
                };
                out.extend(day.filter(|d| (first..=last).contains(d)));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::date;

    #[test]
    fn month_days_resolve_from_either_end() {
        assert_eq!(resolve_day(-1, 28), Some(28));
        assert_eq!(resolve_day(-28, 28), Some(1));
        assert_eq!(resolve_day(-29, 28), None);
        assert_eq!(resolve_day(31, 30), None);
        assert_eq!(resolve_day(30, 30), Some(30));
    }

    #[test]
    fn weekdays_expand_with_ordinals() {
        let (first, last) = (date!(2026 - 01 - 01), date!(2026 - 01 - 31));
        let fr = |ordinal| WeekdayNum {
            ordinal,
            weekday: Weekday::Friday,
        };
        assert_eq!(expand_weekdays(&[fr(None)], first, last).len(), 5);
        assert_eq!(
            expand_weekdays(&[fr(Some(1))], first, last),
            [date!(2026 - 01 - 02)]
        );
        assert_eq!(
            expand_weekdays(&[fr(Some(-1))], first, last),
            [date!(2026 - 01 - 30)]
        );
        assert_eq!(
            expand_weekdays(&[fr(Some(5))], first, last),
            [date!(2026 - 01 - 30)]
        );
        assert!(expand_weekdays(&[fr(Some(6))], first, last).is_empty());
        assert!(expand_weekdays(&[fr(Some(-6))], first, last).is_empty());
    }
}
