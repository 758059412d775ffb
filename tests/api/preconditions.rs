//! Every write under `If-Match` validates its body (syntax, and the rules that need no
//! stored item) before it compares versions: a malformed body with a stale `If-Match` is
//! `400`, the same write with a valid body `412`.

use reqwest::Method;
use serde_json::{json, Value};
use time::OffsetDateTime;

use crate::helpers::{assert_problem, spawn_app_and_user, TestApp, TestUser};

const STALE: &str = "\"999999\"";

/// `method path` with a stale `If-Match`: `bad` answers 400, `good` 412.
async fn stale(
    app: &TestApp,
    user: &TestUser,
    method: Method,
    path: &str,
    bad: Value,
    good: Value,
) {
    let send = |body: Value| {
        app.request(method.clone(), path, Some(user))
            .header("if-match", STALE)
            .json(&body)
            .send()
    };
    let r = send(bad.clone()).await.expect("request");
    assert_eq!(
        r.status(),
        400,
        "{method} {path} {bad}: {}",
        r.text().await.unwrap()
    );
    let r = send(good.clone()).await.expect("request");
    assert_problem(r, 412).await;
}

#[tokio::test]
async fn every_write_under_if_match_refuses_a_malformed_body_before_a_stale_version() {
    let (app, user) = spawn_app_and_user().await;
    let put = Method::PUT;

    let txn = app.add_id(&user, "5.00", 4, "2026-01-10").await;
    let path = format!("/api/transactions/{txn}");
    let body = |date: &str| json!({"amount": "5.00", "categoryId": 4, "date": date});
    stale(
        &app,
        &user,
        put.clone(),
        &path,
        body("2026-02-30"),
        body("2026-02-27"),
    )
    .await;

    let category = app.create_category(&user, "Pets", "DEBIT").await;
    let path = format!("/api/categories/{category}");
    let good = json!({"categoryName": "Pets", "type": "DEBIT"});
    let bad = json!({"categoryName": "Pets", "type": "DEBIT", "color": "red"});
    stale(&app, &user, put.clone(), &path, bad, good).await;

    for (collection, field) in [("tags", "tagName"), ("providers", "providerName")] {
        let id = app
            .create(&user, &format!("/api/{collection}"), &json!({field: "Old"}))
            .await;
        let path = format!("/api/{collection}/{id}");
        let (bad, good) = (json!({field: " "}), json!({field: "New"}));
        stale(&app, &user, put.clone(), &path, bad, good).await;
    }

    let rule = |value: &str| {
        json!({"name": "Coffee", "conditions": [{"field": "payee", "op": "contains", "value": value}],
               "actions": {"categoryId": category}})
    };
    let id = app.create(&user, "/api/rules", &rule("starbucks")).await;
    let path = format!("/api/rules/{id}");
    stale(&app, &user, put.clone(), &path, rule(""), rule("peets")).await;

    let today = OffsetDateTime::now_utc().date();
    let start = today + time::Duration::days(1);
    let schedule = |rrule: &str| json!({"amount": "10.00", "categoryId": 4, "start": start.to_string(), "rrule": rrule});
    let id = app
        .create(&user, "/api/recurring", &schedule("FREQ=MONTHLY"))
        .await;
    let path = format!("/api/recurring/{id}");
    let (bad, good) = (schedule("FREQ=SOMETIMES"), schedule("FREQ=WEEKLY"));
    stale(&app, &user, put.clone(), &path, bad, good).await;
    // An occurrence moved too far, or to a non-positive amount, needs no stored schedule
    // to be refused.
    let path = format!("/api/recurring/{id}/occurrences/{start}");
    let far = (start + time::Duration::days(60)).to_string();
    for bad in [
        json!({"date": far}),
        json!({"amount": "-5.00"}),
        json!({"amount": "0"}),
    ] {
        stale(&app, &user, put.clone(), &path, bad, json!({"skip": true})).await;
    }

    let wallet: Value = app.get_json(&user, "/api/wallet").await;
    let currency = wallet["currency"]["code"].clone();
    let body = |name: &str| json!({"name": name, "initialBalance": "0.00", "currency": currency});
    stale(
        &app,
        &user,
        put.clone(),
        "/api/wallet",
        body(" "),
        body("Main"),
    )
    .await;

    let path = format!("/users/{}", user.id);
    let bad = json!({"email": "not an address"});
    stale(
        &app,
        &user,
        put.clone(),
        &path,
        bad,
        json!({"firstName": "Ann"}),
    )
    .await;
    // A deletion's body holds only the password, which only the stored account can judge.
    let bad = json!({"currentPassword": 5});
    stale(&app, &user, Method::DELETE, &path, bad, json!({})).await;
}

/// A batch's update applies the same order to each operation: its result is `400` for a
/// malformed body, `412` for a valid one, both under a stale `ifMatch`.
#[tokio::test]
async fn a_batch_update_refuses_a_malformed_body_before_a_stale_version() {
    let (app, user) = spawn_app_and_user().await;
    let id = app.add_id(&user, "5.00", 4, "2026-01-10").await;
    let update = |date: &str| {
        json!({"op": "update", "id": id, "ifMatch": STALE,
               "body": {"amount": "5.00", "categoryId": 4, "date": date}})
    };
    let r = app
        .post_batch(&user, &json!([update("2026-02-30"), update("2026-02-27")]))
        .await;
    assert_eq!(r.status(), 200);
    let body: Value = r.json().await.unwrap();
    let statuses: Vec<&Value> = body["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| &r["status"])
        .collect();
    assert_eq!(statuses, [400, 412], "{body}");
}
