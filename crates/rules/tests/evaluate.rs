//! Evaluation order and precedence: any/all, stop, category kinds, provider, tags, note.

mod common;

use common::rule;
use rules::{evaluate, CompiledRule, Kind, Subject};
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

fn coffee() -> Value {
    json!({"name": "Coffee", "match": "all",
        "conditions": [{"field": "payee", "op": "contains", "value": "starbucks"},
                       {"field": "amount", "op": "lt", "value": "20"}],
        "actions": {"categoryId": 10, "providerId": 4, "tagIds": [3], "note": "coffee"}})
}

#[test]
fn all_and_any() {
    let all = rule(coffee());
    assert!(all.matches(&on("STARBUCKS STORE 12345 SEATTLE WA", "-4.75", None)));
    assert!(!all.matches(&on("STARBUCKS STORE 12345 SEATTLE WA", "-45.00", None)));
    let mut any = coffee();
    any["match"] = json!("any");
    let any = rule(any);
    assert!(any.matches(&on("STARBUCKS STORE 12345 SEATTLE WA", "-45.00", None)));
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
    let out = evaluate(
        &rs,
        &on(
            "STARBUCKS STORE 12345 SEATTLE WA",
            "-4.75",
            Some(Kind::Debit),
        ),
        kinds,
    );
    assert_eq!(out.matched, vec![1, 2]);
    assert_eq!(out.category_id, Some(10));
    assert_eq!(out.provider_id, Some(4));
    assert_eq!(out.tag_ids, vec![3, 4]);
    assert_eq!(out.note.as_deref(), Some("coffee"));
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
    let out = evaluate(
        &rs,
        &on(
            "STARBUCKS STORE 12345 SEATTLE WA",
            "-4.75",
            Some(Kind::Debit),
        ),
        kinds,
    );
    assert_eq!(out.matched, vec![1]);
    assert_eq!(out.tag_ids, vec![3]);
    // The stopping rule does not match: the next one runs.
    let out = evaluate(
        &rs,
        &on("PAYPAL *NETFLIX.COM", "-15.99", Some(Kind::Debit)),
        kinds,
    );
    assert_eq!(out.matched, vec![2]);
    assert_eq!(out.category_id, None);
    assert_eq!(out.tag_ids, vec![9]);
}

#[test]
fn category_of_other_kind_or_invisible_is_skipped() {
    let rs = rules(vec![
        json!({"name": "Hidden", "conditions": [{"field": "payee", "op": "contains", "value": "stadtwerke"}],
               "actions": {"categoryId": 99}}),
        json!({"name": "Refund", "conditions": [{"field": "payee", "op": "contains", "value": "stadtwerke"}],
               "actions": {"categoryId": 20, "tagIds": [1]}}),
        json!({"name": "Utilities", "conditions": [{"field": "payee", "op": "contains", "value": "stadtwerke"}],
               "actions": {"categoryId": 10}}),
    ]);
    let debit = on(
        "SEPA-LASTSCHRIFT Stadtwerke München",
        "-80",
        Some(Kind::Debit),
    );
    let out = evaluate(&rs, &debit, kinds);
    assert_eq!(out.matched, vec![1, 2, 3]);
    assert_eq!(out.category_id, Some(10));
    assert_eq!(
        out.tag_ids,
        vec![1],
        "other actions of a skipped rule apply"
    );
    let credit = on(
        "SEPA-LASTSCHRIFT Stadtwerke München",
        "80",
        Some(Kind::Credit),
    );
    assert_eq!(evaluate(&rs, &credit, kinds).category_id, Some(20));
}

#[test]
fn no_kind_accepts_first_category_and_takes_its_kind() {
    let rs = rules(vec![
        json!({"name": "Is debit", "conditions": [{"field": "type", "op": "equals", "value": "DEBIT"}],
               "actions": {"tagIds": [1]}}),
        json!({"name": "Groceries", "conditions": [{"field": "payee", "op": "contains", "value": "rewe"}],
               "actions": {"categoryId": 20}}),
        json!({"name": "Is credit", "conditions": [{"field": "type", "op": "equals", "value": "CREDIT"}],
               "actions": {"tagIds": [2]}}),
        json!({"name": "Debit cat", "conditions": [{"field": "payee", "op": "contains", "value": "rewe"}],
               "actions": {"categoryId": 10}}),
    ]);
    let s = on("REWE Markt GmbH//München/DE", "23.10", None);
    let out = evaluate(&rs, &s, kinds);
    assert_eq!(out.matched, vec![2, 3, 4]);
    assert_eq!(out.category_id, Some(20));
    assert_eq!(out.tag_ids, vec![2]);
    assert_eq!(out.kind(&s, kinds), Some(Kind::Credit));
}

#[test]
fn no_kind_and_no_category_matches_no_type_condition() {
    let rs = rules(vec![
        json!({"name": "Debit", "conditions": [{"field": "type", "op": "equals", "value": "DEBIT"}],
               "actions": {"categoryId": 10}}),
        json!({"name": "Credit", "conditions": [{"field": "type", "op": "equals", "value": "CREDIT"}],
               "actions": {"categoryId": 20}}),
    ]);
    let out = evaluate(&rs, &on("AMZN Mktp US*2K4L29", "30", None), kinds);
    assert!(out.matched.is_empty());
    assert_eq!(out, rules::Outcome::default());
}

#[test]
fn no_rules_no_outcome() {
    let out = evaluate(&[], &on("Café de Flore", "9", Some(Kind::Debit)), kinds);
    assert_eq!(out, rules::Outcome::default());
    let json = serde_json::to_value(&out).expect("serialize");
    assert_eq!(
        json,
        json!({"matched": [], "categoryId": null, "providerId": null, "tagIds": [], "note": null})
    );
}
