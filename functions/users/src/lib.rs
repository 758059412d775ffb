//! User endpoints: the list (admins), one's own profile, changes, deletion, and the
//! profile picture.

mod picture;

use std::time::{Duration, Instant};

use axum::extract::DefaultBodyLimit;
use axum::http::StatusCode;
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

use pf_app as app;
use pf_app::accounts::ProfileUpdate;
use pf_app::Purge;
use pf_domain::{Role, User};
use pf_http::auth::{require_admin, require_self_or_admin, Caller};
use pf_http::client::ClientAddr;
use pf_http::extract::{IfMatchHeader, Json, Path, Query};
use pf_http::item::ItemChange;
use pf_http::respond::{Page, Versioned};
use pf_http::users::UserResponse;
use pf_http::{docs, ApiError, ApiResult, AppState, FieldError};

/// The routes with their documentation: a route cannot exist without it.
pub fn api() -> OpenApiRouter<AppState> {
    // Pictures are larger than JSON bodies; the handler enforces the exact bound.
    let (schemas, paths, picture_routes) = routes!(picture::read, picture::store, picture::remove);
    let picture_routes =
        picture_routes.layer(DefaultBodyLimit::max(picture::MAX_PICTURE_BYTES + 1));
    let routes = OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(me))
        .routes(routes!(read, update, remove))
        .routes((schemas, paths, picture_routes));
    docs::protected("users", routes)
}

fn versioned(user: &User) -> Versioned<UserResponse> {
    Versioned::new(user.version, UserResponse::from(user))
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// Page size, 1 to 200 (default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<u32>,
    /// Opaque cursor from the previous page's `Link` header.
    pub cursor: Option<String>,
}

/// All users, by id, a page at a time (administrators only).
#[utoipa::path(get, path = "/users", params(ListQuery),
    responses(
        (status = 200, description = "One page of users", body = Vec<UserResponse>, headers(
            ("Link" = String, description = "`<url>; rel=\"next\"` when another page may follow"))),
        docs::ListErrors,
    ))]
async fn list(me: Caller, Query(q): Query<ListQuery>) -> ApiResult<Page<UserResponse>> {
    require_admin(&me).await?;
    let limit = match q.limit {
        None => 50,
        Some(l @ 1..=200) => l,
        Some(_) => {
            let error = FieldError::new("limit", "must be an integer from 1 to 200");
            return Err(ApiError::validation(vec![error]));
        }
    };
    // The position is a user id, sealed like every cursor: opaque and bound to the caller.
    let cursors = me.state.tokens.cursors();
    let after = match &q.cursor {
        None => None,
        Some(c) => Some(
            cursors
                .open("users", me.id, c)
                .and_then(|p| p.parse::<u64>().ok())
                .ok_or_else(app::transactions::invalid_cursor)?,
        ),
    };
    let (found, next) = app::users::list(me.store(), limit as i32, after).await?;
    Ok(Page {
        items: found.into_iter().map(UserResponse::from).collect(),
        next: next.map(|next| {
            let cursor = cursors.seal("users", me.id, &next.to_string());
            format!("/users?limit={limit}&cursor={cursor}")
        }),
    })
}

/// The caller's own profile.
#[utoipa::path(get, path = "/users/me", params(docs::IfNoneMatch),
    responses(
        (status = 200, description = "The caller", body = UserResponse, headers(
            ("ETag" = String, description = "Version, for If-Match"))),
        docs::Cached,
        docs::ReadErrors,
    ))]
async fn me(me: Caller) -> ApiResult<Versioned<UserResponse>> {
    Ok(versioned(&app::users::get(me.store(), me.id).await?))
}

/// A profile: one's own, or anyone's for an admin.
#[utoipa::path(get, path = "/users/{id}",
    params(("id" = inline(docs::Id), Path), docs::IfNoneMatch),
    responses(
        (status = 200, description = "The user", body = UserResponse, headers(
            ("ETag" = String, description = "Version, for If-Match"))),
        docs::Cached,
        docs::ReadErrors,
    ))]
async fn read(me: Caller, Path(id): Path<u64>) -> ApiResult<Versioned<UserResponse>> {
    require_self_or_admin(&me, id).await?;
    Ok(versioned(&app::users::get(me.store(), id).await?))
}

/// Fields a profile update may carry; anything else (id, createdAt, ...) is refused.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[schema(as = UserUpdate)]
pub struct UpdateRequest {
    /// Also accepted as `firstname`.
    #[serde(alias = "firstname")]
    #[schema(value_type = Option<docs::Name>)]
    pub first_name: Option<String>,
    /// Also accepted as `lastname`.
    #[serde(alias = "lastname")]
    #[schema(value_type = Option<docs::Name>)]
    pub last_name: Option<String>,
    /// Must stay unique regardless of case.
    #[schema(format = Email, max_length = 254)]
    pub email: Option<String>,
    /// New password, 15 to 128 characters.
    #[schema(min_length = 15, max_length = 128, format = Password)]
    pub password: Option<String>,
    /// Required with `password` when changing one's own; with `email`, unless the login is
    /// recent (wrong attempts count against the login throttle).
    #[schema(max_length = 1024, format = Password)]
    pub current_password: Option<String>,
    /// Administrators only.
    pub role: Option<Role>,
}

/// Changes names, e-mail, password or (admins only) role. Omitted fields stay as they are.
/// Changing one's own password needs `currentPassword`; one's own e-mail `currentPassword`
/// or a recent login; an admin changing another user's e-mail, password or role a recent
/// login of their own (else `403` of type `/problems/reauthentication-required`). A new
/// e-mail is unverified until its mailed link is used. A new password, e-mail or role ends
/// every session and device token of the user.
#[utoipa::path(put, path = "/users/{id}",
    params(("id" = inline(docs::Id), Path), docs::IfMatch),
    request_body = UpdateRequest,
    responses(
        (status = 200, description = "Updated", body = UserResponse, headers(
            ("ETag" = String, description = "New version"))),
        docs::VersionedUpdateErrors,
        (status = 429, response = docs::TooManyRequests),
    ))]
async fn update(
    ItemChange { me, id, expected }: ItemChange,
    client: ClientAddr,
    Json(body): Json<UpdateRequest>,
) -> ApiResult<Versioned<UserResponse>> {
    let update = ProfileUpdate {
        first_name: body.first_name,
        last_name: body.last_name,
        email: body.email,
        password: body.password,
        current_password: body.current_password,
        role: body.role,
    };
    let (links, actor) = (me.state.links(), me.actor(&client));
    let updated =
        app::accounts::update_profile(me.store(), links, actor, id, update, expected).await?;
    Ok(versioned(&updated))
}

/// Body of `DELETE /users/{id}`: the password, when deleting one's own account.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[schema(as = UserDeletion)]
pub struct DeleteRequest {
    /// Deleting one's own account without a recent login needs it; not used otherwise.
    #[schema(max_length = 1024, format = Password)]
    pub current_password: Option<String>,
}

/// The optional body: absent, empty or JSON `null` all mean no fields.
fn parse_delete_body(body: &[u8]) -> ApiResult<DeleteRequest> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(DeleteRequest::default());
    }
    let parsed: Option<DeleteRequest> = serde_json::from_slice(body)
        .map_err(|e| ApiError::bad_request(format!("invalid body: {e}")))?;
    Ok(parsed.unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deletion_body_is_optional_and_strict() {
        for empty in [&b""[..], b"  ", b"null", b"{}"] {
            let parsed = parse_delete_body(empty).unwrap();
            assert_eq!(parsed.current_password, None, "{empty:?}");
        }
        let given = parse_delete_body(br#"{"currentPassword":"secret words"}"#).unwrap();
        assert_eq!(given.current_password.as_deref(), Some("secret words"));
        assert!(parse_delete_body(br#"{"password":"x"}"#).is_err());
        assert!(parse_delete_body(b"[1]").is_err());
    }
}

/// Time a deletion may spend purging before answering (API Gateway waits at most 30 s).
const PURGE_BUDGET: Duration = Duration::from_secs(20);

/// Deletes the user and everything they own: 204 when done. If the purge of a very large
/// account outlasts the budget, 202: the account is already gone (login, e-mail, wallet),
/// and repeating the DELETE finishes the purge. Deleting one's own account needs a
/// recent login (within `REAUTH_WINDOW_SECONDS`, default 300 s: the spec's bodiless DELETE
/// right after login) or `{"currentPassword": ...}` in the body; an admin deleting another
/// user needs a recent login of their own. Otherwise `403` of type
/// `/problems/reauthentication-required`: log in again.
#[utoipa::path(
    delete,
    path = "/users/{id}",
    params(("id" = inline(docs::Id), Path), docs::IfMatch),
    request_body(content = Option<DeleteRequest>, content_type = "application/json"),
    responses(
        (status = 202, description = "Account closed; a very large remainder is still being purged: repeat the DELETE to finish"),
        (status = 204, description = "Deleted with all of its data"),
        docs::ReadErrors,
        (status = 412, response = docs::PreconditionFailed),
        (status = 429, response = docs::TooManyRequests),
    )
)]
async fn remove(
    me: Caller,
    client: ClientAddr,
    Path(id): Path<u64>,
    IfMatchHeader(expected): IfMatchHeader,
    body: axum::body::Bytes,
) -> ApiResult<StatusCode> {
    let password = parse_delete_body(&body)?.current_password;
    let deadline = Instant::now() + PURGE_BUDGET;
    let (store, actor) = (me.store(), me.actor(&client));
    let purge = app::accounts::delete_user(store, actor, id, password, deadline, expected);
    Ok(match purge.await? {
        Purge::Complete { .. } => StatusCode::NO_CONTENT,
        Purge::Partial { .. } => StatusCode::ACCEPTED,
    })
}
