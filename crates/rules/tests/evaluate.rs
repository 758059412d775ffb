//! Evaluation order and precedence: any/all, stop, category kinds, provider, tags, note.

mod common;

use common::rule;
use rules::{evaluate, CompiledRule, Kind, Outcome, Subject};
use serde_json::{json, Value};

/// Category 10 and 11 are DEBIT, 20 is CREDIT, 99 is not visible.
fn kinds(id: u64) -> Option<Kind> {
    match id {
        10 | 11 => Some(Kind::Debit),
        20 => Some(Kind::Credit),
        _ => None,
    }
}

fn rules(list: Vec<Value>) -> Vec<CompiledRule> {
    let ids = 1u64..;
    list.into_iter()
        .zip(ids)
        .map(|(v, id)| rule(v).with_id(id))
        .collect()
}

fn on(payee: &'static str, amount: &str, kind: Option<Kind>) -> Subject<'static> {
    Subject {
        payee: Some(payee),
        note: None,
        amount: Some(amount.parse().expect("amount")),
        kind,
    }
}

/// Evaluates `rs` on a payee, amount and kind, with [`kinds`] for categories.
fn run(rs: &[CompiledRule], payee: &'static str, amount: &str, kind: Option<Kind>) -> Outcome {
    evaluate(rs, &on(payee, amount, kind), kinds)
}

const STARBUCKS: &str = "STARBUCKS STORE 12345 SEATTLE WA";

/// A rule named `name` with the one `condition` and `actions`.
fn when(name: &str, condition: Value, actions: Value) -> Value {
    json!({"name": name, "conditions": [condition], "actions": actions})
}

fn type_is(kind: &str) -> Value {
    json!({"field": "type", "op": "equals", "value": kind})
}

fn payee_contains(text: &str) -> Value {
    json!({"field": "payee", "op": "contains", "value": text})
}

fn coffee() -> Value {
    json!({"name": "Coffee", "match": "all",
        "conditions": [{"field": "payee", "op": "contains", "value": "starbucks"},
                       {"field": "amount", "op": "lt", "value": "20"}],
        "actions": {"categoryId": 10, "providerId": 4, "tagIds": [3], "note": "coffee"}})
}

#[test]
fn all_and_any() {
    let all = rule(coffee());
    assert!(all.matches(&on(STARBUCKS, "-4.75", None)));
    assert!(!all.matches(&on(STARBUCKS, "-45.00", None)));
    let mut any = coffee();
    any["match"] = json!("any");
    let any = rule(any);
    assert!(any.matches(&on(STARBUCKS, "-45.00", None)));
    assert!(any.matches(&on("REWE Markt GmbH//München/DE", "-4.75", None)));
    assert!(!any.matches(&on("REWE Markt GmbH//München/DE", "-45.00", None)));
}

#[test]
fn first_category_and_provider_win_tags_union_note_first() {
    let rs = rules(vec![
        coffee(),
        json!({"name": "Seattle", "conditions": [{"field": "payee", "op": "endsWith", "value": "wa"}],
               "actions": {"categoryId": 11, "providerId": 5, "tagIds": [4, 3], "note": "usa"}}),
    ]);
    let out = run(&rs, STARBUCKS, "-4.75", Some(Kind::Debit));
    assert_eq!(out.matched, vec![1, 2]);
    assert_eq!(out.actions.category_id, Some(10));
    assert_eq!(out.actions.provider_id, Some(4));
    assert_eq!(out.actions.tag_ids, vec![3, 4]);
    assert_eq!(out.actions.note.as_deref(), Some("coffee"));
}

#[test]
fn stop_ends_the_run() {
    let mut first = coffee();
    first["stop"] = json!(true);
    let rs = rules(vec![
        first,
        json!({"name": "Tag all", "conditions": [{"field": "amount", "op": "gte", "value": 0}],
               "actions": {"tagIds": [9]}}),
    ]);
    let out = run(&rs, STARBUCKS, "-4.75", Some(Kind::Debit));
    assert_eq!(out.matched, vec![1]);
    assert_eq!(out.actions.tag_ids, vec![3]);
    // The stopping rule does not match: the next one runs.
    let out = run(&rs, "PAYPAL *NETFLIX.COM", "-15.99", Some(Kind::Debit));
    assert_eq!(out.matched, vec![2]);
    assert_eq!(out.actions.category_id, None);
    assert_eq!(out.actions.tag_ids, vec![9]);
}

#[test]
fn category_of_other_kind_or_invisible_is_skipped() {
    let stadtwerke = |name, actions| when(name, payee_contains("stadtwerke"), actions);
    let rs = rules(vec![
        stadtwerke("Hidden", json!({"categoryId": 99})),
        stadtwerke("Refund", json!({"categoryId": 20, "tagIds": [1]})),
        stadtwerke("Utilities", json!({"categoryId": 10})),
    ]);
    let payee = "SEPA-LASTSCHRIFT Stadtwerke München";
    let out = run(&rs, payee, "-80", Some(Kind::Debit));
    assert_eq!(out.matched, vec![1, 2, 3]);
    assert_eq!(out.actions.category_id, Some(10));
    assert_eq!(
        out.actions.tag_ids,
        vec![1],
        "other actions of a skipped rule apply"
    );
    let credit = run(&rs, payee, "80", Some(Kind::Credit));
    assert_eq!(credit.actions.category_id, Some(20));
}

#[test]
fn no_kind_accepts_first_category_and_takes_its_kind() {
    let rewe = |name, actions| when(name, payee_contains("rewe"), actions);
    let rs = rules(vec![
        when("Is debit", type_is("DEBIT"), json!({"tagIds": [1]})),
        rewe("Groceries", json!({"categoryId": 20})),
        when("Is credit", type_is("CREDIT"), json!({"tagIds": [2]})),
        rewe("Debit cat", json!({"categoryId": 10})),
    ]);
    let s = on("REWE Markt GmbH//München/DE", "23.10", None);
    let out = evaluate(&rs, &s, kinds);
    assert_eq!(out.matched, vec![2, 3, 4]);
    assert_eq!(out.actions.category_id, Some(20));
    assert_eq!(out.actions.tag_ids, vec![2]);
    assert_eq!(out.kind(&s, kinds), Some(Kind::Credit));
}

#[test]
fn no_kind_and_no_category_matches_no_type_condition() {
    let rs = rules(vec![
        when("Debit", type_is("DEBIT"), json!({"categoryId": 10})),
        when("Credit", type_is("CREDIT"), json!({"categoryId": 20})),
    ]);
    let out = run(&rs, "AMZN Mktp US*2K4L29", "30", None);
    assert!(out.matched.is_empty());
    assert_eq!(out, Outcome::default());
}

#[test]
fn no_rules_no_outcome() {
    let out = run(&[], "Café de Flore", "9", Some(Kind::Debit));
    assert_eq!(out, Outcome::default());
    let json = serde_json::to_value(&out).expect("serialize");
    // The combined actions serialize as a rule's `actions` do: unset ones are absent.
    assert_eq!(json, json!({"matched": [], "tagIds": []}));
}
