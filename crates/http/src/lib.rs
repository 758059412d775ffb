//! HTTP glue shared by every function: state, error body, extractors, auth, common layers.

pub mod auth;
pub mod client;
pub mod decimal;
pub mod docs;
pub mod dto;
pub mod error;
pub mod extract;
pub mod fields;
pub mod ids;
pub mod invoke;
pub mod item;
pub mod labels;
pub mod lambda;
pub mod money;
pub mod paging;
pub mod respond;
pub mod users;

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{DefaultBodyLimit, Request};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Router;
use tower_http::catch_panic::CatchPanicLayer;

pub use error::{ApiError, FieldError, Problem};
use pf_auth::token::TokenKeys;
use pf_config::Config;
use pf_store::Store;

/// What a function's `main.rs` reads and installs at cold start.
pub use pf_config as config;
pub use pf_mail as mail;

/// JSON bodies are at most 64 KiB.
pub const MAX_BODY_BYTES: usize = 64 * 1024;

/// Everything a handler needs, built once at cold start and cheap to clone.
#[derive(Clone, Debug)]
pub struct AppState {
    pub store: Store,
    pub tokens: Arc<TokenKeys>,
    pub config: Arc<Config>,
    /// Outgoing mail (reset and verification links).
    pub mail: Arc<pf_mail::Mailer>,
}

impl AppState {
    /// What mailing a link needs.
    pub fn links(&self) -> pf_app::accounts::Links<'_> {
        pf_app::accounts::Links {
            mailer: &self.mail,
            app_url: &self.config.app_url,
        }
    }

    /// A password attempt's origin for the throttles.
    pub fn origin<'a>(&self, client: &'a client::ClientAddr) -> pf_app::accounts::Origin<'a> {
        pf_app::accounts::Origin {
            address: client.as_str(),
            failures_per_address: self.config.login_failures_per_address,
        }
    }
}

pub type ApiResult<T> = Result<T, ApiError>;

/// A function's router: its documented routes (each function crate's `api()`), finished
/// as every function's are ([`finish`]).
pub fn router(api: utoipa_axum::router::OpenApiRouter<AppState>, state: AppState) -> Router {
    finish(api.split_for_parts().0, state)
}

/// Wraps a function's routes with what every endpoint shares: the body limit, problem
/// bodies for wrong methods, the request path in error bodies, a generic 500 (never
/// a panic message) if a handler panics, and `Cache-Control: no-store` on every answer
/// (errors and the panic's 500 included).
fn finish(router: Router<AppState>, state: AppState) -> Router {
    router
        .method_not_allowed_fallback(|| async { ApiError::MethodNotAllowed })
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(axum::middleware::from_fn(fill_problem_path))
        .layer(axum::middleware::from_fn(respond::not_modified))
        // No response is ever to be content-sniffed (pictures above all).
        .layer(axum::middleware::map_response(
            |mut r: Response| async move {
                r.headers_mut().insert(
                    header::X_CONTENT_TYPE_OPTIONS,
                    axum::http::HeaderValue::from_static("nosniff"),
                );
                r
            },
        ))
        .layer(CatchPanicLayer::custom(
            |_: Box<dyn std::any::Any + Send>| {
                ApiError::Internal(anyhow::anyhow!("handler panicked")).into_response()
            },
        ))
        .layer(axum::middleware::map_response(no_store))
        .with_state(state)
}

/// Every answer of a function is private (a user's data, a token, or an error about
/// them): no cache, the browser's or a proxy's, may keep it. Only the docs, which are not
/// a function's routes, may be cached.
async fn no_store(mut response: Response) -> Response {
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// Adds the problem+json 404 for unknown paths. Applied once to a whole app (a single
/// function, or all of them merged in the local server: merged routers may not each
/// carry a fallback).
pub fn with_fallback(router: Router) -> Router {
    router
        .fallback(|| async { ApiError::NotFound("no such endpoint".into()) })
        .layer(axum::middleware::from_fn(fill_problem_path))
}

/// Puts the request path into problem bodies (`path`, `instance`) and turns the body
/// limit's plain-text 413 into a problem body.
pub async fn fill_problem_path(request: Request, next: Next) -> Response {
    let path = request.uri().path().to_owned();
    let response = next.run(request).await;
    if let Some(problem) = response.extensions().get::<Problem>() {
        let mut problem = problem.clone();
        problem.path = path.clone();
        problem.instance = path;
        let (mut parts, _) = response.into_parts();
        let body = serde_json::to_vec(&problem).unwrap_or_default();
        parts.headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static(error::PROBLEM_JSON),
        );
        parts.headers.remove(header::CONTENT_LENGTH);
        return Response::from_parts(parts, Body::from(body));
    }
    if response.status() == StatusCode::PAYLOAD_TOO_LARGE {
        let mut r = ApiError::PayloadTooLarge(format!("body exceeds {MAX_BODY_BYTES} bytes"))
            .into_response();
        if let Some(problem) = r.extensions_mut().get_mut::<Problem>() {
            problem.path = path.clone();
            problem.instance = path;
            let body = serde_json::to_vec(problem).unwrap_or_default();
            *r.body_mut() = Body::from(body);
        }
        return r;
    }
    response
}
