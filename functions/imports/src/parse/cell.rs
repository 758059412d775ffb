//! Cells: dates in the three accepted formats, plain decimal amounts, and the formula
//! escape of exports (OWASP CSV injection) with its exact inverse.

use rust_decimal::Decimal;
use time::{Date, Month};

use shared::domain::time::parse_date;

/// How dates in the file are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DateFormat {
    #[default]
    Iso,
    DayFirst,
    MonthFirst,
}

impl DateFormat {
    pub fn parse(raw: &str) -> Option<Self> {
        match raw {
            "YYYY-MM-DD" => Some(Self::Iso),
            "DD/MM/YYYY" => Some(Self::DayFirst),
            "MM/DD/YYYY" => Some(Self::MonthFirst),
            _ => None,
        }
    }

    pub(super) fn read(self, raw: &str) -> Result<Date, String> {
        let raw = raw.trim();
        let (day, month, year) = match self {
            Self::Iso => return parse_date(raw),
            Self::DayFirst => split3(raw),
            Self::MonthFirst => split3(raw).map(|(m, d, y)| (d, m, y)),
        }
        .ok_or_else(|| format!("must be a date in {} format", self.name()))?;
        let month = Month::try_from(month).map_err(|_| "no such month".to_string())?;
        let date =
            Date::from_calendar_date(year, month, day).map_err(|_| "no such date".to_string())?;
        if !(1900..=2999).contains(&date.year()) {
            return Err("year must be between 1900 and 2999".into());
        }
        Ok(date)
    }

    fn name(self) -> &'static str {
        match self {
            Self::Iso => "YYYY-MM-DD",
            Self::DayFirst => "DD/MM/YYYY",
            Self::MonthFirst => "MM/DD/YYYY",
        }
    }
}

/// `a/b/yyyy` with one- or two-digit `a`, `b` and a four-digit year.
fn split3(raw: &str) -> Option<(u8, u8, i32)> {
    let mut parts = raw.split('/');
    let (a, b, y) = (parts.next()?, parts.next()?, parts.next()?);
    let digits = |s: &str, n: std::ops::RangeInclusive<usize>| {
        n.contains(&s.len()) && s.bytes().all(|c| c.is_ascii_digit())
    };
    if parts.next().is_some() || !digits(a, 1..=2) || !digits(b, 1..=2) || !digits(y, 4..=4) {
        return None;
    }
    Some((a.parse().ok()?, b.parse().ok()?, y.parse().ok()?))
}

/// First characters that make a spreadsheet evaluate a cell (OWASP CSV injection).
const FORMULA_STARTS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// Escapes a text cell for export: a leading `'` when it starts like a formula (or with
/// `'` itself, so that [`unescape`] gives back exactly the original).
pub fn escape(text: &str) -> std::borrow::Cow<'_, str> {
    match text.chars().next() {
        Some(c) if FORMULA_STARTS.contains(&c) || c == '\'' => format!("'{text}").into(),
        _ => text.into(),
    }
}

/// Reverses [`escape`]: drops a leading `'` that precedes a formula character or `'`.
pub fn unescape(text: &str) -> &str {
    match text.strip_prefix('\'') {
        Some(rest) if rest.starts_with(FORMULA_STARTS) || rest.starts_with('\'') => rest,
        _ => text,
    }
}

/// A plain decimal: optional sign, digits, optional separator and digits (no exponent,
/// no thousands separators).
pub(super) fn read_amount(raw: &str, decimal_comma: bool) -> Result<Decimal, String> {
    let text = raw.trim();
    let separator = if decimal_comma { ',' } else { '.' };
    let body = text.strip_prefix(['-', '+']).unwrap_or(text);
    let (int, frac) = match body.split_once(separator) {
        Some((i, f)) => (i, Some(f)),
        None => (body, None),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if text.len() > 24 || !digits(int) || frac.is_some_and(|f| !digits(f)) {
        return Err(format!(
            "must be a plain number with {separator:?} as decimal separator"
        ));
    }
    text.replacen(separator, ".", 1)
        .parse::<Decimal>()
        .map_err(|_| "is out of range".into())
}
