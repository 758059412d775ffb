//! Split transactions (issue 52): the contract of `splits` on create, update and the
//! batch, every answer carrying a transaction, and counting each part in its own category.

use std::str::FromStr;

use rust_decimal::Decimal;
use serde_json::{json, Value};

use crate::helpers::{assert_problem, error_fields, pluck, spawn_app_and_user, TestApp, TestUser};

/// Global DEBIT categories (seeded) and a global CREDIT one.
pub const GROCERIES: u64 = 4;
pub const HOUSEHOLD: u64 = 5;
pub const GIFTS: u64 = 8;
const SALARY: u64 = 1;

pub fn money(v: &Value) -> Decimal {
    Decimal::from_str(v["amount"].as_str().map_or(&v["amount"].to_string(), |s| s))
        .expect("decimal")
}

pub fn part(amount: &str, category: u64) -> Value {
    json!({"amount": amount, "categoryId": category})
}

fn receipt() -> Value {
    json!({
        "amount": "100.00", "date": "2026-03-10", "note": "market",
        "splits": [
            {"amount": "60.00", "categoryId": GROCERIES, "note": "food"},
            {"amount": {"amount": "25.50", "currency": {"code": "EUR"}}, "categoryId": HOUSEHOLD},
            {"amount": 14.5, "categoryId": GROCERIES},
        ]
    })
}

pub async fn create(app: &TestApp, user: &TestUser, body: &Value) -> Value {
    let r = app.create_transaction(user, body).await;
    assert_eq!(r.status(), 201);
    r.json().await.expect("json")
}

async fn refused(app: &TestApp, user: &TestUser, body: &Value) -> Value {
    assert_problem(app.create_transaction(user, body).await, 400).await
}

pub fn amounts(t: &Value) -> Vec<Decimal> {
    t["splits"]
        .as_array()
        .expect("parts")
        .iter()
        .map(|p| money(&p["amount"]))
        .collect()
}

#[tokio::test]
async fn a_split_answers_its_parts_in_order_everywhere_and_a_plain_one_null() {
    let (app, user) = spawn_app_and_user().await;
    let t = create(&app, &user, &receipt()).await;
    assert_eq!(t["categoryId"], GROCERIES, "the first part's category");
    assert_eq!(t["categoryType"], "DEBIT");
    assert_eq!(t["categorySource"], "user");
    assert_eq!(
        amounts(&t),
        [
            Decimal::new(6000, 2),
            Decimal::new(2550, 2),
            Decimal::new(1450, 2)
        ]
    );
    let parts = t["splits"].as_array().unwrap();
    assert_eq!(
        pluck::<_, Vec<_>>(parts, "categoryId", Value::as_u64),
        [GROCERIES, HOUSEHOLD, GROCERIES]
    );
    assert_eq!(parts[0]["note"], "food");
    assert_eq!(parts[1]["note"], Value::Null);
    assert_eq!(parts[1]["categoryType"], "DEBIT");
    assert_eq!(parts[1]["amount"]["currency"]["code"], "EUR");
    assert_eq!(parts[2]["tagIds"], json!([]));
    let id = t["id"].as_u64().unwrap();
    let got: Value = app.get_transaction(&user, id).await.json().await.unwrap();
    assert_eq!(got["splits"], t["splits"]);
    let plain = app.add(&user, "3.00", GROCERIES, "2026-03-11").await;
    assert_eq!(plain["splits"], Value::Null);
    let listed = app.listed(&user, "").await;
    assert_eq!(listed[0]["splits"], Value::Null);
    assert_eq!(listed[1]["splits"], t["splits"]);
    assert_eq!(app.balance(&user).await, "-103.00");
    // The sync and the JSON export carry them too.
    let sync: Value = app
        .get(&user, "/api/sync?limit=100")
        .await
        .json()
        .await
        .unwrap();
    let text = sync.to_string();
    assert!(
        text.contains("\"splits\":null") && text.contains("25.50"),
        "{text}"
    );
    let export = app.get(&user, "/api/export?format=json").await;
    assert_eq!(export.status(), 200);
    let doc: Value = export.json().await.unwrap();
    let exported = doc["transactions"].as_array().unwrap();
    let split = exported.iter().find(|e| e["id"] == id).expect("exported");
    assert_eq!(split["splits"], t["splits"]);
}

#[tokio::test]
async fn every_broken_rule_of_a_split_is_a_400_naming_it() {
    let (app, user) = spawn_app_and_user().await;
    let mut body = receipt();
    body["amount"] = json!("101.00");
    let p = refused(&app, &user, &body).await;
    assert_eq!(error_fields(&p), ["splits"]);
    assert!(p.to_string().contains("1.00 less"), "{p}");
    body["amount"] = json!("99.99");
    let p = refused(&app, &user, &body).await;
    assert!(p.to_string().contains("0.01 more"), "{p}");
    let mixed = json!({"amount": "10", "date": "2026-03-10", "splits": [part("4", GROCERIES), part("3", HOUSEHOLD), part("3", SALARY)]});
    assert_eq!(
        error_fields(&refused(&app, &user, &mixed).await),
        ["splits[2].categoryId"]
    );
    let unknown = json!({"amount": "10", "date": "2026-03-10", "splits": [part("4", GROCERIES), part("6", 999_999)]});
    assert_eq!(
        error_fields(&refused(&app, &user, &unknown).await),
        ["splits[1].categoryId"]
    );
    let other = app.new_user().await;
    let theirs = app.create_category(&other, "Theirs", "DEBIT").await;
    let foreign = json!({"amount": "10", "date": "2026-03-10", "splits": [part("4", GROCERIES), part("6", theirs)]});
    assert_eq!(
        error_fields(&refused(&app, &user, &foreign).await),
        ["splits[1].categoryId"]
    );
    let not_first = json!({"amount": "10", "categoryId": HOUSEHOLD, "date": "2026-03-10", "splits": [part("4", GROCERIES), part("6", HOUSEHOLD)]});
    assert_eq!(
        error_fields(&refused(&app, &user, &not_first).await),
        ["categoryId"]
    );
    let first = json!({"amount": "10", "categoryId": GROCERIES, "date": "2026-03-10", "splits": [part("4", GROCERIES), part("6", HOUSEHOLD)]});
    create(&app, &user, &first).await;
    let one = json!({"amount": "10", "date": "2026-03-10", "splits": [part("10", GROCERIES)]});
    assert_eq!(error_fields(&refused(&app, &user, &one).await), ["splits"]);
    let many: Vec<Value> = (0..51).map(|_| part("1", GROCERIES)).collect();
    let p = refused(
        &app,
        &user,
        &json!({"amount": "51", "date": "2026-03-10", "splits": many}),
    )
    .await;
    assert_eq!(error_fields(&p), ["splits"]);
    let fifty: Vec<Value> = (0..50).map(|_| part("1", GROCERIES)).collect();
    create(
        &app,
        &user,
        &json!({"amount": "50", "date": "2026-03-10", "splits": fifty}),
    )
    .await;
    let negative = json!({"amount": "10", "date": "2026-03-10", "splits": [part("-1", GROCERIES), part("11", HOUSEHOLD)]});
    assert_eq!(
        error_fields(&refused(&app, &user, &negative).await),
        ["splits[0].amount"]
    );
    let long = json!({"amount": "10", "date": "2026-03-10", "splits": [part("4", GROCERIES), {"amount": "6", "categoryId": HOUSEHOLD, "note": "x".repeat(1001)}]});
    assert_eq!(
        error_fields(&refused(&app, &user, &long).await),
        ["splits[1].note"]
    );
    let tags: Vec<u64> = (1..=21).collect();
    let tagged = json!({"amount": "10", "date": "2026-03-10", "splits": [{"amount": "4", "categoryId": GROCERIES, "tagIds": tags}, part("6", HOUSEHOLD)]});
    assert_eq!(
        error_fields(&refused(&app, &user, &tagged).await),
        ["splits[0].tagIds"]
    );
    let missing_tag = json!({"amount": "10", "date": "2026-03-10", "splits": [{"amount": "4", "categoryId": GROCERIES, "tagIds": [424242]}, part("6", HOUSEHOLD)]});
    assert_eq!(
        error_fields(&refused(&app, &user, &missing_tag).await),
        ["splits[0].tagIds"]
    );
    let cents = json!({"amount": "10", "date": "2026-03-10", "splits": [part("4.001", GROCERIES), part("5.999", HOUSEHOLD)]});
    assert_eq!(
        error_fields(&refused(&app, &user, &cents).await),
        ["splits[0].amount", "splits[1].amount"]
    );
    let shape = json!({"amount": "10", "date": "2026-03-10", "splits": {"a": 1}});
    assert_eq!(
        error_fields(&refused(&app, &user, &shape).await),
        ["splits"]
    );
    // 41 distinct categories and tags across the parts.
    let mut parts = Vec::new();
    for i in 0..21 {
        let c = app.create_category(&user, &format!("C{i}"), "DEBIT").await;
        let t = app
            .create(&user, "/api/tags", &json!({"tagName": format!("t{i}")}))
            .await;
        parts.push(json!({"amount": "1", "categoryId": c, "tagIds": [t]}));
    }
    let wide = json!({"amount": "21", "date": "2026-03-10", "splits": parts});
    let p = refused(&app, &user, &wide).await;
    assert_eq!(error_fields(&p), ["splits"], "{p}");
    parts.truncate(20);
    let full = create(
        &app,
        &user,
        &json!({"amount": "20", "date": "2026-03-10", "splits": parts}),
    )
    .await;
    assert_eq!(app.balance(&user).await, "-80.00");
    // A PUT counts what it named before and after: 40 and 2 more is too many.
    let id = full["id"].as_u64().unwrap();
    let other = json!({"amount": "20", "date": "2026-03-10", "splits": [part("10", GROCERIES), part("10", HOUSEHOLD)]});
    let p = assert_problem(app.update_transaction(&user, id, &other).await, 400).await;
    assert_eq!(error_fields(&p), ["splits"], "{p}");
    parts.truncate(2);
    let fewer = json!({"amount": "2", "date": "2026-03-10", "splits": parts});
    assert_eq!(
        app.update_transaction(&user, id, &fewer).await.status(),
        200
    );
    assert_eq!(app.balance(&user).await, "-62.00");
}

#[tokio::test]
async fn a_put_without_splits_keeps_them_only_for_the_same_amount_and_category() {
    let (app, user) = spawn_app_and_user().await;
    let t = create(&app, &user, &receipt()).await;
    let id = t["id"].as_u64().unwrap();
    // A spec-only client edits the note: the parts stay.
    let edit =
        json!({"amount": "100", "categoryId": GROCERIES, "date": "2026-03-10", "note": "edited"});
    let r = app.update_transaction(&user, id, &edit).await;
    assert_eq!(r.status(), 200);
    let kept: Value = r.json().await.unwrap();
    assert_eq!(kept["note"], "edited");
    assert_eq!(kept["splits"], t["splits"]);
    // New parts through PUT.
    let moved = json!({"amount": "100", "date": "2026-03-10", "splits": [part("30", HOUSEHOLD), part("70", GIFTS)]});
    let r: Value = app
        .update_transaction(&user, id, &moved)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(r["categoryId"], HOUSEHOLD);
    assert_eq!(amounts(&r), [Decimal::new(30, 0), Decimal::new(70, 0)]);
    // Another amount without splits: plain.
    let other = json!({"amount": "90", "categoryId": HOUSEHOLD, "date": "2026-03-10"});
    let r: Value = app
        .update_transaction(&user, id, &other)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(r["splits"], Value::Null);
    let again: Value = app
        .update_transaction(&user, id, &moved)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(again["categoryId"], HOUSEHOLD);
    // Another category without splits: plain.
    let recat = json!({"amount": "100", "categoryId": GIFTS, "date": "2026-03-10"});
    let r: Value = app
        .update_transaction(&user, id, &recat)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(r["splits"], Value::Null);
    app.update_transaction(&user, id, &moved).await;
    // `null`: plain, whatever the amount and category.
    let null =
        json!({"amount": "100", "categoryId": HOUSEHOLD, "date": "2026-03-10", "splits": null});
    let r: Value = app
        .update_transaction(&user, id, &null)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(r["splits"], Value::Null);
    assert_eq!(r["categoryId"], HOUSEHOLD);
    assert_eq!(app.balance(&user).await, "-100.00");
    // Bad parts on PUT name the part.
    let bad = json!({"amount": "100", "date": "2026-03-10", "splits": [part("30", HOUSEHOLD), part("70", SALARY)]});
    let p = assert_problem(app.update_transaction(&user, id, &bad).await, 400).await;
    assert_eq!(error_fields(&p), ["splits[1].categoryId"]);
}
