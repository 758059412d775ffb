//! Validation: limits and semantic errors, each naming its JSON path.

use rules::{FieldError, RuleBody};
use serde_json::{json, Value};

fn body() -> Value {
    json!({"name": "Coffee",
        "conditions": [{"field": "payee", "op": "contains", "value": "starbucks"}],
        "actions": {"categoryId": 12}})
}

/// Fields named by the errors of `v`, or an empty list if it compiles.
fn errors(v: Value) -> Vec<String> {
    let b: RuleBody = serde_json::from_value(v).expect("shape");
    match b.compile() {
        Ok(_) => Vec::new(),
        Err(e) => e
            .into_iter()
            .map(|FieldError { field, .. }| field)
            .collect(),
    }
}

fn with(path: &[&str], value: Value) -> Value {
    let mut v = body();
    let mut at = &mut v;
    for p in path {
        at = match p.parse::<usize>() {
            Ok(i) => &mut at[i],
            Err(_) => &mut at[*p],
        };
    }
    *at = value;
    v
}

#[test]
fn valid_body_compiles() {
    assert!(errors(body()).is_empty());
}

#[test]
fn name_limits() {
    assert_eq!(errors(with(&["name"], json!(""))), ["name"]);
    assert_eq!(errors(with(&["name"], json!("   "))), ["name"]);
    assert_eq!(
        errors(with(&["name"], json!("é".repeat(100)))),
        Vec::<String>::new()
    );
    assert_eq!(errors(with(&["name"], json!("x".repeat(101)))), ["name"]);
    // Control characters, C1 included (a CSI, U+009B), as the OpenAPI pattern says.
    for name in ["a\u{9b}b", "tab\tname", "×ø\u{7f}"] {
        assert_eq!(errors(with(&["name"], json!(name))), ["name"], "{name:?}");
    }
}

#[test]
fn condition_count() {
    assert_eq!(errors(with(&["conditions"], json!([]))), ["conditions"]);
    let c = json!({"field": "payee", "op": "contains", "value": "x"});
    assert!(errors(with(&["conditions"], json!(vec![c.clone(); 10]))).is_empty());
    assert_eq!(
        errors(with(&["conditions"], json!(vec![c; 11]))),
        ["conditions"]
    );
}

#[test]
fn op_must_suit_field() {
    let bad = [
        ("payee", "gt", json!("1")),
        ("note", "between", json!([1, 2])),
        ("amount", "contains", json!("1")),
        ("amount", "matches", json!("1")),
        ("type", "contains", json!("DEBIT")),
        ("type", "gt", json!(1)),
    ];
    for (field, op, value) in bad {
        let v = with(
            &["conditions", "0"],
            json!({"field": field, "op": op, "value": value}),
        );
        assert_eq!(errors(v), ["conditions[0].op"], "{field} {op}");
    }
}

#[test]
fn values_are_checked() {
    let bad = [
        ("payee", "contains", json!(5)),
        ("payee", "contains", json!("")),
        ("payee", "equals", json!("\u{301}")),
        ("note", "startsWith", json!("x".repeat(501))),
        ("payee", "matches", json!("(unclosed")),
        ("payee", "matches", json!("a".repeat(501))),
        ("payee", "matches", json!(r"\w{1000}\w{1000}\w{1000}")),
        // `ß` folds to two letters, which a class cannot hold.
        ("payee", "matches", json!("^stra[ß]e$")),
        // An accent with no letter would fold to an alternative that matches any text.
        ("payee", "matches", json!("netflix|\u{301}")),
        ("payee", "matches", json!("\u{301}")),
        ("amount", "gt", json!("-1")),
        ("amount", "gt", json!(-0.01)),
        ("amount", "lt", json!("12,50")),
        ("amount", "lt", json!("1e3")),
        ("amount", "lt", json!(" 12")),
        ("amount", "lt", json!(true)),
        ("amount", "equals", json!("123456789012345678901234567890")),
        ("amount", "between", json!(["20", "10"])),
        ("amount", "between", json!(["10"])),
        ("amount", "between", json!("10")),
        ("amount", "between", json!([1, 2, 3])),
        ("amount", "between", json!([1, "x"])),
        ("type", "equals", json!("debit")),
        ("type", "equals", json!("TRANSFER")),
    ];
    for (field, op, value) in bad {
        let c = json!({"field": field, "op": op, "value": value});
        let v = with(
            &["conditions"],
            json!([{"field": "payee", "op": "contains", "value": "x"}, c]),
        );
        assert_eq!(errors(v), ["conditions[1].value"], "{field} {op} {value}");
    }
    let long_ok = with(&["conditions", "0", "value"], json!("é".repeat(500)));
    assert!(errors(long_ok).is_empty());
    let between_equal = json!({"field": "amount", "op": "between", "value": ["10.0", 10]});
    assert!(errors(with(&["conditions", "0"], between_equal)).is_empty());
}

#[test]
fn actions_are_checked() {
    assert_eq!(errors(with(&["actions"], json!({}))), ["actions"]);
    assert_eq!(
        errors(with(&["actions"], json!({"tagIds": []}))),
        ["actions"]
    );
    assert!(errors(with(&["actions"], json!({"tagIds": [1]}))).is_empty());
    assert!(errors(with(&["actions"], json!({"providerId": 4}))).is_empty());
    assert!(errors(with(&["actions"], json!({"note": "coffee"}))).is_empty());
    assert_eq!(
        errors(with(&["actions"], json!({"note": " "}))),
        ["actions.note"]
    );
    let long = json!({"note": "n".repeat(1001)});
    assert_eq!(errors(with(&["actions"], long)), ["actions.note"]);
    // A carriage return (a note pasted from a Windows file) the transaction would refuse;
    // a note may span lines.
    let pasted = json!({"note": "coffee\r\nbeans"});
    assert_eq!(errors(with(&["actions"], pasted)), ["actions.note"]);
    let lines = json!({"note": "coffee\nbeans\tto go"});
    assert!(errors(with(&["actions"], lines)).is_empty());
    let tags: Vec<u64> = (1..=21).collect();
    assert_eq!(
        errors(with(&["actions"], json!({"tagIds": tags}))),
        ["actions.tagIds"]
    );
}

#[test]
fn tag_ids_are_counted_once_each() {
    let repeated = with(&["actions"], json!({"tagIds": vec![7; 21]}));
    assert!(errors(repeated).is_empty(), "duplicates are ignored");
}

#[test]
fn tag_ids_are_deduplicated() {
    let v = with(&["actions"], json!({"tagIds": [3, 1, 3, 2, 1]}));
    let mut b: RuleBody = serde_json::from_value(v).expect("shape");
    let compiled = b.compile().expect("valid");
    assert_eq!(compiled.actions().tag_ids, vec![3, 1, 2]);
    b.normalize();
    assert_eq!(b.actions.tag_ids, vec![3, 1, 2]);
}

#[test]
fn every_error_is_reported() {
    let v = json!({"name": "",
        "conditions": [{"field": "payee", "op": "gt", "value": "1"},
                       {"field": "amount", "op": "lt", "value": "abc"}],
        "actions": {}});
    assert_eq!(
        errors(v),
        ["name", "conditions[0].op", "conditions[1].value", "actions"]
    );
}

#[test]
fn messages_are_readable() {
    let v = with(&["conditions", "0", "op"], json!("lt"));
    let b: RuleBody = serde_json::from_value(v).expect("shape");
    let e = b.compile().expect_err("invalid");
    assert_eq!(e[0].field, "conditions[0].op");
    assert!(e[0].message.contains("contains"), "{}", e[0].message);
    assert!(e[0].to_string().starts_with("conditions[0].op: "));
}

#[test]
fn extreme_numbers_are_errors_not_panics() {
    let ok = [
        "0",
        "-0",
        "1e2",
        "1E+2",
        "79228162514264337593543950335",
        "1.5e-3",
    ];
    let bad = [
        "1e400",
        "1e-400",
        "1e29",
        "79228162514264337593543950336",
        "0.00000000000000000000000000001",
        "123456789012345678901234567890.5",
    ];
    for (text, want_ok) in ok
        .iter()
        .map(|t| (t, true))
        .chain(bad.iter().map(|t| (t, false)))
    {
        let n: Value = serde_json::from_str(text).expect("json number");
        let v = with(
            &["conditions", "0"],
            json!({"field": "amount", "op": "gte", "value": n}),
        );
        assert_eq!(errors(v).is_empty(), want_ok, "{text}");
    }
}

#[test]
fn deep_nesting_is_an_error() {
    let deep = format!("{}a{}", "(".repeat(200), ")".repeat(200));
    let v = with(
        &["conditions", "0"],
        json!({"field": "payee", "op": "matches", "value": deep}),
    );
    assert_eq!(errors(v), ["conditions[0].value"]);
}
