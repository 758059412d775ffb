//! Sessions: login, the single-use refresh token, logout and logout everywhere.

use base64::Engine;

use super::{check_password, now_secs};
use crate::app::{AppError, AppResult};
use crate::auth::password;
use crate::auth::token::TokenKeys;
use crate::domain::Email;
use crate::store::sessions::{self, Rotation};
use crate::store::users::UserRecord;
use crate::store::{Store, StoreError};

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
