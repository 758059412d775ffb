//! Parsing: accepted forms, canonical output, and errors naming the part.

mod common;
use common::{d, rule};
use recurrence::{Freq, RRule, RuleError, Skip, WeekdayNum, Weekend};
use time::Weekday;

fn err(text: &str) -> RuleError {
    match text.parse::<RRule>() {
        Ok(r) => panic!("{text} parsed as {r}"),
        Err(e) => e,
    }
}

#[test]
fn errors_name_the_part() {
    let cases = [
        ("", "FREQ"),
        ("COUNT=3", "FREQ"),
        ("FREQ=HOURLY", "FREQ"),
        ("FREQ=SECONDLY", "FREQ"),
        ("FREQ=FORTNIGHTLY", "FREQ"),
        ("FREQ=DAILY;FREQ=WEEKLY", "FREQ"),
        ("FREQ=DAILY;BYHOUR=9", "BYHOUR"),
        ("FREQ=DAILY;BYMINUTE=0", "BYMINUTE"),
        ("FREQ=DAILY;BYSECOND=0", "BYSECOND"),
        ("FREQ=YEARLY;BYWEEKNO=20", "BYWEEKNO"),
        ("FREQ=YEARLY;BYYEARDAY=100", "BYYEARDAY"),
        ("FREQ=DAILY;FOO=1", "FOO"),
        ("FREQ=DAILY;COUNT=3;UNTIL=20260101", "COUNT"),
        ("FREQ=DAILY;COUNT=0", "COUNT"),
        ("FREQ=DAILY;COUNT=-2", "COUNT"),
        ("FREQ=DAILY;COUNT=abc", "COUNT"),
        ("FREQ=DAILY;COUNT=1;COUNT=2", "COUNT"),
        ("FREQ=DAILY;INTERVAL=0", "INTERVAL"),
        ("FREQ=DAILY;INTERVAL=", "INTERVAL"),
        ("FREQ=DAILY;INTERVAL=99999999999", "INTERVAL"),
        ("FREQ=MONTHLY;BYMONTHDAY=32", "BYMONTHDAY"),
        ("FREQ=MONTHLY;BYMONTHDAY=0", "BYMONTHDAY"),
        ("FREQ=MONTHLY;BYMONTHDAY=-32", "BYMONTHDAY"),
        ("FREQ=MONTHLY;BYMONTHDAY=1,,2", "BYMONTHDAY"),
        ("FREQ=WEEKLY;BYMONTHDAY=1", "BYMONTHDAY"),
        ("FREQ=YEARLY;BYMONTH=13", "BYMONTH"),
        ("FREQ=YEARLY;BYMONTH=-1", "BYMONTH"),
        ("FREQ=WEEKLY;BYDAY=XX", "BYDAY"),
        ("FREQ=WEEKLY;BYDAY=2MO", "BYDAY"),
        ("FREQ=DAILY;BYDAY=-1FR", "BYDAY"),
        ("FREQ=MONTHLY;BYDAY=0MO", "BYDAY"),
        ("FREQ=MONTHLY;BYDAY=54MO", "BYDAY"),
        ("FREQ=MONTHLY;BYDAY=M", "BYDAY"),
        ("FREQ=MONTHLY;BYDAY=1", "BYDAY"),
        ("FREQ=MONTHLY;BYDAY=MO;BYSETPOS=0", "BYSETPOS"),
        ("FREQ=MONTHLY;BYDAY=MO;BYSETPOS=367", "BYSETPOS"),
        ("FREQ=WEEKLY;WKST=XY", "WKST"),
        ("FREQ=MONTHLY;SKIP=SOMETIMES", "SKIP"),
        ("RSCALE=HEBREW;FREQ=MONTHLY", "RSCALE"),
        ("FREQ=DAILY;UNTIL=20250230", "UNTIL"),
        ("FREQ=DAILY;UNTIL=2025-01-01", "UNTIL"),
        ("FREQ=DAILY;UNTIL=20250101T250000Z", "UNTIL"),
        ("FREQ=DAILY;UNTIL=20250101T1200Z", "UNTIL"),
        ("FREQ", "FREQ"),
        ("FREQ=DAILY;COUNT", "COUNT"),
        // rrule.js and python-dateutil print a start line before the rule.
        ("DTSTART:20260101T000000Z\nRRULE:FREQ=MONTHLY", "DTSTART"),
        (
            "DTSTART;VALUE=DATE:20260101\r\nRRULE:FREQ=MONTHLY",
            "DTSTART",
        ),
        ("RRULE:FREQ=MONTHLY\nEXDATE:20260201", "DTSTART"),
    ];
    for (text, part) in cases {
        let e = err(text);
        assert_eq!(e.part, part, "{text}: {e}");
        assert!(!e.message.is_empty());
        assert!(e.to_string().contains(part));
    }
}

#[test]
fn accepted_forms() {
    let r = rule("RRULE:FREQ=MONTHLY;BYDAY=+2MO,-1FR");
    assert_eq!(r.freq(), Freq::Monthly);
    assert_eq!(
        r.by_day(),
        [
            WeekdayNum {
                ordinal: Some(2),
                weekday: Weekday::Monday
            },
            WeekdayNum {
                ordinal: Some(-1),
                weekday: Weekday::Friday
            },
        ]
    );
    assert_eq!(rule("freq=daily;count=2;").count(), Some(2));
    assert_eq!(rule(" FREQ=DAILY ; INTERVAL = 3 ").interval(), 3);
    let until = rule("FREQ=DAILY;UNTIL=20261231T235959Z");
    assert_eq!(until.until(), Some(d("20261231")));
    assert_eq!(
        rule("FREQ=DAILY;UNTIL=20261231T120000").until(),
        Some(d("20261231"))
    );
    let skip = rule("FREQ=MONTHLY;SKIP=FORWARD");
    assert_eq!(skip.skip(), Skip::Forward);
    assert_eq!(
        rule("RSCALE=gregorian;FREQ=YEARLY;SKIP=BACKWARD").skip(),
        Skip::Backward
    );
    assert_eq!(rule("FREQ=WEEKLY;WKST=SU").wkst(), Weekday::Sunday);
    assert_eq!(rule("FREQ=YEARLY;BYMONTH=3,1,3").by_month(), [1, 3]);
    assert_eq!(
        rule("FREQ=MONTHLY;BYMONTHDAY=-1,15").by_month_day(),
        [-1, 15]
    );
    assert_eq!(
        rule("FREQ=MONTHLY;BYDAY=MO;BYSETPOS=-1,1").by_set_pos(),
        [-1, 1]
    );
}

#[test]
fn canonical_display() {
    let cases = [
        (
            "FREQ=MONTHLY;BYDAY=FR,MO;INTERVAL=1;WKST=MO",
            "FREQ=MONTHLY;BYDAY=MO,FR",
        ),
        (
            "RRULE:BYSETPOS=-1;BYDAY=FR,TH,WE,TU,MO;FREQ=MONTHLY",
            "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1",
        ),
        (
            "FREQ=DAILY;UNTIL=20261231T235959Z",
            "FREQ=DAILY;UNTIL=20261231",
        ),
        (
            "FREQ=MONTHLY;SKIP=BACKWARD",
            "RSCALE=GREGORIAN;FREQ=MONTHLY;SKIP=BACKWARD",
        ),
        ("RSCALE=GREGORIAN;FREQ=MONTHLY;SKIP=OMIT", "FREQ=MONTHLY"),
        (
            "FREQ=YEARLY;INTERVAL=2;COUNT=10;BYMONTH=3,1,2;WKST=SU",
            "FREQ=YEARLY;INTERVAL=2;COUNT=10;BYMONTH=1,2,3;WKST=SU",
        ),
        (
            "FREQ=MONTHLY;BYDAY=-1FR,2MO,MO",
            "FREQ=MONTHLY;BYDAY=MO,2MO,-1FR",
        ),
    ];
    for (input, canonical) in cases {
        let r = rule(input);
        assert_eq!(r.to_string(), canonical, "{input}");
        assert_eq!(rule(canonical), r, "{canonical} round trip");
    }
}

#[test]
fn weekend_parses() {
    assert_eq!("keep".parse::<Weekend>(), Ok(Weekend::Keep));
    assert_eq!("Before".parse::<Weekend>(), Ok(Weekend::Before));
    assert_eq!("after".parse::<Weekend>(), Ok(Weekend::After));
    assert_eq!(Weekend::default(), Weekend::Keep);
    assert_eq!(Weekend::After.to_string(), "after");
    assert_eq!(
        "friday".parse::<Weekend>().map_err(|e| e.part),
        Err("weekend".to_string())
    );
}

#[test]
fn long_input_is_rejected() {
    let long = format!("FREQ=DAILY;BYMONTH={}", vec!["1"; 2000].join(","));
    assert_eq!(err(&long).part, "RRULE");
}
