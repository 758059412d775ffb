//! RFC 7529 `SKIP` for days a month lacks, and month ends in leap and common years.

mod common;
use common::{all, dates, ds, rule, sched};

#[test]
fn monthly_on_the_31st_omit_backward_forward() {
    let omit = sched("20250131", "FREQ=MONTHLY;COUNT=6");
    let explicit = sched(
        "20250131",
        "RSCALE=GREGORIAN;FREQ=MONTHLY;COUNT=6;SKIP=OMIT",
    );
    let backward = sched(
        "20250131",
        "RSCALE=GREGORIAN;FREQ=MONTHLY;COUNT=6;SKIP=BACKWARD",
    );
    let forward = sched("20250131", "FREQ=MONTHLY;COUNT=6;SKIP=FORWARD");
    assert_eq!(
        all(&omit),
        ds("20250131 20250331 20250531 20250731 20250831 20251031")
    );
    assert_eq!(all(&explicit), all(&omit));
    assert_eq!(
        all(&backward),
        ds("20250131 20250228 20250331 20250430 20250531 20250630")
    );
    assert_eq!(
        all(&forward),
        ds("20250131 20250301 20250331 20250501 20250531 20250701")
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
    let window = ("20240101", "20291231");
    let omit = sched("20240229", "FREQ=YEARLY");
    let backward = sched("20240229", "RSCALE=GREGORIAN;FREQ=YEARLY;SKIP=BACKWARD");
    let forward = sched("20240229", "RSCALE=GREGORIAN;FREQ=YEARLY;SKIP=FORWARD");
    assert_eq!(dates(&omit, window.0, window.1), ds("20240229 20280229"));
    assert_eq!(
        dates(&backward, window.0, window.1),
        ds("20240229 20250228 20260228 20270228 20280229 20290228")
    );
    assert_eq!(
        dates(&forward, window.0, window.1),
        ds("20240229 20250301 20260301 20270301 20280229 20290301")
    );
}

#[test]
fn forward_collision_is_deduplicated_and_counted_once() {
    // Feb 30 → Mar 1, which March also produces.
    let s = sched(
        "20250201",
        "FREQ=MONTHLY;BYMONTHDAY=1,30;SKIP=FORWARD;COUNT=5",
    );
    assert_eq!(all(&s), ds("20250201 20250301 20250330 20250401 20250430"));
}

#[test]
fn backward_collision_with_bysetpos() {
    // Feb: 29, 30 and 31 all become Feb 28; BYSETPOS counts the merged set.
    let s = sched(
        "20250101",
        "FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;SKIP=BACKWARD;BYSETPOS=2",
    );
    assert_eq!(
        dates(&s, "20250101", "20250430"),
        ds("20250129 20250329 20250429")
    );
}

#[test]
fn negative_day_before_the_first() {
    let backward = sched("20250101", "FREQ=MONTHLY;BYMONTHDAY=-31;SKIP=BACKWARD");
    let forward = sched("20250101", "FREQ=MONTHLY;BYMONTHDAY=-31;SKIP=FORWARD");
    let omit = sched("20250101", "FREQ=MONTHLY;BYMONTHDAY=-31");
    assert_eq!(
        dates(&backward, "20250101", "20250731"),
        ds("20250101 20250131 20250301 20250331 20250501 20250531 20250701")
    );
    assert_eq!(
        dates(&forward, "20250101", "20250731"),
        ds("20250101 20250201 20250301 20250401 20250501 20250601 20250701")
    );
    assert_eq!(
        dates(&omit, "20250101", "20250731"),
        ds("20250101 20250301 20250501 20250701")
    );
}

#[test]
fn last_day_of_month_in_leap_and_common_years() {
    let s = sched("20240101", "FREQ=MONTHLY;BYMONTHDAY=-1");
    let febs = |y: &str| dates(&s, &format!("{y}0201"), &format!("{y}0301"));
    assert_eq!(febs("2024"), ds("20240229"));
    assert_eq!(febs("2025"), ds("20250228"));
    assert_eq!(febs("2026"), ds("20260228"));
    assert_eq!(febs("2100"), ds("21000228")); // not a leap year
    assert_eq!(febs("2000").len(), 0); // before start
}

#[test]
fn rent_on_the_last_day_from_the_issue() {
    let s = sched("20260131", "FREQ=MONTHLY;BYMONTHDAY=-1");
    assert_eq!(
        dates(&s, "20260101", "20261231"),
        ds(
            "20260131 20260228 20260331 20260430 20260531 20260630 20260731 20260831 20260930 \
            20261031 20261130 20261231"
        )
    );
}

#[test]
fn days_29_and_30_in_february() {
    let s29 = sched("20240101", "FREQ=MONTHLY;BYMONTHDAY=29");
    assert_eq!(dates(&s29, "20240201", "20240229"), ds("20240229"));
    assert_eq!(dates(&s29, "20250201", "20250331"), ds("20250329"));
    let s30 = sched("20240101", "FREQ=MONTHLY;BYMONTHDAY=30;SKIP=BACKWARD");
    assert_eq!(dates(&s30, "20240201", "20240229"), ds("20240229"));
    assert_eq!(dates(&s30, "20250201", "20250228"), ds("20250228"));
    let start_on_31 = sched("20240131", "FREQ=MONTHLY;SKIP=BACKWARD");
    assert_eq!(
        dates(&start_on_31, "20250201", "20250430"),
        ds("20250228 20250331 20250430")
    );
}

#[test]
fn skip_is_ignored_where_nothing_is_invalid() {
    let s = sched("20250101", "FREQ=DAILY;BYMONTHDAY=31;SKIP=FORWARD");
    assert_eq!(dates(&s, "20250101", "20250430"), ds("20250131 20250331"));
    let r = rule("FREQ=WEEKLY;SKIP=BACKWARD");
    assert_eq!(r.to_string(), "RSCALE=GREGORIAN;FREQ=WEEKLY;SKIP=BACKWARD");
}
