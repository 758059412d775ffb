//! Split transactions under concurrent writers (issue 52): parts moved between categories
//! by 8 writers at once leave the balance, each category's monthly totals and each
//! budget's `spent` equal to their recomputation from the listed transactions' parts.

use std::collections::BTreeMap;
use std::str::FromStr;
use std::sync::Arc;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rust_decimal::Decimal;
use serde_json::{json, Value};

use crate::helpers::spawn_app;

fn money(v: &Value) -> Decimal {
    Decimal::from_str(v["amount"].as_str().map_or(&v["amount"].to_string(), |s| s))
        .expect("decimal")
}

/// A body of 2 to 5 parts over `categories` adding up to `cents`, in March or April.
fn split_body(rng: &mut StdRng, categories: &[u64], cents: i64) -> Value {
    let n = rng.random_range(2..=5);
    let mut left = cents;
    let mut parts = Vec::new();
    for i in 0..n {
        let take = if i == n - 1 {
            left
        } else {
            rng.random_range(1..=left - (n - 1 - i) as i64)
        };
        left -= take;
        let c = categories[rng.random_range(0..categories.len())];
        parts.push(json!({"amount": Decimal::new(take, 2).to_string(), "categoryId": c}));
    }
    let month = ["2026-03", "2026-04"][rng.random_range(0..2)];
    json!({"amount": Decimal::new(cents, 2).to_string(), "date": format!("{month}-15"), "splits": parts})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn eight_writers_moving_parts_leave_every_counter_equal_to_its_recomputation() {
    let app = Arc::new(spawn_app().await);
    let user = Arc::new(app.new_user().await);
    let pets = app.create_category(&user, "Pets", "DEBIT").await;
    let categories = [4, 5, 8, pets];
    for c in categories {
        for month in ["2026-03", "2026-04"] {
            let path = format!("/api/budgets/{month}/{c}");
            assert_eq!(
                app.put(&user, &path, &json!({"amount": "500"}))
                    .await
                    .status(),
                200
            );
        }
    }
    let mut rng = StdRng::seed_from_u64(52);
    let mut ids = Vec::new();
    for _ in 0..6 {
        let cents = rng.random_range(500..=90_000);
        let r = app
            .create_transaction(&user, &split_body(&mut rng, &categories, cents))
            .await;
        assert_eq!(r.status(), 201);
        ids.push(r.json::<Value>().await.unwrap()["id"].as_u64().unwrap());
    }
    let ids = Arc::new(ids);
    let mut writers = Vec::new();
    for w in 0..8u64 {
        let (app, user, ids) = (app.clone(), user.clone(), ids.clone());
        writers.push(tokio::spawn(async move {
            let mut rng = StdRng::seed_from_u64(w);
            for _ in 0..6 {
                let id = ids[rng.random_range(0..ids.len())];
                let cents = rng.random_range(500..=90_000);
                let body = split_body(&mut rng, &categories, cents);
                let r = app.update_transaction(&user, id, &body).await;
                // The retry may give up on a transaction that keeps changing: 409.
                assert!(r.status() == 200 || r.status() == 409, "{}", r.status());
            }
        }));
    }
    for w in writers {
        w.await.expect("writer");
    }
    let listed = app.listed(&user, "?limit=200").await;
    assert_eq!(listed.len(), 6);
    let mut totals: BTreeMap<(String, u64), (Decimal, u64)> = BTreeMap::new();
    let mut balance = Decimal::ZERO;
    for t in &listed {
        balance -= money(&t["amount"]);
        let month = t["date"].as_str().unwrap()[..7].to_owned();
        let mut seen = Vec::new();
        let mut sum = Decimal::ZERO;
        for p in t["splits"].as_array().expect("still a split") {
            let c = p["categoryId"].as_u64().unwrap();
            let cell = totals.entry((month.clone(), c)).or_default();
            cell.0 += money(&p["amount"]);
            sum += money(&p["amount"]);
            if !seen.contains(&c) {
                seen.push(c);
                cell.1 += 1;
            }
        }
        assert_eq!(sum, money(&t["amount"]));
    }
    let wallet: Value = app.get_json(&user, "/api/wallet").await;
    assert_eq!(money(&wallet["amountBalance"]), balance);
    let months: Vec<Value> = app
        .get_json(&user, "/api/insights/monthly?from=2026-03&to=2026-04")
        .await;
    let mut reported = BTreeMap::new();
    for m in &months {
        let month = m["month"].as_str().unwrap().to_owned();
        for c in m["categories"].as_array().unwrap() {
            let key = (month.clone(), c["categoryId"].as_u64().unwrap());
            reported.insert(key, (money(&c["total"]), c["count"].as_u64().unwrap()));
        }
    }
    assert_eq!(reported, totals);
    for month in ["2026-03", "2026-04"] {
        let budgets: Vec<Value> = app.get_json(&user, &format!("/api/budgets/{month}")).await;
        for b in budgets {
            let key = (month.to_owned(), b["categoryId"].as_u64().unwrap());
            let want = totals.get(&key).map_or(Decimal::ZERO, |t| t.0);
            assert_eq!(money(&b["spent"]), want, "{key:?}");
        }
    }
}
