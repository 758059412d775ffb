//! The API's one error type and its problem+json body (RFC 9457 plus the members
//! Spring clients expect: `timestamp`, `error`, `message`, `path`).

use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use pf_domain::time::now_local_date_time;
use pf_store::{ConflictKind, StoreError};

/// One invalid field of a request.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, utoipa::ToSchema)]
pub struct FieldError {
    pub field: String,
    pub message: String,
}

impl FieldError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            field: field.into(),
            message: message.into(),
        }
    }
}

impl From<pf_domain::Violation> for FieldError {
    fn from(v: pf_domain::Violation) -> Self {
        Self {
            field: v.field,
            message: v.message,
        }
    }
}

impl From<pf_app::AppError> for ApiError {
    fn from(e: pf_app::AppError) -> Self {
        use pf_app::AppError;
        match e {
            AppError::Invalid(violations) => {
                ApiError::validation(violations.into_iter().map(FieldError::from).collect())
            }
            AppError::NotFound(m) => ApiError::NotFound(m),
            AppError::Unauthorized(m) => ApiError::Unauthorized(m),
            AppError::Throttled {
                message,
                retry_after,
            } => ApiError::TooManyRequests {
                message,
                retry_after,
            },
            AppError::Forbidden(m) => ApiError::Forbidden(m),
            AppError::ReauthenticationRequired(m) => ApiError::ReauthenticationRequired(m),
            AppError::Conflict(m) => ApiError::Conflict(m),
            AppError::PreconditionFailed(m) => ApiError::PreconditionFailed(m),
            AppError::Gone(m) => ApiError::Gone(m),
            AppError::Unprocessable(m) => ApiError::Unprocessable(m),
            AppError::Store(e) => from_store(e),
        }
    }
}

/// A storage failure the service passed on: an outage, a lost race, or a bug.
fn from_store(e: StoreError) -> ApiError {
    match e {
        StoreError::Unavailable(e) => ApiError::Unavailable(e),
        StoreError::NotFound => ApiError::NotFound("not found".into()),
        StoreError::Conflict(ConflictKind::Contention) => {
            ApiError::Conflict("too many concurrent changes; retry the request".into())
        }
        StoreError::Conflict(kind) => ApiError::Conflict(format!("{kind}; retry the request")),
        StoreError::Unexpected(e) => ApiError::Internal(e),
    }
}

/// What a handler answers instead of a success (see [`ApiError::status`]). A variant
/// without a message of its own shows the one it holds.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub enum ApiError {
    /// 400: the request is malformed or breaks a business rule.
    #[error("{message}")]
    BadRequest {
        message: String,
        errors: Vec<FieldError>,
    },
    /// 401: login failed.
    Unauthorized(String),
    /// 403: not authenticated, or not allowed.
    Forbidden(String),
    /// 403 of type [`REAUTHENTICATION_REQUIRED`]: a sensitive change needs a recent login.
    ReauthenticationRequired(String),
    /// 404: absent, or owned by someone else (never revealed).
    NotFound(String),
    /// 405: the path exists with other methods.
    #[error("method not allowed")]
    MethodNotAllowed,
    /// 409: duplicate, in use or changed meanwhile.
    Conflict(String),
    /// 410: what the request continues from is no longer kept.
    Gone(String),
    /// 412: `If-Match` does not match the current version.
    PreconditionFailed(String),
    /// 413: body too large.
    PayloadTooLarge(String),
    /// 415: wrong content type.
    UnsupportedMediaType(String),
    /// 422: idempotency key reused with another body; a statement in another currency.
    Unprocessable(String),
    /// 422: a file that cannot be read without a setting; `errors` names the query
    /// parameters to set (`dateFormat`, `col.date`, ...).
    #[error("{message}")]
    UnprocessableFields {
        message: String,
        errors: Vec<FieldError>,
    },
    /// 429: throttled; retry after this many seconds.
    #[error("{message}")]
    TooManyRequests { message: String, retry_after: u64 },
    /// 500: logged in full, answered generically.
    #[error("internal error")]
    Internal(#[source] anyhow::Error),
    /// 503: storage unreachable or throttling; logged, answered generically.
    #[error("service unavailable")]
    Unavailable(#[source] anyhow::Error),
    /// 503 saying why: work this answer left undone in time, to send again.
    NotNow(String),
}

impl ApiError {
    pub fn bad_request(message: impl Into<String>) -> Self {
        ApiError::BadRequest {
            message: message.into(),
            errors: Vec::new(),
        }
    }

    /// A 400 listing every invalid field.
    pub fn validation(errors: Vec<FieldError>) -> Self {
        let message = match errors.as_slice() {
            [one] => format!("{}: {}", one.field, one.message),
            _ => "request has invalid fields".to_owned(),
        };
        ApiError::BadRequest { message, errors }
    }

    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest { .. } => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden(_) | ApiError::ReauthenticationRequired(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::PreconditionFailed(_) => StatusCode::PRECONDITION_FAILED,
            ApiError::Gone(_) => StatusCode::GONE,
            ApiError::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::Unprocessable(_) | ApiError::UnprocessableFields { .. } => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            ApiError::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
            ApiError::Unavailable(_) | ApiError::NotNow(_) => StatusCode::SERVICE_UNAVAILABLE,
        }
    }
}

/// The body of every error response. `path` and `instance` are filled in by
/// [`super::fill_problem_path`], which knows the request.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Problem {
    /// A URI reference naming the problem type (`about:blank`: see `title`).
    #[serde(rename = "type")]
    #[schema(value_type = String, example = "about:blank")]
    pub kind: &'static str,
    pub title: String,
    pub status: u16,
    pub detail: String,
    pub instance: String,
    pub timestamp: String,
    pub error: String,
    pub message: String,
    pub path: String,
    /// The invalid fields of a 400, or the settings a 422 needs, when known.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<FieldError>,
}

pub const PROBLEM_JSON: &str = "application/problem+json";
/// The problem type of a 403 that a fresh login (or `currentPassword`) would lift.
pub const REAUTHENTICATION_REQUIRED: &str = "/problems/reauthentication-required";

impl Problem {
    pub fn into_response_with(self, status: StatusCode) -> Response {
        let body = serde_json::to_vec(&self).unwrap_or_default();
        let mut response = (status, body).into_response();
        response
            .headers_mut()
            .insert(header::CONTENT_TYPE, HeaderValue::from_static(PROBLEM_JSON));
        response.extensions_mut().insert(self);
        response
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        let detail = match &self {
            ApiError::Internal(e) => {
                tracing::error!(error = ?e, "internal error");
                "An unexpected error occurred.".to_owned()
            }
            ApiError::Unavailable(e) => {
                tracing::error!(error = ?e, "storage unavailable");
                "The service is temporarily unavailable; try again shortly.".to_owned()
            }
            other => other.to_string(),
        };
        let title = status.canonical_reason().unwrap_or("Error").to_owned();
        let errors = match &self {
            ApiError::BadRequest { errors, .. } | ApiError::UnprocessableFields { errors, .. } => {
                errors.clone()
            }
            _ => Vec::new(),
        };
        let kind = match &self {
            ApiError::ReauthenticationRequired(_) => REAUTHENTICATION_REQUIRED,
            _ => "about:blank",
        };
        let problem = Problem {
            kind,
            title: title.clone(),
            status: status.as_u16(),
            detail: detail.clone(),
            instance: String::new(),
            timestamp: now_local_date_time(),
            error: title,
            message: detail,
            path: String::new(),
            errors,
        };
        let mut response = problem.into_response_with(status);
        let retry_after = match self {
            ApiError::TooManyRequests { retry_after, .. } => Some(retry_after),
            ApiError::Unavailable(_) | ApiError::NotNow(_) => Some(UNAVAILABLE_RETRY_AFTER_SECS),
            _ => None,
        };
        if let Some(seconds) = retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}

/// What a 503 tells clients to wait before retrying (storage outage, saturated instance).
pub const UNAVAILABLE_RETRY_AFTER_SECS: u64 = 2;

impl From<anyhow::Error> for ApiError {
    fn from(e: anyhow::Error) -> Self {
        if e.downcast_ref::<pf_auth::password::Busy>().is_some() {
            return ApiError::Unavailable(e);
        }
        ApiError::Internal(e)
    }
}

impl From<JsonRejection> for ApiError {
    fn from(r: JsonRejection) -> Self {
        match r {
            JsonRejection::MissingJsonContentType(_) => ApiError::UnsupportedMediaType(
                "expected a JSON body with Content-Type: application/json".into(),
            ),
            JsonRejection::BytesRejection(b) if b.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                ApiError::PayloadTooLarge(format!("body exceeds {} bytes", super::MAX_BODY_BYTES))
            }
            JsonRejection::JsonDataError(e) => {
                ApiError::bad_request(clean_serde_message(&e.body_text()))
            }
            JsonRejection::JsonSyntaxError(e) => {
                ApiError::bad_request(clean_serde_message(&e.body_text()))
            }
            other => ApiError::bad_request(other.body_text()),
        }
    }
}

impl From<PathRejection> for ApiError {
    /// An id that does not parse names nothing that exists: 404, as for any unknown id.
    fn from(_: PathRejection) -> Self {
        ApiError::NotFound("no such resource".into())
    }
}

impl From<QueryRejection> for ApiError {
    fn from(r: QueryRejection) -> Self {
        ApiError::bad_request(clean_serde_message(&r.body_text()))
    }
}

/// serde messages are about the request, not our internals, but strip axum's boilerplate.
fn clean_serde_message(text: &str) -> String {
    text.replace(
        "Failed to deserialize the JSON body into the target type: ",
        "",
    )
    .replace(
        "Failed to parse the request body as JSON: ",
        "malformed JSON: ",
    )
    .replace("Failed to deserialize query string: ", "invalid query: ")
}

#[cfg(test)]
mod tests {
    use super::ApiError;
    use pf_app::AppError;

    #[test]
    fn variants_without_a_message_of_their_own_show_the_one_they_hold() {
        assert_eq!(AppError::Conflict("taken".into()).to_string(), "taken");
        assert_eq!(AppError::Invalid(Vec::new()).to_string(), "invalid request");
        assert_eq!(ApiError::Gone("expired".into()).to_string(), "expired");
        assert_eq!(ApiError::MethodNotAllowed.to_string(), "method not allowed");
    }
}
