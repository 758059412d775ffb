//! RFC 5545 section 3.8.5.3's examples that use the supported parts, with
//! DTSTART read as `start` (dates only). Where DTSTART does not match the rule
//! (Friday the 13th), RFC 5545 counts it and excludes it with EXDATE; here it
//! simply is no occurrence.

mod common;
use common::{all, all_are, ds, sched, window_is};

cases! {
    daily_for_10_occurrences: all_are("19970902", "FREQ=DAILY;COUNT=10",
        "19970902 19970903 19970904 19970905 19970906 19970907 19970908 19970909 19970910 19970911");
    every_other_day: window_is("19970902", "FREQ=DAILY;INTERVAL=2", "19970901", "19970916",
        "19970902 19970904 19970906 19970908 19970910 19970912 19970914 19970916");
    every_10_days_5_occurrences: all_are("19970902", "FREQ=DAILY;INTERVAL=10;COUNT=5",
        "19970902 19970912 19970922 19971002 19971012");
    weekly_for_10_occurrences: all_are("19970902", "FREQ=WEEKLY;COUNT=10",
        "19970902 19970909 19970916 19970923 19970930 19971007 19971014 19971021 19971028 19971104");
    every_other_week: window_is("19970902", "FREQ=WEEKLY;INTERVAL=2;WKST=SU", "19970902", "19980201",
        "19970902 19970916 19970930 19971014 19971028 19971111 19971125 19971209 19971223 \
        19980106 19980120");
    // UNTIL as a date (the RFC's 19971224T000000Z excludes Dec 24 09:00).
    every_other_week_on_monday_wednesday_friday: all_are("19970901",
        "FREQ=WEEKLY;INTERVAL=2;UNTIL=19971223;WKST=SU;BYDAY=MO,WE,FR",
        "19970901 19970903 19970905 19970915 19970917 19970919 19970929 19971001 19971003 \
        19971013 19971015 19971017 19971027 19971029 19971031 19971110 19971112 19971114 \
        19971124 19971126 19971128 19971208 19971210 19971212 19971222");
    every_other_week_on_tuesday_and_thursday_for_8: all_are("19970902",
        "FREQ=WEEKLY;INTERVAL=2;COUNT=8;WKST=SU;BYDAY=TU,TH",
        "19970902 19970904 19970916 19970918 19970930 19971002 19971014 19971016");
    monthly_on_first_friday_for_10: all_are("19970905", "FREQ=MONTHLY;COUNT=10;BYDAY=1FR",
        "19970905 19971003 19971107 19971205 19980102 19980206 19980306 19980403 19980501 19980605");
    every_other_month_on_first_and_last_sunday: all_are("19970907",
        "FREQ=MONTHLY;INTERVAL=2;COUNT=10;BYDAY=1SU,-1SU",
        "19970907 19970928 19971102 19971130 19980104 19980125 19980301 19980329 19980503 19980531");
    monthly_on_second_to_last_monday_for_6: all_are("19970922", "FREQ=MONTHLY;COUNT=6;BYDAY=-2MO",
        "19970922 19971020 19971117 19971222 19980119 19980216");
    monthly_on_second_and_second_to_last_sunday: all_are("19970901",
        "FREQ=MONTHLY;COUNT=6;BYDAY=2SU,-2SU",
        "19970914 19970921 19971012 19971019 19971109 19971123");
    monthly_on_third_to_last_day: window_is("19970928", "FREQ=MONTHLY;BYMONTHDAY=-3",
        "19970901", "19980301",
        "19970928 19971029 19971128 19971229 19980129 19980226");
    monthly_on_2nd_and_15th_for_10: all_are("19970902", "FREQ=MONTHLY;COUNT=10;BYMONTHDAY=2,15",
        "19970902 19970915 19971002 19971015 19971102 19971115 19971202 19971215 19980102 19980115");
    monthly_on_first_and_last_day_for_10: all_are("19970930", "FREQ=MONTHLY;COUNT=10;BYMONTHDAY=1,-1",
        "19970930 19971001 19971031 19971101 19971130 19971201 19971231 19980101 19980131 19980201");
    monthly_on_the_last_day: window_is("19970930", "FREQ=MONTHLY;BYMONTHDAY=-1",
        "19970101", "19980331",
        "19970930 19971031 19971130 19971231 19980131 19980228 19980331");
    every_18_months_on_10th_to_15th: all_are("19970910",
        "FREQ=MONTHLY;INTERVAL=18;COUNT=10;BYMONTHDAY=10,11,12,13,14,15",
        "19970910 19970911 19970912 19970913 19970914 19970915 19990310 19990311 19990312 19990313");
    every_tuesday_every_other_month: window_is("19970902", "FREQ=MONTHLY;INTERVAL=2;BYDAY=TU",
        "19970902", "19980331",
        "19970902 19970909 19970916 19970923 19970930 19971104 19971111 19971118 19971125 \
        19980106 19980113 19980120 19980127 19980303 19980310 19980317 19980324 19980331");
    // RFC 5545 needs EXDATE for its non-matching DTSTART; `start` does not.
    every_friday_the_13th: window_is("19970902", "FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13",
        "19970101", "20001231",
        "19980213 19980313 19981113 19990813 20001013");
    first_saturday_after_first_sunday: window_is("19970913",
        "FREQ=MONTHLY;BYDAY=SA;BYMONTHDAY=7,8,9,10,11,12,13", "19970901", "19980630",
        "19970913 19971011 19971108 19971213 19980110 19980207 19980307 19980411 19980509 19980613");
    third_tuesday_wednesday_or_thursday: all_are("19970904",
        "FREQ=MONTHLY;COUNT=3;BYDAY=TU,WE,TH;BYSETPOS=3",
        "19970904 19971007 19971106");
    second_to_last_weekday: window_is("19970929", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-2",
        "19970901", "19980331",
        "19970929 19971030 19971127 19971230 19980129 19980226 19980330");
    last_weekday_of_the_month: window_is("19970901", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1",
        "19970901", "19980331",
        "19970930 19971031 19971128 19971231 19980130 19980227 19980331");
    invalid_dates_are_ignored: all_are("20070115", "FREQ=MONTHLY;BYMONTHDAY=15,30;COUNT=5",
        "20070115 20070130 20070215 20070315 20070330");
}

#[test]
fn daily_until_compares_by_date() {
    // RFC: UNTIL=19971224T000000Z with DTSTART at 09:00 ends on Dec 23;
    // dates only, the until date itself is included.
    let got = all(&sched("19970902", "FREQ=DAILY;UNTIL=19971224T000000Z"));
    assert_eq!(got.len(), 114);
    assert_eq!(got.first(), ds("19970902").first());
    assert_eq!(got.last(), ds("19971224").first());
}

#[test]
fn weekly_on_tuesday_and_thursday_for_five_weeks() {
    let expected = "19970902 19970904 19970909 19970911 19970916 19970918 19970923 19970925 \
        19970930 19971002";
    // The RFC's UNTIL=19971007T000000Z ends before Oct 7 09:00; by date that is Oct 6.
    all_are(
        "19970902",
        "FREQ=WEEKLY;UNTIL=19971006;WKST=SU;BYDAY=TU,TH",
        expected,
    );
    all_are(
        "19970902",
        "FREQ=WEEKLY;COUNT=10;WKST=SU;BYDAY=TU,TH",
        expected,
    );
    let by_date = sched(
        "19970902",
        "FREQ=WEEKLY;UNTIL=19971007T000000Z;WKST=SU;BYDAY=TU,TH",
    );
    assert_eq!(all(&by_date).last(), ds("19971007").first());
}

#[test]
fn wkst_changes_every_other_week() {
    let rule = |wkst: &str| format!("FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST={wkst}");
    all_are(
        "19970805",
        &rule("MO"),
        "19970805 19970810 19970819 19970824",
    );
    all_are(
        "19970805",
        &rule("SU"),
        "19970805 19970817 19970819 19970831",
    );
}
