//! Deleting a user removes everything of theirs; their tokens then reach nothing.

use std::time::Instant;

use aws_sdk_dynamodb::types::{AttributeValue, PutRequest, WriteRequest};
use serde_json::{json, Value};

use crate::helpers::{assert_problem, png, spawn_app, spawn_app_and_user, TestApp, PASSWORD};

/// Items left in the user's partition, counted page by page.
async fn partition_size(app: &TestApp, user_id: u64) -> i32 {
    let mut total = 0;
    let mut start = None;
    loop {
        let out = app
            .query_partition(user_id)
            .select(aws_sdk_dynamodb::types::Select::Count)
            .set_exclusive_start_key(start)
            .send()
            .await
            .unwrap();
        total += out.count;
        start = out.last_evaluated_key;
        if start.is_none() {
            return total;
        }
    }
}

#[tokio::test]
async fn deleting_a_user_removes_all_their_data_and_their_token_reaches_nothing() {
    let app = spawn_app().await;
    let user = app.new_user_with_email("gone@example.com").await;
    let (tag, provider, category) = app.create_refs(&user, "trip", "Rail", "Trains").await;
    let body = json!({"amount": "12.00", "categoryId": category, "date": "2026-01-01", "tagIds": [tag], "providerId": provider});
    assert_eq!(app.create_transaction(&user, &body).await.status(), 201);
    assert_eq!(
        app.put_picture(&user, user.id, "image/png", png())
            .await
            .status(),
        204
    );
    assert!(partition_size(&app, user.id).await > 5);

    let r = app.delete_self(&user).await;
    assert_eq!(r.status(), 204);
    assert_eq!(partition_size(&app, user.id).await, 0);

    // The still-unexpired token can neither read nor write.
    assert_problem(app.get(&user, "/users/me").await, 404).await;
    assert_problem(app.get(&user, "/api/wallet").await, 404).await;
    let list: Vec<Value> = app.listed(&user, "").await;
    assert!(list.is_empty());
    let r = app
        .create_transaction(
            &user,
            &json!({"amount": "1", "categoryId": 4, "date": "2026-01-01"}),
        )
        .await;
    assert!(r.status() == 403 || r.status() == 409, "{}", r.status());
    assert_eq!(
        app.post(&user, "/api/tags", &json!({"tagName": "x"}))
            .await
            .status(),
        403
    );
    assert_eq!(
        app.post(
            &user,
            "/api/categories",
            &json!({"categoryName": "x", "type": "DEBIT"})
        )
        .await
        .status(),
        403
    );
    assert_eq!(
        app.put_picture(&user, user.id, "image/png", png())
            .await
            .status(),
        404
    );
    assert_eq!(partition_size(&app, user.id).await, 0);
    assert_problem(app.delete_self(&user).await, 404).await;

    // The e-mail can register again, as a new user.
    assert_eq!(app.login("gone@example.com", PASSWORD).await.status(), 401);
    let again = app.new_user_with_email("gone@example.com").await;
    assert_ne!(again.id, user.id);
}

/// Writes `n` transaction items straight into the user's partition (fast set-up of a big
/// account; the API path for transactions is covered elsewhere).
async fn bulk_transactions(app: &TestApp, user_id: u64, n: u64) {
    let client = app.state.store.client();
    let mut requests = Vec::new();
    for i in 0..n {
        let id = 1_000_000 + i;
        let item = std::collections::HashMap::from([
            (
                "PK".to_owned(),
                AttributeValue::S(format!("USER#{user_id}")),
            ),
            ("SK".to_owned(), AttributeValue::S(format!("TXN#{id:016}"))),
            (
                "LSI1SK".to_owned(),
                AttributeValue::S(format!("TXN#2026-01-01#{id:016}")),
            ),
            ("id".to_owned(), AttributeValue::N(id.to_string())),
            ("amount".to_owned(), AttributeValue::N("1.25".into())),
            ("note".to_owned(), AttributeValue::S("x".repeat(200))),
        ]);
        requests.push(
            WriteRequest::builder()
                .put_request(PutRequest::builder().set_item(Some(item)).build().unwrap())
                .build(),
        );
    }
    for chunk in requests.chunks(25) {
        let mut pending = chunk.to_vec();
        while !pending.is_empty() {
            let out = client
                .batch_write_item()
                .request_items(app.state.store.table(), pending)
                .send()
                .await
                .unwrap();
            pending = out
                .unprocessed_items
                .and_then(|mut u| u.remove(app.state.store.table()))
                .unwrap_or_default();
        }
    }
}

#[tokio::test]
async fn deleting_a_user_with_5000_transactions_completes_in_one_request() {
    let (app, user) = spawn_app_and_user().await;
    bulk_transactions(&app, user.id, 5000).await;
    assert!(partition_size(&app, user.id).await > 5000);
    let started = Instant::now();
    let r = app.delete_self(&user).await;
    let took = started.elapsed();
    assert_eq!(r.status(), 204);
    assert_eq!(partition_size(&app, user.id).await, 0);
    // Reported, not asserted: timings are measured, never tested.
    println!(
        "deleted a user with 5000 transactions in {} ms",
        took.as_millis()
    );
}
