//! Extractors whose rejections are the API's own error body, never axum's plain text.

use axum::extract::{FromRequest, FromRequestParts};

use super::error::ApiError;

/// `axum::Json` with problem+json rejections.
#[derive(Debug, Clone, Copy, Default, FromRequest)]
#[from_request(via(axum::Json), rejection(ApiError))]
pub struct Json<T>(pub T);

impl<T: serde::Serialize> axum::response::IntoResponse for Json<T> {
    fn into_response(self) -> axum::response::Response {
        axum::Json(self.0).into_response()
    }
}

/// `axum::extract::Path` with problem+json rejections.
#[derive(Debug, FromRequestParts)]
#[from_request(via(axum::extract::Path), rejection(ApiError))]
pub struct Path<T>(pub T);

/// `axum::extract::Query` with problem+json rejections.
#[derive(Debug, FromRequestParts)]
#[from_request(via(axum::extract::Query), rejection(ApiError))]
pub struct Query<T>(pub T);

/// The `If-Match` header: `*`, or the ETag of the version a change is based on (a tag this
/// service never issued matches no version). Absent: the change is unconditional.
#[derive(Debug, Clone, Copy)]
pub struct IfMatchHeader(pub Option<pf_app::IfMatch>);

impl<S: Send + Sync> FromRequestParts<S> for IfMatchHeader {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _: &S,
    ) -> Result<Self, ApiError> {
        let Some(value) = parts.headers.get(axum::http::header::IF_MATCH) else {
            return Ok(Self(None));
        };
        let text = value.to_str().unwrap_or_default();
        parse_if_match(text)
            .map(|m| Self(Some(m)))
            .map_err(|e| ApiError::bad_request(format!("If-Match {e}")))
    }
}

/// The one reading of an `If-Match` value (the header, a batch operation's `ifMatch`):
/// `*`, else an ETag, weak or strong, quoted or bare, of a version; a tag this service
/// never issued matches no version. Longer than 64 characters: refused with the message.
pub fn parse_if_match(text: &str) -> Result<pf_app::IfMatch, &'static str> {
    use pf_app::IfMatch;
    let text = text.trim();
    if text.chars().count() > 64 {
        return Err("is at most 64 characters");
    }
    if text == "*" {
        return Ok(IfMatch::Any);
    }
    let text = text.strip_prefix("W/").unwrap_or(text);
    Ok(IfMatch::Version(text.trim_matches('"').parse().ok()))
}
