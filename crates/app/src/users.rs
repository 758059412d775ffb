//! Users: who may act on whom, profiles, the admins' list, and profile pictures.

use super::{AppError, AppResult};
use pf_domain::time::now_local_date_time;
use pf_domain::{Role, User};
use pf_store::accounts::UserSummary;
use pf_store::pictures::Picture;
use pf_store::{Store, StoreError};

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

/// The refusal when the caller's own account was deleted meanwhile.
pub(crate) fn account_gone() -> AppError {
    AppError::Forbidden("this account no longer exists".into())
}

/// A user's profile (`NotFound` when absent).
pub async fn get(store: &Store, id: u64) -> AppResult<User> {
    store
        .get_user(id)
        .await?
        .ok_or_else(|| AppError::not_found("user"))
}

/// The caller's own profile (`Forbidden` when the account is gone).
pub async fn own(store: &Store, user_id: u64) -> AppResult<User> {
    store.get_user(user_id).await?.ok_or_else(account_gone)
}

/// One page of users by id, after the user `after`, and the last one's id when more follow.
pub async fn list(
    store: &Store,
    limit: i32,
    after: Option<u64>,
) -> AppResult<(Vec<UserSummary>, Option<u64>)> {
    Ok(store.list_users(limit, after).await?)
}

/// The refusal for a picture that is not there.
fn no_picture() -> AppError {
    AppError::NotFound("no profile picture".into())
}

/// Stores (or replaces) the user's picture.
pub async fn put_picture(store: &Store, id: u64, picture: &Picture) -> AppResult<()> {
    let now = now_local_date_time();
    store
        .put_picture(id, picture, &now)
        .await
        .map_err(|e| match e {
            StoreError::NotFound => AppError::not_found("user"),
            e => e.into(),
        })
}

pub async fn get_picture(store: &Store, id: u64) -> AppResult<Picture> {
    store.get_picture(id).await?.ok_or_else(no_picture)
}

pub async fn delete_picture(store: &Store, id: u64) -> AppResult<()> {
    store.delete_picture(id).await.map_err(|e| match e {
        StoreError::NotFound => no_picture(),
        e => e.into(),
    })
}
