//! A Lambda Runtime API emulator on loopback, one per spawned function process: the
//! runtime long-polls `GET /2018-06-01/runtime/invocation/next` for an event, answers with
//! `POST …/invocation/{id}/response` (or `…/error`), and reports a failed start with
//! `POST …/init/error`. Each answer is timestamped when its body has arrived.
//!
//! A fresh emulator (its own port and queue) serves each process, so a killed process's
//! pending long-poll can never swallow the next process's event.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use tokio::sync::{mpsc, oneshot};

const FUNCTION_ARN: &str = "arn:aws:lambda:eu-west-1:123456789012:function:bench";

/// How an invocation ended, with the time its answer arrived.
#[derive(Debug)]
pub enum Outcome {
    Response { at: Instant, body: Bytes },
    Error { body: String },
}

struct Pending {
    request_id: String,
    event: Bytes,
}

struct Shared {
    queue: tokio::sync::Mutex<mpsc::UnboundedReceiver<Pending>>,
    waiting: Mutex<HashMap<String, oneshot::Sender<Outcome>>>,
    init_error: Mutex<Option<String>>,
    first_poll: Mutex<Option<Instant>>,
}

/// One emulator: its address (for `AWS_LAMBDA_RUNTIME_API`) and its event queue.
pub struct Emulator {
    pub addr: std::net::SocketAddr,
    send: mpsc::UnboundedSender<Pending>,
    shared: Arc<Shared>,
    server: tokio::task::JoinHandle<()>,
    next_id: u64,
}

impl Emulator {
    pub async fn start() -> anyhow::Result<Self> {
        let (send, receive) = mpsc::unbounded_channel();
        let shared = Arc::new(Shared {
            queue: tokio::sync::Mutex::new(receive),
            waiting: Mutex::new(HashMap::new()),
            init_error: Mutex::new(None),
            first_poll: Mutex::new(None),
        });
        let app = Router::new()
            .route("/2018-06-01/runtime/invocation/next", get(next))
            .route(
                "/2018-06-01/runtime/invocation/{id}/response",
                post(response),
            )
            .route("/2018-06-01/runtime/invocation/{id}/error", post(error))
            .route("/2018-06-01/runtime/init/error", post(init_error))
            .with_state(shared.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let server = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Ok(Self {
            addr,
            send,
            shared,
            server,
            next_id: 0,
        })
    }

    /// Queues an event (the process takes it at its next poll) and returns the time it
    /// was queued and a receiver for its outcome.
    pub fn queue(&mut self, event: &serde_json::Value) -> (Instant, oneshot::Receiver<Outcome>) {
        self.next_id += 1;
        let request_id = format!("8476a536-e9f4-11e8-9739-{:012x}", self.next_id);
        let (tx, rx) = oneshot::channel();
        self.shared
            .waiting
            .lock()
            .expect("lock")
            .insert(request_id.clone(), tx);
        let event = Bytes::from(serde_json::to_vec(event).expect("an event serialises"));
        let at = Instant::now();
        let _ = self.send.send(Pending { request_id, event });
        (at, rx)
    }

    /// Waits for an outcome, up to `limit`: an error names an init error or the time-out.
    pub async fn wait(
        &self,
        rx: oneshot::Receiver<Outcome>,
        limit: Duration,
    ) -> anyhow::Result<Outcome> {
        let deadline = Instant::now() + limit;
        let mut rx = rx;
        loop {
            match tokio::time::timeout(Duration::from_millis(20), &mut rx).await {
                Ok(Ok(outcome)) => return Ok(outcome),
                Ok(Err(_)) => anyhow::bail!("the emulator dropped the invocation"),
                Err(_) => {
                    if let Some(e) = self.shared.init_error.lock().expect("lock").clone() {
                        anyhow::bail!("init error: {e}");
                    }
                    if Instant::now() >= deadline {
                        anyhow::bail!("no answer within {limit:?}");
                    }
                }
            }
        }
    }
}

impl Emulator {
    /// When the process first asked for an event: the end of its init phase.
    pub fn first_poll(&self) -> Option<Instant> {
        *self.shared.first_poll.lock().expect("lock")
    }
}

impl Drop for Emulator {
    fn drop(&mut self) {
        self.server.abort();
    }
}

async fn next(State(shared): State<Arc<Shared>>) -> Response {
    shared
        .first_poll
        .lock()
        .expect("lock")
        .get_or_insert_with(Instant::now);
    let pending = shared.queue.lock().await.recv().await;
    let Some(Pending { request_id, event }) = pending else {
        return StatusCode::GONE.into_response();
    };
    let deadline = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default()
        + Duration::from_secs(30);
    let mut headers = HeaderMap::new();
    let mut put = |name: &'static str, value: String| {
        if let Ok(v) = HeaderValue::from_str(&value) {
            headers.insert(name, v);
        }
    };
    put("lambda-runtime-aws-request-id", request_id);
    put(
        "lambda-runtime-deadline-ms",
        deadline.as_millis().to_string(),
    );
    put("lambda-runtime-invoked-function-arn", FUNCTION_ARN.into());
    put(
        "lambda-runtime-trace-id",
        "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=0".into(),
    );
    put("content-type", "application/json".into());
    (headers, event).into_response()
}

fn finish(shared: &Shared, id: &str, outcome: Outcome) -> StatusCode {
    match shared.waiting.lock().expect("lock").remove(id) {
        Some(tx) => {
            let _ = tx.send(outcome);
            StatusCode::ACCEPTED
        }
        None => StatusCode::BAD_REQUEST,
    }
}

async fn response(
    State(shared): State<Arc<Shared>>,
    Path(id): Path<String>,
    body: Bytes,
) -> StatusCode {
    let at = Instant::now();
    finish(&shared, &id, Outcome::Response { at, body })
}

async fn error(
    State(shared): State<Arc<Shared>>,
    Path(id): Path<String>,
    body: Bytes,
) -> StatusCode {
    let body = String::from_utf8_lossy(&body).into_owned();
    finish(&shared, &id, Outcome::Error { body })
}

async fn init_error(State(shared): State<Arc<Shared>>, body: Bytes) -> StatusCode {
    *shared.init_error.lock().expect("lock") = Some(String::from_utf8_lossy(&body).into_owned());
    StatusCode::ACCEPTED
}

/// The HTTP status and body of a function's answer (API Gateway's v2 response shape:
/// `statusCode`, `headers`, `body`, `isBase64Encoded`).
pub fn http_answer(body: &[u8]) -> anyhow::Result<(u16, String)> {
    let value: serde_json::Value = serde_json::from_slice(body)?;
    let status = value["statusCode"]
        .as_u64()
        .and_then(|s| u16::try_from(s).ok())
        .ok_or_else(|| anyhow::anyhow!("no statusCode in {value}"))?;
    let text = value["body"].as_str().unwrap_or_default().to_owned();
    Ok((status, text))
}
