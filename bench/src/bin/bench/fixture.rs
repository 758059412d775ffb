//! The benchmark's fixture: the service on a table of its own with a metering client,
//! users signed up through the API, and items written raw.

use aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder;
use aws_sdk_dynamodb::types::{AttributeValue, PutRequest, WriteRequest};
use serde_json::{json, Value};
use shared::http::AppState;
use shared::store::keys::user_pk;
use shared::store::Item;

use super::meter;

fn s(v: &str) -> AttributeValue {
    AttributeValue::S(v.to_owned())
}

/// A client configuration for DynamoDB Local at `endpoint` (any credentials do).
pub async fn client_config(endpoint: &str) -> aws_sdk_dynamodb::config::Builder {
    let sdk = shared::store::sdk_defaults()
        .endpoint_url(endpoint)
        .region(aws_sdk_dynamodb::config::Region::new("eu-west-1"))
        .credentials_provider(aws_sdk_dynamodb::config::Credentials::new(
            "local", "local", None, None, "bench",
        ))
        .load()
        .await;
    aws_sdk_dynamodb::config::Builder::from(&sdk)
}

/// The service's state on a table of its own, with a client that also meters capacity.
pub async fn state(endpoint: &str, meter: &meter::Meter) -> anyhow::Result<AppState> {
    let table = format!("bench-{}", std::process::id());
    let secret = shared::config::Secret::new(b"bench-secret-0123456789abcdef-0123456789".to_vec());
    let config = bench::bench_config(&table, endpoint, &secret);
    let counter = shared::store::CallCounter::default();
    let client_config = client_config(endpoint)
        .await
        .interceptor(counter.clone())
        .interceptor(meter.clone())
        .build();
    let client = aws_sdk_dynamodb::Client::from_conf(client_config);
    let store = shared::store::Store::new(client, &table, counter);
    store.ensure_table().await?;
    store.seed_global_categories("2026-01-01T00:00:00").await?;
    Ok(AppState {
        store,
        tokens: std::sync::Arc::new(shared::auth::token::TokenKeys::new(&secret)),
        mail: std::sync::Arc::new(shared::mail::Mailer::Off),
        config: std::sync::Arc::new(config),
    })
}

/// A version-1 transaction of `user_id`'s in a global category, without note, provider
/// or tags, created and last updated `at`: the fixture the raw writes store.
pub fn global_transaction(
    user_id: u64,
    id: u64,
    amount: shared::domain::Money,
    date: time::Date,
    (category_id, category_type): (u64, shared::domain::CategoryType),
    at: shared::domain::time::Timestamp,
) -> shared::domain::Transaction {
    shared::domain::Transaction {
        user_id,
        id,
        date,
        details: shared::domain::Details {
            amount,
            note: None,
            category_id,
            category_type,
            category_global: true,
            provider_id: None,
            tag_ids: vec![],
            splits: vec![],
        },
        category_source: shared::domain::CategorySource::User,
        recurring_id: None,
        version: 1,
        created_at: at,
        updated_at: at,
    }
}

/// Sends a request and returns the JSON of its answer, an error unless it is a success.
pub async fn json_ok(req: reqwest::RequestBuilder) -> anyhow::Result<Value> {
    Ok(req.send().await?.error_for_status()?.json().await?)
}

/// The password of the benchmark's users.
pub const PASSWORD: &str = "correct horse battery staple";

/// Registers a user and signs them in: (id, token).
pub async fn sign_up(
    http: &reqwest::Client,
    base: &str,
    email: &str,
) -> anyhow::Result<(u64, String)> {
    let reg = json!({"firstname": "B", "lastname": "Ench", "email": email, "password": PASSWORD, "confirmPassword": PASSWORD});
    let user = json_ok(http.post(format!("{base}/auth/register")).json(&reg)).await?;
    let id = user["id"]
        .as_u64()
        .ok_or_else(|| anyhow::anyhow!("no id"))?;
    Ok((id, log_in(http, base, email).await?))
}

/// Signs a user of the benchmark in: their token.
pub async fn log_in(http: &reqwest::Client, base: &str, email: &str) -> anyhow::Result<String> {
    let body = json!({"email": email, "password": PASSWORD});
    let login = json_ok(http.post(format!("{base}/auth/login")).json(&body)).await?;
    let token = login["token"]
        .as_str()
        .ok_or_else(|| anyhow::anyhow!("no token"))?;
    Ok(token.to_owned())
}

/// Creates a transaction of 1.00 in category 4 on `date` through the API.
pub async fn create_transaction(
    http: &reqwest::Client,
    base: &str,
    token: &str,
    date: &str,
) -> anyhow::Result<()> {
    let body = json!({"amount": "1.00", "categoryId": 4, "date": date});
    http.post(format!("{base}/api/transactions"))
        .bearer_auth(token)
        .json(&body)
        .send()
        .await?
        .error_for_status()?;
    Ok(())
}

/// Puts `count` items of another user (transactions with a 200-byte note) into the table.
pub async fn foreign_items(state: &AppState, pk: &str, count: usize) -> anyhow::Result<()> {
    let items = (0..count)
        .map(|i| {
            std::collections::HashMap::from([
                ("PK".to_owned(), s(pk)),
                ("SK".to_owned(), s(&format!("TXN#{i:016}"))),
                ("LSI1SK".to_owned(), s(&format!("TXN#2026-03-01#{i:016}"))),
                ("note".to_owned(), s(&"x".repeat(200))),
            ])
        })
        .collect();
    put_all(state, items).await
}

/// Writes items into the service's table as [`put_items`] does.
pub async fn put_all(state: &AppState, items: Vec<shared::store::Item>) -> anyhow::Result<()> {
    put_items(state.store.client(), state.store.table(), items).await
}

/// Writes items with `BatchWriteItem`, 25 at a time, one call after the other, until none
/// is left unprocessed.
pub async fn put_items(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
    items: Vec<shared::store::Item>,
) -> anyhow::Result<()> {
    let writes: Vec<WriteRequest> = items
        .into_iter()
        .map(|item| {
            let put = PutRequest::builder().set_item(Some(item)).build();
            put.map(|p| WriteRequest::builder().put_request(p).build())
        })
        .collect::<Result<_, _>>()?;
    for chunk in writes.chunks(25) {
        let mut pending = chunk.to_vec();
        while !pending.is_empty() {
            let out = client
                .batch_write_item()
                .request_items(table, pending)
                .send()
                .await?;
            pending = out
                .unprocessed_items
                .and_then(|mut u| u.remove(table))
                .unwrap_or_default();
        }
    }
    Ok(())
}

/// A new user ("sync-labels@example.com") with `transactions` transactions and, made
/// before them through the API, `(categories, tags, providers)` of their own: their token.
pub async fn labelled_user(
    http: &reqwest::Client,
    base: &str,
    transactions: u64,
    (categories, tags, providers): (usize, usize, usize),
) -> anyhow::Result<String> {
    let (_, token) = sign_up(http, base, "sync-labels@example.com").await?;
    let post = |path: &str, body: Value| {
        http.post(format!("{base}{path}"))
            .bearer_auth(&token)
            .json(&body)
    };
    for i in 0..categories {
        let body = json!({"categoryName": format!("own {i}"), "type": "DEBIT"});
        json_ok(post("/api/categories", body)).await?;
    }
    for i in 0..tags {
        json_ok(post("/api/tags", json!({"tagName": format!("tag {i}")}))).await?;
    }
    for i in 0..providers {
        let body = json!({"providerName": format!("payee {i}")});
        json_ok(post("/api/providers", body)).await?;
    }
    for i in 0..transactions {
        let date = format!("2020-02-{:02}", 1 + i % 28);
        create_transaction(http, base, &token, &date).await?;
    }
    Ok(token)
}

/// A strongly consistent `Query` of the user's `TXN#` items by `begins_with` (the service
/// sends a `BETWEEN` range instead: see `raw_side_by_side`).
pub(super) fn begins_with_txn(state: &AppState, user_id: u64) -> QueryFluentBuilder {
    let store = &state.store;
    store
        .client()
        .query()
        .table_name(store.table())
        .key_condition_expression("PK = :pk AND begins_with(SK, :p)")
        .expression_attribute_values(":pk", s(&user_pk(user_id)))
        .expression_attribute_values(":p", s("TXN#"))
        .consistent_read(true)
}

/// The user's transactions as stored (`TXN#` items), by id.
pub(super) async fn stored_transactions(
    state: &AppState,
    user_id: u64,
) -> anyhow::Result<Vec<(u64, Item)>> {
    let mut found = Vec::new();
    let mut start = None;
    loop {
        let query = begins_with_txn(state, user_id).set_exclusive_start_key(start);
        let out = query.send().await?;
        for item in out.items.unwrap_or_default() {
            let id = item
                .get("SK")
                .and_then(|v| v.as_s().ok())
                .and_then(|sk| sk.strip_prefix("TXN#")?.parse().ok())
                .unwrap_or_default();
            found.push((id, item));
        }
        start = out.last_evaluated_key;
        if start.is_none() {
            return Ok(found);
        }
    }
}
