//! Property tests: random rules and windows never panic, and the views agree.

use proptest::prelude::*;
use recurrence::{RRule, Schedule, Weekend};
use time::Date;

const DAYS: [&str; 7] = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"];

fn list<T: std::fmt::Display>(items: Vec<T>) -> String {
    items.iter().map(T::to_string).collect::<Vec<_>>().join(",")
}

/// Mostly valid rules, with out-of-range and unsupported values mixed in.
fn rule_text() -> impl Strategy<Value = String> {
    let freq = prop_oneof![
        Just("DAILY"),
        Just("WEEKLY"),
        Just("MONTHLY"),
        Just("YEARLY"),
        Just("HOURLY")
    ];
    let by_day =
        prop::collection::vec((prop::option::of(-6i32..=6), 0usize..7), 1..4).prop_map(|v| {
            let items: Vec<String> = v
                .into_iter()
                .map(|(n, w)| {
                    format!(
                        "{}{}",
                        n.map(|n| n.to_string()).unwrap_or_default(),
                        DAYS[w]
                    )
                })
                .collect();
            format!("BYDAY={}", items.join(","))
        });
    let parts = (
        freq,
        prop::option::of(1u32..6),
        prop::option::of(prop_oneof![
            (0u32..60).prop_map(|c| format!("COUNT={c}")),
            (1900i32..2210, 1u32..13, 1u32..29)
                .prop_map(|(y, m, d)| format!("UNTIL={y:04}{m:02}{d:02}")),
        ]),
        prop::option::of(
            prop::collection::vec(0i32..14, 1..4).prop_map(|v| format!("BYMONTH={}", list(v))),
        ),
        prop::option::of(
            prop::collection::vec(-32i32..33, 1..4).prop_map(|v| format!("BYMONTHDAY={}", list(v))),
        ),
        prop::option::of(by_day),
        prop::option::of(
            prop::collection::vec(-8i32..8, 1..3).prop_map(|v| format!("BYSETPOS={}", list(v))),
        ),
        prop::option::of(prop_oneof![
            Just("SKIP=OMIT"),
            Just("SKIP=BACKWARD"),
            Just("SKIP=FORWARD")
        ]),
        prop::option::of((0usize..7).prop_map(|w| format!("WKST={}", DAYS[w]))),
    );
    parts.prop_map(|(f, i, end, bm, bmd, bd, sp, skip, wkst)| {
        let mut out = vec![format!("FREQ={f}")];
        out.extend(i.map(|i| format!("INTERVAL={i}")));
        out.extend(end);
        out.extend(bm);
        out.extend(bmd);
        out.extend(bd);
        out.extend(sp);
        out.extend(skip.map(str::to_string));
        out.extend(wkst);
        out.join(";")
    })
}

fn day() -> impl Strategy<Value = Date> {
    // 1880..2230: a little outside the engine's bounds on both sides.
    (2_407_715i32..2_535_540).prop_map(|j| Date::from_julian_day(j).expect("in range"))
}

fn weekend() -> impl Strategy<Value = Weekend> {
    prop_oneof![
        Just(Weekend::Keep),
        Just(Weekend::Before),
        Just(Weekend::After)
    ]
}

fn shift(day: Date, n: i64) -> Date {
    day.checked_add(time::Duration::days(n)).unwrap_or(day)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn arbitrary_strings_never_panic(text in ".{0,80}") {
        let _ = text.parse::<RRule>();
    }

    #[test]
    fn rule_like_strings_never_panic(text in "(FREQ|COUNT|UNTIL|BYDAY|SKIP|[A-Z]{1,6})=[-+0-9A-Z,]{0,12}(;[A-Z]{2,10}=[-+0-9A-Z,]{0,10}){0,4}") {
        let _ = text.parse::<RRule>();
    }

    #[test]
    fn display_round_trips(text in rule_text()) {
        if let Ok(rule) = text.parse::<RRule>() {
            let again: RRule = rule.to_string().parse().expect("canonical form parses");
            prop_assert_eq!(again, rule);
        }
    }

    #[test]
    fn windows_are_sorted_bounded_and_consistent(
        text in rule_text(),
        start in day(),
        from in day(),
        len in 0i64..800,
        weekend in weekend(),
    ) {
        let Ok(rule) = text.parse::<RRule>() else { return Ok(()) };
        let schedule = Schedule::new(start, rule, weekend);
        let to = shift(from, len);
        let got = schedule.between(from, to);
        for pair in got.windows(2) {
            prop_assert!(pair[0].date < pair[1].date, "{:?}", pair);
            prop_assert!(pair[0].nominal < pair[1].nominal, "{:?}", pair);
        }
        for o in &got {
            prop_assert!(from <= o.date && o.date <= to);
            prop_assert!(o.nominal >= start);
            prop_assert!((o.date - o.nominal).whole_days().abs() <= 2);
            if weekend != Weekend::Keep {
                prop_assert!(o.date.weekday().number_days_from_monday() < 5);
            }
        }
        // Every occurrence's nominal date is a nominal occurrence, and back.
        let nominal = schedule.nominal_between(shift(from, -2), shift(to, 2));
        for o in &got {
            prop_assert!(nominal.binary_search(&o.nominal).is_ok(), "{:?} not in {:?}", o, nominal);
        }
        let by_nominal = schedule.by_nominal(shift(from, -2), shift(to, 2));
        let expected: Vec<_> = by_nominal.into_iter().filter(|o| from <= o.date && o.date <= to).collect();
        prop_assert_eq!(&expected, &got);
        // The first occurrence on or after `from` agrees with the window.
        if let Some(first) = got.first() {
            prop_assert_eq!(schedule.next_on_or_after(from), Some(*first));
        } else if let Some(next) = schedule.next_on_or_after(from) {
            prop_assert!(next.date > to);
        }
        // A sub-window sees exactly its part.
        let mid = shift(from, len / 2);
        let left = schedule.between(from, mid);
        prop_assert_eq!(&left[..], &got[..left.len()]);
    }
}
