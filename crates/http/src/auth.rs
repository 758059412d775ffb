//! The authenticated caller, taken from `Authorization: Bearer <token>`.

use axum::extract::FromRequestParts;
use axum::http::header;
use axum::http::request::Parts;

use super::client::ClientAddr;
use super::{ApiError, AppState};
use pf_store::Store;

/// The signed-in caller of a protected endpoint, with the application's state: what nearly
/// every handler needs, as one extractor. Its access token must be valid: anything
/// missing, malformed, expired or forged is answered 403, as the spec requires, and so is
/// the token of a session that has ended since it was issued (its session epoch is behind
/// the profile's: [`pf_store::epochs`], read at most every 5 s per user and instance).
/// (Roles are checked against the stored profile, not the token: see [`require_admin`].)
#[derive(Clone)]
pub struct Caller {
    pub id: u64,
    /// When the password login behind this token happened (Unix seconds).
    pub auth_time: i64,
    /// The session epoch the token was issued in.
    pub epoch: u64,
    pub state: AppState,
}

impl Caller {
    pub fn store(&self) -> &Store {
        &self.state.store
    }

    /// The caller as account changes see them: who, from where, how recent the login.
    pub fn actor<'a>(&'a self, client: &'a ClientAddr) -> pf_app::accounts::Actor<'a> {
        pf_app::accounts::Actor {
            id: self.id,
            origin: self.state.origin(client),
            login: pf_app::accounts::Login {
                auth_time: self.auth_time,
                epoch: self.epoch,
                window_secs: self.state.config.reauth_window_secs,
            },
        }
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
        let verified = state.tokens.verify(token.trim()).ok_or_else(denied)?;
        // A token of an ended session (password, e-mail or role change, reset,
        // logout-all since its login) is refused like a forged one: within
        // `EPOCH_MAX_AGE` on any instance, at once on the one that ended it.
        let live = state
            .store
            .session_is_current(verified.user_id, verified.epoch)
            .await
            .map_err(pf_app::AppError::Store)?;
        if !live {
            return Err(denied());
        }
        let state = state.clone();
        Ok(Caller {
            id: verified.user_id,
            auth_time: verified.auth_time,
            epoch: verified.epoch,
            state,
        })
    }
}

/// Allows admins only, by their stored role (see [`pf_app::users::require_admin`]).
pub async fn require_admin(me: &Caller) -> Result<(), ApiError> {
    Ok(pf_app::users::require_admin(me.store(), me.id).await?)
}

/// Allows the user themself or an admin; anyone else gets 404, as if `target` did not exist.
pub async fn require_self_or_admin(me: &Caller, target: u64) -> Result<(), ApiError> {
    Ok(pf_app::users::require_self_or_admin(me.store(), me.id, target).await?)
}
