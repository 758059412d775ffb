//! The wire shape: round-trips, defaults, unknown fields, and errors naming the field.

use rules::{Match, RuleBody};
use serde_json::{json, Value};

fn example() -> Value {
    json!({"name": "Coffee", "match": "all",
        "conditions": [{"field": "payee", "op": "contains", "value": "starbucks"},
                       {"field": "amount", "op": "lt", "value": "20"}],
        "actions": {"categoryId": 12, "providerId": 4, "tagIds": [3], "note": "coffee"},
        "stop": false, "position": 0})
}

fn fields(v: Value) -> Vec<String> {
    let bytes = serde_json::to_vec(&v).expect("bytes");
    match RuleBody::from_json(&bytes) {
        Ok(_) => Vec::new(),
        Err(e) => e.into_iter().map(|e| e.field).collect(),
    }
}

#[test]
fn issue_example_round_trips() {
    let b: RuleBody = serde_json::from_value(example()).expect("parse");
    assert!(b.compile().is_ok());
    assert_eq!(serde_json::to_value(&b).expect("ser"), example());
    let text = serde_json::to_string(&b).expect("ser");
    let again: RuleBody = serde_json::from_str(&text).expect("reparse");
    assert_eq!(again, b);
}

#[test]
fn exact_amounts_survive_round_trip() {
    let mut v = example();
    let exact: Value =
        serde_json::from_str("[\"0.1000000000000000000000000001\", 12.50]").expect("json");
    v["conditions"][1] = json!({"field": "amount", "op": "between", "value": exact});
    let b: RuleBody = serde_json::from_value(v).expect("parse");
    assert!(b.compile().is_ok());
    let text = serde_json::to_string(&b).expect("ser");
    assert!(
        text.contains("[\"0.1000000000000000000000000001\",12.50]"),
        "{text}"
    );
}

#[test]
fn defaults() {
    let b: RuleBody = serde_json::from_value(json!({"name": "n",
        "conditions": [{"field": "type", "op": "equals", "value": "CREDIT"}],
        "actions": {"tagIds": [1]}}))
    .expect("parse");
    assert_eq!(b.r#match, Match::All);
    assert!(!b.stop);
    assert_eq!(b.position, None);
    assert_eq!(b.actions.category_id, None);
    let v = serde_json::to_value(&b).expect("ser");
    assert_eq!(v["match"], "all");
    assert!(v.get("position").is_none());
    assert!(v["actions"].get("categoryId").is_none());
    // `null`, as the OpenAPI document allows and form-built clients send, is the default.
    let b: RuleBody = serde_json::from_value(json!({"name": "n", "match": null,
        "stop": null, "position": null,
        "conditions": [{"field": "type", "op": "equals", "value": "CREDIT"}],
        "actions": {"tagIds": [1]}}))
    .expect("parse nulls");
    assert_eq!((b.r#match, b.stop, b.position), (Match::All, false, None));
}

#[test]
fn unknown_fields_are_refused() {
    let mut v = example();
    v["priority"] = json!(1);
    assert!(serde_json::from_value::<RuleBody>(v.clone()).is_err());
    assert_eq!(fields(v), ["priority"]);
    let mut v = example();
    v["conditions"][0]["negate"] = json!(true);
    assert!(serde_json::from_value::<RuleBody>(v.clone()).is_err());
    assert_eq!(fields(v), ["conditions[0].negate"]);
    let mut v = example();
    v["actions"]["payee"] = json!("x");
    assert!(serde_json::from_value::<RuleBody>(v.clone()).is_err());
    assert_eq!(fields(v), ["actions.payee"]);
}

#[test]
fn shape_errors_name_the_field() {
    let mut v = example();
    v["conditions"][1]["op"] = json!("greaterThan");
    assert_eq!(fields(v), ["conditions[1].op"]);
    let mut v = example();
    v["conditions"][0]["field"] = json!("payer");
    assert_eq!(fields(v), ["conditions[0].field"]);
    let mut v = example();
    v["match"] = json!("some");
    assert_eq!(fields(v), ["match"]);
    let mut v = example();
    v["actions"]["tagIds"] = json!(["3"]);
    assert_eq!(fields(v), ["actions.tagIds"]);
    let mut v = example();
    v["position"] = json!(-1);
    assert_eq!(fields(v), ["position"]);
    let mut v = example();
    v.as_object_mut().expect("object").remove("conditions");
    assert_eq!(fields(v), ["conditions"]);
    let mut v = example();
    v["conditions"][0]
        .as_object_mut()
        .expect("object")
        .remove("value");
    assert_eq!(fields(v), ["conditions[0].value"]);
    assert_eq!(fields(json!([1])), ["body"]);
    assert_eq!(RuleBody::from_json(b"{").expect_err("bad").len(), 1);
    assert!(fields(example()).is_empty());
}
