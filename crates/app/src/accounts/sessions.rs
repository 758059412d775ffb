//! Sessions: login, the single-use refresh token, device tokens, logout and logout
//! everywhere. Every session step (login, refresh) also answers the session's device
//! token (one per session, see [`TokenKeys::device_token`]): a login that presents a
//! valid one is throttled on that device's own allowance.

use super::{check_password, now_secs, random_token, Origin};
use crate::{AppError, AppResult};
use pf_auth::password;
use pf_auth::token::TokenKeys;
use pf_domain::{Email, User};
use pf_store::sessions::{self, Rotation, StepHashes};
use pf_store::{Store, StoreError};

/// A session's tokens: the access token and the refresh token `<user>.<session>.<secret>`.
pub struct Session {
    pub user: User,
    pub access_token: String,
    pub refresh_token: String,
    /// Recognises this device at its next logins (a year; revoked with the sessions).
    pub device_token: String,
}

/// Random bytes of a session id (22 characters) and of a refresh secret (32 characters).
const FAMILY_BYTES: usize = 16;
const SECRET_BYTES: usize = 24;
/// Random bytes of a device token (192 bits, 32 characters).
const DEVICE_BYTES: usize = 24;

/// The hash of a device token of the right shape; anything else is no device token.
fn device_hash(token: &str) -> Option<String> {
    is_token_part(token, DEVICE_BYTES).then(|| sessions::hash_secret(token))
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
    user: User,
    family: &str,
    rotating: Option<&str>,
) -> AppResult<Session> {
    let secret = random_token(SECRET_BYTES);
    let hash = sessions::hash_secret(&secret);
    let device = tokens.device_token(user.id, family);
    let device_hash = sessions::hash_secret(&device);
    let hashes = StepHashes {
        refresh: &hash,
        device: &device_hash,
    };
    let now = now_secs();
    let auth_time = match rotating {
        None => match store
            .start_session(user.id, family, hashes, user.session_epoch, now)
            .await
        {
            Ok(()) => Some(now),
            // The password, e-mail or role changed since the profile was read.
            Err(StoreError::Conflict(_)) => None,
            Err(e) => return Err(e.into()),
        },
        Some(old) => match store
            .rotate_session(user.id, family, old, hashes, now)
            .await?
        {
            Rotation::Rotated { auth_time } => Some(auth_time),
            Rotation::Refused => None,
        },
    };
    let auth_time = auth_time.ok_or_else(refresh_refused)?;
    Ok(Session {
        access_token: tokens.issue(user.id, user.role, auth_time, user.session_epoch)?,
        refresh_token: format!("{}.{family}.{secret}", user.id),
        device_token: device,
        user,
    })
}

/// Logs in: a new session when the password matches (a stored hash of weaker parameters
/// is renewed). Malformed e-mails and over-long passwords fail like wrong ones, unhashed.
/// A valid `device_token` of this account moves the attempt to the device's allowance.
pub async fn login(
    store: &Store,
    tokens: &TokenKeys,
    client: Origin<'_>,
    email: &str,
    plain: String,
    device_token: Option<&str>,
) -> AppResult<Session> {
    let failed = || AppError::Unauthorized("invalid e-mail or password".into());
    let email = Email::parse(email)
        .ok()
        .filter(|_| plain.len() <= 1024)
        .ok_or_else(failed)?;
    let normalized = email.normalized();
    let user = store.find_user_by_email(&normalized).await?;
    let stored = user.as_ref().map(|u| u.password_hash.clone());
    let trusted = match (&user, device_token.and_then(device_hash)) {
        (Some(u), Some(hash))
            if store
                .device_is_valid(u.id, &hash, u.session_epoch, now_secs())
                .await? =>
        {
            Some(hash)
        }
        _ => None,
    };
    let ok = check_password(
        store,
        &normalized,
        client,
        plain.clone(),
        stored,
        trusted.as_deref(),
    )
    .await?;
    let user = user.filter(|_| ok).ok_or_else(failed)?;
    if password::needs_rehash(&user.password_hash) {
        let stronger = password::hash_off_thread(plain).await?;
        store
            .upgrade_password_hash(user.id, &user.password_hash, &stronger)
            .await?;
    }
    issue(store, tokens, user, &random_token(FAMILY_BYTES), None).await
}

/// Starts a new session of `user` as read after the change that let them in (a reset).
pub(super) async fn start(store: &Store, tokens: &TokenKeys, user: User) -> AppResult<Session> {
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

/// Ends the session of a refresh token when it is that session's current one; an unknown
/// token or ended session is not an error (RFC 7009). A token of a live session that is
/// not its current one (an old, rotated one; a guess) ends nothing and is refused.
pub async fn logout(store: &Store, token: &str) -> AppResult<()> {
    if let Some(token) = parse_refresh(token) {
        if !store
            .end_session_of(token.user_id, &token.family, &token.hash)
            .await?
        {
            return Err(AppError::Unauthorized(
                "this refresh token is not the session's current one; nothing was ended".into(),
            ));
        }
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
}
