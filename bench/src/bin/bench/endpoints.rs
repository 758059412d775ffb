//! Every endpoint a client calls in normal use, through the local server (real HTTP on
//! loopback), interleaved with the raw DynamoDB calls it needs, made through the store
//! with the same client; and the read and write units one call of each consumes.

use std::sync::atomic::{AtomicU64, Ordering};

use reqwest::Method;
use serde_json::json;
use shared::domain::LabelKind;
use shared::store::transactions::TxnFilter;
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

/// The raw calls behind one of the read endpoints.
#[derive(Clone, Copy)]
enum RawRead<'a> {
    Transaction(u64),
    Wallet,
    /// The first 50 of the list.
    Transactions(&'a TxnFilter),
    /// The global and the user's own, at once.
    Categories,
    Labels(LabelKind),
    User,
}

impl RawRead<'_> {
    /// Makes the calls, counting a failed one in [`FAILED`].
    async fn call(self, store: &Store, user_id: u64) {
        match self {
            RawRead::Transaction(id) => {
                check(store.get_transaction(user_id, id).await);
            }
            RawRead::Wallet => {
                check(store.get_wallet(user_id).await);
            }
            RawRead::Transactions(filter) => {
                check(store.list_transactions(user_id, filter, 50, None).await);
            }
            RawRead::Categories => {
                check(tokio::try_join!(
                    store.list_categories(user_id, true),
                    store.list_categories(user_id, false)
                ));
            }
            RawRead::Labels(kind) => {
                check(store.list_labels(user_id, kind).await);
            }
            RawRead::User => {
                check(store.get_user(user_id).await);
            }
        }
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
        let one = format!("/api/transactions/{id}");
        let filter = &TxnFilter::default();
        for (endpoint, calls, path, raw) in [
            (
                "GET /api/transactions/{id}",
                "GetItem",
                one.as_str(),
                RawRead::Transaction(id),
            ),
            ("GET /api/wallet", "GetItem", "/api/wallet", RawRead::Wallet),
            (
                "GET /api/transactions?limit=50",
                "Query (LSI1, 50 items)",
                "/api/transactions?limit=50",
                RawRead::Transactions(filter),
            ),
            (
                "GET /api/categories",
                "Query (global) ∥ Query (own)",
                "/api/categories",
                RawRead::Categories,
            ),
            (
                "GET /api/tags",
                "Query",
                "/api/tags",
                RawRead::Labels(LabelKind::Tag),
            ),
            (
                "GET /api/providers",
                "Query",
                "/api/providers",
                RawRead::Labels(LabelKind::Provider),
            ),
            ("GET /users/me", "GetItem", "/users/me", RawRead::User),
        ] {
            rows.push(
                self.read(endpoint, calls, path, || raw.call(store, user_id))
                    .await,
            );
        }
        Ok(rows)
    }
}
