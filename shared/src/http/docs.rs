//! Pieces of the OpenAPI document shared by every function: the error responses and the
//! sets of them operations declare, the id path parameter, the name schema, the schema of
//! exact decimal numbers, and the bearer security scheme.

use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Schema, SchemaType, Type};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityRequirement, SecurityScheme};
use utoipa::openapi::{KnownFormat, RefOr, SchemaFormat};
use utoipa::{Modify, PartialSchema, ToResponse, ToSchema};

use super::{AppState, Problem};
use utoipa_axum::router::OpenApiRouter;

/// Data is invalid (format or business rule); `errors` lists the fields at fault.
#[derive(ToResponse)]
#[response(content_type = "application/problem+json")]
pub struct BadRequest(pub Problem);

/// Login failed: unknown e-mail or wrong password (indistinguishable).
#[derive(ToResponse)]
#[response(content_type = "application/problem+json")]
pub struct Unauthorized(pub Problem);

/// Not authenticated (missing, malformed, expired or forged token), or not allowed.
#[derive(ToResponse)]
#[response(content_type = "application/problem+json")]
pub struct Forbidden(pub Problem);

/// Does not exist, or belongs to someone else.
#[derive(ToResponse)]
#[response(content_type = "application/problem+json")]
pub struct NotFound(pub Problem);

/// Conflicts with the current state: duplicate, in use, or changed meanwhile.
#[derive(ToResponse)]
#[response(content_type = "application/problem+json")]
pub struct Conflict(pub Problem);

/// `If-Match` does not match the current version.
#[derive(ToResponse)]
#[response(content_type = "application/problem+json")]
pub struct PreconditionFailed(pub Problem);

/// The sync cursor is older than the changes kept: sync again without a cursor.
#[derive(ToResponse)]
#[response(content_type = "application/problem+json")]
pub struct Gone(pub Problem);

/// The method is not one this path takes (e.g. `GET /api/transactions/batch`).
#[derive(ToResponse)]
#[response(content_type = "application/problem+json")]
pub struct MethodNotAllowed(pub Problem);

/// The body is too large.
#[derive(ToResponse)]
#[response(content_type = "application/problem+json")]
pub struct PayloadTooLarge(pub Problem);

/// The body's content type is not accepted.
#[derive(ToResponse)]
#[response(content_type = "application/problem+json")]
pub struct UnsupportedMediaType(pub Problem);

/// The `Idempotency-Key` was used with a different body.
#[derive(ToResponse)]
#[response(content_type = "application/problem+json")]
pub struct Unprocessable(pub Problem);

/// Too many failed logins for this e-mail; see `Retry-After`.
#[derive(ToResponse)]
#[response(content_type = "application/problem+json", headers(("Retry-After" = u64, description = "Seconds to wait")))]
pub struct TooManyRequests(pub Problem);

/// A technical error; the detail is logged, never returned.
#[derive(ToResponse)]
#[response(content_type = "application/problem+json")]
pub struct InternalError(pub Problem);

/// Storage is unavailable; retry later.
#[derive(ToResponse)]
#[response(content_type = "application/problem+json")]
pub struct Unavailable(pub Problem);

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
    /// Any protected operation: 403 and 500.
    ProtectedErrors: 403 => Forbidden, 500 => InternalError
);
error_set!(
    /// A protected list with query parameters.
    ListErrors: 400 => BadRequest, 403 => Forbidden, 500 => InternalError
);
error_set!(
    /// A protected read of one item (also a write without a body).
    ReadErrors: 400 => BadRequest, 403 => Forbidden, 404 => NotFound, 500 => InternalError
);
error_set!(
    /// A protected create from a JSON body.
    CreateErrors: 400 => BadRequest, 403 => Forbidden, 409 => Conflict,
        413 => PayloadTooLarge, 415 => UnsupportedMediaType, 500 => InternalError
);
error_set!(
    /// A protected update of one item from a JSON body.
    UpdateErrors: 400 => BadRequest, 403 => Forbidden, 404 => NotFound, 409 => Conflict,
        413 => PayloadTooLarge, 415 => UnsupportedMediaType, 500 => InternalError
);
error_set!(
    /// A protected delete of one item, refused while something uses it.
    DeleteErrors: 400 => BadRequest, 403 => Forbidden, 404 => NotFound, 409 => Conflict,
        500 => InternalError
);
error_set!(
    /// A protected update of one versioned item (`If-Match`) from a JSON body.
    VersionedUpdateErrors: 400 => BadRequest, 403 => Forbidden, 404 => NotFound,
        409 => Conflict, 412 => PreconditionFailed, 413 => PayloadTooLarge,
        415 => UnsupportedMediaType, 500 => InternalError
);
error_set!(
    /// A protected delete of one versioned item (`If-Match`), refused while in use.
    VersionedDeleteErrors: 400 => BadRequest, 403 => Forbidden, 404 => NotFound,
        409 => Conflict, 412 => PreconditionFailed, 500 => InternalError
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
    /// A public operation reading a JSON body.
    BodyErrors: 400 => BadRequest, 413 => PayloadTooLarge, 415 => UnsupportedMediaType,
        500 => InternalError
);

/// The id in an item's path (`/users/{id}`, `/api/tags/{id}`, ...).
/// Operations declare it with `params(("id" = inline(docs::Id), Path))`: a typed tuple, because
/// utoipa-axum also derives an `id` parameter from the handler's `Path<u64>` and merges
/// only a tuple parameter of the same name with it (a `params(IntoParams type)` would
/// list `id` twice).
pub struct Id;

impl PartialSchema for Id {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(SchemaType::new(Type::Integer))
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64)))
            .minimum(Some(1))
            .maximum(Some(crate::domain::ids::MAX_SAFE_ID as f64))
            .description(Some("An id: 1 to 2^53 − 1, exact as a JSON number."))
            .into()
    }
}

impl ToSchema for Id {}

/// A name (person, wallet, category, tag, provider), as the `Name` component; fields use
/// it with `#[schema(value_type = docs::Name)]`.
pub struct Name;

impl PartialSchema for Name {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(SchemaType::new(Type::String))
            .min_length(Some(1))
            .max_length(Some(crate::domain::text::NAME_MAX_LEN))
            .pattern(Some(NAME_PATTERN))
            .description(Some(
                "At least one visible character and no control characters; trimmed, 1 to 100 characters.",
            ))
            .into()
    }
}

impl ToSchema for Name {}

/// Raw image bytes in a request or response body.
#[derive(utoipa::ToSchema)]
#[schema(value_type = String, format = Binary)]
pub struct Image(pub Vec<u8>);

/// An exact decimal carried as a JSON number (never rounded through a float).
pub fn decimal_number() -> Schema {
    ObjectBuilder::new()
        .schema_type(SchemaType::new(Type::Number))
        .description(Some(
            "Exact decimal number; the digits sent are the digits stored.",
        ))
        .build()
        .into()
}

/// An amount that may be zero: a JSON number or a decimal string with at most three
/// decimals (the currency then allows fewer); `signed` also takes negative ones.
pub fn number_or_decimal_string(signed: bool) -> Schema {
    let (minimum, pattern, max_length) = if signed {
        (-9_999_999_999_999.0, r"^-?[0-9]{1,13}(\.[0-9]{1,3})?$", 18)
    } else {
        (0.0, r"^[0-9]{1,13}(\.[0-9]{1,3})?$", 17)
    };
    OneOfBuilder::new()
        .item(
            ObjectBuilder::new()
                .schema_type(SchemaType::new(Type::Number))
                .minimum(Some(minimum))
                .maximum(Some(9_999_999_999_999.0)),
        )
        .item(
            ObjectBuilder::new()
                .schema_type(SchemaType::new(Type::String))
                .pattern(Some(pattern))
                .max_length(Some(max_length)),
        )
        .build()
        .into()
}

/// An amount in a request: a JSON number, a decimal string, or a Money object.
pub fn amount_input() -> Schema {
    let number = || {
        ObjectBuilder::new()
            .schema_type(SchemaType::new(Type::Number))
            .exclusive_minimum(Some(0.0))
            .maximum(Some(9_999_999_999_999.0))
    };
    let text = ObjectBuilder::new()
        .schema_type(SchemaType::new(Type::String))
        .pattern(Some(r"^[0-9]{1,13}(\.[0-9]{1,3})?$"))
        .max_length(Some(17));
    let money = ObjectBuilder::new()
        .schema_type(SchemaType::new(Type::Object))
        .property("amount", number())
        .required("amount")
        .property(
            "currency",
            ObjectBuilder::new()
                .schema_type(SchemaType::new(Type::Object))
                .property("code", currency_enum())
                .required("code"),
        )
        .additional_properties(Some(
            utoipa::openapi::schema::AdditionalProperties::FreeForm(false),
        ));
    OneOfBuilder::new()
        .item(number())
        .item(text)
        .item(money)
        .description(Some("A positive amount with at most the currency's decimals: a number, a string, or {amount, currency}."))
        .build()
        .into()
}

/// Names: at least one visible character, no control characters (they are trimmed and
/// must then be 1 to 100 characters).
/// The schema of [`Role`](crate::domain::Role), kept out of the domain.
impl utoipa::PartialSchema for crate::domain::Role {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ObjectBuilder, SchemaType, Type};
        ObjectBuilder::new()
            .schema_type(SchemaType::new(Type::String))
            .description(Some(
                "Role of a user: everyone registers as USER; an operator makes the first ADMIN with the\n`admin` command (AWS credentials, never an HTTP call), admins promote others.",
            ))
            .enum_values(Some(["USER", "ADMIN"]))
            .into()
    }
}

impl utoipa::ToSchema for crate::domain::Role {}

/// The schema of [`CategoryType`](crate::domain::CategoryType), kept out of the domain.
impl utoipa::PartialSchema for crate::domain::CategoryType {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ObjectBuilder, SchemaType, Type};
        ObjectBuilder::new()
            .schema_type(SchemaType::new(Type::String))
            .enum_values(Some(["DEBIT", "CREDIT"]))
            .into()
    }
}

impl utoipa::ToSchema for crate::domain::CategoryType {}

pub const NAME_PATTERN: &str =
    r"^[^\x00-\x1F\x7F-\x9F]*[^\s\x00-\x1F\x7F-\x9F][^\x00-\x1F\x7F-\x9F]*$";

/// One of the currencies the service supports.
pub fn currency_enum() -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(SchemaType::new(Type::String))
        .enum_values(Some(
            crate::domain::Currency::all().iter().map(|c| c.code()),
        ))
        .description(Some("ISO 4217 currency code (supported ones)"))
}

/// A supported currency code, optional.
pub fn optional_currency_code() -> Schema {
    let codes = crate::domain::Currency::all()
        .iter()
        .map(|c| serde_json::Value::from(c.code()));
    ObjectBuilder::new()
        .schema_type(SchemaType::from_iter([Type::String, Type::Null]))
        .enum_values(Some(codes.chain([serde_json::Value::Null])))
        .description(Some(
            "Optional ISO 4217 code; must be the wallet's currency.",
        ))
        .build()
        .into()
}

/// A supported currency code, required.
pub fn required_currency_code() -> Schema {
    currency_enum().build().into()
}

/// An ISO 4217 code.
pub fn currency_code() -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(SchemaType::new(Type::String))
        .pattern(Some("^[A-Z]{3}$"))
        .min_length(Some(3))
        .max_length(Some(3))
        .description(Some("ISO 4217 currency code"))
}

/// A function's documented routes that need a bearer token: each operation is tagged with
/// the function's group and declares the `bearer` scheme, so no handler repeats either.
/// Their handlers take [`Caller`](super::auth::Caller), which is what enforces it; the
/// openapi crate's tests check that exactly the public operations lack the scheme.
pub fn protected(group: &str, routes: OpenApiRouter<AppState>) -> OpenApiRouter<AppState> {
    in_group(
        group,
        Some(SecurityRequirement::new("bearer", Vec::<String>::new())),
        routes,
    )
}

/// A function's documented routes that anyone may call (registration, login, refresh),
/// tagged with the function's group.
pub fn public(group: &str, routes: OpenApiRouter<AppState>) -> OpenApiRouter<AppState> {
    in_group(group, None, routes)
}

fn in_group(
    group: &str,
    security: Option<SecurityRequirement>,
    mut routes: OpenApiRouter<AppState>,
) -> OpenApiRouter<AppState> {
    for item in routes.get_openapi_mut().paths.paths.values_mut() {
        let ops = [
            &mut item.get,
            &mut item.post,
            &mut item.put,
            &mut item.delete,
            &mut item.patch,
        ];
        for op in ops.into_iter().flatten() {
            op.tags = Some(vec![group.to_owned()]);
            op.security = security.clone().map(|s| vec![s]);
        }
    }
    routes
}

/// Adds the bearer scheme (`Authorization: Bearer <token>`) used by protected operations.
pub struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("JWT")
                    .description(Some(
                        "Access token from POST /auth/login, valid 15 minutes.",
                    ))
                    .build(),
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_id_schema_spans_every_id() {
        let json = serde_json::to_value(Id::schema()).unwrap();
        assert_eq!(json["minimum"], 1);
        assert_eq!(json["maximum"], (1u64 << 53) - 1);
    }

    #[test]
    fn the_name_schema_has_the_name_rules() {
        let json = serde_json::to_value(Name::schema()).unwrap();
        assert_eq!(json["pattern"], NAME_PATTERN);
        assert_eq!(json["maxLength"], crate::domain::text::NAME_MAX_LEN);
    }
}
