//! Helpers shared by the integration tests.
#![allow(dead_code)]

use recurrence::{Occurrence, RRule, Schedule, Weekend};
use time::{Date, Month};

/// `YYYYMMDD` → date.
pub fn d(text: &str) -> Date {
    let num = |range: std::ops::Range<usize>| text[range].parse::<u32>().expect("digits");
    let month = Month::try_from(num(4..6) as u8).expect("month");
    Date::from_calendar_date(num(0..4) as i32, month, num(6..8) as u8).expect("date")
}

/// Whitespace-separated `YYYYMMDD` dates.
pub fn ds(text: &str) -> Vec<Date> {
    text.split_whitespace().map(d).collect()
}

pub fn rule(text: &str) -> RRule {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

pub fn sched(start: &str, text: &str) -> Schedule {
    Schedule::new(d(start), rule(text), Weekend::Keep)
}

pub fn sched_w(start: &str, text: &str, weekend: Weekend) -> Schedule {
    Schedule::new(d(start), rule(text), weekend)
}

/// Moved dates in `[from, to]`.
pub fn dates(s: &Schedule, from: &str, to: &str) -> Vec<Date> {
    s.between(d(from), d(to)).iter().map(|o| o.date).collect()
}

/// All moved dates of a finite schedule (COUNT / UNTIL).
pub fn all(s: &Schedule) -> Vec<Date> {
    s.between(recurrence::MIN_DATE, recurrence::MAX_DATE)
        .iter()
        .map(|o| o.date)
        .collect()
}

pub fn occ(nominal: &str, date: &str) -> Occurrence {
    Occurrence {
        nominal: d(nominal),
        date: d(date),
    }
}

/// Moved occurrences in `[from, to]`.
pub fn occs(s: &Schedule, from: &str, to: &str) -> Vec<Occurrence> {
    s.between(d(from), d(to))
}

/// Nominal dates in `[from, to]`.
pub fn nominal(s: &Schedule, from: &str, to: &str) -> Vec<Date> {
    s.nominal_between(d(from), d(to))
}

/// The first occurrence on or after `from`.
pub fn next(s: &Schedule, from: &str) -> Option<Occurrence> {
    s.next_on_or_after(d(from))
}

/// Every date of the finite schedule `(start, rule)` is `want`.
pub fn all_are(start: &str, rule: &str, want: &str) {
    assert_eq!(all(&sched(start, rule)), ds(want), "{start} {rule}");
}

/// The dates of `(start, rule)` in `[from, to]` are `want`.
pub fn window_is(start: &str, rule: &str, from: &str, to: &str, want: &str) {
    let got = dates(&sched(start, rule), from, to);
    assert_eq!(got, ds(want), "{start} {rule} in {from}..{to}");
}

/// One `#[test]` per row: `name: check(args…);` runs `check(args…)`.
#[macro_export]
macro_rules! cases {
    ($($name:ident: $check:ident($($arg:expr),* $(,)?);)*) => {$(
        #[test]
        fn $name() {
            $check($($arg),*);
        }
    )*};
}
