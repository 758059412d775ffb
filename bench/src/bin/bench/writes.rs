//! The transaction writes (create, update, delete) through the API, each next to its raw
//! calls: a `BatchGetItem` of its references, then one `TransactWriteItems`.

use reqwest::Method;
use serde_json::Value;
use shared::domain::time::Timestamp;
use shared::store::transactions::RefKeys;

use super::endpoints::{check, send, Bench, Row};
use super::fixture::{global_transaction, json_ok};
use super::stats::{pair, Stats, ROUNDS, WARMUP};

const BODY: &str = r#"{"amount": "12.34", "categoryId": 4, "date": "2026-03-01", "note": "bench"}"#;

fn body() -> Value {
    serde_json::from_str(BODY).unwrap_or_default()
}

fn draft(
    user_id: u64,
    id: u64,
    category: Option<&shared::domain::Category>,
) -> Option<shared::domain::Transaction> {
    let amount = shared::domain::Money::new(
        rust_decimal::Decimal::new(1234, 2),
        shared::domain::Currency::eur(),
    )
    .ok()?;
    let date = time::macros::date!(2026 - 03 - 01);
    let category = (4, category.map(|c| c.category_type)?);
    let mut t = global_transaction(user_id, id, amount, date, category, Timestamp::now());
    t.details.note = Some("bench".into());
    Some(t)
}

impl Bench<'_> {
    /// Creates a transaction through the API and returns its id.
    pub async fn create(&self) -> anyhow::Result<u64> {
        let r = json_ok(
            self.request(Method::POST, "/api/transactions")
                .json(&body()),
        )
        .await?;
        r["id"]
            .as_u64()
            .ok_or_else(|| anyhow::anyhow!("no id in {r}"))
    }

    /// The row of a transaction write, with the units one more `req` consumes.
    async fn write_row(
        &self,
        endpoint: &'static str,
        (api, raw): (Stats, Stats),
        req: reqwest::RequestBuilder,
    ) -> Row {
        let units = self.units(req).await;
        Row {
            endpoint,
            calls: "BatchGetItem, then TransactWriteItems",
            api,
            raw,
            units,
        }
    }

    /// The rows of the three writes.
    pub async fn writes(&self, rows: &mut Vec<Row>) -> anyhow::Result<()> {
        let (store, user_id) = (self.store, self.user_id);
        // POST /api/transactions: BatchGetItem of its references, then TransactWriteItems.
        let post = || {
            self.request(Method::POST, "/api/transactions")
                .json(&body())
        };
        let (api, raw) = pair(
            |_| send(post()),
            |_| async move {
                let keys = RefKeys {
                    category_id: Some(4),
                    ..Default::default()
                };
                let Some(refs) = check(store.fetch_refs(user_id, keys).await) else {
                    return;
                };
                let id = shared::domain::ids::new_id();
                if let Some(t) = draft(user_id, id, refs.category.as_ref()) {
                    let now = t.created_at.to_string();
                    check(
                        store
                            .insert_transaction(&t, None, Some(refs.feed_head), &now)
                            .await,
                    );
                }
            },
        )
        .await;
        rows.push(
            self.write_row("POST /api/transactions", (api, raw), post())
                .await,
        );

        // PUT /api/transactions/{id}: the same calls, on two transactions of its own.
        let (api_id, raw_id) = (self.create().await?, self.create().await?);
        let put_path = format!("/api/transactions/{api_id}");
        let put = || self.request(Method::PUT, &put_path).json(&body());
        let (api, raw) = pair(
            |_| send(put()),
            |_| async move {
                let keys = RefKeys {
                    category_id: Some(4),
                    transaction_id: Some(raw_id),
                    ..Default::default()
                };
                let Some(refs) = check(store.fetch_refs(user_id, keys).await) else {
                    return;
                };
                let Some(old) = refs.transaction.clone() else {
                    return;
                };
                let now = Timestamp::now();
                let new = shared::domain::Transaction {
                    version: old.version + 1,
                    updated_at: now,
                    ..draft(user_id, raw_id, refs.category.as_ref()).unwrap_or(old.clone())
                };
                let now = now.to_string();
                check(
                    store
                        .replace_transaction(&old, &new, Some(refs.feed_head), None, &now)
                        .await,
                );
            },
        )
        .await;
        rows.push(
            self.write_row("PUT /api/transactions/{id}", (api, raw), put())
                .await,
        );

        // DELETE /api/transactions/{id}: each round deletes a transaction made for it.
        let n = WARMUP + ROUNDS + 1;
        let mut api_ids = Vec::with_capacity(n);
        let mut raw_ids = Vec::with_capacity(n);
        for _ in 0..n {
            api_ids.push(self.create().await?);
            raw_ids.push(self.create().await?);
        }
        let delete = |id: u64| self.request(Method::DELETE, &format!("/api/transactions/{id}"));
        let raw_ids = &raw_ids;
        let (api, raw) = pair(
            |i| send(delete(api_ids[i])),
            |i| async move {
                let keys = RefKeys {
                    transaction_id: Some(raw_ids[i]),
                    ..Default::default()
                };
                let Some(refs) = check(store.fetch_refs(user_id, keys).await) else {
                    return;
                };
                if let Some(old) = refs.transaction {
                    let now = Timestamp::now().to_string();
                    check(
                        store
                            .remove_transaction(&old, Some(refs.feed_head), None, &now)
                            .await,
                    );
                }
            },
        )
        .await;
        rows.push(
            self.write_row(
                "DELETE /api/transactions/{id}",
                (api, raw),
                delete(api_ids[n - 1]),
            )
            .await,
        );
        Ok(())
    }
}

/// Write units of one create in a global category as AWS bills `TransactWriteItems` (2 per
/// item of up to 1 KB, the local-index copy included), next to the previous layout's.
pub async fn create_units(
    http: &reqwest::Client,
    base: &str,
    token: &str,
    meter: &super::meter::Meter,
) -> anyhow::Result<String> {
    let post = || {
        http.post(format!("{base}/api/transactions"))
            .bearer_auth(token)
            .json(&body())
    };
    send(post()).await;
    let (u, _) = meter.measure(send(post())).await;
    Ok(format!(
        "## Write units of a create\n\n\
         One `POST /api/transactions` in a global category, metered: {} calls, a \
         `TransactWriteItems` of {} items plus {} local-index copy: **{} WCU** as AWS bills \
         transactions (DynamoDB Local reported {} for the whole request), {} RCU. Before \
         (the previous layout, docs/CAPACITY.md history: a feed head item of its own and a \
         `ConditionCheck` on the global category's copy, 7 items): **14 WCU**.\n",
        u.calls,
        u.transact_items,
        u.index_copies,
        u.aws_write(),
        u.write,
        u.read
    ))
}
