//! Shared responders: a created resource (`201`, `Location`, optionally `ETag`), a
//! versioned one (`ETag`), and a page of a list or an export (`Link: <...>; rel="next"`).

use axum::http::{header, HeaderName, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use super::extract::Json;

fn header_value(text: &str) -> Option<HeaderValue> {
    HeaderValue::from_str(text).ok()
}

/// The ETag of a version: `"<n>"`.
pub fn etag(version: u64) -> String {
    format!("\"{version}\"")
}

/// `201 Created` with `Location` (and `ETag` when versioned).
pub struct Created<T> {
    pub location: String,
    pub version: Option<u64>,
    pub body: T,
}

impl<T> Created<T> {
    pub fn at(location: impl Into<String>, body: T) -> Self {
        Self {
            location: location.into(),
            version: None,
            body,
        }
    }

    /// The item `id` of `collection` (`Location: <collection>/<id>`) at `version`.
    pub fn item(collection: &str, id: u64, version: u64, body: T) -> Self {
        Self::at(format!("{collection}/{id}"), body).versioned(version)
    }

    pub fn versioned(mut self, version: u64) -> Self {
        self.version = Some(version);
        self
    }
}

impl<T: Serialize> IntoResponse for Created<T> {
    fn into_response(self) -> Response {
        let mut response = (StatusCode::CREATED, Json(self.body)).into_response();
        let headers = response.headers_mut();
        if let Some(v) = header_value(&self.location) {
            headers.insert(header::LOCATION, v);
        }
        if let Some(v) = self.version.and_then(|v| header_value(&etag(v))) {
            headers.insert(header::ETAG, v);
        }
        response
    }
}

/// `200 OK` with the body's version as `ETag`.
pub struct Versioned<T> {
    pub version: u64,
    pub body: T,
}

impl<T> Versioned<T> {
    pub fn new(version: u64, body: T) -> Self {
        Self { version, body }
    }
}

impl<T: Serialize> IntoResponse for Versioned<T> {
    fn into_response(self) -> Response {
        let mut response = Json(self.body).into_response();
        if let Some(v) = header_value(&etag(self.version)) {
            response.headers_mut().insert(header::ETAG, v);
        }
        response
    }
}

/// A page of a list: a JSON array, and `Link: <next>; rel="next"` when more may follow.
pub struct Page<T> {
    pub items: Vec<T>,
    /// The URL (path and query) of the next page.
    pub next: Option<String>,
}

impl<T: Serialize> IntoResponse for Page<T> {
    fn into_response(self) -> Response {
        with_next(self.next, Json(self.items).into_response())
    }
}

/// Adds `Link: <next>; rel="next"` to a response when a next page's URL is given.
pub fn with_next(next: Option<String>, mut response: Response) -> Response {
    if let Some(v) = next.and_then(|next| header_value(&format!("<{next}>; rel=\"next\""))) {
        response.headers_mut().insert(header::LINK, v);
    }
    response
}

/// The response, marked as a replay of an earlier request (`Idempotent-Replayed: true`)
/// when it is one.
pub fn replayed(replay: bool, response: impl IntoResponse) -> Response {
    let mut response = response.into_response();
    if replay {
        response.headers_mut().insert(
            HeaderName::from_static("idempotent-replayed"),
            HeaderValue::from_static("true"),
        );
    }
    response
}

/// `If-None-Match` on a read: `304 Not Modified` (no body, the same `ETag`) when the
/// response's `ETag` is one the client already holds (or `*`).
pub async fn not_modified(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let is_read = request.method() == axum::http::Method::GET;
    let held = request
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    if held.as_ref().is_some_and(|h| h.len() > 256) {
        return super::ApiError::bad_request("If-None-Match is at most 256 characters")
            .into_response();
    }
    let response = next.run(request).await;
    let (true, Some(held), StatusCode::OK) = (is_read, held, response.status()) else {
        return response;
    };
    let Some(current) = response.headers().get(header::ETAG).cloned() else {
        return response;
    };
    let current_text = current.to_str().unwrap_or_default();
    let weak = |t: &str| t.trim().trim_start_matches("W/").to_owned();
    let matches = held
        .split(',')
        .any(|t| t.trim() == "*" || weak(t) == weak(current_text));
    if !matches {
        return response;
    }
    let mut not_modified = StatusCode::NOT_MODIFIED.into_response();
    not_modified.headers_mut().insert(header::ETAG, current);
    not_modified
}
