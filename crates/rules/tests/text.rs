//! Text ops on realistic bank payees: folding, each op, regex, missing fields.

mod common;

use std::time::{Duration, Instant};

use common::{cond, note, payee};
use rules::Subject;
use serde_json::json;

#[test]
fn contains_ignores_case_and_accents() {
    let r = cond("payee", "contains", json!("starbucks"));
    assert!(r.matches(&payee("STARBUCKS STORE 12345 SEATTLE WA")));
    assert!(!r.matches(&payee("PAYPAL *NETFLIX.COM")));
    let r = cond("payee", "contains", json!("cafe"));
    assert!(r.matches(&payee("Café de Flore")));
    let r = cond("payee", "contains", json!("CAFÉ DE"));
    assert!(r.matches(&payee("cafe de flore")));
    let r = cond("payee", "contains", json!("munchen"));
    assert!(r.matches(&payee("REWE Markt GmbH//München/DE")));
    assert!(r.matches(&payee("SEPA-LASTSCHRIFT Stadtwerke München")));
}

#[test]
fn equals_is_whole_text() {
    let r = cond("payee", "equals", json!("munchen"));
    assert!(r.matches(&payee("MÜNCHEN")));
    assert!(!r.matches(&payee("München Hbf")));
    let r = cond("payee", "equals", json!("strasse"));
    assert!(r.matches(&payee("Straße")));
}

#[test]
fn starts_and_ends_with() {
    let s = cond("payee", "startsWith", json!("sepa-lastschrift"));
    let e = cond("payee", "endsWith", json!("MUNCHEN"));
    let p = payee("SEPA-LASTSCHRIFT Stadtwerke München");
    assert!(s.matches(&p) && e.matches(&p));
    assert!(!s.matches(&payee("Stadtwerke SEPA-LASTSCHRIFT")));
    assert!(!e.matches(&payee("München Stadtwerke")));
    let r = cond("payee", "startsWith", json!("amzn mktp"));
    assert!(r.matches(&payee("AMZN Mktp US*2K4L29")));
}

#[test]
fn note_field_and_missing_text() {
    let r = cond("note", "contains", json!("flat white"));
    assert!(r.matches(&note("Flat White + croissant")));
    assert!(!r.matches(&payee("Flat White")), "payee is not the note");
    for op in ["contains", "equals", "startsWith", "endsWith", "matches"] {
        let r = cond("payee", op, json!("x"));
        assert!(!r.matches(&Subject::default()), "{op} on a missing payee");
    }
}

#[test]
fn matches_is_unanchored_case_insensitive_regex() {
    let r = cond("payee", "matches", json!(r"netflix\.com"));
    assert!(r.matches(&payee("PAYPAL *NETFLIX.COM")));
    let r = cond("payee", "matches", json!(r"^amzn mktp [a-z]{2}\*\w+$"));
    assert!(r.matches(&payee("AMZN Mktp US*2K4L29")));
    assert!(!r.matches(&payee("X AMZN Mktp US*2K4L29")));
    let r = cond("payee", "matches", json!(r"store \d{5}"));
    assert!(r.matches(&payee("STARBUCKS STORE 12345 SEATTLE WA")));
    assert!(!r.matches(&payee("STARBUCKS STORE 123 SEATTLE WA")));
}

#[test]
fn matches_folds_pattern_literals_and_text() {
    let r = cond("payee", "matches", json!("CAFÉ\\s+de"));
    assert!(r.matches(&payee("Cafe de Flore")));
    assert!(r.matches(&payee("café DE flore")));
    let r = cond("payee", "matches", json!(r"m[uü]nchen$"));
    assert!(r.matches(&payee("SEPA-LASTSCHRIFT Stadtwerke MÜNCHEN")));
    // Escapes keep their meaning: \D is "not a digit", not \d.
    let r = cond("payee", "matches", json!(r"^\D+$"));
    assert!(r.matches(&payee("REWE Markt GmbH")));
    assert!(!r.matches(&payee("STORE 12345")));
    // A fullwidth asterisk folds to a literal `*`, not a quantifier.
    let r = cond("payee", "matches", json!("paypal ＊netflix"));
    assert!(r.matches(&payee("PAYPAL *NETFLIX.COM")));
}

#[test]
fn pathological_pattern_returns_at_once() {
    let r = cond("payee", "matches", json!("(a+)+$"));
    let long = format!("{}!", "a".repeat(100_000));
    let start = Instant::now();
    assert!(!r.matches(&payee(&long)));
    assert!(r.matches(&payee(&"a".repeat(100_000))));
    let r = cond("payee", "matches", json!("(x+x+)+y"));
    assert!(!r.matches(&payee(&"x".repeat(100_000))));
    let spent = start.elapsed();
    assert!(spent < Duration::from_secs(2), "took {spent:?}");
}
