//! Accounts: registration (never with a role), password checks counted against the
//! throttles before argon2 runs, sessions (login, refresh, logout, logout everywhere),
//! profile changes that need the current password, and deletion.

mod profile;
mod sessions;

pub use profile::{delete_user, update_profile, ProfileUpdate};
pub use sessions::{login, logout, logout_all, parse_refresh, refresh, RefreshToken, Session};

use super::{AppError, AppResult};
use crate::auth::password;
use crate::domain::time::Timestamp;
use crate::domain::{Email, Password};
use crate::store::users::{NewUser, UserRecord};
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
