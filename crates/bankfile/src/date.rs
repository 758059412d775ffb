//! Dates: the format syntax of [`crate::Options::date_format`] and detection over a
//! whole column.
//!
//! # Syntax
//! A format names the day `DD` (or `D`), the month `MM` (or `M`) and the year `YYYY`
//! (or `YY`, two digits: 00-69 is 20xx, 70-99 is 19xx) in one of the orders
//! year-month-day, day-month-year or month-day-year, between them one separator
//! character or none: `YYYY-MM-DD`, `YYYYMMDD`, `DD.MM.YYYY`, `MM/DD/YYYY`, `DD/MM/YY`.
//! With a separator, days and months take one or two digits and any of `/` `.` `-`
//! separates (so `DD/MM/YYYY` also reads `03.11.2026`); without one, the widths are
//! fixed. A time after the date (`2024-01-05 10:22:33`, `2024-01-05T10:22`) is ignored.
//!
//! `MMM` names the month in words (`Jan`, `January`, `janv.`, `März`: see [`names`]):
//! `DD MMM YYYY`, `DD-MMM-YY`, `MMM DD, YYYY`, `YYYY-MMM-DD`. Such a date is read with any
//! of space `/` `.` `-` between its parts, an optional comma after the day or month
//! (`Jan 5, 2024`, `5. Jan. 2024`), and anything after the year ignored.
//!
//! Chinese, Japanese and Korean dates read as the numeric ones they are: `2024年1月5日`
//! and `2024년 1월 5일` as `2024-1-5`, full-width digits and separators
//! (`２０２４／０１／０５`) as ASCII.

mod column;
mod names;

pub use column::{detect, looks_like_date};

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

use time::{Date, Month};

use crate::FileError;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Order {
    Ymd,
    Dmy,
    Mdy,
}

/// A date format (see the module's syntax).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DateFormat {
    order: Order,
    /// The separator shown; reading accepts any of `/` `.` `-` in its place (and a space
    /// where the month is named).
    sep: Option<char>,
    short_year: bool,
    /// The month in words (`MMM`).
    named: bool,
    /// Shown with a comma after the day (`MMM DD, YYYY`).
    comma: bool,
}

impl DateFormat {
    pub const ISO: Self = Self::new(Order::Ymd, Some('-'), false);

    const fn new(order: Order, sep: Option<char>, short_year: bool) -> Self {
        Self {
            order,
            sep,
            short_year,
            named: false,
            comma: false,
        }
    }

    /// The format with the month in words.
    const fn named(order: Order, sep: char, short_year: bool) -> Self {
        Self {
            named: true,
            ..Self::new(order, Some(sep), short_year)
        }
    }

    /// Candidates of detection, in order of preference on a tie that gives the same dates.
    /// A named month reads no numeric date and the reverse, and its place tells the order:
    /// only the numeric day-first and month-first ever tie.
    const CANDIDATES: [Self; 11] = [
        Self::new(Order::Ymd, Some('-'), false),
        Self::new(Order::Ymd, None, false),
        Self::new(Order::Dmy, Some('.'), false),
        Self::new(Order::Mdy, Some('/'), false),
        Self::new(Order::Dmy, Some('.'), true),
        Self::new(Order::Mdy, Some('/'), true),
        Self::named(Order::Dmy, ' ', false),
        Self::named(Order::Dmy, ' ', true),
        Self::named(Order::Mdy, ' ', false),
        Self::named(Order::Mdy, ' ', true),
        Self::named(Order::Ymd, '-', false),
    ];

    /// Whether day and month come in the other order than in `other`.
    pub fn is_day_first(self) -> Option<bool> {
        match self.order {
            Order::Ymd => None,
            Order::Dmy => Some(true),
            Order::Mdy => Some(false),
        }
    }

    /// The same format with day and month in the order given (QIF dates).
    pub fn with_day_first(self, day_first: bool) -> Self {
        let order = if day_first { Order::Dmy } else { Order::Mdy };
        Self { order, ..self }
    }

    /// Reads one cell.
    pub fn read(self, raw: &str) -> Option<Date> {
        let raw = &*cjk_date(raw);
        let (y, month, d) = if self.named {
            self.split_named(raw)?
        } else {
            let (y, m, d) = self.split_numeric(raw)?;
            if !m.bytes().all(|b| b.is_ascii_digit()) || !(1..=2).contains(&m.len()) {
                return None;
            }
            (y, Month::try_from(m.parse::<u8>().ok()?).ok()?, d)
        };
        let digits = |s: &str, n: std::ops::RangeInclusive<usize>| {
            n.contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit())
        };
        let year_len = if self.short_year { 2 } else { 4 };
        if !digits(y, year_len..=year_len) || !digits(d, 1..=2) {
            return None;
        }
        let mut year: i32 = y.parse().ok()?;
        if self.short_year {
            year += if year < 70 { 2000 } else { 1900 };
        }
        let date = Date::from_calendar_date(year, month, d.parse().ok()?).ok()?;
        (1900..=2999).contains(&date.year()).then_some(date)
    }

    /// A named-month cell's year, month and day: its first three words (split at spaces,
    /// `/` `.` `-` and commas) in the format's order.
    fn split_named(self, raw: &str) -> Option<(&str, Month, &str)> {
        let mut words = raw
            .split(|c: char| c.is_whitespace() || matches!(c, '/' | '.' | '-' | ','))
            .filter(|w| !w.is_empty());
        let (a, b, c) = (words.next()?, words.next()?, words.next()?);
        let (y, m, d) = self.in_order(a, b, c);
        Some((y, names::month(m)?, d))
    }

    /// Year, month and day of three parts written in the format's order.
    fn in_order<'a>(self, a: &'a str, b: &'a str, c: &'a str) -> (&'a str, &'a str, &'a str) {
        match self.order {
            Order::Ymd => (a, b, c),
            Order::Dmy => (c, b, a),
            Order::Mdy => (c, a, b),
        }
    }

    /// A numeric cell's year, month and day parts.
    fn split_numeric(self, raw: &str) -> Option<(&str, &str, &str)> {
        let raw = raw.trim();
        let date = raw.split([' ', 'T']).next().unwrap_or(raw);
        let (a, b, c) = match self.sep {
            None => {
                let year = if self.short_year { 2 } else { 4 };
                if date.len() != year + 4 || !date.bytes().all(|b| b.is_ascii_digit()) {
                    return None;
                }
                let (x, y, z) = match self.order {
                    Order::Ymd => (year, year + 2, year + 4),
                    _ => (2, 4, year + 4),
                };
                (&date[..x], &date[x..y], &date[y..z])
            }
            Some(_) => {
                let sep = date.chars().find(|c| matches!(c, '/' | '.' | '-'))?;
                let mut parts = date.split(sep);
                let parts = (parts.next()?, parts.next()?, parts.next()?, parts.next());
                if parts.3.is_some() {
                    return None;
                }
                (parts.0, parts.1, parts.2)
            }
        };
        Some(self.in_order(a, b, c))
    }

    /// The format with the separator a sample cell uses.
    fn shown_as(self, sample: &str) -> Self {
        let sample = &*cjk_date(sample);
        if self.named {
            let sep = sample
                .trim()
                .chars()
                .find(|c| matches!(c, ' ' | '/' | '.' | '-'));
            let comma = self.order == Order::Mdy && sep == Some(' ') && sample.contains(',');
            return Self {
                sep: sep.or(self.sep),
                comma,
                ..self
            };
        }
        let sep = self
            .sep
            .and_then(|_| sample.chars().find(|c| matches!(c, '/' | '.' | '-')));
        Self { sep, ..self }
    }
}

/// A date in Chinese, Japanese or Korean notation as a numeric one: `2024年1月5日`,
/// `2024년 1월 5일 12:30` as `2024-1-5`, `2024-1-5 12:30`; full-width digits and
/// separators in ASCII. Other cells as they are.
pub(crate) fn cjk_date(raw: &str) -> Cow<'_, str> {
    if raw.is_ascii() {
        return Cow::Borrowed(raw);
    }
    let raw = crate::amount::half_width(raw);
    let mut out = String::with_capacity(raw.len());
    // After a year or month mark, spaces up to the next part go.
    let mut after_mark = false;
    for c in raw.trim().chars() {
        match c {
            '年' | '月' | '년' | '월' => {
                out.push('-');
                after_mark = true;
            }
            '日' | '일' => after_mark = false,
            ' ' if after_mark => {}
            c => {
                after_mark = false;
                out.push(c);
            }
        }
    }
    Cow::Owned(out)
}

impl fmt::Display for DateFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let year = if self.short_year { "YY" } else { "YYYY" };
        let month = if self.named { "MMM" } else { "MM" };
        let day = if self.comma { "DD," } else { "DD" };
        let parts = match self.order {
            Order::Ymd => [year, month, day],
            Order::Dmy => [day, month, year],
            Order::Mdy => [month, day, year],
        };
        let sep = self.sep.map(String::from).unwrap_or_default();
        f.write_str(&parts.join(&sep))
    }
}

impl FromStr for DateFormat {
    type Err = FileError;

    fn from_str(s: &str) -> Result<Self, FileError> {
        let bad = || {
            FileError::bad(
                "dateFormat",
                format!("{s:?} is no date format such as DD.MM.YYYY, MM/DD/YYYY or YYYY-MM-DD"),
            )
        };
        let upper = s.trim().to_ascii_uppercase();
        // The letter runs (`DD`, `MMM`, `YYYY`) and what stands between each and the next.
        let mut tokens: Vec<(char, usize)> = Vec::new();
        let mut gaps: Vec<String> = Vec::new();
        for c in upper.chars() {
            let in_gap = gaps.len() == tokens.len();
            match tokens.last_mut() {
                Some((last, n)) if *last == c && !in_gap => *n += 1,
                _ if matches!(c, 'D' | 'M' | 'Y') => {
                    if !tokens.is_empty() && !in_gap {
                        gaps.push(String::new());
                    }
                    tokens.push((c, 1));
                }
                Some(_) if !c.is_alphanumeric() => {
                    if !in_gap {
                        gaps.push(String::new());
                    }
                    gaps.last_mut().ok_or_else(bad)?.push(c);
                }
                _ => return Err(bad()),
            }
        }
        let kinds: String = tokens.iter().map(|t| t.0).collect();
        let order = match kinds.as_str() {
            "YMD" => Order::Ymd,
            "DMY" => Order::Dmy,
            "MDY" => Order::Mdy,
            _ => return Err(bad()),
        };
        let (mut short_year, mut named) = (false, false);
        for (kind, n) in tokens {
            match (kind, n) {
                ('Y', 2) => short_year = true,
                ('M', 3 | 4) => named = true,
                ('Y', 4) | ('D' | 'M', 1 | 2) => {}
                _ => return Err(bad()),
            }
        }
        if order == Order::Ymd && short_year || gaps.len() > 2 {
            return Err(bad());
        }
        if named {
            // Each gap one or two of space `/` `.` `-` `,`: `DD MMM YYYY`, `MMM DD, YYYY`.
            let fits =
                |g: &String| (1..=2).contains(&g.len()) && g.chars().all(|c| " /.-,".contains(c));
            let sep = gaps.first().and_then(|g| g.chars().find(|c| *c != ','));
            return match sep {
                Some(sep) if gaps.len() == 2 && gaps.iter().all(fits) => Ok(Self {
                    comma: order == Order::Mdy && sep == ' ' && gaps[0] == " " && gaps[1] == ", ",
                    ..Self::named(order, sep, short_year)
                }),
                _ => Err(bad()),
            };
        }
        let sep = match gaps.as_slice() {
            [] => None,
            [a, b] if a.is_empty() && b.is_empty() => None,
            [a, b] if a == b && a.chars().count() == 1 && !a.contains(char::is_whitespace) => {
                a.chars().next()
            }
            _ => return Err(bad()),
        };
        Ok(Self::new(order, sep, short_year))
    }
}

#[cfg(test)]
mod tests;
