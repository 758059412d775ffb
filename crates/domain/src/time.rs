//! Timestamps as the API shows them: UTC without zone (`YYYY-MM-DDTHH:MM:SS`), and dates.

use std::fmt;

use time::{
    format_description::FormatItem, macros::format_description, Date, OffsetDateTime,
    PrimitiveDateTime,
};

const LOCAL_DATE_TIME: &[FormatItem<'static>] =
    format_description!("[year]-[month]-[day]T[hour]:[minute]:[second]");
const DATE: &[FormatItem<'static>] = format_description!("[year]-[month]-[day]");

/// Current UTC time as the spec's LocalDateTime string.
pub fn now_local_date_time() -> String {
    OffsetDateTime::now_utc()
        .format(LOCAL_DATE_TIME)
        .unwrap_or_default()
}

/// An instant as the API shows it: UTC, to the second, written `YYYY-MM-DDTHH:MM:SS`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp(PrimitiveDateTime);

impl Timestamp {
    pub fn now() -> Self {
        let now = OffsetDateTime::now_utc();
        let now = now.replace_nanosecond(0).unwrap_or(now);
        Self(PrimitiveDateTime::new(now.date(), now.time()))
    }

    pub fn parse(raw: &str) -> Result<Self, String> {
        PrimitiveDateTime::parse(raw, LOCAL_DATE_TIME)
            .map(Self)
            .map_err(|_| format!("not a timestamp YYYY-MM-DDTHH:MM:SS: {raw}"))
    }
}

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.format(LOCAL_DATE_TIME) {
            Ok(text) => f.write_str(&text),
            Err(_) => Err(fmt::Error),
        }
    }
}

/// Parses `YYYY-MM-DD` into a calendar date (years 1900..=2999).
pub fn parse_date(raw: &str) -> Result<Date, String> {
    let date =
        Date::parse(raw, DATE).map_err(|_| "must be a date in YYYY-MM-DD format".to_string())?;
    if !(1900..=2999).contains(&date.year()) {
        return Err("year must be between 1900 and 2999".into());
    }
    Ok(date)
}

pub fn format_date(date: Date) -> String {
    date.format(DATE).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_round_trip_and_invalid_ones_fail() {
        assert_eq!(format_date(parse_date("2026-02-28").unwrap()), "2026-02-28");
        assert!(parse_date("2026-02-30").is_err());
        assert!(parse_date("26-02-01").is_err());
        assert!(parse_date("0100-01-01").is_err());
    }

    #[test]
    fn timestamps_round_trip_to_the_second() {
        let t = Timestamp::parse("2026-11-23T10:15:09").unwrap();
        assert_eq!(t.to_string(), "2026-11-23T10:15:09");
        assert!(Timestamp::parse("2026-11-23 10:15:09").is_err());
        let now = Timestamp::now();
        assert_eq!(Timestamp::parse(&now.to_string()).unwrap(), now);
    }

    #[test]
    fn timestamps_have_no_zone() {
        let now = now_local_date_time();
        assert_eq!(now.len(), 19);
        assert_eq!(&now[10..11], "T");
    }
}
