//! RFC 7529 `SKIP` for days a month lacks, and month ends in leap and common years.

mod common;
use common::{all_are, dates, rule, sched, window_is};

cases! {
    // Feb 30 → Mar 1, which March also produces.
    forward_collision_is_deduplicated_and_counted_once: all_are("20250201",
        "FREQ=MONTHLY;BYMONTHDAY=1,30;SKIP=FORWARD;COUNT=5",
        "20250201 20250301 20250330 20250401 20250430");
    // Feb: 29, 30 and 31 all become Feb 28; BYSETPOS counts the merged set.
    backward_collision_with_bysetpos: window_is("20250101",
        "FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;SKIP=BACKWARD;BYSETPOS=2", "20250101", "20250430",
        "20250129 20250329 20250429");
    rent_on_the_last_day_from_the_issue: window_is("20260131", "FREQ=MONTHLY;BYMONTHDAY=-1",
        "20260101", "20261231",
        "20260131 20260228 20260331 20260430 20260531 20260630 20260731 20260831 20260930 \
        20261031 20261130 20261231");
}

#[test]
fn monthly_on_the_31st_omit_backward_forward() {
    let omit = "20250131 20250331 20250531 20250731 20250831 20251031";
    all_are("20250131", "FREQ=MONTHLY;COUNT=6", omit);
    all_are(
        "20250131",
        "RSCALE=GREGORIAN;FREQ=MONTHLY;COUNT=6;SKIP=OMIT",
        omit,
    );
    all_are(
        "20250131",
        "RSCALE=GREGORIAN;FREQ=MONTHLY;COUNT=6;SKIP=BACKWARD",
        "20250131 20250228 20250331 20250430 20250531 20250630",
    );
    all_are(
        "20250131",
        "FREQ=MONTHLY;COUNT=6;SKIP=FORWARD",
        "20250131 20250301 20250331 20250501 20250531 20250701",
    );
}

#[test]
fn bymonthday_31_backward_equals_last_day() {
    let skip = sched("20240101", "FREQ=MONTHLY;BYMONTHDAY=31;SKIP=BACKWARD");
    let last = sched("20240101", "FREQ=MONTHLY;BYMONTHDAY=-1");
    assert_eq!(
        dates(&skip, "20240101", "20271231"),
        dates(&last, "20240101", "20271231")
    );
    assert_eq!(dates(&skip, "20240101", "20271231").len(), 48);
}

#[test]
fn yearly_on_february_29() {
    for (rule, want) in [
        ("FREQ=YEARLY", "20240229 20280229"),
        (
            "RSCALE=GREGORIAN;FREQ=YEARLY;SKIP=BACKWARD",
            "20240229 20250228 20260228 20270228 20280229 20290228",
        ),
        (
            "RSCALE=GREGORIAN;FREQ=YEARLY;SKIP=FORWARD",
            "20240229 20250301 20260301 20270301 20280229 20290301",
        ),
    ] {
        window_is("20240229", rule, "20240101", "20291231", want);
    }
}

#[test]
fn negative_day_before_the_first() {
    for (skip, want) in [
        (
            ";SKIP=BACKWARD",
            "20250101 20250131 20250301 20250331 20250501 20250531 20250701",
        ),
        (
            ";SKIP=FORWARD",
            "20250101 20250201 20250301 20250401 20250501 20250601 20250701",
        ),
        ("", "20250101 20250301 20250501 20250701"),
    ] {
        let rule = format!("FREQ=MONTHLY;BYMONTHDAY=-31{skip}");
        window_is("20250101", &rule, "20250101", "20250731", want);
    }
}

#[test]
fn last_day_of_month_in_leap_and_common_years() {
    // 2100 is not a leap year; 2000 is before start.
    for (y, want) in [
        ("2024", "20240229"),
        ("2025", "20250228"),
        ("2026", "20260228"),
        ("2100", "21000228"),
        ("2000", ""),
    ] {
        let (from, to) = (format!("{y}0201"), format!("{y}0301"));
        window_is("20240101", "FREQ=MONTHLY;BYMONTHDAY=-1", &from, &to, want);
    }
}

#[test]
fn days_29_and_30_in_february() {
    let (d29, d30) = (
        "FREQ=MONTHLY;BYMONTHDAY=29",
        "FREQ=MONTHLY;BYMONTHDAY=30;SKIP=BACKWARD",
    );
    window_is("20240101", d29, "20240201", "20240229", "20240229");
    window_is("20240101", d29, "20250201", "20250331", "20250329");
    window_is("20240101", d30, "20240201", "20240229", "20240229");
    window_is("20240101", d30, "20250201", "20250228", "20250228");
    let start_on_31 = "FREQ=MONTHLY;SKIP=BACKWARD";
    window_is(
        "20240131",
        start_on_31,
        "20250201",
        "20250430",
        "20250228 20250331 20250430",
    );
}

#[test]
fn skip_is_ignored_where_nothing_is_invalid() {
    let daily_31st = "FREQ=DAILY;BYMONTHDAY=31;SKIP=FORWARD";
    window_is(
        "20250101",
        daily_31st,
        "20250101",
        "20250430",
        "20250131 20250331",
    );
    let r = rule("FREQ=WEEKLY;SKIP=BACKWARD");
    assert_eq!(r.to_string(), "RSCALE=GREGORIAN;FREQ=WEEKLY;SKIP=BACKWARD");
}
