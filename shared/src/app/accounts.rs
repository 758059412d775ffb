//! Accounts: registration (never with a role), password checks counted against the
//! throttles before argon2 runs, sessions (login, refresh, logout, logout everywhere),
//! profile changes that need the current password, and deletion.

use std::time::Instant;

use base64::Engine;

use super::users::{require_admin, require_self_or_admin};
use super::{AppError, AppResult, IfMatch};
use crate::auth::password;
use crate::auth::token::TokenKeys;
use crate::domain::text::{parse_name, NAME_MAX_LEN};
use crate::domain::time::Timestamp;
use crate::domain::{Email, Password, Violation};
use crate::store::accounts::{ProfileChanges, Purge};
use crate::store::sessions::{self, Rotation};
use crate::store::users::{NewUser, Role, UserRecord};
use crate::store::wallet::Wallet;
use crate::store::{ConflictKind, Store, StoreError};

fn now_secs() -> i64 {
    time::OffsetDateTime::now_utc().unix_timestamp()
}

/// A registration whose fields all parsed.
pub struct Registration {
    pub first_name: String,
    pub last_name: String,
    pub email: Email,
    pub password: Password,
}

/// Registers a user with a wallet (EUR), within the client address's hourly allowance.
pub async fn register(
    store: &Store,
    client: &str,
    per_hour: u64,
    r: Registration,
) -> AppResult<(UserRecord, Wallet)> {
    if let Err(t) = store
        .reserve_registration(client, per_hour, now_secs())
        .await?
    {
        return Err(AppError::Throttled {
            message: "too many registrations from this address; try again later".into(),
            retry_after: t.retry_after,
        });
    }
    let password_hash = password::hash_off_thread(r.password.expose().to_owned()).await?;
    let new = NewUser {
        email: r.email.as_str().to_owned(),
        normalized_email: r.email.normalized(),
        first_name: r.first_name,
        last_name: r.last_name,
        password_hash,
        now: Timestamp::now().to_string(),
    };
    store.create_user(new).await.map_err(|e| match e {
        StoreError::Conflict(ConflictKind::EmailTaken) => {
            AppError::Conflict("an account with this e-mail already exists".into())
        }
        e => AppError::Store(e),
    })
}

/// Checks a password for the account of `normalized_email`, counted against the login
/// throttles of (e-mail, client address) *before* the hash is computed; `stored` is
/// `None` for an unknown e-mail (the same work is done on a dummy hash). A match clears
/// the address's count.
pub async fn check_password(
    store: &Store,
    normalized_email: &str,
    client: &str,
    given: String,
    stored: Option<String>,
) -> AppResult<bool> {
    let now = now_secs();
    if let Err(t) = store
        .reserve_login_attempt(normalized_email, client, now)
        .await?
    {
        return Err(AppError::Throttled {
            message: "too many password attempts for this account; try again later".into(),
            retry_after: t.retry_after,
        });
    }
    let ok = password::verify_off_thread(given, stored).await?;
    if ok {
        store
            .clear_login_attempts(normalized_email, client, now)
            .await?;
    }
    Ok(ok)
}

/// `currentPassword` checked against the account like a login attempt: `Forbidden` when
/// absent or wrong.
async fn confirm_password(
    store: &Store,
    client: &str,
    account: &UserRecord,
    given: Option<String>,
) -> AppResult<()> {
    let wrong =
        || AppError::Forbidden("currentPassword does not match the current password".into());
    let given = given
        .filter(|p| !p.is_empty() && p.len() <= 1024)
        .ok_or_else(wrong)?;
    let email = account.email.to_lowercase();
    let stored = Some(account.password_hash.clone());
    if check_password(store, &email, client, given, stored).await? {
        Ok(())
    } else {
        Err(wrong())
    }
}

/// A session's tokens: the access token and the refresh token `<user>.<session>.<secret>`.
pub struct Session {
    pub user: UserRecord,
    pub access_token: String,
    pub refresh_token: String,
}

/// Random bytes of a session id (22 characters) and of a refresh secret (32 characters).
const FAMILY_BYTES: usize = 16;
const SECRET_BYTES: usize = 24;

/// `n` random bytes, URL-safe base64.
fn random_token(n: usize) -> String {
    let bytes: Vec<u8> = (0..n).map(|_| rand::random::<u8>()).collect();
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

fn refresh_refused() -> AppError {
    AppError::Unauthorized(
        "the refresh token is invalid, expired, revoked or already used; log in again".into(),
    )
}

fn is_token_part(part: &str, bytes: usize) -> bool {
    part.len() == (bytes * 4).div_ceil(3)
        && part
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// A refresh token's parts: the user (its partition), the session and the secret's hash.
#[derive(Debug, PartialEq, Eq)]
pub struct RefreshToken {
    pub user_id: u64,
    pub family: String,
    pub hash: String,
}

/// Parses `<user id>.<session>.<secret>`; anything else is simply not a valid token.
pub fn parse_refresh(token: &str) -> Option<RefreshToken> {
    let mut parts = token.split('.');
    let (id, family, secret) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some()
        || !is_token_part(family, FAMILY_BYTES)
        || !is_token_part(secret, SECRET_BYTES)
    {
        return None;
    }
    Some(RefreshToken {
        user_id: id.parse().ok()?,
        family: family.to_owned(),
        hash: sessions::hash_secret(secret),
    })
}

/// Issues the tokens of a new session (`rotating: None`) or of the next step of one.
async fn issue(
    store: &Store,
    tokens: &TokenKeys,
    user: UserRecord,
    family: &str,
    rotating: Option<&str>,
) -> AppResult<Session> {
    let secret = random_token(SECRET_BYTES);
    let hash = sessions::hash_secret(&secret);
    let now = now_secs();
    let stored = match rotating {
        None => match store
            .start_session(user.id, family, &hash, user.session_epoch, now)
            .await
        {
            Ok(()) => true,
            // The password, e-mail or role changed since the profile was read.
            Err(StoreError::Conflict(_)) => false,
            Err(e) => return Err(e.into()),
        },
        Some(old) => {
            store
                .rotate_session(user.id, family, old, &hash, now)
                .await?
                == Rotation::Rotated
        }
    };
    if !stored {
        return Err(refresh_refused());
    }
    Ok(Session {
        access_token: tokens.issue(user.id, user.role)?,
        refresh_token: format!("{}.{family}.{secret}", user.id),
        user,
    })
}

/// Logs in: a new session when the password matches (a stored hash of weaker parameters
/// is renewed). Malformed e-mails and over-long passwords fail like wrong ones, unhashed.
pub async fn login(
    store: &Store,
    tokens: &TokenKeys,
    client: &str,
    email: &str,
    plain: String,
) -> AppResult<Session> {
    let failed = || AppError::Unauthorized("invalid e-mail or password".into());
    let email = Email::parse(email)
        .ok()
        .filter(|_| plain.len() <= 1024)
        .ok_or_else(failed)?;
    let normalized = email.normalized();
    let user = store.find_user_by_email(&normalized).await?;
    let stored = user.as_ref().map(|u| u.password_hash.clone());
    let ok = check_password(store, &normalized, client, plain.clone(), stored).await?;
    let user = user.filter(|_| ok).ok_or_else(failed)?;
    if password::needs_rehash(&user.password_hash) {
        let stronger = password::hash_off_thread(plain).await?;
        store
            .upgrade_password_hash(user.id, &user.password_hash, &stronger)
            .await?;
    }
    issue(store, tokens, user, &random_token(FAMILY_BYTES), None).await
}

/// Exchanges a refresh token for the next one of its session (and a new access token).
pub async fn refresh(store: &Store, tokens: &TokenKeys, token: &str) -> AppResult<Session> {
    let token = parse_refresh(token).ok_or_else(refresh_refused)?;
    // The current profile: a deleted user cannot refresh, and a changed role applies.
    let user = store
        .get_user(token.user_id)
        .await?
        .ok_or_else(refresh_refused)?;
    issue(store, tokens, user, &token.family, Some(&token.hash)).await
}

/// Ends the session of a refresh token; an unknown token is not an error (RFC 7009).
pub async fn logout(store: &Store, token: &str) -> AppResult<()> {
    if let Some(token) = parse_refresh(token) {
        store.end_session(token.user_id, &token.family).await?;
    }
    Ok(())
}

/// Ends every session of the user at once.
pub async fn logout_all(store: &Store, user_id: u64) -> AppResult<()> {
    match store.end_all_sessions(user_id).await {
        Ok(()) | Err(StoreError::NotFound) => Ok(()),
        Err(e) => Err(e.into()),
    }
}

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
/// against the stored role); one's own e-mail or password only with the current password
/// (a stolen access token alone cannot take the account over).
pub async fn update_profile(
    store: &Store,
    caller: u64,
    target: u64,
    client: &str,
    update: ProfileUpdate,
    expected: Option<IfMatch>,
) -> AppResult<UserRecord> {
    require_self_or_admin(store, caller, target).await?;
    if update.role.is_some() {
        require_admin(store, caller).await?;
    }
    let current = store
        .get_user(target)
        .await?
        .ok_or_else(|| AppError::not_found("user"))?;
    let keep = super::version_to_keep(expected, current.version)?;
    let (mut changes, password) = check_update(&update)?;
    if caller == target && (password.is_some() || changes.email.is_some()) {
        confirm_password(store, client, &current, update.current_password).await?;
    }
    if let Some(p) = password {
        changes.password_hash = Some(password::hash_off_thread(p.expose().to_owned()).await?);
    }
    store
        .update_user(&current, changes, Timestamp::now(), keep)
        .await
        .map_err(|e| match e {
            StoreError::Conflict(ConflictKind::EmailTaken) => {
                AppError::Conflict("an account with this e-mail already exists".into())
            }
            StoreError::Conflict(ConflictKind::Changed) if keep.is_some() => super::stale(),
            StoreError::Conflict(ConflictKind::Changed) => {
                AppError::Conflict("the profile changed meanwhile; retry".into())
            }
            e => AppError::Store(e),
        })
}

/// Deletes a user and everything they own until `deadline`: the user themself (with the
/// current password) or an admin. The profile, e-mail and wallet go first, at once; a
/// purge cut short by the deadline continues on the next call. How far it got is logged.
pub async fn delete_user(
    store: &Store,
    caller: u64,
    target: u64,
    client: &str,
    current_password: Option<String>,
    deadline: Instant,
    expected: Option<IfMatch>,
) -> AppResult<Purge> {
    require_self_or_admin(store, caller, target).await?;
    match store.get_user(target).await? {
        Some(record) => {
            super::check_version(expected, record.version)?;
            if caller == target {
                confirm_password(store, client, &record, current_password).await?;
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
    fn refresh_tokens_have_three_parts_of_fixed_shape() {
        let family = random_token(FAMILY_BYTES);
        let secret = random_token(SECRET_BYTES);
        let token = format!("42.{family}.{secret}");
        assert!(token.len() <= 80);
        let parsed = parse_refresh(&token).unwrap();
        assert_eq!(
            (parsed.user_id, parsed.family.as_str()),
            (42, family.as_str())
        );
        assert_eq!(parsed.hash, sessions::hash_secret(&secret));
        for bad in [
            format!("42.{family}"),
            format!("x.{family}.{secret}"),
            format!("42.{family}.{secret}.x"),
            format!("42.{family}.{}", &secret[1..]),
            format!("42.{family}.{}!", &secret[1..]),
        ] {
            assert_eq!(parse_refresh(&bad), None, "{bad}");
        }
    }

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
