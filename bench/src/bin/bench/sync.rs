//! `make bench`, the change feed: the cost of one sync page (p50 and consumed read units)
//! with 10,000 changes in the user's feed, then with 100,000 other users' items in the
//! table. A page should cost the same in both: O(its changes).

use std::collections::HashMap;

use aws_sdk_dynamodb::types::{AttributeValue, ReturnConsumedCapacity};
use shared::app::sync::Position;
use shared::http::AppState;

const CHANGES: u64 = 10_000;
const TRANSACTIONS: u64 = 200;
const PAGE: usize = 200;

fn s(v: impl Into<String>) -> AttributeValue {
    AttributeValue::S(v.into())
}

fn n(v: impl ToString) -> AttributeValue {
    AttributeValue::N(v.to_string())
}

/// `count` change entries in `pk`'s feed about `ids` in turn (edits of the same items).
fn entries(
    pk: &str,
    first_seq: u64,
    count: u64,
    ids: &[u64],
) -> Vec<HashMap<String, AttributeValue>> {
    (0..count)
        .map(|i| {
            let seq = first_seq + i;
            HashMap::from([
                ("PK".to_owned(), s(pk)),
                ("SK".to_owned(), s(format!("CHG#{seq:016}"))),
                ("entity".to_owned(), s("transaction")),
                ("id".to_owned(), n(ids[(i as usize) % ids.len().max(1)])),
                ("op".to_owned(), s("upsert")),
                ("version".to_owned(), n(1)),
                ("atMs".to_owned(), n(1_790_000_000_000u64 + seq)),
                ("expiresAt".to_owned(), n(4_000_000_000u64)),
            ])
        })
        .collect()
}

/// Read units of the page's raw calls: the feed `Query` and the items' `BatchGetItem`s.
async fn page_capacity(
    state: &AppState,
    pk: &str,
    after: u64,
    ids: &[u64],
) -> anyhow::Result<(f64, f64)> {
    let client = state.store.client();
    let table = state.store.table();
    let query = client
        .query()
        .table_name(table)
        .key_condition_expression("PK = :pk AND SK BETWEEN :a AND :b")
        .expression_attribute_values(":pk", s(pk))
        .expression_attribute_values(":a", s(format!("CHG#{:016}", after + 1)))
        .expression_attribute_values(":b", s(format!("CHG#{:016}", u64::MAX / 10)))
        .consistent_read(true)
        .limit(PAGE as i32 + 1)
        .return_consumed_capacity(ReturnConsumedCapacity::Total)
        .send()
        .await?;
    let query_units = query
        .consumed_capacity
        .and_then(|c| c.capacity_units)
        .unwrap_or_default();
    let mut batch_units = 0.0;
    for chunk in ids.chunks(100) {
        let keys = chunk
            .iter()
            .map(|id| {
                HashMap::from([
                    ("PK".to_owned(), s(pk)),
                    ("SK".to_owned(), s(format!("TXN#{id:016}"))),
                ])
            })
            .collect();
        let request = aws_sdk_dynamodb::types::KeysAndAttributes::builder()
            .set_keys(Some(keys))
            .consistent_read(true)
            .build()?;
        let out = client
            .batch_get_item()
            .request_items(table, request)
            .return_consumed_capacity(ReturnConsumedCapacity::Total)
            .send()
            .await?;
        batch_units += out
            .consumed_capacity
            .unwrap_or_default()
            .iter()
            .filter_map(|c| c.capacity_units)
            .sum::<f64>();
    }
    Ok((query_units, batch_units))
}

pub async fn run(
    state: &AppState,
    base: &str,
    http: &reqwest::Client,
    token: &str,
    user_id: u64,
) -> anyhow::Result<()> {
    let pk = format!("USER#{user_id}");
    // The user's transactions the changes are about, written through the API.
    let mut ids = Vec::new();
    for i in 0..TRANSACTIONS {
        let body = serde_json::json!({"amount": "1.00", "categoryId": 4, "date": format!("2020-01-{:02}", 1 + i % 28)});
        let r: serde_json::Value = http
            .post(format!("{base}/api/transactions"))
            .bearer_auth(token)
            .json(&body)
            .send()
            .await?
            .json()
            .await?;
        ids.push(r["id"].as_u64().unwrap_or_default());
    }
    // 10,000 more changes in the user's feed, after what the writes above recorded.
    let head = state
        .store
        .feed_head(shared::store::feed::Feed::User(user_id))
        .await?;
    super::fixture::put_all(state, entries(&pk, head + 1, CHANGES, &ids)).await?;
    let mut feed_head = HashMap::from([("PK".to_owned(), s(&pk)), ("SK".to_owned(), s("FEED"))]);
    feed_head.insert("seq".to_owned(), n(head + CHANGES));
    super::fixture::put_all(state, vec![feed_head]).await?;

    // A page from the middle of the history.
    let cursors = state.tokens.cursors();
    let position = Position::Log {
        user_seq: head + CHANGES / 2,
        global_seq: 0,
        issued_ms: time::OffsetDateTime::now_utc().unix_timestamp() * 1000,
    };
    let cursor: String = form_urlencoded::byte_serialize(
        cursors.seal("sync", user_id, &position.encode()).as_bytes(),
    )
    .collect();
    let url = format!("{base}/api/sync?limit={PAGE}&cursor={cursor}");
    let page = |http: &reqwest::Client| {
        let req = http.get(&url).bearer_auth(token);
        async move {
            let _ = req.send().await.and_then(|r| r.error_for_status());
        }
    };
    let before = super::stats::single(|_| page(http)).await.p50;
    let (q1, b1) = page_capacity(state, &pk, head + CHANGES / 2, &ids).await?;

    // 100,000 items of other users: their transactions and their feeds.
    let mut foreign = Vec::new();
    for u in 0..100u64 {
        let other = format!("USER#{}", 9_000_000 + u);
        foreign.extend(entries(&other, 1, 500, &[1, 2, 3]));
        for i in 0..500u64 {
            foreign.push(HashMap::from([
                ("PK".to_owned(), s(&other)),
                ("SK".to_owned(), s(format!("TXN#{i:016}"))),
                ("note".to_owned(), s("x".repeat(200))),
            ]));
        }
    }
    let foreign_count = foreign.len();
    super::fixture::put_all(state, foreign).await?;
    let after = super::stats::single(|_| page(http)).await.p50;
    let (q2, b2) = page_capacity(state, &pk, head + CHANGES / 2, &ids).await?;

    println!("## A sync page\n");
    println!("`GET /api/sync?limit={PAGE}` from the middle of {CHANGES} changes about {TRANSACTIONS} transactions:");
    println!();
    println!("| table | p50 | feed Query RCU | items BatchGetItem RCU |");
    println!("|---|---|---|---|");
    println!(
        "| the user's {CHANGES} changes | {:.2} ms | {q1} | {b1} |",
        before.as_secs_f64() * 1e3
    );
    println!(
        "| plus {foreign_count} other users' items | {:.2} ms | {q2} | {b2} |",
        after.as_secs_f64() * 1e3
    );
    Ok(())
}
