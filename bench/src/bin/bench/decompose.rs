//! Where a point read's time goes beyond its `GetItem`.

use std::sync::atomic::Ordering;

use super::endpoints::{check, send, Bench, FAILED};
use super::stats::{pair, Stats};

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
