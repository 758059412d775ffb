//! Creating, reading, changing and deleting categories.
//!
//! Own categories belong to the caller. Global ones are shared by everyone and only
//! admins create or edit them; their type never changes and they are never deleted,
//! because any user's transactions may use them and counting those uses would make a
//! global category an item written by every user.

use axum::http::StatusCode;
use serde::Deserialize;

use super::CategoryResponse;
use pf_app as app;
use pf_app::categories::{parse_fields, CategoryFields};
use pf_domain::CategoryType;
use pf_http::auth::Caller;
use pf_http::extract::{Json, Path};
use pf_http::item::ItemChange;
use pf_http::respond::{Created, Versioned};
use pf_http::{docs, ApiResult};
use utoipa::ToSchema;

/// A category body: the fields a create and an update share, then `$extra` ones. Both
/// refuse unknown fields, so each is its own struct (a flattened one could not).
macro_rules! category_body {
    ($(#[$attr:meta])* $name:ident { $($extra:tt)* }) => {
        #[derive(Debug, Deserialize, ToSchema)]
        #[serde(deny_unknown_fields, rename_all = "camelCase")]
        $(#[$attr])*
        pub struct $name {
            #[schema(value_type = docs::Name)]
            pub category_name: String,
            /// Icon name: letters, digits, `-` or `_`; empty or absent means `tag`.
            #[schema(pattern = "^[A-Za-z0-9_-]{0,50}$", max_length = 50, example = "paw")]
            pub icon: Option<String>,
            /// `#RRGGBB` (default `#757575`).
            #[schema(
                pattern = "^#[0-9A-Fa-f]{6}$",
                min_length = 7,
                max_length = 7,
                example = "#8E24AA"
            )]
            pub color: Option<String>,
            #[serde(rename = "type")]
            pub category_type: CategoryType,
            $($extra)*
        }

        impl $name {
            /// The checked fields (every invalid one reported).
            fn fields(&self) -> ApiResult<CategoryFields> {
                let (icon, color) = (self.icon.as_deref(), self.color.as_deref());
                Ok(parse_fields(&self.category_name, icon, color, self.category_type)?)
            }
        }
    };
}

category_body!(
    #[schema(as = CategoryInput)]
    CategoryRequest {
        /// Administrators only: a category shared by everyone. Cannot change later.
        #[serde(default)]
        pub is_global: bool,
    }
);

category_body!(
    /// Body of `PUT /api/categories/{id}`: whether a category is global never changes.
    #[schema(as = CategoryUpdate)]
    CategoryUpdateRequest {}
);

fn versioned(c: pf_domain::Category) -> Versioned<CategoryResponse> {
    Versioned::new(c.version, c.into())
}

/// Creates an own category, or (admins, `isGlobal: true`) a global one.
#[utoipa::path(post, path = "/api/categories", request_body = CategoryRequest,
    responses(
        (status = 201, description = "Created", body = CategoryResponse, headers(
            ("Location" = String, description = "URL of the new category"),
            ("ETag" = String, description = "Version, for If-Match"))),
        docs::CreateErrors,
    ))]
pub(crate) async fn create(
    me: Caller,
    Json(body): Json<CategoryRequest>,
) -> ApiResult<Created<CategoryResponse>> {
    let fields = body.fields()?;
    let record = app::categories::create(me.store(), me.id, fields, body.is_global).await?;
    let (id, version) = (record.id, record.version);
    let created = CategoryResponse::from(record);
    Ok(Created::item("/api/categories", id, version, created))
}

/// A global category or one of the caller's own.
#[utoipa::path(get, path = "/api/categories/{id}",
    params(("id" = inline(docs::Id), Path), docs::IfNoneMatch),
    responses(
        (status = 200, description = "The category", body = CategoryResponse, headers(
            ("ETag" = String, description = "Version, for If-Match"))),
        docs::Cached,
        docs::ReadErrors,
    ))]
pub(crate) async fn read(
    me: Caller,
    Path(id): Path<u64>,
) -> ApiResult<Versioned<CategoryResponse>> {
    let category = app::categories::get(me.store(), me.id, id).await?;
    Ok(versioned(category))
}

/// Replaces name, icon, colour and type (the type only while no transaction, rule or
/// budget uses the category).
#[utoipa::path(put, path = "/api/categories/{id}",
    params(("id" = inline(docs::Id), Path), docs::IfMatch),
    request_body = CategoryUpdateRequest,
    responses(
        (status = 200, description = "Updated", body = CategoryResponse, headers(
            ("ETag" = String, description = "New version"))),
        docs::VersionedUpdateErrors,
    ))]
pub(crate) async fn update(
    ItemChange { me, id, expected }: ItemChange,
    Json(body): Json<CategoryUpdateRequest>,
) -> ApiResult<Versioned<CategoryResponse>> {
    let fields = body.fields()?;
    let updated = app::categories::update(me.store(), me.id, id, fields, expected).await?;
    Ok(versioned(updated))
}

/// Deletes one of the caller's own categories unless transactions or a rule use it.
#[utoipa::path(delete, path = "/api/categories/{id}",
    params(("id" = inline(docs::Id), Path), docs::IfMatch),
    responses(
        (status = 204, description = "Deleted"),
        docs::VersionedDeleteErrors,
    ))]
pub(crate) async fn remove(ItemChange { me, id, expected }: ItemChange) -> ApiResult<StatusCode> {
    app::categories::delete(me.store(), me.id, id, expected).await?;
    Ok(StatusCode::NO_CONTENT)
}
