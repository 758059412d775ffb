//! What one user may hold in all: at most `MAX_TRANSACTIONS` transactions, counted on the
//! wallet in the same transaction as every create and delete, whichever way they come
//! (a request, a batch, an import, a recurring occurrence).

use std::str::FromStr;
use std::time::{Duration, Instant};

use aws_sdk_dynamodb::types::AttributeValue;
use rust_decimal::Decimal;
use serde_json::{json, Value};
use shared::store::keys::{user_pk, WALLET};
use shared::store::on_behalf_of;
use shared::store::transactions::MAX_TRANSACTIONS;

use crate::helpers::{assert_problem, spawn_app_and_user, TestApp, TestUser};

/// Sets the wallet's transaction count directly, as if the user held `count`.
async fn set_count(app: &TestApp, user: &TestUser, count: u64) {
    let store = &app.state.store;
    store
        .client()
        .update_item()
        .table_name(store.table())
        .set_key(Some(shared::store::batch::key(&user_pk(user.id), WALLET)))
        .update_expression("SET txnCount = :n")
        .expression_attribute_values(":n", AttributeValue::N(count.to_string()))
        .send()
        .await
        .unwrap();
}

/// A `409` whose detail names the cap.
async fn names_the_cap(r: reqwest::Response) {
    let problem = assert_problem(r, 409).await;
    let detail = problem["detail"].as_str().unwrap_or_default().to_owned();
    assert!(detail.contains(&MAX_TRANSACTIONS.to_string()), "{problem}");
}

#[tokio::test]
async fn a_user_holds_at_most_a_million_transactions_however_they_come() {
    let (app, user) = spawn_app_and_user().await;
    let body = json!({"amount": "1.00", "categoryId": 4, "date": "2026-01-05"});
    let r = app.create_transaction(&user, &body).await;
    assert_eq!(r.status(), 201);
    let first: Value = r.json().await.unwrap();
    set_count(&app, &user, MAX_TRANSACTIONS - 1).await;
    let r = app.create_transaction(&user, &body).await;
    assert_eq!(
        r.status(),
        201,
        "the last place: {}",
        r.text().await.unwrap()
    );

    names_the_cap(app.create_transaction(&user, &body).await).await;
    let ops = json!([{"op": "create", "body": body}]);
    let batch: Value = app.post_batch(&user, &ops).await.json().await.unwrap();
    assert_eq!(batch["results"][0]["status"], 409, "{batch}");
    let detail = batch["results"][0]["body"]["detail"].to_string();
    assert!(detail.contains(&MAX_TRANSACTIONS.to_string()), "{batch}");
    let file = "date,amount,payee\n2026-01-06,-2.50,Bakery\n";
    names_the_cap(app.upload(&user, "", "text/csv", file).await).await;
    let due = json!({"amount": "10.00", "categoryId": 4, "rrule": "FREQ=DAILY",
        "start": time::OffsetDateTime::now_utc().date().to_string()});
    app.create(&user, "/api/recurring", &due).await;
    let deadline = Instant::now() + Duration::from_secs(20);
    let today = shared::app::recurring::today();
    let run = shared::app::recurring::run_due(&app.state.store, today, deadline);
    let report = on_behalf_of("recurring", run).await.unwrap();
    assert_eq!((report.created, report.failed), (0, 1), "{report:?}");
    let balance = Decimal::from_str(&app.balance(&user).await).unwrap();
    assert_eq!(
        balance,
        Decimal::new(-200, 2),
        "the two created, nothing else"
    );

    // A delete gives the place back.
    let path = format!("/api/transactions/{}", first["id"]);
    let r = app
        .call(reqwest::Method::DELETE, &path, Some(&user), None)
        .await;
    assert_eq!(r.status(), 204);
    assert_eq!(app.create_transaction(&user, &body).await.status(), 201);
    names_the_cap(app.create_transaction(&user, &body).await).await;
}
