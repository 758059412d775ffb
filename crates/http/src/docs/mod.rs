//! Pieces of the OpenAPI document shared by every function: the error responses and the
//! sets of them operations declare, and the conditional-request headers (here); the id,
//! name, decimal and currency schemas (`schemas.rs`); each function's tag and the bearer
//! security scheme (`security.rs`).

use utoipa::ToResponse;

use super::Problem;

mod schemas;
mod security;

pub use schemas::{
    amount_input, currency_code, currency_enum, decimal_number, number_or_decimal_string,
    optional_currency_code, required_currency_code, Id, Image, Name, NAME_PATTERN,
};
pub use security::{protected, public, BearerAuth};

/// Error responses, each an `application/problem+json` body ([`Problem`]); those marked
/// `retry` carry `Retry-After`.
macro_rules! problem_responses {
    ($($(#[$doc:meta])* $name:ident $($retry:ident)?;)+) => {
        $(problem_responses!(@one $(#[$doc])* $name $($retry)?);)+
    };
    (@one $(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(ToResponse)]
        #[response(content_type = "application/problem+json")]
        pub struct $name(pub Problem);
    };
    (@one $(#[$doc:meta])* $name:ident retry) => {
        $(#[$doc])*
        #[derive(ToResponse)]
        #[response(
            content_type = "application/problem+json",
            headers(("Retry-After" = u64, description = "Seconds to wait"))
        )]
        pub struct $name(pub Problem);
    };
}

problem_responses! {
    /// Data is invalid (format or business rule); `errors` lists the fields at fault.
    BadRequest;
    /// Login failed: unknown e-mail or wrong password (indistinguishable).
    Unauthorized;
    /// Not authenticated (missing, malformed, expired or forged token), or not allowed.
    Forbidden;
    /// Does not exist, or belongs to someone else.
    NotFound;
    /// Conflicts with the current state: duplicate, in use, or changed meanwhile.
    Conflict;
    /// `If-Match` does not match the current version.
    PreconditionFailed;
    /// The sync cursor is older than the changes kept: sync again without a cursor.
    Gone;
    /// The method is not one this path takes (e.g. `GET /api/transactions/batch`).
    MethodNotAllowed;
    /// The body is too large.
    PayloadTooLarge;
    /// The body's content type is not accepted (on `POST /api/imports`, whatever the
    /// Content-Type: the file is no bank file this service reads).
    UnsupportedMediaType;
    /// The request cannot be done as it is: an `Idempotency-Key` used with a different body,
    /// or a file that needs a setting (`errors` names the parameter) or another wallet.
    Unprocessable;
    /// Too many attempts: failed logins (per e-mail, client address or device), password
    /// checks, registrations from one address, or mails to one address; wait `Retry-After`
    /// seconds. `detail` says which.
    TooManyRequests retry;
    /// A technical error; the detail is logged, never returned.
    InternalError;
    /// Storage is unavailable or throttled, or this instance is saturated; retry after
    /// `Retry-After` seconds. Any operation may answer it.
    Unavailable retry;
}

/// A set of error responses, each a reference to the shared response of its status:
/// operations list it in `responses(...)` beside their success and their own extras.
macro_rules! error_set {
    ($(#[$doc:meta])* $set:ident: $($status:tt => $response:ident),+ $(,)?) => {
        $(#[$doc])*
        #[derive(utoipa::IntoResponses)]
        pub enum $set {
            $(#[response(status = $status)] $response(#[ref_response] $response),)+
        }
    };
}

error_set!(
    /// Any protected operation: 403, 500 and 503.
    ProtectedErrors: 403 => Forbidden, 500 => InternalError, 503 => Unavailable
);
error_set!(
    /// A protected list with query parameters.
    ListErrors: 400 => BadRequest, 403 => Forbidden, 500 => InternalError, 503 => Unavailable
);
error_set!(
    /// A protected read of one item (also a write without a body).
    ReadErrors: 400 => BadRequest, 403 => Forbidden, 404 => NotFound, 500 => InternalError,
        503 => Unavailable
);
error_set!(
    /// A protected create from a JSON body.
    CreateErrors: 400 => BadRequest, 403 => Forbidden, 409 => Conflict,
        413 => PayloadTooLarge, 415 => UnsupportedMediaType, 500 => InternalError,
        503 => Unavailable
);
error_set!(
    /// A protected upload of a file (`POST /api/imports`).
    FileErrors: 400 => BadRequest, 403 => Forbidden, 404 => NotFound, 409 => Conflict,
        413 => PayloadTooLarge, 415 => UnsupportedMediaType, 422 => Unprocessable,
        500 => InternalError, 503 => Unavailable
);
error_set!(
    /// A protected update of one item from a JSON body.
    UpdateErrors: 400 => BadRequest, 403 => Forbidden, 404 => NotFound, 409 => Conflict,
        413 => PayloadTooLarge, 415 => UnsupportedMediaType, 500 => InternalError,
        503 => Unavailable
);
error_set!(
    /// A protected delete of one item, refused while something uses it.
    DeleteErrors: 400 => BadRequest, 403 => Forbidden, 404 => NotFound, 409 => Conflict,
        500 => InternalError, 503 => Unavailable
);
error_set!(
    /// A protected update of one versioned item (`If-Match`) from a JSON body.
    VersionedUpdateErrors: 400 => BadRequest, 403 => Forbidden, 404 => NotFound,
        409 => Conflict, 412 => PreconditionFailed, 413 => PayloadTooLarge,
        415 => UnsupportedMediaType, 500 => InternalError, 503 => Unavailable
);
error_set!(
    /// A protected delete of one versioned item (`If-Match`), refused while in use.
    VersionedDeleteErrors: 400 => BadRequest, 403 => Forbidden, 404 => NotFound,
        409 => Conflict, 412 => PreconditionFailed, 500 => InternalError, 503 => Unavailable
);

/// A read of one versioned item honours `If-None-Match`.
#[derive(utoipa::IntoResponses)]
pub enum Cached {
    /// The item still has the version named in `If-None-Match`: no body.
    #[response(status = 304, headers(("ETag" = String, description = "The current version")))]
    NotModified,
}

/// `If-Match` on a change of a versioned item.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Header)]
pub struct IfMatch {
    /// The `ETag` of the version the change is based on (`*`: any); `412` when the item
    /// has another version. Without it the change is unconditional.
    #[param(rename = "If-Match", max_length = 64)]
    pub if_match: Option<String>,
}

/// `If-None-Match` on a read of a versioned item.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Header)]
pub struct IfNoneMatch {
    /// `ETag`s the client holds: `304` without a body when one is current.
    #[param(rename = "If-None-Match", max_length = 256)]
    pub if_none_match: Option<String>,
}

error_set!(
    /// A protected action from a JSON body that creates no item.
    ActionErrors: 400 => BadRequest, 403 => Forbidden, 413 => PayloadTooLarge,
        415 => UnsupportedMediaType, 500 => InternalError, 503 => Unavailable
);
error_set!(
    /// A public operation reading a JSON body.
    BodyErrors: 400 => BadRequest, 413 => PayloadTooLarge, 415 => UnsupportedMediaType,
        500 => InternalError, 503 => Unavailable
);
