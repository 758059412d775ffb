//! Warm-path benchmark: each endpoint through the local server (real HTTP) side by side
//! with the raw DynamoDB SDK calls it needs, against the same DynamoDB Local, in one run;
//! then the list cost with and without many other users' items. Prints a Markdown table.
//!
//! `make bench` runs it (DynamoDB Local in memory). Figures are reported, never asserted.

#[path = "bench/insights.rs"]
mod insights;

use std::time::{Duration, Instant};

use aws_sdk_dynamodb::types::{AttributeValue, PutRequest, ReturnConsumedCapacity, WriteRequest};
use serde_json::{json, Value};
use shared::http::AppState;

#[path = "bench_parts/sync.rs"]
mod sync_bench;

const WARMUP: usize = 20;
const ROUNDS: usize = 300;

fn p50(mut samples: Vec<Duration>) -> Duration {
    samples.sort_unstable();
    samples[samples.len() / 2]
}

async fn time<F, Fut>(mut f: F) -> Duration
where
    F: FnMut(usize) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    for i in 0..WARMUP {
        f(i).await;
    }
    let mut samples = Vec::with_capacity(ROUNDS);
    for i in 0..ROUNDS {
        let start = Instant::now();
        f(WARMUP + i).await;
        samples.push(start.elapsed());
    }
    p50(samples)
}

fn s(v: &str) -> AttributeValue {
    AttributeValue::S(v.to_owned())
}

async fn state(endpoint: &str) -> anyhow::Result<AppState> {
    let table = format!("bench-{}", std::process::id());
    let secret = shared::config::Secret::new(b"bench-secret-0123456789abcdef-0123456789".to_vec());
    let config = shared::config::Config {
        table_name: table.clone(),
        dynamodb_endpoint: Some(endpoint.to_owned()),
        jwt_secret: Some(secret.clone()),
        jwt_secret_arn: None,
        registrations_per_hour: u64::MAX,
        doc_path: "/swagger-ui".into(),
        sort: "method".into(),
        cors_allowed_origins: vec![],
    };
    let store = shared::store::Store::connect(&table, Some(endpoint)).await;
    store.ensure_table().await?;
    store.seed_global_categories("2026-01-01T00:00:00").await?;
    Ok(AppState {
        store,
        tokens: std::sync::Arc::new(shared::auth::token::TokenKeys::new(&secret)),
        config: std::sync::Arc::new(config),
    })
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let endpoint =
        std::env::var("DYNAMODB_ENDPOINT").map_err(|_| anyhow::anyhow!("set DYNAMODB_ENDPOINT"))?;
    let state = state(&endpoint).await?;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let base = format!("http://{}", listener.local_addr()?);
    let app = local::app(state.clone());
    tokio::spawn(async move { axum::serve(listener, app).await });
    let http = reqwest::Client::new();
    let store = state.store.clone();
    let client = store.client().clone();
    let table = store.table().to_owned();

    let password = "correct horse battery staple";
    let reg = json!({"firstname": "B", "lastname": "Ench", "email": "bench@example.com", "password": password, "confirmPassword": password});
    let user: Value = http
        .post(format!("{base}/auth/register"))
        .json(&reg)
        .send()
        .await?
        .json()
        .await?;
    let user_id = user["id"].as_u64().unwrap_or_default();
    let login: Value = http
        .post(format!("{base}/auth/login"))
        .json(&json!({"email": "bench@example.com", "password": password}))
        .send()
        .await?
        .json()
        .await?;
    let token = login["token"].as_str().unwrap_or_default().to_owned();
    let pk = format!("USER#{user_id}");

    let mut rows = Vec::new();

    // POST /api/transactions vs BatchGetItem + TransactWriteItems (the store's own calls).
    let body = json!({"amount": "12.34", "categoryId": 4, "date": "2026-03-01", "note": "bench"});
    let api = time(|_| {
        let req = http
            .post(format!("{base}/api/transactions"))
            .bearer_auth(&token)
            .json(&body);
        async move {
            let _ = req.send().await.and_then(|r| r.error_for_status());
        }
    })
    .await;
    let raw = time(|_| {
        let store = store.clone();
        async move {
            let refs = store
                .fetch_refs(
                    user_id,
                    shared::store::transactions::RefKeys {
                        category_id: Some(4),
                        ..Default::default()
                    },
                )
                .await
                .ok();
            let at =
                shared::domain::time::Timestamp::parse("2026-01-01T00:00:00").expect("timestamp");
            let record = shared::store::transactions::Transaction {
                user_id,
                id: shared::domain::ids::new_id(),
                amount: shared::domain::Money::new(
                    rust_decimal::Decimal::new(1234, 2),
                    shared::domain::Currency::eur(),
                )
                .expect("valid money"),
                date: time::macros::date!(2026 - 03 - 01),
                note: Some("bench".into()),
                category_id: 4,
                category_type: refs
                    .and_then(|r| r.category)
                    .map(|c| c.category_type)
                    .unwrap_or(shared::domain::CategoryType::Debit),
                category_global: true,
                provider_id: None,
                tag_ids: vec![],
                version: 1,
                created_at: at,
                updated_at: at,
            };
            let _ = store
                .insert_transaction(&record, None, None, "2026-01-01T00:00:00")
                .await;
        }
    })
    .await;
    rows.push((
        "POST /api/transactions",
        "BatchGetItem + TransactWriteItems",
        api,
        raw,
    ));

    let list: Value = http
        .get(format!("{base}/api/transactions?limit=1"))
        .bearer_auth(&token)
        .send()
        .await?
        .json()
        .await?;
    let id = list[0]["id"].as_u64().unwrap_or_default();
    let sk = format!("TXN#{id:016}");

    let api = time(|_| {
        let req = http
            .get(format!("{base}/api/transactions/{id}"))
            .bearer_auth(&token);
        async move {
            let _ = req.send().await.and_then(|r| r.error_for_status());
        }
    })
    .await;
    let raw = time(|_| {
        let req = client
            .get_item()
            .table_name(&table)
            .key("PK", s(&pk))
            .key("SK", s(&sk))
            .consistent_read(true);
        async move {
            let _ = req.send().await;
        }
    })
    .await;
    rows.push(("GET /api/transactions/{id}", "GetItem", api, raw));

    let api = time(|_| {
        let req = http.get(format!("{base}/api/wallet")).bearer_auth(&token);
        async move {
            let _ = req.send().await.and_then(|r| r.error_for_status());
        }
    })
    .await;
    let raw = time(|_| {
        let req = client
            .get_item()
            .table_name(&table)
            .key("PK", s(&pk))
            .key("SK", s("WALLET"))
            .consistent_read(true);
        async move {
            let _ = req.send().await;
        }
    })
    .await;
    rows.push(("GET /api/wallet", "GetItem", api, raw));

    let list_query = || {
        client
            .query()
            .table_name(&table)
            .index_name("LSI1")
            .key_condition_expression("PK = :pk AND LSI1SK BETWEEN :lo AND :hi")
            .expression_attribute_values(":pk", s(&pk))
            .expression_attribute_values(":lo", s("TXN#"))
            .expression_attribute_values(":hi", s("TXN#~"))
            .scan_index_forward(false)
            .consistent_read(true)
            .limit(50)
    };
    let list_api = || {
        let req = http
            .get(format!("{base}/api/transactions?limit=50"))
            .bearer_auth(&token);
        async move {
            let _ = req.send().await.and_then(|r| r.error_for_status());
        }
    };
    let api = time(|_| list_api()).await;
    let raw = time(|_| {
        let req = list_query();
        async move {
            let _ = req.send().await;
        }
    })
    .await;
    let list_before = api;
    rows.push((
        "GET /api/transactions?limit=50",
        "Query (LSI1, 50 items)",
        api,
        raw,
    ));
    let capacity_before = list_query()
        .return_consumed_capacity(ReturnConsumedCapacity::Total)
        .send()
        .await?
        .consumed_capacity
        .and_then(|c| c.capacity_units)
        .unwrap_or_default();

    // Another user's 20,000 transactions in the same table.
    let other_pk = "USER#1";
    let foreign = 20_000;
    let writes: Vec<WriteRequest> = (0..foreign)
        .map(|i| {
            let item = std::collections::HashMap::from([
                ("PK".to_owned(), s(other_pk)),
                ("SK".to_owned(), s(&format!("TXN#{i:016}"))),
                ("LSI1SK".to_owned(), s(&format!("TXN#2026-03-01#{i:016}"))),
                ("note".to_owned(), s(&"x".repeat(200))),
            ]);
            WriteRequest::builder()
                .put_request(
                    PutRequest::builder()
                        .set_item(Some(item))
                        .build()
                        .expect("item"),
                )
                .build()
        })
        .collect();
    for chunk in writes.chunks(25) {
        let mut pending = chunk.to_vec();
        while !pending.is_empty() {
            let out = client
                .batch_write_item()
                .request_items(&table, pending)
                .send()
                .await?;
            pending = out
                .unprocessed_items
                .and_then(|mut u| u.remove(&table))
                .unwrap_or_default();
        }
    }
    let after = time(|_| list_api()).await;
    let capacity_after = list_query()
        .return_consumed_capacity(ReturnConsumedCapacity::Total)
        .send()
        .await?
        .consumed_capacity
        .and_then(|c| c.capacity_units)
        .unwrap_or_default();

    // Insights: another user with 10,000 transactions over 36 months.
    let reg = json!({"firstname": "I", "lastname": "Nsights", "email": "insights@example.com", "password": password, "confirmPassword": password});
    let insights_user: Value = http
        .post(format!("{base}/auth/register"))
        .json(&reg)
        .send()
        .await?
        .json()
        .await?;
    let insights_id = insights_user["id"].as_u64().unwrap_or_default();
    let login: Value = http
        .post(format!("{base}/auth/login"))
        .json(&json!({"email": "insights@example.com", "password": password}))
        .send()
        .await?
        .json()
        .await?;
    let insights_token = login["token"].as_str().unwrap_or_default().to_owned();
    let fill_time = insights::fill(&store, insights_id).await?;
    let insights_api = time(|_| {
        let req = http
            .get(format!(
                "{base}/api/insights/monthly?from=2024-01&to=2026-12"
            ))
            .bearer_auth(&insights_token);
        async move {
            let _ = req.send().await.and_then(|r| r.error_for_status());
        }
    })
    .await;
    let (from, to) = insights::range()?;
    let insights_raw = time(|_| {
        let store = store.clone();
        async move {
            // The endpoint's own calls: wallet and totals at once, then the names.
            let (_, totals) = tokio::join!(
                store.get_wallet(insights_id),
                store.month_totals(insights_id, from, to)
            );
            if let Ok(totals) = totals {
                let keys: std::collections::BTreeSet<_> = totals
                    .items
                    .iter()
                    .map(|t| (t.category_global, t.category_id))
                    .collect();
                let _ = store.categories_by_key(insights_id, keys).await;
            }
        }
    })
    .await;
    let (insights_units, totals) = insights::query_cost(&store, insights_id).await?;
    let insights_list = time(|_| {
        let req = http
            .get(format!("{base}/api/transactions?limit=50"))
            .bearer_auth(&insights_token);
        async move {
            let _ = req.send().await.and_then(|r| r.error_for_status());
        }
    })
    .await;
    let list_units = insights::list_cost(&store, insights_id).await?;
    rows.push((
        "GET /api/insights/monthly (36 months)",
        "GetItem ∥ Query (360 totals), then BatchGetItem",
        insights_api,
        insights_raw,
    ));

    println!("| endpoint | raw SDK calls | endpoint p50 | raw p50 | ratio |");
    println!("|---|---|---|---|---|");
    for (endpoint, calls, api, raw) in rows {
        println!(
            "| `{endpoint}` | {calls} | {:.2} ms | {:.2} ms | {:.2} |",
            api.as_secs_f64() * 1e3,
            raw.as_secs_f64() * 1e3,
            api.as_secs_f64() / raw.as_secs_f64()
        );
    }
    println!();
    println!(
        "List with {foreign} other-user items in the table: p50 {:.2} ms (was {:.2} ms), Query capacity {capacity_after} RCU (was {capacity_before} RCU).",
        after.as_secs_f64() * 1e3,
        list_before.as_secs_f64() * 1e3,
    );
    sync_bench::run(&state, &base, &http, &token, user_id).await?;
    println!();
    println!(
        "Insights with {} transactions over 36 months ({totals} monthly totals, written in {:.1} s): \
         `GET /api/insights/monthly?from=2024-01&to=2026-12` p50 {:.2} ms, its Query {insights_units} RCU; \
         next to it a list page of 50 of the same user: p50 {:.2} ms, {list_units} RCU.",
        insights::TRANSACTIONS,
        fill_time.as_secs_f64(),
        insights_api.as_secs_f64() * 1e3,
        insights_list.as_secs_f64() * 1e3,
    );
    client.delete_table().table_name(&table).send().await?;
    Ok(())
}
