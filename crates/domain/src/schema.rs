//! The OpenAPI schemas of the domain's enums that are written by hand.

/// The schema of [`Role`](crate::Role) (utoipa's orphan rule keeps it in this crate; hand-written, as before).
impl utoipa::PartialSchema for crate::Role {
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

impl utoipa::ToSchema for crate::Role {}

/// The schema of [`CategoryType`](crate::CategoryType) (utoipa's orphan rule keeps it in this crate; hand-written, as before).
impl utoipa::PartialSchema for crate::CategoryType {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ObjectBuilder, SchemaType, Type};
        ObjectBuilder::new()
            .schema_type(SchemaType::new(Type::String))
            .enum_values(Some(["DEBIT", "CREDIT"]))
            .into()
    }
}

impl utoipa::ToSchema for crate::CategoryType {}
