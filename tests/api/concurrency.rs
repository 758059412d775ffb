//! The balance invariant under concurrent writes and retries.

use std::str::FromStr;

use rust_decimal::Decimal;
use serde_json::{json, Value};

use crate::helpers::spawn_app;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_balance_equals_the_signed_sum_after_a_burst_of_concurrent_writes() {
    let app = std::sync::Arc::new(spawn_app().await);
    let user = std::sync::Arc::new(app.new_user().await);

    // 40 concurrent creates, alternating credits and debits.
    let creates = (0..40).map(|i| {
        let (app, user) = (app.clone(), user.clone());
        tokio::spawn(async move {
            let category = if i % 2 == 0 { 1 } else { 4 };
            let body = json!({"amount": format!("{}.{:02}", i + 1, i), "categoryId": category, "date": "2026-07-01"});
            let r = app.create_transaction(&user, &body).await;
            assert_eq!(r.status(), 201);
            r.json::<Value>().await.unwrap()["id"].as_u64().unwrap()
        })
    });
    let mut ids = Vec::new();
    for h in creates {
        ids.push(h.await.unwrap());
    }

    // Concurrently: update a third (flipping their direction), delete a third.
    let mut tasks = Vec::new();
    for (i, id) in ids.iter().copied().enumerate() {
        let (app, user) = (app.clone(), user.clone());
        tasks.push(tokio::spawn(async move {
            match i % 3 {
                0 => {
                    let body = json!({"amount": "0.07", "categoryId": 8, "date": "2026-07-02"});
                    assert_eq!(app.update_transaction(&user, id, &body).await.status(), 200);
                }
                1 => assert_eq!(app.delete_transaction(&user, id).await.status(), 204),
                _ => {}
            }
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }

    let list: Vec<Value> = app.listed(&user, "?limit=200").await;
    // 13 of the 40 (i % 3 == 1) were deleted.
    assert_eq!(list.len(), 27);
    let sum: Decimal = list
        .iter()
        .map(|t| {
            let amount = Decimal::from_str(&t["amount"]["amount"].to_string()).unwrap();
            if t["categoryType"] == "DEBIT" {
                -amount
            } else {
                amount
            }
        })
        .sum();
    assert_eq!(Decimal::from_str(&app.balance(&user).await).unwrap(), sum);
    let wallet: Value = app.get_json(&user, "/api/wallet").await;
    assert_eq!(wallet["transactionCount"], 27);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_retries_with_one_idempotency_key_create_one_transaction() {
    let app = std::sync::Arc::new(spawn_app().await);
    let user = std::sync::Arc::new(app.new_user().await);
    let tasks: Vec<_> = (0..8)
        .map(|_| {
            let (app, user) = (app.clone(), user.clone());
            tokio::spawn(async move {
                let body = json!({"amount": "19.99", "categoryId": 4, "date": "2026-07-01"});
                let r = app.create_transaction_keyed(&user, "retry-me", &body).await;
                assert_eq!(r.status(), 201);
                r.json::<Value>().await.unwrap()["id"].as_u64().unwrap()
            })
        })
        .collect();
    let mut ids = Vec::new();
    for t in tasks {
        ids.push(t.await.unwrap());
    }
    ids.dedup();
    assert_eq!(ids.len(), 1, "every retry must return the same transaction");
    assert_eq!(app.balance(&user).await, "-19.99");
}

/// A client that sends its conditional update again (its answer was lost) with the same
/// `Idempotency-Key` gets the first answer back, never `412`, even when the copies race:
/// a copy that loses to the first re-reads and replays it.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn racing_copies_of_a_conditional_update_with_one_key_all_get_its_answer() {
    let app = std::sync::Arc::new(spawn_app().await);
    let user = std::sync::Arc::new(app.new_user().await);
    for round in 0..10 {
        let id = app.add_id(&user, "10.00", 4, "2026-07-01").await;
        let key = format!("edit-once-{round}");
        let tasks: Vec<_> = (0..8)
            .map(|_| {
                let (app, user, key) = (app.clone(), user.clone(), key.clone());
                tokio::spawn(async move {
                    let body = json!({"amount": "12.50", "categoryId": 4, "date": "2026-07-01"});
                    let path = format!("/api/transactions/{id}");
                    let r = app
                        .request(reqwest::Method::PUT, &path, Some(&user))
                        .header("if-match", "\"1\"")
                        .header("idempotency-key", &key)
                        .json(&body)
                        .send()
                        .await
                        .unwrap();
                    let etag = r
                        .headers()
                        .get("etag")
                        .map(|e| e.to_str().unwrap().to_owned());
                    (r.status().as_u16(), etag)
                })
            })
            .collect();
        for t in tasks {
            assert_eq!(t.await.unwrap(), (200, Some("\"2\"".to_owned())));
        }
    }
    assert_eq!(app.balance(&user).await, "-125.00");
}
