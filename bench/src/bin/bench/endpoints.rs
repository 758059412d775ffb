//! Every endpoint a client calls in normal use, through the local server (real HTTP on
//! loopback), interleaved with the raw DynamoDB calls it needs, made through the store
//! with the same client; and the read and write units one call of each consumes.

use std::sync::atomic::{AtomicU64, Ordering};

use reqwest::Method;
use serde_json::json;
use shared::domain::LabelKind;
use shared::store::Store;

use super::meter::{Meter, Units};
use super::stats::{pair, Stats};

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
pub fn check<T, E>(r: Result<T, E>) -> Option<T> {
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

impl Bench<'_> {
    /// A request to `path` as the bench user.
    pub fn request(&self, method: Method, path: &str) -> reqwest::RequestBuilder {
        self.http
            .request(method, format!("{}{path}", self.base))
            .bearer_auth(self.token)
    }

    pub fn get(&self, path: &str) -> reqwest::RequestBuilder {
        self.request(Method::GET, path)
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

    /// The units one request through the endpoint consumes.
    pub async fn units(&self, req: reqwest::RequestBuilder) -> Units {
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

        self.writes(&mut rows).await?;

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
            ("/api/tags", LabelKind::Tag, "GET /api/tags"),
            ("/api/providers", LabelKind::Provider, "GET /api/providers"),
        ] {
            rows.push(
                self.read(endpoint, "Query", path, || async move {
                    check(store.list_labels(user_id, kind).await);
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
