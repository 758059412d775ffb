//! Users: who may act on whom.

use super::{AppError, AppResult};
use crate::store::users::Role;
use crate::store::Store;

/// Allows admins only, by their role as stored now (a demoted admin's token still says
/// ADMIN until it expires; admin actions are rare enough to pay one read).
pub async fn require_admin(store: &Store, user_id: u64) -> AppResult<()> {
    match store.get_user(user_id).await? {
        Some(u) if u.role == Role::Admin => Ok(()),
        _ => Err(AppError::Forbidden("administrators only".into())),
    }
}

/// Allows the user themself or an admin; anyone else learns nothing: `NotFound`, as if
/// `target` did not exist.
pub async fn require_self_or_admin(store: &Store, user_id: u64, target: u64) -> AppResult<()> {
    if user_id == target {
        return Ok(());
    }
    require_admin(store, user_id)
        .await
        .map_err(|_| AppError::not_found("user"))
}
