//! Creating, reading, changing and deleting categories.
//!
//! Own categories belong to the caller. Global ones are shared by everyone and only
//! admins create or edit them; their type never changes and they are never deleted,
//! because any user's transactions may use them and counting those uses would make a
//! global category an item written by every user.

use axum::extract::State;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::CategoryResponse;
use shared::domain::ids::new_id;
use shared::domain::text::{parse_name, NAME_MAX_LEN};
use shared::domain::time::now_local_date_time;
use shared::domain::CategoryType;
use shared::http::auth::{require_admin, AuthUser};
use shared::http::extract::{Json, Path};
use shared::http::{docs, ApiError, ApiResult, AppState, FieldError};
use shared::store::categories::{CategoryError, CategoryRecord, MAX_OWN_CATEGORIES};
use shared::store::keys::{cat_sk, user_pk, GLOBAL_PK};
use shared::store::StoreError;
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
            #[serde(default)]
            #[schema(pattern = "^[A-Za-z0-9_-]{0,50}$", max_length = 50, example = "paw")]
            pub icon: Option<String>,
            /// `#RRGGBB` (default `#757575`).
            #[serde(default)]
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

struct ValidCategory {
    name: String,
    icon: String,
    color: String,
    category_type: CategoryType,
    is_global: bool,
}

/// `#RRGGBB`, stored upper-case.
fn parse_color(raw: &str) -> Result<String, String> {
    let ok =
        raw.len() == 7 && raw.starts_with('#') && raw[1..].chars().all(|c| c.is_ascii_hexdigit());
    if ok {
        Ok(raw.to_ascii_uppercase())
    } else {
        Err("must be a colour as #RRGGBB".into())
    }
}

fn validate(r: CategoryRequest) -> ApiResult<ValidCategory> {
    let mut errors = Vec::new();
    let name = parse_name(&r.category_name, NAME_MAX_LEN)
        .map_err(|e| errors.push(FieldError::new("categoryName", e)));
    let icon = match r.icon.as_deref().map(str::trim) {
        None | Some("") => Ok("tag".to_owned()),
        Some(i)
            if i.len() <= 50
                && i.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') =>
        {
            Ok(i.to_owned())
        }
        Some(_) => {
            errors.push(FieldError::new(
                "icon",
                "must be an icon name of at most 50 letters, digits, '-' or '_'",
            ));
            Err(())
        }
    };
    let color = parse_color(r.color.as_deref().unwrap_or("#757575"))
        .map_err(|e| errors.push(FieldError::new("color", e)));
    match (name, icon, color) {
        (Ok(name), Ok(icon), Ok(color)) => Ok(ValidCategory {
            name,
            icon,
            color,
            category_type: r.category_type,
            is_global: r.is_global,
        }),
        _ => Err(ApiError::validation(errors)),
    }
}

fn not_found() -> ApiError {
    ApiError::NotFound("category not found".into())
}

fn map_error(e: CategoryError) -> ApiError {
    match e {
        CategoryError::NotFound => not_found(),
        CategoryError::InUse => ApiError::Conflict(
            "transactions use this category: its type cannot change and it cannot be deleted"
                .into(),
        ),
        CategoryError::LimitReached => ApiError::Conflict(format!(
            "you have reached the limit of {MAX_OWN_CATEGORIES} categories"
        )),
        CategoryError::Store(e) => e.into(),
    }
}

/// Creates an own category, or (admins, `isGlobal: true`) a global one.
#[utoipa::path(
    post,
    path = "/api/categories",
    tag = "categories",
    security(("bearer" = [])),
    request_body = CategoryRequest,
    responses(
        (status = 201, description = "Created", body = CategoryResponse, headers(("Location" = String, description = "URL of the new category"))),
        docs::CreateErrors,
    )
)]
pub async fn create(
    State(state): State<AppState>,
    user: AuthUser,
    Json(body): Json<CategoryRequest>,
) -> ApiResult<Response> {
    let valid = validate(body)?;
    if valid.is_global {
        require_admin(&state, &user).await?;
    }
    let now = now_local_date_time();
    for _ in 0..3 {
        let id = new_id();
        let record = CategoryRecord {
            pk: if valid.is_global {
                GLOBAL_PK.into()
            } else {
                user_pk(user.id)
            },
            sk: cat_sk(id),
            id,
            name: valid.name.clone(),
            icon: valid.icon.clone(),
            color: valid.color.clone(),
            is_global: valid.is_global,
            category_type: valid.category_type,
            use_count: 0,
            created_at: now.clone(),
            updated_at: now.clone(),
        };
        match state.store.create_category(user.id, &record).await {
            Ok(()) => {
                let mut response =
                    (StatusCode::CREATED, Json(CategoryResponse::from(record))).into_response();
                if let Ok(v) = HeaderValue::from_str(&format!("/api/categories/{id}")) {
                    response.headers_mut().insert(header::LOCATION, v);
                }
                return Ok(response);
            }
            Err(CategoryError::Store(StoreError::Condition("id"))) => continue,
            Err(CategoryError::NotFound) => {
                return Err(ApiError::Forbidden("this account no longer exists".into()))
            }
            Err(e) => return Err(map_error(e)),
        }
    }
    Err(ApiError::Conflict(
        "could not store the category; retry".into(),
    ))
}

/// A global category or one of the caller's own.
#[utoipa::path(
    get,
    path = "/api/categories/{id}",
    tag = "categories",
    security(("bearer" = [])),
    params(("id" = inline(docs::Id), Path)),
    responses(
        (status = 200, description = "The category", body = CategoryResponse),
        docs::ReadErrors,
    )
)]
pub async fn read(
    State(state): State<AppState>,
    user: AuthUser,
    Path(id): Path<u64>,
) -> ApiResult<Json<CategoryResponse>> {
    let category = state
        .store
        .get_category(user.id, id)
        .await?
        .ok_or_else(not_found)?;
    Ok(Json(CategoryResponse::from(category)))
}

/// Replaces name, icon, colour and type.
#[utoipa::path(
    put,
    path = "/api/categories/{id}",
    tag = "categories",
    security(("bearer" = [])),
    params(("id" = inline(docs::Id), Path)),
    request_body = CategoryUpdateRequest,
    responses(
        (status = 200, description = "Updated", body = CategoryResponse),
        docs::UpdateErrors,
    )
)]
pub async fn update(
    State(state): State<AppState>,
    user: AuthUser,
    Path(id): Path<u64>,
    Json(body): Json<CategoryUpdateRequest>,
) -> ApiResult<Json<CategoryResponse>> {
    let valid = validate(CategoryRequest {
        category_name: body.category_name,
        icon: body.icon,
        color: body.color,
        category_type: body.category_type,
        is_global: false,
    })?;
    let current = state
        .store
        .get_category(user.id, id)
        .await?
        .ok_or_else(not_found)?;
    if current.is_global {
        require_admin(&state, &user).await?;
        if valid.category_type != current.category_type {
            return Err(ApiError::Conflict(
                "the type of a global category cannot change: transactions may use it".into(),
            ));
        }
    }
    let next = CategoryRecord {
        name: valid.name,
        icon: valid.icon,
        color: valid.color,
        category_type: valid.category_type,
        updated_at: now_local_date_time(),
        ..current.clone()
    };
    state
        .store
        .update_category(&current, &next)
        .await
        .map_err(map_error)?;
    Ok(Json(CategoryResponse::from(next)))
}

/// Deletes one of the caller's own categories unless transactions use it.
#[utoipa::path(
    delete,
    path = "/api/categories/{id}",
    tag = "categories",
    security(("bearer" = [])),
    params(("id" = inline(docs::Id), Path)),
    responses(
        (status = 204, description = "Deleted"),
        docs::DeleteErrors,
    )
)]
pub async fn remove(
    State(state): State<AppState>,
    user: AuthUser,
    Path(id): Path<u64>,
) -> ApiResult<StatusCode> {
    let current = state
        .store
        .get_category(user.id, id)
        .await?
        .ok_or_else(not_found)?;
    if current.is_global {
        require_admin(&state, &user).await?;
        return Err(ApiError::Conflict(
            "global categories cannot be deleted: any user's transactions may use them".into(),
        ));
    }
    state
        .store
        .delete_own_category(user.id, &current)
        .await
        .map_err(map_error)?;
    Ok(StatusCode::NO_CONTENT)
}
