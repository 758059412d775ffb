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
