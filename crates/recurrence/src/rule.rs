//! The parsed recurrence rule ([`RRule`]) and its parts, with the canonical
//! string form ([`std::fmt::Display`]). Parsing lives in `parse.rs`.

use std::fmt;

use time::{Date, Weekday};

/// `FREQ`: the period a rule repeats in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Freq {
    Daily,
    Weekly,
    Monthly,
    Yearly,
}

impl Freq {
    /// The RFC 5545 name (`DAILY`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            Freq::Daily => "DAILY",
            Freq::Weekly => "WEEKLY",
            Freq::Monthly => "MONTHLY",
            Freq::Yearly => "YEARLY",
        }
    }
}

/// RFC 7529 `SKIP`: what happens to a day-of-month the month lacks
/// (the 31st in April, February 29 in a common year).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Skip {
    /// The occurrence is dropped (RFC 5545 behaviour, the default).
    #[default]
    Omit,
    /// The occurrence moves to the month's last day.
    Backward,
    /// The occurrence moves to the first day of the next month.
    Forward,
}

impl Skip {
    /// The RFC 7529 name (`OMIT`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            Skip::Omit => "OMIT",
            Skip::Backward => "BACKWARD",
            Skip::Forward => "FORWARD",
        }
    }
}

/// One `BYDAY` value: a weekday with an optional ordinal (`MO`, `2MO`, `-1FR`).
///
/// The ordinal counts within the month (`FREQ=MONTHLY`, or `FREQ=YEARLY` with
/// `BYMONTH`) or within the year (`FREQ=YEARLY` without `BYMONTH`); negative
/// ordinals count from the end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct WeekdayNum {
    /// `None` for every such weekday; otherwise ±1..=53, never 0.
    pub ordinal: Option<i8>,
    pub weekday: Weekday,
}

impl fmt::Display for WeekdayNum {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(n) = self.ordinal {
            write!(f, "{n}")?;
        }
        f.write_str(weekday_code(self.weekday))
    }
}

/// The two-letter RFC 5545 code of a weekday.
pub fn weekday_code(day: Weekday) -> &'static str {
    match day {
        Weekday::Monday => "MO",
        Weekday::Tuesday => "TU",
        Weekday::Wednesday => "WE",
        Weekday::Thursday => "TH",
        Weekday::Friday => "FR",
        Weekday::Saturday => "SA",
        Weekday::Sunday => "SU",
    }
}

/// A validated recurrence rule (the value of an RFC 5545 `RRULE`, restricted
/// to the parts listed in the crate documentation).
///
/// Built only through [`str::parse`](std::str::FromStr), so every value is
/// valid: `INTERVAL >= 1`, at most one of `COUNT` / `UNTIL`, values in range,
/// lists sorted and without duplicates.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RRule {
    pub(crate) freq: Freq,
    pub(crate) interval: u32,
    pub(crate) count: Option<u32>,
    pub(crate) until: Option<Date>,
    pub(crate) by_month: Vec<u8>,
    pub(crate) by_month_day: Vec<i8>,
    pub(crate) by_day: Vec<WeekdayNum>,
    pub(crate) by_set_pos: Vec<i16>,
    pub(crate) wkst: Weekday,
    pub(crate) skip: Skip,
}

impl RRule {
    pub fn freq(&self) -> Freq {
        self.freq
    }
    /// `INTERVAL` (1 when absent).
    pub fn interval(&self) -> u32 {
        self.interval
    }
    /// `COUNT`: how many nominal occurrences from `start` there are.
    pub fn count(&self) -> Option<u32> {
        self.count
    }
    /// `UNTIL` as a date (a date-time `UNTIL` keeps only its date).
    pub fn until(&self) -> Option<Date> {
        self.until
    }
    /// `BYMONTH` values (1..=12), sorted.
    pub fn by_month(&self) -> &[u8] {
        &self.by_month
    }
    /// `BYMONTHDAY` values (1..=31, -31..=-1), sorted.
    pub fn by_month_day(&self) -> &[i8] {
        &self.by_month_day
    }
    /// `BYDAY` values, sorted by weekday then ordinal.
    pub fn by_day(&self) -> &[WeekdayNum] {
        &self.by_day
    }
    /// `BYSETPOS` values (1..=366, -366..=-1), sorted.
    pub fn by_set_pos(&self) -> &[i16] {
        &self.by_set_pos
    }
    /// `WKST` (Monday when absent).
    pub fn wkst(&self) -> Weekday {
        self.wkst
    }
    /// RFC 7529 `SKIP` (`OMIT` when absent).
    pub fn skip(&self) -> Skip {
        self.skip
    }
}

fn join<T: fmt::Display>(f: &mut fmt::Formatter<'_>, name: &str, items: &[T]) -> fmt::Result {
    if items.is_empty() {
        return Ok(());
    }
    write!(f, ";{name}=")?;
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(",")?;
        }
        write!(f, "{item}")?;
    }
    Ok(())
}

/// The canonical form: `[RSCALE=GREGORIAN;]FREQ=…[;INTERVAL=n][;COUNT=n|;UNTIL=YYYYMMDD]`
/// `[;BYMONTH=…][;BYMONTHDAY=…][;BYDAY=…][;BYSETPOS=…][;WKST=..][;SKIP=…]`.
///
/// Defaults are left out (`INTERVAL=1`, `WKST=MO`, `SKIP=OMIT`); `RSCALE=GREGORIAN`
/// is written exactly when `SKIP` is, as RFC 7529 requires. `UNTIL` is always
/// written as a date. Parsing the output gives back an equal rule.
impl fmt::Display for RRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.skip != Skip::Omit {
            f.write_str("RSCALE=GREGORIAN;")?;
        }
        write!(f, "FREQ={}", self.freq.as_str())?;
        if self.interval != 1 {
            write!(f, ";INTERVAL={}", self.interval)?;
        }
        if let Some(count) = self.count {
            write!(f, ";COUNT={count}")?;
        }
        if let Some(until) = self.until {
            write!(
                f,
                ";UNTIL={:04}{:02}{:02}",
                until.year(),
                u8::from(until.month()),
                until.day()
            )?;
        }
        join(f, "BYMONTH", &self.by_month)?;
        join(f, "BYMONTHDAY", &self.by_month_day)?;
        join(f, "BYDAY", &self.by_day)?;
        join(f, "BYSETPOS", &self.by_set_pos)?;
        if self.wkst != Weekday::Monday {
            write!(f, ";WKST={}", weekday_code(self.wkst))?;
        }
        if self.skip != Skip::Omit {
            write!(f, ";SKIP={}", self.skip.as_str())?;
        }
        Ok(())
    }
}
