//! `start`, weekend moves, COUNT / UNTIL, windows far from start, and bounds.

mod common;
use common::{all, d, dates, ds, next, nominal, occ, occs, rule, sched, sched_w, window_is};
use recurrence::{Occurrence, Schedule, Weekend, MAX_DATE, MIN_DATE};

const LAST_BUSINESS_DAY: &str = "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1";

cases! {
    last_business_day_across_a_year: window_is("20260101", LAST_BUSINESS_DAY,
        "20260101", "20261231",
        "20260130 20260227 20260331 20260430 20260529 20260630 20260731 20260831 20260930 \
        20261030 20261130 20261231");
}

#[test]
fn start_is_only_the_earliest_date() {
    let s = sched("20260101", LAST_BUSINESS_DAY);
    assert!(occs(&s, "20260101", "20260101").is_empty());
    assert_eq!(next(&s, "20250101"), Some(occ("20260130", "20260130")));
    let monthly = "FREQ=MONTHLY;BYMONTHDAY=15";
    window_is(
        "20260120",
        monthly,
        "20260101",
        "20260331",
        "20260215 20260315",
    );
    // No BYxxx: implied from start, which then matches.
    let implied = "FREQ=MONTHLY";
    window_is(
        "20260120",
        implied,
        "20260101",
        "20260331",
        "20260120 20260220 20260320",
    );
}

#[test]
fn weekend_before_and_after() {
    let rule_text = "FREQ=MONTHLY;BYMONTHDAY=1";
    let keep = sched("20260101", rule_text);
    let before = sched_w("20260101", rule_text, Weekend::Before);
    let after = sched_w("20260101", rule_text, Weekend::After);
    let (from, to) = ("20260101", "20261231");
    assert_eq!(dates(&keep, from, to).len(), 12);
    assert_eq!(
        dates(&before, from, to),
        ds(
            "20260101 20260130 20260227 20260401 20260501 20260601 20260701 20260731 20260901 \
            20261001 20261030 20261201"
        )
    );
    assert_eq!(
        dates(&after, from, to),
        ds(
            "20260101 20260202 20260302 20260401 20260501 20260601 20260701 20260803 20260901 \
            20261001 20261102 20261201"
        )
    );
    assert!(occs(&after, from, to).contains(&occ("20260801", "20260803")));
    assert!(occs(&before, from, to).contains(&occ("20260801", "20260731")));
}

#[test]
fn window_uses_moved_dates() {
    let after = sched_w("20260101", "FREQ=MONTHLY;BYMONTHDAY=1", Weekend::After);
    // Aug 1 (Sat) moves to Aug 3: outside Aug 1..2, inside Aug 3..3.
    assert!(occs(&after, "20260801", "20260802").is_empty());
    let aug_3 = occs(&after, "20260803", "20260803");
    assert_eq!(aug_3, vec![occ("20260801", "20260803")]);
    assert_eq!(nominal(&after, "20260801", "20260801"), ds("20260801"));
    let before = sched_w("20260101", "FREQ=MONTHLY;BYMONTHDAY=1", Weekend::Before);
    // Feb 1 (Sun) moves back into January.
    let jan_30 = occs(&before, "20260130", "20260130");
    assert_eq!(jan_30, vec![occ("20260201", "20260130")]);
    let february = occs(&before, "20260201", "20260228");
    assert!(february.iter().all(|o| o.nominal != d("20260201")));
}

#[test]
fn weekend_merges_keep_order_and_one_winner() {
    // Daily: Fri, Sat, Sun all land on Friday (before); Sat, Sun, Mon on Monday (after).
    let before = sched_w("20260101", "FREQ=DAILY", Weekend::Before);
    let after = sched_w("20260101", "FREQ=DAILY", Weekend::After);
    let weekdays = [
        "20260105", "20260106", "20260107", "20260108", "20260109", "20260112",
    ];
    let same_day: Vec<_> = weekdays.iter().map(|day| occ(day, day)).collect();
    assert_eq!(occs(&before, "20260105", "20260112"), same_day);
    let monday = occs(&after, "20260110", "20260112");
    assert_eq!(monday, vec![occ("20260112", "20260112")]);
    assert_eq!(nominal(&after, "20260110", "20260112"), ds("20260112"));
    // Weekend-only rule: the earliest nominal wins.
    let weekends = sched_w("20260101", "FREQ=WEEKLY;BYDAY=SA,SU", Weekend::After);
    let moved = [
        ("20260103", "20260105"),
        ("20260110", "20260112"),
        ("20260117", "20260119"),
    ];
    let moved: Vec<_> = moved.iter().map(|(n, m)| occ(n, m)).collect();
    assert_eq!(occs(&weekends, "20260101", "20260120"), moved);
}

#[test]
fn count_counts_nominal_occurrences_from_start() {
    let loan = sched("20260115", "FREQ=MONTHLY;COUNT=24");
    let got = all(&loan);
    assert_eq!(got.len(), 24);
    assert_eq!(got.last(), Some(&d("20271215")));
    assert!(occs(&loan, "20280101", "20291231").is_empty());
    assert_eq!(next(&loan, "20271216"), None);
    let three = sched("20260101", &format!("{LAST_BUSINESS_DAY};COUNT=3"));
    assert_eq!(all(&three), ds("20260130 20260227 20260331"));
    // Windows in the middle see the same COUNT-limited occurrences.
    assert_eq!(dates(&loan, "20270601", "20280601").len(), 7);
}

#[test]
fn until_is_inclusive_by_date() {
    let date = sched("20260105", "FREQ=WEEKLY;UNTIL=20260301");
    assert_eq!(all(&date).last(), Some(&d("20260223")));
    let date_time = sched("20260105", "FREQ=WEEKLY;UNTIL=20260302T000000Z");
    assert_eq!(all(&date_time).last(), Some(&d("20260302")));
    let before_start = sched("20260105", "FREQ=WEEKLY;UNTIL=20250101");
    assert!(all(&before_start).is_empty());
    assert_eq!(before_start.next_on_or_after(MIN_DATE), None);
}

#[test]
fn far_window_without_count_skips_ahead() {
    let s = sched("19000105", "FREQ=WEEKLY;INTERVAL=3;BYDAY=MO,FR");
    let window = occs(&s, "21980101", "21991231");
    assert!(!window.is_empty());
    let wide = occs(&s, "21970101", "22001231");
    let sliced: Vec<Occurrence> = wide
        .into_iter()
        .filter(|o| (d("21980101")..=d("21991231")).contains(&o.date))
        .collect();
    assert_eq!(window, sliced);
    // Every third week from the week of 1900-01-01 (Monday).
    let weeks = (window[0].date.to_julian_day() - d("19000101").to_julian_day()) / 7;
    assert_eq!(weeks % 3, 0);
}

#[test]
fn far_window_with_count_walks_from_start() {
    let s = sched("19000101", "FREQ=DAILY;COUNT=100000");
    // The 100,000th day from 1900-01-01 is 2173-10-15.
    let last_days = "21731010 21731011 21731012 21731013 21731014 21731015";
    assert_eq!(dates(&s, "21731010", "21731231"), ds(last_days));
    assert_eq!(next(&s, "21731015"), Some(occ("21731015", "21731015")));
    assert_eq!(next(&s, "21731016"), None);
}

#[test]
fn rare_and_impossible_rules_end() {
    let leap = sched("20240229", "FREQ=YEARLY");
    assert_eq!(next(&leap, "20240301"), Some(occ("20280229", "20280229")));
    let never = sched("20240101", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30");
    assert_eq!(next(&never, "20240101"), None);
    assert!(all(&never).is_empty());
    let never_daily = sched("19000101", "FREQ=DAILY;BYMONTH=2;BYMONTHDAY=31;COUNT=5");
    assert!(all(&never_daily).is_empty());
}

#[test]
fn bounds_and_odd_windows() {
    let s = sched("18000101", "FREQ=YEARLY");
    assert_eq!(next(&s, "00010101"), Some(occ("19000101", "19000101")));
    assert!(occs(&s, "22010101", "99991231").is_empty());
    assert_eq!(occs(&s, "22000101", "99991231").len(), 1);
    assert!(occs(&s, "20260102", "20260101").is_empty());
    let min = time::Date::MIN;
    let max = time::Date::MAX;
    assert!(s.between(min, min).is_empty());
    assert!(s.nominal_between(max, max).is_empty());
    assert_eq!(s.next_on_or_after(max), None);
    let late = Schedule::new(max, rule("FREQ=DAILY"), Weekend::After);
    assert!(late.between(min, max).is_empty());
    assert_eq!(MAX_DATE, d("22001231"));
}

#[test]
fn nominal_between_matches_between() {
    let s = sched_w("20260101", LAST_BUSINESS_DAY, Weekend::After);
    let moved = occs(&s, "20260101", "20261231");
    let moved_nominals: Vec<_> = moved.iter().map(|o| o.nominal).collect();
    assert_eq!(nominal(&s, "20260101", "20261231"), moved_nominals);
    let by_nominal = s.by_nominal(d("20260101"), d("20261231"));
    assert_eq!(by_nominal.len(), 12);
}
