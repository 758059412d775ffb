//! The schedule's pure rules: ids, occurrences, what is next, exceptions counted.

use super::*;
use time::macros::date;

fn rent(rule: &str, start: Date) -> Recurring {
    let at = Timestamp::parse("2026-01-01T00:00:00").unwrap();
    Recurring {
        user_id: 1,
        id: 99,
        details: crate::Transaction::example(start, 4, 120000).details,
        schedule: Schedule::new(start, rule.parse().unwrap(), recurrence::Weekend::Keep),
        rrule: rule.into(),
        backfill: true,
        not_before: start,
        done: None,
        exceptions: BTreeMap::new(),
        version: 1,
        created_at: at,
        updated_at: at,
    }
}

#[test]
fn ids_are_stable_positive_and_safe() {
    let r = rent("FREQ=MONTHLY", date!(2026 - 01 - 31));
    let a = r.transaction_id(date!(2026 - 01 - 31));
    assert_eq!(a, r.transaction_id(date!(2026 - 01 - 31)));
    assert_ne!(a, r.transaction_id(date!(2026 - 02 - 28)));
    assert!(a > 0 && a <= MAX_SAFE_ID);
}

#[test]
fn skipped_and_created_occurrences_move_the_next_one() {
    let mut r = rent("FREQ=MONTHLY;BYMONTHDAY=-1", date!(2026 - 01 - 01));
    r.exceptions.insert(date!(2026 - 01 - 31), Exception::Skip);
    let (passed, next) = r.next();
    assert_eq!(passed, Some(date!(2026 - 01 - 31)));
    assert!(matches!(next, Next::Occurrence { date, .. } if date == date!(2026 - 02 - 28)));
    r.done = Some(date!(2026 - 02 - 28));
    assert_eq!(r.due_date(), Some(date!(2026 - 03 - 31)));
    let statuses: Vec<_> = r
        .occurrences(date!(2026 - 01 - 01), date!(2026 - 03 - 31))
        .iter()
        .map(|p| p.status)
        .collect();
    assert_eq!(
        statuses,
        [Status::Skipped, Status::Created, Status::Scheduled]
    );
}

#[test]
fn an_exhausted_rule_is_never_due_again() {
    let mut r = rent("FREQ=DAILY;COUNT=2", date!(2026 - 01 - 01));
    r.done = Some(date!(2026 - 01 - 02));
    assert_eq!(r.next().1, Next::Never);
}

/// The job's loop without the writes: `done` moves to what `next` passed.
fn run_until_occurrence(r: &mut Recurring, looks: usize) -> Option<Date> {
    for _ in 0..looks {
        let (passed, next) = r.next();
        match next {
            Next::Occurrence { nominal, .. } => return Some(nominal),
            Next::Recheck(_) => r.done = passed,
            Next::Never => return None,
        }
    }
    None
}

#[test]
fn an_occurrence_further_than_one_look_scans_is_reached_by_later_looks() {
    // Every 15 years from 2000, 2000 created: 2015 is next, beyond the 13 years one look
    // scans.
    let mut r = rent("FREQ=YEARLY;INTERVAL=15", date!(2000 - 01 - 01));
    r.done = Some(date!(2000 - 01 - 01));
    let (passed, next) = r.next();
    let Next::Recheck(lo) = next else {
        panic!("{next:?}")
    };
    assert_eq!(
        passed,
        lo.previous_day(),
        "everything before the recheck is passed"
    );
    assert_eq!(run_until_occurrence(&mut r, 3), Some(date!(2015 - 01 - 01)));
    // Every 5 years from a leap day: 2044-02-29 after 2024-02-29 was created.
    let mut r = rent("FREQ=YEARLY;INTERVAL=5", date!(2024 - 02 - 29));
    r.done = Some(date!(2024 - 02 - 29));
    assert_eq!(run_until_occurrence(&mut r, 3), Some(date!(2044 - 02 - 29)));
}

#[test]
fn a_schedule_made_without_backfill_looks_from_its_creation_day_however_old_its_start() {
    // Daily from 1990, made on 2026-11-28: the first look finds the creation day (it
    // used to scan 13 years from 1990 and leave the schedule without a next date).
    let mut r = rent("FREQ=DAILY", date!(1990 - 01 - 01));
    r.backfill = false;
    r.not_before = date!(2026 - 11 - 28);
    let (passed, next) = r.next();
    assert_eq!(
        passed,
        Some(date!(2026 - 11 - 27)),
        "a weekend before, no further"
    );
    assert!(matches!(next, Next::Occurrence { nominal, .. } if nominal == date!(2026 - 11 - 28)));
    let listed = r.occurrences(date!(2026 - 11 - 27), date!(2026 - 11 - 28));
    let statuses: Vec<_> = listed.iter().map(|p| p.status).collect();
    assert_eq!(statuses, [Status::Skipped, Status::Scheduled]);
}

/// A schedule made without backfill on Sunday 2026-11-29, moving weekend occurrences.
fn made_on_sunday(rule: &str, start: Date, weekend: Weekend) -> Recurring {
    let mut r = rent(rule, start);
    r.schedule = Schedule::new(start, rule.parse().unwrap(), weekend);
    r.backfill = false;
    r.not_before = date!(2026 - 11 - 29);
    r
}

#[test]
fn exceptions_long_past_are_pruned_and_recent_and_upcoming_ones_stay() {
    let mut r = rent("FREQ=DAILY", date!(2020 - 01 - 01));
    assert_eq!(r.prune_past(), 0);
    for n in [
        date!(2020 - 01 - 01),
        date!(2023 - 12 - 31),
        date!(2024 - 01 - 01),
    ] {
        r.exceptions.insert(n, Exception::Skip);
    }
    r.exceptions.insert(date!(2026 - 02 - 01), Exception::Skip);
    assert_eq!(r.prune_past(), 0, "nothing is done yet");
    // Two years (731 days) before 2026-01-01 is 2024-01-01.
    r.done = Some(date!(2026 - 01 - 01));
    assert_eq!(r.prune_past(), 2);
    let kept: Vec<Date> = r.exceptions.keys().copied().collect();
    assert_eq!(kept, [date!(2024 - 01 - 01), date!(2026 - 02 - 01)]);
    assert_eq!(r.prune_past(), 0);
}

#[test]
fn only_exceptions_still_to_come_count_against_the_limit() {
    let mut r = rent("FREQ=WEEKLY", date!(2026 - 01 - 05));
    for week in 0..10 {
        let nominal = date!(2026 - 01 - 05) + Duration::weeks(week);
        r.exceptions.insert(nominal, Exception::Skip);
    }
    assert_eq!(r.upcoming_exceptions(), 10);
    r.done = Some(date!(2026 - 01 - 19));
    assert_eq!(r.upcoming_exceptions(), 7);
}

#[test]
fn weekend_moves_across_the_creation_day_count() {
    // Made on Sunday 2026-11-29, weekly on Sundays moved to the Friday before: the first
    // one is dated 2026-11-27, before the creation day, and is the schedule's all the same.
    let r = made_on_sunday(
        "FREQ=WEEKLY;BYDAY=SU",
        date!(2026 - 11 - 29),
        Weekend::Before,
    );
    let (_, next) = r.next();
    assert_eq!(
        next,
        Next::Occurrence {
            nominal: date!(2026 - 11 - 29),
            date: date!(2026 - 11 - 27),
            amount: r.details.amount.amount(),
        }
    );
    let first = r.occurrences(date!(2026 - 11 - 27), date!(2026 - 11 - 27));
    assert_eq!(first[0].status, Status::Scheduled);
    // On the 28th moved to the Monday after: Saturday the 28th is paid on Monday the
    // 30th, after the creation day.
    let r = made_on_sunday(
        "FREQ=MONTHLY;BYMONTHDAY=28",
        date!(2026 - 01 - 28),
        Weekend::After,
    );
    let (_, next) = r.next();
    assert!(matches!(next, Next::Occurrence { date, .. } if date == date!(2026 - 11 - 30)));
    let listed = r.occurrences(date!(2026 - 10 - 01), date!(2026 - 12 - 31));
    let seen: Vec<_> = listed.iter().map(|p| (p.date, p.status)).collect();
    assert_eq!(
        seen,
        [
            (date!(2026 - 10 - 28), Status::Skipped),
            (date!(2026 - 11 - 30), Status::Scheduled),
            (date!(2026 - 12 - 28), Status::Scheduled),
        ]
    );
}

#[test]
fn an_occurrence_may_not_pass_another_still_to_create() {
    let mut r = rent("FREQ=WEEKLY", date!(2026 - 01 - 05));
    let moved = |date| Exception::Change {
        date: Some(date),
        amount: None,
    };
    r.exceptions
        .insert(date!(2026 - 01 - 12), moved(date!(2026 - 01 - 08)));
    assert_eq!(r.passed_by(date!(2026 - 01 - 12)), None);
    // The same day as the one before is no pass.
    r.exceptions
        .insert(date!(2026 - 01 - 12), moved(date!(2026 - 01 - 05)));
    assert_eq!(r.passed_by(date!(2026 - 01 - 12)), None);
    r.exceptions
        .insert(date!(2026 - 01 - 12), moved(date!(2026 - 01 - 04)));
    let passed = r.passed_by(date!(2026 - 01 - 12)).map(|p| p.nominal);
    assert_eq!(passed, Some(date!(2026 - 01 - 05)));
    // Seen from the other one, and gone once that one is skipped or created.
    assert_eq!(
        r.passed_by(date!(2026 - 01 - 05)).map(|p| p.nominal),
        Some(date!(2026 - 01 - 12))
    );
    r.exceptions.insert(date!(2026 - 01 - 05), Exception::Skip);
    assert_eq!(r.passed_by(date!(2026 - 01 - 12)), None);
    r.exceptions.remove(&date!(2026 - 01 - 05));
    r.done = Some(date!(2026 - 01 - 05));
    assert_eq!(r.passed_by(date!(2026 - 01 - 12)), None);
    // A later one moved before it.
    r.exceptions.remove(&date!(2026 - 01 - 12));
    r.exceptions
        .insert(date!(2026 - 01 - 19), moved(date!(2026 - 01 - 11)));
    let passed = r.passed_by(date!(2026 - 01 - 19)).map(|p| p.nominal);
    assert_eq!(passed, Some(date!(2026 - 01 - 12)));
}
