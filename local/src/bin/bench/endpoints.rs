//! Every endpoint a client calls in normal use, through the local server (real HTTP on
//! loopback), interleaved with the raw DynamoDB calls it needs, made through the store
//! with the same client; and the read and write units one call of each consumes.

use std::sync::atomic::{AtomicU64, Ordering};

use reqwest::Method;
use serde_json::{json, Value};
use shared::domain::time::Timestamp;
use shared::store::named::Kind;
use shared::store::transactions::RefKeys;
use shared::store::Store;

use super::global_transaction;
use super::meter::{Meter, Units};
use super::stats::{pair, Stats, ROUNDS, WARMUP};

/// Requests of the benchmark that did not succeed (reported; the figures are void if any).
pub static FAILED: AtomicU64 = AtomicU64::new(0);

/// Sends a request, counting a failure or a non-2xx answer in [`FAILED`].
pub async fn send(req: reqwest::RequestBuilder) {
    match req.send().await {
        Ok(r) if r.status().is_success() => {
            let _ = r.bytes().await;
        }
        _ => {
            FAILED.fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// Counts a failed raw call.
fn check<T, E>(r: Result<T, E>) -> Option<T> {
    if r.is_err() {
        FAILED.fetch_add(1, Ordering::Relaxed);
    }
    r.ok()
}

/// One endpoint next to its raw calls.
pub struct Row {
    pub endpoint: &'static str,
    pub calls: &'static str,
    pub api: Stats,
    pub raw: Stats,
    /// What one request through the endpoint consumed.
    pub units: Units,
}

impl Row {
    pub fn ratio(&self) -> f64 {
        self.api.p50.as_secs_f64() / self.raw.p50.as_secs_f64()
    }
}

/// The signed-in user the endpoints are measured for.
pub struct Bench<'a> {
    pub store: &'a Store,
    pub meter: &'a Meter,
    pub http: &'a reqwest::Client,
    pub base: &'a str,
    pub token: &'a str,
    pub user_id: u64,
}

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
    Some(shared::domain::Transaction {
        note: Some("bench".into()),
        ..global_transaction(user_id, id, amount, date, category, Timestamp::now())
    })
}

impl Bench<'_> {
    /// A request to `path` as the bench user.
    fn request(&self, method: Method, path: &str) -> reqwest::RequestBuilder {
        self.http
            .request(method, format!("{}{path}", self.base))
            .bearer_auth(self.token)
    }

    fn get(&self, path: &str) -> reqwest::RequestBuilder {
        self.request(Method::GET, path)
    }

    /// Creates a transaction through the API and returns its id.
    async fn create(&self) -> anyhow::Result<u64> {
        let r: Value = self
            .request(Method::POST, "/api/transactions")
            .json(&body())
            .send()
            .await?
            .error_for_status()?
            .json()
            .await?;
        r["id"]
            .as_u64()
            .ok_or_else(|| anyhow::anyhow!("no id in {r}"))
    }

    /// A GET of `path` next to `raw`, with the units one request consumes.
    async fn read<F, Fut>(
        &self,
        endpoint: &'static str,
        calls: &'static str,
        path: &str,
        raw: F,
    ) -> Row
    where
        F: Fn() -> Fut,
        Fut: std::future::Future<Output = ()>,
    {
        let (api, raw) = pair(|_| send(self.get(path)), |_| raw()).await;
        let units = self.units(self.get(path)).await;
        Row {
            endpoint,
            calls,
            api,
            raw,
            units,
        }
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

    /// The units one request through the endpoint consumes.
    async fn units(&self, req: reqwest::RequestBuilder) -> Units {
        self.meter.measure(send(req)).await.0
    }

    pub async fn run(&self) -> anyhow::Result<Vec<Row>> {
        let mut rows = Vec::new();
        let (store, user_id) = (self.store, self.user_id);
        for (kind, field) in [("tags", "tagName"), ("providers", "providerName")] {
            for name in ["groceries", "rent", "travel"] {
                let path = format!("/api/{kind}");
                send(
                    self.request(Method::POST, &path)
                        .json(&json!({ field: name })),
                )
                .await;
            }
        }

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

        // Reads.
        let id = self.create().await?;
        let path = format!("/api/transactions/{id}");
        rows.push(
            self.read(
                "GET /api/transactions/{id}",
                "GetItem",
                &path,
                || async move {
                    check(store.get_transaction(user_id, id).await);
                },
            )
            .await,
        );
        rows.push(
            self.read("GET /api/wallet", "GetItem", "/api/wallet", || async move {
                check(store.get_wallet(user_id).await);
            })
            .await,
        );
        let filter = &shared::store::transactions::TxnFilter::default();
        let list = "/api/transactions?limit=50";
        rows.push(
            self.read(
                "GET /api/transactions?limit=50",
                "Query (LSI1, 50 items)",
                list,
                || async move {
                    check(store.list_transactions(user_id, filter, 50, None).await);
                },
            )
            .await,
        );
        let calls = "Query (global) ∥ Query (own)";
        rows.push(
            self.read(
                "GET /api/categories",
                calls,
                "/api/categories",
                || async move {
                    check(tokio::try_join!(
                        store.list_categories(user_id, true),
                        store.list_categories(user_id, false)
                    ));
                },
            )
            .await,
        );
        for (path, kind, endpoint) in [
            ("/api/tags", Kind::Tag, "GET /api/tags"),
            ("/api/providers", Kind::Provider, "GET /api/providers"),
        ] {
            rows.push(
                self.read(endpoint, "Query", path, || async move {
                    check(store.list_named(user_id, kind).await);
                })
                .await,
            );
        }
        rows.push(
            self.read("GET /users/me", "GetItem", "/users/me", || async move {
                check(store.get_user(user_id).await);
            })
            .await,
        );
        Ok(rows)
    }
}

/// Where a point read's time goes beyond its `GetItem`: the same request through the
/// router in process (no HTTP), and an HTTP request the service answers without
/// DynamoDB (403: no token), next to the full endpoint and the raw call.
pub async fn decompose(b: &Bench<'_>, router: axum::Router) -> anyhow::Result<String> {
    use tower::ServiceExt;
    let (store, user_id) = (b.store, b.user_id);
    let bearer = format!("Bearer {}", b.token);
    let in_process = || {
        let request = axum::http::Request::get("/api/wallet")
            .header(axum::http::header::AUTHORIZATION, &bearer)
            .body(axum::body::Body::empty());
        let router = router.clone();
        async move {
            let ok = match request {
                Ok(r) => match router.oneshot(r).await {
                    Ok(resp) if resp.status().is_success() => {
                        axum::body::to_bytes(resp.into_body(), 1 << 20)
                            .await
                            .is_ok()
                    }
                    _ => false,
                },
                Err(_) => false,
            };
            if !ok {
                FAILED.fetch_add(1, Ordering::Relaxed);
            }
        }
    };
    let (full, raw) = pair(
        |_| send(b.get("/api/wallet")),
        |_| async move {
            check(store.get_wallet(user_id).await);
        },
    )
    .await;
    let (routed, _) = pair(|_| in_process(), |_| async {}).await;
    let url = format!("{}/api/wallet", b.base);
    let (unauthorised, _) = pair(
        |_| {
            let req = b.http.get(&url);
            async move {
                match req.send().await {
                    Ok(r) if r.status() == reqwest::StatusCode::FORBIDDEN => {
                        let _ = r.bytes().await;
                    }
                    _ => {
                        FAILED.fetch_add(1, Ordering::Relaxed);
                    }
                }
            }
        },
        |_| async {},
    )
    .await;
    let row = |what: &str, s: Stats| {
        format!("| {what} | {:.3} ms | {:.3} ms |\n", s.p50_ms(), s.p99_ms())
    };
    let mut out = String::from(
        "### Where a point read's time goes (`GET /api/wallet`)\n\n| path | p50 | p99 |\n|---|---|---|\n",
    );
    out.push_str(&row("the raw `GetItem` (through the store)", raw));
    out.push_str(&row(
        "the router in process: middleware, token check, handler, `GetItem`, JSON (no HTTP)",
        routed,
    ));
    out.push_str(&row(
        "HTTP on loopback to the local server, refused without DynamoDB (no token: 403)",
        unauthorised,
    ));
    out.push_str(&row("the endpoint over HTTP", full));
    Ok(out)
}
