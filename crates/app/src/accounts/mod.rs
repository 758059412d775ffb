//! Accounts: registration (never with a role), password checks counted against the
//! throttles before argon2 runs, sessions (login, refresh, logout, logout everywhere),
//! profile changes that need the current password, and deletion.

mod profile;
mod recovery;
mod sessions;

pub use profile::{delete_user, update_profile, ProfileUpdate};
pub use recovery::{
    confirm_password_reset, mail_verification, request_password_reset, resend_verification,
    verify_email, Links, RESET_MIN_MILLIS,
};
pub use sessions::{login, logout, logout_all, parse_refresh, refresh, RefreshToken, Session};

use super::{AppError, AppResult};
use pf_auth::password;
use pf_domain::time::Timestamp;
use pf_domain::{Email, Password, User, Wallet};
use pf_store::throttle::LoginCounter;
use pf_store::users::NewUser;
use pf_store::{ConflictKind, Store, StoreError};

fn now_secs() -> i64 {
    time::OffsetDateTime::now_utc().unix_timestamp()
}

/// `n` random bytes (from the OS-seeded CSPRNG), URL-safe base64.
fn random_token(n: usize) -> String {
    use base64::Engine;
    let bytes: Vec<u8> = (0..n).map(|_| rand::random::<u8>()).collect();
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// Where a password attempt comes from, for the throttles: the client address and how
/// many failures it may make across all e-mails.
#[derive(Debug, Clone, Copy)]
pub struct Origin<'a> {
    pub address: &'a str,
    pub failures_per_address: u64,
}

/// The caller's password login: when, in which session epoch, and how old it may be to
/// count as recent.
#[derive(Debug, Clone, Copy)]
pub struct Login {
    pub auth_time: i64,
    pub epoch: u64,
    pub window_secs: i64,
}

impl Login {
    /// The login happened within the window (and not in the future), in the session epoch
    /// the caller's profile has now: a password reset, logout-all, e-mail or role change
    /// since makes it stale, so a token taken before one cannot change the credentials
    /// or delete the account without the password.
    pub fn is_recent(&self, current_epoch: u64) -> bool {
        let age = now_secs() - self.auth_time;
        self.epoch == current_epoch && (-60..=self.window_secs).contains(&age)
    }
}

/// Who asks for an account change: the caller, where from, and how recent their login is.
#[derive(Debug, Clone, Copy)]
pub struct Actor<'a> {
    pub id: u64,
    pub origin: Origin<'a>,
    pub login: Login,
}

/// The 403 that asks the client to log in again (or to send `currentPassword`).
pub(crate) fn reauthentication_required() -> AppError {
    AppError::ReauthenticationRequired(
        "this change needs a recent login: log in again and retry within a few minutes, \
         or send currentPassword"
            .into(),
    )
}

/// A registration whose fields all parsed.
pub struct Registration {
    pub first_name: String,
    pub last_name: String,
    pub email: Email,
    pub password: Password,
}

/// Registers a user with a wallet (EUR), within the client address's hourly allowance
/// and its hourly allowance of `409` answers (a stranger learns who has an account at
/// most [`REGISTER_CONFLICTS_PER_HOUR`] times an hour from one address), and mails a
/// verification link (after the answer).
///
/// [`REGISTER_CONFLICTS_PER_HOUR`]: pf_store::throttle::REGISTER_CONFLICTS_PER_HOUR
pub async fn register(
    store: &Store,
    links: Links<'_>,
    client: &str,
    per_hour: u64,
    r: Registration,
) -> AppResult<(User, Wallet)> {
    if let Err(t) = store
        .reserve_registration(client, per_hour, now_secs())
        .await?
    {
        return Err(AppError::Throttled {
            message: "too many registrations from this address; try again later".into(),
            retry_after: t.retry_after,
        });
    }
    let now = now_secs();
    if let Err(t) = store.reserve_registration_conflict(client, now).await? {
        return Err(AppError::Throttled {
            message: "too many registrations of taken e-mails from this address; try again later"
                .into(),
            retry_after: t.retry_after,
        });
    }
    let created = create(store, r).await;
    // Only a 409 keeps its reservation.
    if !matches!(created, Err(AppError::Conflict(_))) {
        if let Err(e) = store.refund_registration_conflict(client, now).await {
            tracing::warn!(error = %e, "a registration's 409 reservation was not given back");
        }
    }
    let created = created?;
    mail_verification(store, links, &created.0).await?;
    Ok(created)
}

async fn create(store: &Store, r: Registration) -> AppResult<(User, Wallet)> {
    let password_hash = password::hash_off_thread(r.password.expose().to_owned()).await?;
    let new = NewUser {
        email: r.email.as_str().to_owned(),
        normalized_email: r.email.normalized(),
        first_name: r.first_name,
        last_name: r.last_name,
        password_hash,
        now: Timestamp::now().to_string(),
    };
    let created = store.create_user(new).await.map_err(|e| match e {
        StoreError::Conflict(ConflictKind::EmailTaken) => {
            AppError::Conflict("an account with this e-mail already exists".into())
        }
        e => AppError::Store(e),
    })?;
    Ok(created)
}

/// Checks a password for the account of `normalized_email`, counted *before* the hash is
/// computed: against the trusted device's own allowance when `device` is the hash of a
/// valid device token, else against the client address's failures across e-mails and
/// the (e-mail, address) and e-mail-wide throttles. `stored` is `None` for an unknown
/// e-mail (the same work is done on a dummy hash). A match clears or refunds the counts.
pub async fn check_password(
    store: &Store,
    normalized_email: &str,
    origin: Origin<'_>,
    given: String,
    stored: Option<String>,
    device: Option<&str>,
) -> AppResult<bool> {
    let now = now_secs();
    let address = origin.address;
    let reserved = match device {
        Some(hash) => {
            store
                .reserve_device_attempt(normalized_email, hash, now)
                .await?
        }
        None => match store
            .reserve_address_attempt(address, origin.failures_per_address, now)
            .await?
        {
            Ok(()) => {
                store
                    .reserve_login_attempt(normalized_email, address, now)
                    .await?
            }
            refused => refused,
        },
    };
    if let Err(t) = reserved {
        return Err(AppError::Throttled {
            message: "too many password attempts; try again later".into(),
            retry_after: t.retry_after,
        });
    }
    let ok = password::verify_off_thread(given, stored).await?;
    if ok {
        match device {
            Some(hash) => {
                let counter = LoginCounter::Device(hash);
                store
                    .clear_login_attempts(normalized_email, counter, now)
                    .await?
            }
            None => {
                let counter = LoginCounter::Address(address);
                let (cleared, refunded) = tokio::join!(
                    store.clear_login_attempts(normalized_email, counter, now),
                    store.refund_address_attempt(address, now)
                );
                cleared?;
                refunded?;
            }
        }
    }
    Ok(ok)
}

/// `currentPassword` checked against the account like a login attempt: `Forbidden` when
/// absent or wrong.
async fn confirm_password(
    store: &Store,
    client: Origin<'_>,
    account: &User,
    given: Option<String>,
) -> AppResult<()> {
    let wrong =
        || AppError::Forbidden("currentPassword does not match the current password".into());
    let given = given
        .filter(|p| !p.is_empty() && p.len() <= 1024)
        .ok_or_else(wrong)?;
    let email = account.email.to_lowercase();
    let stored = Some(account.password_hash.clone());
    if check_password(store, &email, client, given, stored, None).await? {
        Ok(())
    } else {
        Err(wrong())
    }
}
