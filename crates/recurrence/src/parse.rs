//! Parsing of `RRULE` values into [`RRule`], with errors naming the rule part.

use std::collections::HashSet;
use std::str::FromStr;

use time::{Date, Month, Weekday};

use crate::rule::{Freq, RRule, Skip, WeekdayNum};

/// A rule that could not be parsed: `part` names the rule part at fault
/// (`"FREQ"`, `"BYDAY"`, `"COUNT"`, … or the unknown part's name as written,
/// upper-cased), `message` says why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid {part}: {message}")]
pub struct RuleError {
    pub part: String,
    pub message: String,
}

impl RuleError {
    pub(crate) fn new(part: &str, message: impl Into<String>) -> Self {
        RuleError {
            part: part.to_string(),
            message: message.into(),
        }
    }
}

/// Parts of RFC 5545 / RFC 7529 that exist but are not supported here.
const UNSUPPORTED: &[&str] = &["BYSECOND", "BYMINUTE", "BYHOUR", "BYYEARDAY", "BYWEEKNO"];

/// The longest accepted input, to keep error handling cheap on hostile input.
const MAX_LEN: usize = 2048;

fn int(part: &str, text: &str) -> Result<i32, RuleError> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let bad = || RuleError::new(part, format!("`{text}` is not a number"));
    if digits.is_empty() || digits.len() > 9 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let value: i32 = digits.parse().map_err(|_| bad())?;
    Ok(if negative { -value } else { value })
}

fn ranged(part: &str, text: &str, max: i32, allow_negative: bool) -> Result<i32, RuleError> {
    let value = int(part, text)?;
    let ok = value != 0 && value.abs() <= max && (allow_negative || value > 0);
    if ok {
        Ok(value)
    } else if allow_negative {
        Err(RuleError::new(
            part,
            format!("{value} is out of range (1..={max} or -{max}..=-1)"),
        ))
    } else {
        Err(RuleError::new(
            part,
            format!("{value} is out of range (1..={max})"),
        ))
    }
}

fn list<'a>(part: &str, value: &'a str) -> Result<Vec<&'a str>, RuleError> {
    let items: Vec<&str> = value.split(',').map(str::trim).collect();
    if items.iter().any(|item| item.is_empty()) {
        return Err(RuleError::new(part, "empty list item"));
    }
    Ok(items)
}

pub(crate) fn parse_weekday(text: &str) -> Option<Weekday> {
    Some(match text {
        "MO" => Weekday::Monday,
        "TU" => Weekday::Tuesday,
        "WE" => Weekday::Wednesday,
        "TH" => Weekday::Thursday,
        "FR" => Weekday::Friday,
        "SA" => Weekday::Saturday,
        "SU" => Weekday::Sunday,
        _ => return None,
    })
}

fn parse_by_day(item: &str) -> Result<WeekdayNum, RuleError> {
    let split = item.len().saturating_sub(2);
    let (num, code) = match (item.get(..split), item.get(split..)) {
        (Some(num), Some(code)) => (num, code),
        _ => {
            return Err(RuleError::new(
                "BYDAY",
                format!("`{item}` is not a weekday"),
            ))
        }
    };
    let weekday = parse_weekday(code)
        .ok_or_else(|| RuleError::new("BYDAY", format!("`{item}` is not a weekday")))?;
    let ordinal = if num.is_empty() {
        None
    } else {
        let n = ranged("BYDAY", num, 53, true)?;
        i8::try_from(n).ok()
    };
    Ok(WeekdayNum { ordinal, weekday })
}

fn digits(text: &str, range: std::ops::Range<usize>) -> Option<u32> {
    let part = text.get(range)?;
    if part.bytes().all(|b| b.is_ascii_digit()) {
        part.parse().ok()
    } else {
        None
    }
}

/// `YYYYMMDD` or `YYYYMMDDTHHMMSS[Z]`; only the date is kept.
fn parse_until(text: &str) -> Result<Date, RuleError> {
    let bad = || {
        RuleError::new(
            "UNTIL",
            format!("`{text}` is not YYYYMMDD or YYYYMMDDTHHMMSSZ"),
        )
    };
    let time_ok = match text.len() {
        8 => true,
        15 | 16 => {
            text.as_bytes().get(8) == Some(&b'T')
                && (text.len() == 15 || text.ends_with('Z'))
                && digits(text, 9..11).is_some_and(|h| h < 24)
                && digits(text, 11..13).is_some_and(|m| m < 60)
                && digits(text, 13..15).is_some_and(|s| s <= 60)
        }
        _ => false,
    };
    if !time_ok {
        return Err(bad());
    }
    let year = digits(text, 0..4).ok_or_else(bad)?;
    let month = digits(text, 4..6).ok_or_else(bad)?;
    let day = digits(text, 6..8).ok_or_else(bad)?;
    let month = u8::try_from(month)
        .ok()
        .and_then(|m| Month::try_from(m).ok())
        .ok_or_else(bad)?;
    let (Ok(year), Ok(day)) = (i32::try_from(year), u8::try_from(day)) else {
        return Err(bad());
    };
    Date::from_calendar_date(year, month, day).map_err(|_| bad())
}

fn sorted<T: Ord>(mut items: Vec<T>) -> Vec<T> {
    items.sort();
    items.dedup();
    items
}

/// A comma list of numbers each checked by [`ranged`], sorted and deduplicated.
fn ranged_list<T: Ord + TryFrom<i32>>(
    part: &str,
    value: &str,
    max: i32,
    allow_negative: bool,
) -> Result<Vec<T>, RuleError> {
    let values = list(part, value)?
        .into_iter()
        .map(|v| ranged(part, v, max, allow_negative))
        .collect::<Result<Vec<i32>, _>>()?;
    Ok(sorted(
        values
            .into_iter()
            .filter_map(|v| T::try_from(v).ok())
            .collect(),
    ))
}

impl FromStr for RRule {
    type Err = RuleError;

    /// Parses an `RRULE` value, with or without a leading `RRULE:`; part names
    /// and values are case-insensitive and empty parts (`;;`, a trailing `;`)
    /// are ignored.
    fn from_str(input: &str) -> Result<Self, Self::Err> {
        if input.len() > MAX_LEN {
            return Err(RuleError::new("RRULE", "rule is too long"));
        }
        let upper = input.trim().to_ascii_uppercase();
        // What calendar libraries print as a whole (`DTSTART:20260101\nRRULE:FREQ=...`):
        // the start is the schedule's own, so only the rule is taken.
        if upper.starts_with("DTSTART") || upper.contains(['\n', '\r']) {
            return Err(RuleError::new(
                "DTSTART",
                "send the RRULE value alone (FREQ=...); the first date is the schedule's start",
            ));
        }
        let body = upper.strip_prefix("RRULE:").unwrap_or(&upper);
        let mut seen = HashSet::new();
        let mut freq = None;
        let mut rule = RRule {
            freq: Freq::Daily,
            interval: 1,
            count: None,
            until: None,
            by_month: Vec::new(),
            by_month_day: Vec::new(),
            by_day: Vec::new(),
            by_set_pos: Vec::new(),
            wkst: Weekday::Monday,
            skip: Skip::Omit,
        };
        for segment in body.split(';').map(str::trim).filter(|s| !s.is_empty()) {
            let Some((name, value)) = segment.split_once('=') else {
                return Err(RuleError::new(segment, "expected NAME=VALUE"));
            };
            let (name, value) = (name.trim(), value.trim());
            if !seen.insert(name.to_string()) {
                return Err(RuleError::new(name, "given more than once"));
            }
            if value.is_empty() {
                return Err(RuleError::new(name, "empty value"));
            }
            match name {
                "FREQ" => {
                    freq = Some(match value {
                        "DAILY" => Freq::Daily,
                        "WEEKLY" => Freq::Weekly,
                        "MONTHLY" => Freq::Monthly,
                        "YEARLY" => Freq::Yearly,
                        "SECONDLY" | "MINUTELY" | "HOURLY" => {
                            return Err(RuleError::new("FREQ", format!("{value} is not supported")))
                        }
                        _ => return Err(RuleError::new("FREQ", format!("unknown `{value}`"))),
                    })
                }
                "INTERVAL" => {
                    let n = ranged("INTERVAL", value, 10_000, false)?;
                    rule.interval = u32::try_from(n).unwrap_or(1);
                }
                "COUNT" => {
                    let n = ranged("COUNT", value, 1_000_000, false)?;
                    rule.count = u32::try_from(n).ok();
                }
                "UNTIL" => rule.until = Some(parse_until(value)?),
                "BYMONTH" => rule.by_month = ranged_list(name, value, 12, false)?,
                "BYMONTHDAY" => rule.by_month_day = ranged_list(name, value, 31, true)?,
                "BYSETPOS" => rule.by_set_pos = ranged_list(name, value, 366, true)?,
                "BYDAY" => {
                    let values: Result<Vec<WeekdayNum>, _> =
                        list(name, value)?.into_iter().map(parse_by_day).collect();
                    let mut values = values?;
                    values.sort_by_key(|d| (d.weekday.number_days_from_monday(), d.ordinal));
                    values.dedup();
                    rule.by_day = values;
                }
                "WKST" => {
                    rule.wkst = parse_weekday(value).ok_or_else(|| {
                        RuleError::new("WKST", format!("`{value}` is not a weekday"))
                    })?
                }
                "SKIP" => {
                    rule.skip = match value {
                        "OMIT" => Skip::Omit,
                        "BACKWARD" => Skip::Backward,
                        "FORWARD" => Skip::Forward,
                        _ => return Err(RuleError::new("SKIP", format!("unknown `{value}`"))),
                    }
                }
                "RSCALE" if value == "GREGORIAN" => {}
                "RSCALE" => {
                    return Err(RuleError::new("RSCALE", "only GREGORIAN is supported"));
                }
                _ if UNSUPPORTED.contains(&name) => {
                    return Err(RuleError::new(name, "is not supported"));
                }
                _ => return Err(RuleError::new(name, "unknown rule part")),
            }
        }
        rule.freq = freq.ok_or_else(|| RuleError::new("FREQ", "missing"))?;
        validate(&rule)?;
        Ok(rule)
    }
}

/// Checks across parts, after every part parsed.
fn validate(rule: &RRule) -> Result<(), RuleError> {
    if rule.count.is_some() && rule.until.is_some() {
        return Err(RuleError::new(
            "COUNT",
            "COUNT and UNTIL must not both be given",
        ));
    }
    let ordinals = rule.by_day.iter().any(|d| d.ordinal.is_some());
    if ordinals && matches!(rule.freq, Freq::Daily | Freq::Weekly) {
        return Err(RuleError::new(
            "BYDAY",
            "ordinals (2MO, -1FR) need FREQ=MONTHLY or FREQ=YEARLY",
        ));
    }
    if !rule.by_month_day.is_empty() && rule.freq == Freq::Weekly {
        return Err(RuleError::new("BYMONTHDAY", "not allowed with FREQ=WEEKLY"));
    }
    Ok(())
}
