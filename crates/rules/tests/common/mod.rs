//! Helpers shared by the integration tests.
#![allow(dead_code)]

use rules::{CompiledRule, Kind, RuleBody, Subject};
use rust_decimal::Decimal;
use serde_json::Value;

/// Compiles a rule from JSON, panicking on a test's own mistakes.
pub fn rule(v: Value) -> CompiledRule {
    let body: RuleBody = serde_json::from_value(v).expect("rule body");
    body.compile().expect("valid rule")
}

/// A one-condition rule on `field` with `op` and `value`, tagging 1.
pub fn cond(field: &str, op: &str, value: Value) -> CompiledRule {
    rule(serde_json::json!({
        "name": "t",
        "conditions": [{"field": field, "op": op, "value": value}],
        "actions": {"tagIds": [1]}
    }))
}

pub fn payee(p: &str) -> Subject<'_> {
    Subject {
        payee: Some(p),
        ..Subject::default()
    }
}

pub fn note(n: &str) -> Subject<'_> {
    Subject {
        note: Some(n),
        ..Subject::default()
    }
}

pub fn amount(a: &str) -> Subject<'static> {
    Subject {
        amount: Some(a.parse::<Decimal>().expect("decimal")),
        ..Subject::default()
    }
}

pub fn kind(k: Option<Kind>) -> Subject<'static> {
    Subject {
        kind: k,
        ..Subject::default()
    }
}
