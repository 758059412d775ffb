//! Timestamps as the API shows them: UTC without zone (`YYYY-MM-DDTHH:MM:SS`), and dates.

use time::{format_description::FormatItem, macros::format_description, Date, OffsetDateTime};

const LOCAL_DATE_TIME: &[FormatItem<'static>] =
    format_description!("[year]-[month]-[day]T[hour]:[minute]:[second]");
const DATE: &[FormatItem<'static>] = format_description!("[year]-[month]-[day]");

/// Current UTC time as the spec's LocalDateTime string.
pub fn now_local_date_time() -> String {
    OffsetDateTime::now_utc()
        .format(LOCAL_DATE_TIME)
        .unwrap_or_default()
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
    fn timestamps_have_no_zone() {
        let now = now_local_date_time();
        assert_eq!(now.len(), 19);
        assert_eq!(&now[10..11], "T");
    }
}
