//! Small, panic-free date helpers on top of `time`.

use time::{macros::date, Date, Month, Weekday};

/// The earliest date the engine produces.
pub const MIN_DATE: Date = date!(1900 - 01 - 01);
/// The latest date the engine produces.
pub const MAX_DATE: Date = date!(2200 - 12 - 31);

/// `day` moved by `n` days, or `None` outside `time`'s range.
pub fn add_days(day: Date, n: i64) -> Option<Date> {
    let julian = i64::from(day.to_julian_day()).checked_add(n)?;
    Date::from_julian_day(i32::try_from(julian).ok()?).ok()
}

/// `day` moved by `n` days, saturating at [`MIN_DATE`] − 1 year and
/// [`MAX_DATE`] + 1 year (far enough outside the engine's range to never matter).
pub fn shift(day: Date, n: i64) -> Date {
    let lo = date!(1899 - 01 - 01);
    let hi = date!(2201 - 12 - 31);
    let clamped = day.clamp(lo, hi);
    add_days(clamped, n).unwrap_or(clamped).clamp(lo, hi)
}

pub fn month_of(number: u8) -> Option<Month> {
    Month::try_from(number).ok()
}

pub fn days_in_month(year: i32, month: u8) -> u8 {
    month_of(month).map_or(0, |m| m.length(year))
}

pub fn ymd(year: i32, month: u8, day: u8) -> Option<Date> {
    Date::from_calendar_date(year, month_of(month)?, day).ok()
}

/// Monday = 0 … Sunday = 6.
pub fn weekday_index(day: Weekday) -> i64 {
    i64::from(day.number_days_from_monday())
}

/// A running month number: `year * 12 + month - 1`.
pub fn month_index(day: Date) -> i64 {
    i64::from(day.year()) * 12 + i64::from(u8::from(day.month())) - 1
}

/// The inverse of [`month_index`]: `(year, month 1..=12)`.
pub fn from_month_index(index: i64) -> Option<(i32, u8)> {
    let year = i32::try_from(index.div_euclid(12)).ok()?;
    let month = u8::try_from(index.rem_euclid(12) + 1).ok()?;
    Some((year, month))
}

/// The first day of the week (starting on `wkst`) that contains `day`.
pub fn week_start(day: Date, wkst: Weekday) -> Option<Date> {
    let back = (weekday_index(day.weekday()) - weekday_index(wkst)).rem_euclid(7);
    add_days(day, -back)
}

/// Days between two dates (`b - a`).
pub fn days_between(a: Date, b: Date) -> i64 {
    i64::from(b.to_julian_day()) - i64::from(a.to_julian_day())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn month_index_round_trips() {
        for day in [
            date!(1900 - 01 - 01),
            date!(2024 - 12 - 31),
            date!(2200 - 06 - 15),
        ] {
            let (y, m) = from_month_index(month_index(day)).expect("in range");
            assert_eq!((y, m), (day.year(), u8::from(day.month())));
        }
        assert_eq!(from_month_index(-1), Some((-1, 12)));
    }

    #[test]
    fn helpers_do_not_panic_at_the_edges() {
        assert_eq!(add_days(Date::MAX, 1), None);
        assert_eq!(add_days(Date::MIN, -1), None);
        assert_eq!(add_days(Date::MIN, i64::MIN), None);
        assert_eq!(shift(Date::MAX, 5), date!(2201 - 12 - 31));
        assert_eq!(days_in_month(2024, 2), 29);
        assert_eq!(days_in_month(2100, 2), 28);
        assert_eq!(days_in_month(2025, 13), 0);
        assert_eq!(ymd(2025, 2, 29), None);
        let sunday = date!(2026 - 01 - 04);
        assert_eq!(
            week_start(sunday, Weekday::Monday),
            Some(date!(2025 - 12 - 29))
        );
        assert_eq!(week_start(sunday, Weekday::Sunday), Some(sunday));
    }
}
