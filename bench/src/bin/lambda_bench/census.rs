//! The DynamoDB calls each binary makes, counted before the timed runs: every process is
//! started once more with its endpoint on a counting proxy (loopback, in front of
//! DynamoDB Local), and the calls of its init, its first (cold) invocation and a warm one
//! are recorded. The table shows them beside the floor's, which must match (the floor a
//! row is compared with makes the same round trips); the timed runs go straight to
//! DynamoDB Local.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};

use super::{process, Case, LIMIT};

/// The calls of one binary: its init's, its cold invocation's and a warm one's, each as
/// `Operation` or `Operation(index)`, in order.
#[derive(Debug, Clone, Default)]
pub struct Calls {
    pub init: Vec<String>,
    pub cold: Vec<String>,
    pub warm: Vec<String>,
}

impl Calls {
    /// `init · cold · warm` counts.
    pub fn counts(&self) -> String {
        format!(
            "{} · {} · {}",
            self.init.len(),
            self.cold.len(),
            self.warm.len()
        )
    }

    pub fn same_round_trips(&self, other: &Calls) -> bool {
        (self.init.len(), self.cold.len(), self.warm.len())
            == (other.init.len(), other.cold.len(), other.warm.len())
    }
}

struct Proxy {
    upstream: String,
    http: reqwest::Client,
    calls: Mutex<Vec<String>>,
}

impl Proxy {
    fn take(&self) -> Vec<String> {
        std::mem::take(&mut *self.calls.lock().expect("lock"))
    }
}

async fn forward(State(proxy): State<Arc<Proxy>>, headers: HeaderMap, body: Bytes) -> Response {
    let operation = headers
        .get("x-amz-target")
        .and_then(|t| t.to_str().ok())
        .and_then(|t| t.rsplit('.').next())
        .unwrap_or("?")
        .to_owned();
    let index = serde_json::from_slice::<serde_json::Value>(&body)
        .ok()
        .and_then(|b| b["IndexName"].as_str().map(str::to_owned));
    let name = match index {
        Some(index) => format!("{operation}({index})"),
        None => operation,
    };
    proxy.calls.lock().expect("lock").push(name);
    let mut request = proxy.http.post(&proxy.upstream).body(body);
    for (name, value) in &headers {
        if name != "host" && name != "content-length" {
            request = request.header(name, value);
        }
    }
    let Ok(answer) = request.send().await else {
        return StatusCode::BAD_GATEWAY.into_response();
    };
    let status = answer.status();
    let mut out = HeaderMap::new();
    for (name, value) in answer.headers() {
        if name != "content-length" && name != "transfer-encoding" && name != "connection" {
            out.insert(name, value.clone());
        }
    }
    let body = answer.bytes().await.unwrap_or_default();
    (status, out, body).into_response()
}

/// Counts the calls of every case (one process each, one after the other). `n` is the
/// request number of each case's first census invocation (login needs unused users).
pub async fn census(
    cases: &[Case],
    env: &process::Env<'_>,
    n: usize,
) -> anyhow::Result<Vec<Calls>> {
    let proxy = Arc::new(Proxy {
        upstream: env.endpoint.to_owned(),
        http: reqwest::Client::new(),
        calls: Mutex::new(Vec::new()),
    });
    let app = axum::Router::new()
        .fallback(axum::routing::post(forward))
        .with_state(proxy.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let endpoint = format!("http://{}", listener.local_addr()?);
    let server = tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    let env = process::Env {
        endpoint: &endpoint,
        ..*env
    };
    let mut all = Vec::with_capacity(cases.len());
    for case in cases {
        proxy.take();
        let mut process = process::spawn(case, &env).await?;
        let started = Instant::now();
        while process.emulator.first_poll().is_none() && started.elapsed() < LIMIT {
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        let mut calls = Calls {
            init: proxy.take(),
            ..Calls::default()
        };
        process.invoke(case, n).await?;
        calls.cold = proxy.take();
        for k in 1..3 {
            process.invoke(case, n + k).await?;
            calls.warm = proxy.take();
        }
        process.stop();
        all.push(calls);
    }
    server.abort();
    Ok(all)
}
