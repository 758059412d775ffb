//! The whole API in one router, as API Gateway presents it: every function's routes on
//! one port, plus the docs. Used by the local server and by the API tests.

pub mod admin;
pub mod secret;
pub mod upgrade;

use axum::extract::Request;
use axum::http::{header, HeaderName, HeaderValue, Method};
use axum::middleware::{from_fn, Next};
use axum::serve::{ListenerExt, TapIo};
use axum::Router;
use shared::http::{router, with_fallback, AppState};
use shared::store::on_behalf_of;
use tokio::net::{TcpListener, TcpStream};
use tower_http::cors::{AllowOrigin, CorsLayer};

pub fn app(state: AppState) -> Router {
    let doc_path = state.config.doc_path.clone();
    let sort = docs_fn::Sort::parse(&state.config.sort);
    let cors = cors(&state.config.cors_allowed_origins);
    let mut merged = Router::new();
    for (name, api) in openapi::functions() {
        // Each function's calls are recorded as its own, for the check of its IAM policy.
        let on_behalf = move |request: Request, next: Next| on_behalf_of(name, next.run(request));
        merged = merged.merge(router(api, state.clone()).layer(from_fn(on_behalf)));
    }
    let app = with_fallback(merged.merge(docs_fn::router(&doc_path, sort)));
    match cors {
        Some(layer) => app.layer(layer),
        None => app,
    }
}

/// A loopback listener whose connections send small responses at once (`TCP_NODELAY`;
/// `axum::serve` leaves Nagle's algorithm on).
pub async fn listen(
    addr: impl tokio::net::ToSocketAddrs,
) -> std::io::Result<TapIo<TcpListener, fn(&mut TcpStream)>> {
    Ok(TcpListener::bind(addr).await?.tap_io(nodelay))
}

fn nodelay(tcp: &mut TcpStream) {
    if let Err(e) = tcp.set_nodelay(true) {
        tracing::debug!("TCP_NODELAY: {e}");
    }
}

/// CORS for browser frontends on `CORS_ALLOWED_ORIGINS` (in AWS, API Gateway answers
/// CORS from the template's parameter instead).
fn cors(origins: &[String]) -> Option<CorsLayer> {
    let origins: Vec<HeaderValue> = origins
        .iter()
        .filter_map(|o| HeaderValue::from_str(o).ok())
        .collect();
    if origins.is_empty() {
        return None;
    }
    Some(
        CorsLayer::new()
            .allow_origin(AllowOrigin::list(origins))
            .allow_methods([Method::GET, Method::POST, Method::PUT, Method::DELETE])
            .allow_headers([
                header::AUTHORIZATION,
                header::CONTENT_TYPE,
                header::IF_MATCH,
                HeaderName::from_static("idempotency-key"),
            ])
            .expose_headers([
                header::LOCATION,
                header::ETAG,
                header::LINK,
                header::RETRY_AFTER,
                HeaderName::from_static("idempotent-replayed"),
            ])
            .max_age(std::time::Duration::from_secs(600)),
    )
}
