//! Schemas the generated document shares: ids, names, exact decimals, currencies, and
//! the domain enums.

use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Schema, SchemaType, Type};
use utoipa::openapi::{KnownFormat, RefOr, SchemaFormat};
use utoipa::{PartialSchema, ToSchema};

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
            .maximum(Some(pf_domain::ids::MAX_SAFE_ID as f64))
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
            .max_length(Some(pf_domain::text::NAME_MAX_LEN))
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
pub const NAME_PATTERN: &str =
    r"^[^\x00-\x1F\x7F-\x9F]*[^\s\x00-\x1F\x7F-\x9F][^\x00-\x1F\x7F-\x9F]*$";

/// One of the currencies the service supports.
pub fn currency_enum() -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(SchemaType::new(Type::String))
        .enum_values(Some(pf_domain::Currency::all().iter().map(|c| c.code())))
        .description(Some("ISO 4217 currency code (supported ones)"))
}

/// A supported currency code, optional.
pub fn optional_currency_code() -> Schema {
    let codes = pf_domain::Currency::all()
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
        assert_eq!(json["maxLength"], pf_domain::text::NAME_MAX_LEN);
    }
}
