//! The authenticated caller, taken from `Authorization: Bearer <token>`.

use axum::extract::FromRequestParts;
use axum::http::header;
use axum::http::request::Parts;

use super::{ApiError, AppState};
use crate::domain::Role;

/// A caller whose access token is valid. Anything missing, malformed, expired or
/// forged is answered 403, as the spec requires.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AuthUser {
    pub id: u64,
    pub role: Role,
}

impl AuthUser {
    pub fn is_admin(&self) -> bool {
        self.role == Role::Admin
    }
}

impl FromRequestParts<AppState> for AuthUser {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let denied =
            || ApiError::Forbidden("authentication required: send a valid Bearer token".into());
        let value = parts
            .headers
            .get(header::AUTHORIZATION)
            .ok_or_else(denied)?;
        let value = value.to_str().map_err(|_| denied())?;
        let (scheme, token) = value.split_once(' ').ok_or_else(denied)?;
        if !scheme.eq_ignore_ascii_case("bearer") {
            return Err(denied());
        }
        let (id, role) = state.tokens.verify(token.trim()).ok_or_else(denied)?;
        Ok(AuthUser { id, role })
    }
}

/// Allows admins only, by their stored role (see [`crate::app::users::require_admin`]).
pub async fn require_admin(state: &AppState, user: &AuthUser) -> Result<(), ApiError> {
    Ok(crate::app::users::require_admin(&state.store, user.id).await?)
}

/// Allows the user themself or an admin; anyone else gets 404, as if `target` did not exist.
pub async fn require_self_or_admin(
    state: &AppState,
    user: &AuthUser,
    target: u64,
) -> Result<(), ApiError> {
    Ok(crate::app::users::require_self_or_admin(&state.store, user.id, target).await?)
}
