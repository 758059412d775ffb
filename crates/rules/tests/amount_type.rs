//! Amount ops (exact decimal, absolute) and the `type` field.

mod common;

use common::{amount, cond, kind};
use rules::{Kind, Subject};
use serde_json::json;

#[test]
fn each_amount_op() {
    let cases = [
        ("equals", json!("12.50"), "12.5", true),
        ("equals", json!(12.5), "12.50", true),
        ("equals", json!("12.50"), "12.51", false),
        ("gt", json!("20"), "20.01", true),
        ("gt", json!("20"), "20", false),
        ("gte", json!(20), "20.00", true),
        ("gte", json!(20), "19.99", false),
        ("lt", json!("20"), "19.99", true),
        ("lt", json!("20"), "20", false),
        ("lte", json!("20"), "20", true),
        ("lte", json!("20"), "20.000001", false),
        ("between", json!(["10", 20]), "10", true),
        ("between", json!(["10", 20]), "20.00", true),
        ("between", json!(["10", 20]), "20.01", false),
        ("between", json!(["10", 20]), "9.99", false),
        ("equals", json!(1e2), "100", true),
    ];
    for (op, value, subject, want) in cases {
        let r = cond("amount", op, value.clone());
        assert_eq!(r.matches(&amount(subject)), want, "{subject} {op} {value}");
    }
}

#[test]
fn amounts_are_absolute_and_exact() {
    let r = cond("amount", "lt", json!("20"));
    assert!(r.matches(&amount("-4.75")), "a debit of 4.75 is under 20");
    assert!(!r.matches(&amount("-20.00")));
    // Exact: 0.1 + 0.2 style values keep every digit.
    let r = cond("amount", "equals", json!(0.3));
    assert!(r.matches(&amount("0.30")));
    let r = cond("amount", "gt", json!("0.1000000000000000000000000001"));
    assert!(!r.matches(&amount("0.1")));
    assert!(r.matches(&amount("0.1000000000000000000000000002")));
}

#[test]
fn missing_amount_matches_nothing() {
    for op in ["equals", "gt", "gte", "lt", "lte"] {
        assert!(!cond("amount", op, json!("0")).matches(&Subject::default()));
    }
    assert!(!cond("amount", "between", json!([0, 1])).matches(&Subject::default()));
}

#[test]
fn type_equals_and_unknown_kind() {
    let debit = cond("type", "equals", json!("DEBIT"));
    let credit = cond("type", "equals", json!("CREDIT"));
    assert!(debit.matches(&kind(Some(Kind::Debit))));
    assert!(!debit.matches(&kind(Some(Kind::Credit))));
    assert!(credit.matches(&kind(Some(Kind::Credit))));
    assert!(!debit.matches(&kind(None)));
    assert!(!credit.matches(&kind(None)));
}
