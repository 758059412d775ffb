//! The authenticated caller, taken from `Authorization: Bearer <token>`.

use axum::extract::FromRequestParts;
use axum::http::header;
use axum::http::request::Parts;

use super::{ApiError, AppState};
use crate::store::Store;

/// The signed-in caller of a protected endpoint, with the application's state: what nearly
/// every handler needs, as one extractor. Its access token must be valid: anything
/// missing, malformed, expired or forged is answered 403, as the spec requires. (Roles are
/// checked against the stored profile, not the token: see [`require_admin`].)
#[derive(Clone)]
pub struct Caller {
    pub id: u64,
    pub state: AppState,
}

impl Caller {
    pub fn store(&self) -> &Store {
        &self.state.store
    }
}

impl FromRequestParts<AppState> for Caller {
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
        let (id, _role) = state.tokens.verify(token.trim()).ok_or_else(denied)?;
        let state = state.clone();
        Ok(Caller { id, state })
    }
}

/// Allows admins only, by their stored role (see [`crate::app::users::require_admin`]).
pub async fn require_admin(me: &Caller) -> Result<(), ApiError> {
    Ok(crate::app::users::require_admin(me.store(), me.id).await?)
}

/// Allows the user themself or an admin; anyone else gets 404, as if `target` did not exist.
pub async fn require_self_or_admin(me: &Caller, target: u64) -> Result<(), ApiError> {
    Ok(crate::app::users::require_self_or_admin(me.store(), me.id, target).await?)
}
