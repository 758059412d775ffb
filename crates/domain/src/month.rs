//! A calendar month, `YYYY-MM`: the unit of insights and budgets.

use std::fmt;

use time::Date;

/// A month of a year (`2026-11`); ordered chronologically.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Month {
    year: i32,
    /// 1 to 12.
    month: u8,
}

impl Month {
    /// Parses exactly `YYYY-MM` (year 0000 to 9999, month 01 to 12: the document's pattern).
    pub fn parse(text: &str) -> Result<Self, &'static str> {
        const MESSAGE: &str = "must be a month as YYYY-MM";
        let bytes = text.as_bytes();
        let digits = |r: std::ops::Range<usize>| bytes[r].iter().all(u8::is_ascii_digit);
        if bytes.len() != 7 || bytes[4] != b'-' || !digits(0..4) || !digits(5..7) {
            return Err(MESSAGE);
        }
        let year: i32 = text[0..4].parse().map_err(|_| MESSAGE)?;
        let month: u8 = text[5..7].parse().map_err(|_| MESSAGE)?;
        if !(1..=12).contains(&month) {
            return Err(MESSAGE);
        }
        Ok(Self { year, month })
    }

    /// The month's year.
    pub fn year(self) -> i32 {
        self.year
    }

    /// The month a date falls in.
    pub fn of(date: Date) -> Self {
        Self {
            year: date.year(),
            month: date.month() as u8,
        }
    }

    /// The following month.
    pub fn next(self) -> Self {
        if self.month == 12 {
            Self {
                year: self.year + 1,
                month: 1,
            }
        } else {
            Self {
                month: self.month + 1,
                ..self
            }
        }
    }

    /// How many months `from..=to` spans (0 when `to` is before `from`).
    pub fn span(from: Month, to: Month) -> u32 {
        let index = |m: Month| i64::from(m.year) * 12 + i64::from(m.month);
        u32::try_from(index(to) - index(from) + 1).unwrap_or(0)
    }
}

impl fmt::Display for Month {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}", self.year, self.month)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn months_parse_exactly_and_print_back() {
        let m = Month::parse("2026-11").unwrap();
        assert_eq!(m.to_string(), "2026-11");
        assert_eq!(m.next().to_string(), "2026-12");
        assert_eq!(m.next().next().to_string(), "2027-01");
        assert_eq!(Month::parse("0000-01").unwrap().to_string(), "0000-01");
        for bad in [
            "",
            "2026-1",
            "2026-13",
            "2026-00",
            "2026/11",
            "2026-11-01",
            "+026-11",
            "２０２６-11",
        ] {
            assert!(Month::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn spans_count_both_ends() {
        let m = |s| Month::parse(s).unwrap();
        assert_eq!(Month::span(m("2026-01"), m("2026-01")), 1);
        assert_eq!(Month::span(m("2024-01"), m("2026-12")), 36);
        assert_eq!(Month::span(m("2026-02"), m("2026-01")), 0);
        let d = time::macros::date!(2026 - 03 - 31);
        assert_eq!(Month::of(d), m("2026-03"));
    }
}
