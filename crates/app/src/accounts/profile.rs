//! Profile changes (the current password where they need it) and account deletion.

use std::time::Instant;

use super::{confirm_password, mail_verification, reauthentication_required, Actor, Links};
use crate::users::{require_admin, require_self_or_admin};
use crate::{AppError, AppResult, IfMatch};
use pf_auth::password;
use pf_domain::text::{parse_name, NAME_MAX_LEN};
use pf_domain::time::Timestamp;
use pf_domain::{Email, Password, Role, User, Violation};
use pf_mail::Mail;
use pf_store::accounts::{ProfileChanges, Purge};
use pf_store::{ConflictKind, Store, StoreError};

/// A profile change as the client sent it (every field optional).
#[derive(Debug, Default)]
pub struct ProfileUpdate {
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub email: Option<String>,
    pub password: Option<String>,
    pub current_password: Option<String>,
    pub role: Option<Role>,
}

/// Checks the fields of a profile change; every broken rule is reported.
fn check_update(u: &ProfileUpdate) -> AppResult<(ProfileChanges, Option<Password>)> {
    let mut errors = Vec::new();
    let mut changes = ProfileChanges {
        role: u.role,
        ..Default::default()
    };
    let mut name = |field: &str, value: &Option<String>| match value
        .as_deref()
        .map(|v| parse_name(v, NAME_MAX_LEN))
    {
        Some(Ok(v)) => Some(v),
        Some(Err(e)) => {
            errors.push(Violation::new(field, e));
            None
        }
        None => None,
    };
    changes.first_name = name("firstName", &u.first_name);
    changes.last_name = name("lastName", &u.last_name);
    if let Some(v) = &u.email {
        match Email::parse(v) {
            Ok(e) => changes.email = Some((e.as_str().to_owned(), e.normalized())),
            Err(e) => errors.push(Violation::new("email", e)),
        }
    }
    let password = match u.password.as_deref().map(Password::parse) {
        Some(Ok(p)) => Some(p),
        Some(Err(e)) => {
            errors.push(Violation::new("password", e));
            None
        }
        None => None,
    };
    if errors.is_empty() {
        Ok((changes, password))
    } else {
        Err(AppError::Invalid(errors))
    }
}

/// Changes a profile: the user themself or an admin; a role only by an admin (checked
/// against the stored role). One's own password or e-mail needs the current password,
/// however recent the login (a stolen access token alone cannot take an account over);
/// an admin changing another user's e-mail, password or role a recent login of their
/// own. A new e-mail is unverified and is mailed a link; the old address is told of the
/// change (and keeps getting the reset links until the new one is verified).
pub async fn update_profile(
    store: &Store,
    links: Links<'_>,
    actor: Actor<'_>,
    target: u64,
    update: ProfileUpdate,
    expected: Option<IfMatch>,
) -> AppResult<User> {
    let caller = actor.id;
    require_self_or_admin(store, caller, target).await?;
    if update.role.is_some() {
        require_admin(store, caller).await?;
    }
    // The body is checked before the version is compared: 400 before 412.
    let (mut changes, password) = check_update(&update)?;
    let current = store
        .get_user(target)
        .await?
        .ok_or_else(|| AppError::not_found("user"))?;
    let keep = crate::version_to_keep(expected, current.version)?;
    let credentials = password.is_some() || changes.email.is_some();
    if caller == target {
        if credentials || update.current_password.is_some() {
            confirm_password(store, actor.origin, &current, update.current_password).await?;
        }
    } else if (credentials || changes.role.is_some_and(|r| r != current.role))
        && !recent_login(store, actor, &current).await?
    {
        return Err(reauthentication_required());
    }
    if let Some(p) = password {
        changes.password_hash = Some(password::hash_off_thread(p.expose().to_owned()).await?);
    }
    let email_changed = changes
        .email
        .as_ref()
        .is_some_and(|(_, normalized)| *normalized != current.normalized_email());
    let updated = store
        .update_user(&current, changes, Timestamp::now(), keep)
        .await
        .map_err(|e| match e {
            StoreError::Conflict(ConflictKind::EmailTaken) => {
                AppError::Conflict("an account with this e-mail already exists".into())
            }
            StoreError::Conflict(ConflictKind::Changed) if keep.is_some() => crate::stale(),
            StoreError::Conflict(ConflictKind::Changed) => {
                AppError::Conflict("the profile changed meanwhile; retry".into())
            }
            e => AppError::Store(e),
        })?;
    if email_changed {
        mail_verification(store, links, &updated).await?;
        tell_the_old_address(links, &current, &updated).await;
    }
    Ok(updated)
}

/// Mails the address an account had that its e-mail changed, and when.
async fn tell_the_old_address(links: Links<'_>, before: &User, after: &User) {
    let mail = Mail {
        to: before.email.clone(),
        subject: "The e-mail address of your account changed".into(),
        body: format!(
            "Hello,\n\nThe e-mail address of your Personal Finance account was changed at \
             {} UTC; this address no longer signs in.\n\nIf you did not change it, ask \
             for a password reset with the new address, {}: until it is confirmed, the \
             link comes to this one.\n",
            after.updated_at, after.email
        ),
    };
    super::recovery::post(links, after.id, mail).await;
}

/// Whether the caller's login is recent in their profile's session epoch as it is now:
/// `target`'s when the caller is the target, else the caller's own (one `GetItem`).
async fn recent_login(store: &Store, actor: Actor<'_>, target: &User) -> AppResult<bool> {
    let epoch = if actor.id == target.id {
        target.session_epoch
    } else {
        let me = store.get_user(actor.id).await?;
        me.ok_or_else(crate::users::account_gone)?.session_epoch
    };
    Ok(actor.login.is_recent(epoch))
}

/// Deletes a user and everything they own until `deadline`: the user themself (after a
/// recent login, or with the current password) or an admin (after a recent login of
/// their own). The profile, e-mail and wallet go first, at once; a purge cut short by
/// the deadline continues on the next call. How far it got is logged.
pub async fn delete_user(
    store: &Store,
    actor: Actor<'_>,
    target: u64,
    current_password: Option<String>,
    deadline: Instant,
    expected: Option<IfMatch>,
) -> AppResult<Purge> {
    let caller = actor.id;
    require_self_or_admin(store, caller, target).await?;
    match store.get_user(target).await? {
        Some(record) => {
            crate::check_version(expected, record.version)?;
            match current_password {
                Some(given) if caller == target => {
                    confirm_password(store, actor.origin, &record, Some(given)).await?
                }
                _ if recent_login(store, actor, &record).await? => {}
                _ => return Err(reauthentication_required()),
            }
            // Gone meanwhile: a concurrent deletion; the purge below finishes either way.
            match store.delete_profile(&record).await {
                Ok(()) | Err(StoreError::NotFound) => {}
                Err(e) => return Err(e.into()),
            }
        }
        // Already deleted: continue an unfinished purge, or report the user gone.
        None if store.has_user_items(target).await? => {}
        None => return Err(AppError::not_found("user")),
    }
    let purge = store.purge_user(target, deadline).await?;
    match purge {
        Purge::Complete { items } => tracing::info!(user_id = target, items, "user deleted"),
        Purge::Partial { items } => tracing::warn!(
            user_id = target,
            items,
            "user deletion continues on the next DELETE"
        ),
    }
    Ok(purge)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profile_changes_report_every_invalid_field() {
        let update = ProfileUpdate {
            first_name: Some(" ".into()),
            email: Some("nope".into()),
            password: Some("short".into()),
            ..Default::default()
        };
        let Err(AppError::Invalid(v)) = check_update(&update) else {
            panic!()
        };
        let fields: Vec<_> = v.iter().map(|v| v.field.as_str()).collect();
        assert_eq!(fields, ["firstName", "email", "password"]);
        let ok = ProfileUpdate {
            last_name: Some(" Lee ".into()),
            ..Default::default()
        };
        let (changes, password) = check_update(&ok).unwrap();
        assert_eq!(changes.last_name.as_deref(), Some("Lee"));
        assert!(password.is_none());
    }
}
