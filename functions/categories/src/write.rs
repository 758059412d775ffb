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

pf_http::item_create!(
    /// Creates an own category, or (admins, `isGlobal: true`) a global one.
    "/api/categories", CategoryRequest => CategoryResponse, "URL of the new category";
    |me, body: CategoryRequest| {
        let fields = body.fields()?;
        let record = app::categories::create(me.store(), me.id, fields, body.is_global).await?;
        let (id, version) = (record.id, record.version);
        Created::item("/api/categories", id, version, CategoryResponse::from(record))
    }
);

pf_http::item_read!(
    /// A global category or one of the caller's own.
    "/api/categories/{id}", "The category" => CategoryResponse;
    |me, id| versioned(app::categories::get(me.store(), me.id, id).await?)
);

pf_http::item_update!(
    /// Replaces name, icon, colour and type (the type only while no transaction, rule or
    /// budget uses the category).
    "/api/categories/{id}", CategoryUpdateRequest => CategoryResponse, "Updated";
    |me, id, body: CategoryUpdateRequest, expected| {
        let fields = body.fields()?;
        versioned(app::categories::update(me.store(), me.id, id, fields, expected).await?)
    }
);

pf_http::item_delete!(
    /// Deletes one of the caller's own categories unless transactions or a rule use it.
    "/api/categories/{id}", "Deleted";
    |me, id, expected| {
        app::categories::delete(me.store(), me.id, id, expected).await?;
        StatusCode::NO_CONTENT
    }
);
