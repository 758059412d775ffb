//! One schedule's occurrences in a window, and the exceptions that change one of them
//! (skip it, or give it another date or amount), keyed by its nominal date. Occurrences
//! already created are the transactions' now: they cannot change here.

use rust_decimal::Decimal;
use time::{Date, Duration};

use super::{get, save, today};
use crate::{AppError, AppResult, IfMatch};
use pf_domain::recurring::{
    Exception, Planned, Recurring, Status, MAX_ALL_EXCEPTIONS, MAX_EXCEPTIONS, MAX_MOVE_DAYS,
    MAX_WINDOW_DAYS,
};
use pf_domain::time::{parse_date, Timestamp};
use pf_domain::{Money, Violation};
use pf_store::Store;

/// `from` and `to` (inclusive; `from` defaults to today, `to` to a year after `from`),
/// at most two years apart. Both malformed: both are reported.
pub fn parse_window(from: Option<&str>, to: Option<&str>) -> AppResult<(Date, Date)> {
    let date = |field: &str, raw: Option<&str>| {
        raw.map(|r| parse_date(r).map_err(|e| Violation::new(field, e)))
            .transpose()
    };
    let (from, to) = match (date("from", from), date("to", to)) {
        (Ok(from), Ok(to)) => (from.unwrap_or_else(today), to),
        (from, to) => {
            let errors = from.err().into_iter().chain(to.err()).collect();
            return Err(AppError::Invalid(errors));
        }
    };
    let to = to.unwrap_or_else(|| from.saturating_add(Duration::days(365)));
    if to < from {
        return Err(AppError::invalid("to", "must not be before from"));
    }
    if (to - from).whole_days() > MAX_WINDOW_DAYS {
        return Err(AppError::invalid(
            "to",
            "must be at most two years after from",
        ));
    }
    Ok((from, to))
}

/// Skips one occurrence (`None`) or gives it another date or amount; answers the
/// occurrence as now planned and the schedule it belongs to now.
pub async fn change_occurrence(
    store: &Store,
    user_id: u64,
    id: u64,
    nominal: Date,
    change: Exception,
    expected: Option<IfMatch>,
) -> AppResult<(Planned, Recurring)> {
    // What the change alone tells is refused before the version is compared (400 before
    // 412); the amount's decimals depend on the schedule's currency.
    if let Exception::Change { date, amount } = change {
        let far = date.is_some_and(|d| (d - nominal).whole_days().abs() > MAX_MOVE_DAYS);
        if far {
            let message = format!("must be within {MAX_MOVE_DAYS} days of the occurrence");
            return Err(AppError::invalid("date", message));
        }
        if amount.is_some_and(|a| a <= Decimal::ZERO) {
            return Err(AppError::invalid("amount", "must be greater than 0"));
        }
    }
    let old = get(store, user_id, id).await?;
    super::check_version(expected, old.version)?;
    let occurrence = occurrence_at(&old, nominal)?;
    if let Exception::Change {
        amount: Some(a), ..
    } = change
    {
        check_amount(a, old.details.amount)?;
    }
    let mut new = old.clone();
    new.exceptions.insert(nominal, change);
    if let Some(other) = new.passed_by(nominal) {
        return Err(AppError::invalid(
            "date",
            format!("must not pass {}", passes(other)),
        ));
    }
    // Past exceptions (created or passed occurrences) stay, as the list shows them, for
    // two years; older ones are pruned here and when the job moves on. Only the upcoming
    // ones count against the plan's limit.
    new.prune_past();
    if new.upcoming_exceptions() > MAX_EXCEPTIONS || new.exceptions.len() > MAX_ALL_EXCEPTIONS {
        let message = format!(
            "at most {MAX_EXCEPTIONS} changed occurrences still to come per schedule \
             ({MAX_ALL_EXCEPTIONS} in all)"
        );
        return Err(AppError::Conflict(message));
    }
    new.version += 1;
    new.updated_at = Timestamp::now();
    save(store, &new, old.version).await?;
    let planned = new.plan(occurrence);
    Ok((planned, new))
}

/// Removes the exception of one occurrence: it follows the rule again.
pub async fn restore_occurrence(
    store: &Store,
    user_id: u64,
    id: u64,
    nominal: Date,
    expected: Option<IfMatch>,
) -> AppResult<()> {
    let old = get(store, user_id, id).await?;
    super::check_version(expected, old.version)?;
    occurrence_at(&old, nominal)?;
    let mut new = old.clone();
    if new.exceptions.remove(&nominal).is_none() {
        return Err(AppError::not_found("changed occurrence"));
    }
    if let Some(other) = new.passed_by(nominal) {
        let m = format!("restored, this occurrence would pass {}", passes(other));
        return Err(AppError::Conflict(m));
    }
    new.version += 1;
    new.updated_at = Timestamp::now();
    save(store, &new, old.version).await
}

/// The not yet created occurrence whose nominal date is `nominal`.
fn occurrence_at(r: &Recurring, nominal: Date) -> AppResult<recurrence::Occurrence> {
    let occurrence = r
        .schedule
        .by_nominal(nominal, nominal)
        .into_iter()
        .next()
        .ok_or_else(not_found)?;
    match r.plan(occurrence).status {
        Status::Created => Err(AppError::Conflict(
            "the occurrence was created already: change its transaction instead".into(),
        )),
        // Before the schedule began creating, or a skip the job has passed: a change
        // could never come true, or show it created without a transaction.
        Status::Skipped
            if !matches!(r.exceptions.get(&nominal), Some(Exception::Skip))
                || r.done.is_some_and(|d| nominal <= d) =>
        {
            Err(AppError::Conflict(
                "the occurrence has passed: it is no longer planned".into(),
            ))
        }
        _ => Ok(occurrence),
    }
}

/// The occurrence another may not pass, and why.
fn passes(other: Planned) -> String {
    format!(
        "the occurrence of {} (planned on {}): occurrences are created in order; move or \
         skip that one first",
        other.nominal, other.date
    )
}

fn not_found() -> AppError {
    AppError::not_found("occurrence")
}

/// An occurrence's amount: positive, in the schedule's currency and its precision.
fn check_amount(amount: Decimal, like: Money) -> AppResult<()> {
    if amount <= Decimal::ZERO {
        return Err(AppError::invalid("amount", "must be greater than 0"));
    }
    Money::new(amount, like.currency())
        .map(|_| ())
        .map_err(|e| AppError::invalid("amount", e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::invalid_fields;

    #[test]
    fn a_window_reports_every_broken_end_and_holds_its_bounds() {
        let d = |s| parse_date(s).unwrap();
        let window = parse_window(Some("2026-01-31"), None).unwrap();
        assert_eq!(window, (d("2026-01-31"), d("2027-01-31")));
        let widest = parse_window(Some("2026-01-01"), Some("2028-01-02")).unwrap();
        assert_eq!(widest, (d("2026-01-01"), d("2028-01-02")));
        let refused: [(Option<&str>, Option<&str>, &[&str]); 4] = [
            (Some("2026-1-1"), Some("x"), &["from", "to"]),
            (None, Some("2026-02-30"), &["to"]),
            (Some("2026-02-01"), Some("2026-01-31"), &["to"]),
            (Some("2026-01-01"), Some("2028-01-03"), &["to"]),
        ];
        for (from, to, wrong) in refused {
            let e = parse_window(from, to).unwrap_err();
            assert_eq!(invalid_fields(e), wrong, "{from:?}..{to:?}");
        }
    }
}
