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
    /// The separator shown; reading accepts any of `/` `.` `-` in its place.
    sep: Option<char>,
    short_year: bool,
}

impl DateFormat {
    pub const ISO: Self = Self::new(Order::Ymd, Some('-'), false);

    const fn new(order: Order, sep: Option<char>, short_year: bool) -> Self {
        Self {
            order,
            sep,
            short_year,
        }
    }

    /// Candidates of detection, in order of preference on a tie that gives the same dates.
    const CANDIDATES: [Self; 6] = [
        Self::new(Order::Ymd, Some('-'), false),
        Self::new(Order::Ymd, None, false),
        Self::new(Order::Dmy, Some('.'), false),
        Self::new(Order::Mdy, Some('/'), false),
        Self::new(Order::Dmy, Some('.'), true),
        Self::new(Order::Mdy, Some('/'), true),
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
        let (y, m, d) = match self.order {
            Order::Ymd => (a, b, c),
            Order::Dmy => (c, b, a),
            Order::Mdy => (c, a, b),
        };
        let digits = |s: &str, n: std::ops::RangeInclusive<usize>| {
            n.contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit())
        };
        let year_len = if self.short_year { 2 } else { 4 };
        if !digits(y, year_len..=year_len) || !digits(m, 1..=2) || !digits(d, 1..=2) {
            return None;
        }
        let mut year: i32 = y.parse().ok()?;
        if self.short_year {
            year += if year < 70 { 2000 } else { 1900 };
        }
        let month = Month::try_from(m.parse::<u8>().ok()?).ok()?;
        let date = Date::from_calendar_date(year, month, d.parse().ok()?).ok()?;
        (1900..=2999).contains(&date.year()).then_some(date)
    }

    /// The format with the separator a sample cell uses.
    fn shown_as(self, sample: &str) -> Self {
        let sep = self
            .sep
            .and_then(|_| sample.chars().find(|c| matches!(c, '/' | '.' | '-')));
        Self { sep, ..self }
    }
}

impl fmt::Display for DateFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let year = if self.short_year { "YY" } else { "YYYY" };
        let parts = match self.order {
            Order::Ymd => [year, "MM", "DD"],
            Order::Dmy => ["DD", "MM", year],
            Order::Mdy => ["MM", "DD", year],
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
        let mut tokens: Vec<(char, usize)> = Vec::new();
        let mut seps: Vec<char> = Vec::new();
        for c in upper.chars() {
            let count = tokens.len();
            match tokens.last_mut() {
                Some((last, n)) if *last == c && c.is_ascii_alphabetic() => *n += 1,
                _ if matches!(c, 'D' | 'M' | 'Y') => tokens.push((c, 1)),
                _ if !c.is_alphanumeric() && !c.is_whitespace() && seps.len() < count => {
                    seps.push(c)
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
        let sep = match seps.as_slice() {
            [] => None,
            [a, b] if a == b => Some(*a),
            _ => return Err(bad()),
        };
        let mut short_year = false;
        for (kind, n) in tokens {
            match (kind, n) {
                ('Y', 2) => short_year = true,
                ('Y', 4) | ('D' | 'M', 1 | 2) => {}
                _ => return Err(bad()),
            }
        }
        if order == Order::Ymd && short_year {
            return Err(bad());
        }
        Ok(Self::new(order, sep, short_year))
    }
}

/// The format that reads the most cells of a column. `Ok(None)` when none reads any;
/// [`FileError::AmbiguousDate`] when formats tie and give different dates.
pub fn detect(cells: &[&str]) -> Result<Option<DateFormat>, FileError> {
    let cells: Vec<&str> = cells
        .iter()
        .copied()
        .filter(|c| !c.trim().is_empty())
        .collect();
    let counts: Vec<usize> = DateFormat::CANDIDATES
        .iter()
        .map(|f| cells.iter().filter(|c| f.read(c).is_some()).count())
        .collect();
    let best = counts.iter().copied().max().unwrap_or(0);
    if best == 0 {
        return Ok(None);
    }
    let tied: Vec<DateFormat> = DateFormat::CANDIDATES
        .iter()
        .zip(&counts)
        .filter(|(_, n)| **n == best)
        .map(|(f, _)| *f)
        .collect();
    let Some(&first) = tied.first() else {
        return Ok(None);
    };
    let sample = cells
        .iter()
        .find(|c| first.read(c).is_some())
        .copied()
        .unwrap_or("");
    let differ = tied[1..]
        .iter()
        .any(|f| cells.iter().any(|c| f.read(c) != first.read(c)));
    if differ {
        return Err(FileError::AmbiguousDate {
            candidates: tied
                .iter()
                .map(|f| f.shown_as(sample).to_string())
                .collect(),
        });
    }
    Ok(Some(first.shown_as(sample)))
}

/// Whether a cell has the shape of a date (digit groups and separators), valid or not:
/// trailing lines whose date cells lack it are summaries, not rows.
pub fn looks_like_date(raw: &str) -> bool {
    let date = raw.trim().split([' ', 'T']).next().unwrap_or("");
    let groups = date.split(['/', '.', '-']).collect::<Vec<_>>();
    let digits = |s: &&str| !s.is_empty() && s.len() <= 4 && s.bytes().all(|b| b.is_ascii_digit());
    (groups.len() == 3 && groups.iter().all(digits))
        || (date.len() == 8 && date.bytes().all(|b| b.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::date;

    #[test]
    fn syntax_round_trips_and_reads() {
        for f in [
            "DD.MM.YYYY",
            "MM/DD/YYYY",
            "YYYY-MM-DD",
            "YYYYMMDD",
            "DD/MM/YY",
        ] {
            assert_eq!(f.parse::<DateFormat>().unwrap().to_string(), f);
        }
        assert!("YY".parse::<DateFormat>().is_err());
        assert!("YYYY-DD-MM".parse::<DateFormat>().is_err());
        let dmy: DateFormat = "DD/MM/YYYY".parse().unwrap();
        assert_eq!(dmy.read("03.11.2026"), Some(date!(2026 - 11 - 03)));
        assert_eq!(dmy.read("31/02/2026"), None);
        let iso = DateFormat::ISO;
        assert_eq!(iso.read("2024-01-05 10:22:33"), Some(date!(2024 - 01 - 05)));
        let yy: DateFormat = "MM/DD/YY".parse().unwrap();
        assert_eq!(yy.read("8/17/22"), Some(date!(2022 - 08 - 17)));
    }

    #[test]
    fn detection_over_the_column() {
        let f = detect(&["01/02/2024", "13/02/2024", "2024-13-01"])
            .unwrap()
            .unwrap();
        assert_eq!(f.to_string(), "DD/MM/YYYY");
        let f = detect(&["08/17/2022", "08/01/2022"]).unwrap().unwrap();
        assert_eq!(f.to_string(), "MM/DD/YYYY");
        assert!(matches!(
            detect(&["01.02.2024", "03.04.2024"]),
            Err(FileError::AmbiguousDate { .. })
        ));
        assert_eq!(
            detect(&["01.01.2024"]).unwrap().unwrap().to_string(),
            "DD.MM.YYYY"
        );
        assert_eq!(
            detect(&["20240105"]).unwrap().unwrap().to_string(),
            "YYYYMMDD"
        );
        assert_eq!(detect(&["x"]).unwrap(), None);
        assert!(looks_like_date("2026-13-01") && !looks_like_date("Total"));
    }
}
