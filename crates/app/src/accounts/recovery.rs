//! Getting back in and proving an address: forgot-password and e-mail verification by
//! mailed links. Tokens are 256 random bits, URL-safe base64, stored only hashed, single
//! use; a reset lives 30 minutes, a verification 48 hours. At most 3 mails of each kind
//! per address an hour. A reset request answers the same, in the same time, for unknown
//! addresses (no enumeration); every mail goes out after the answer (the process's
//! [`outbox`](pf_mail::outbox)), so a slow mail server does not tell them apart.
//! After an e-mail change, reset links go to the address they went to before until the
//! new one is verified ([`User::reset_address`]).

use std::time::{Duration, Instant};

use super::{now_secs, random_token};
use crate::{AppError, AppResult};
use pf_auth::password;
use pf_auth::token::TokenKeys;
use pf_domain::time::Timestamp;
use pf_domain::{Email, Password, User, Violation};
use pf_mail::{Mail, Mailer};
use pf_store::accounts::ProfileChanges;
use pf_store::links::{Link, LinkPurpose};
use pf_store::sessions::hash_secret;
use pf_store::Store;

/// 256 bits.
const LINK_TOKEN_BYTES: usize = 32;
pub const RESET_TTL_SECS: i64 = 30 * 60;
pub const VERIFY_TTL_SECS: i64 = 48 * 3600;
/// Mails of one kind to one address per hour.
pub const MAILS_PER_HOUR: u64 = 3;
/// A reset request answers no sooner than this, known address or not.
pub const RESET_MIN_MILLIS: u64 = 600;

/// What mailing a link needs: the mailer and the frontend's URL.
#[derive(Clone, Copy)]
pub struct Links<'a> {
    pub mailer: &'a Mailer,
    pub app_url: &'a str,
}

/// Stores a new link token for the user's current e-mail and mails it (a reset to
/// [`User::reset_address`], a verification to the current address), after the answer.
/// Mail failures are logged, not raised: the request that caused the mail has succeeded.
async fn send_link(
    store: &Store,
    links: Links<'_>,
    purpose: LinkPurpose,
    user: &User,
) -> AppResult<()> {
    let token = random_token(LINK_TOKEN_BYTES);
    let link = Link {
        user_id: user.id,
        email: user.normalized_email(),
        epoch: Some(user.session_epoch),
    };
    let (ttl, page, subject, text) = match purpose {
        LinkPurpose::PasswordReset => (
            RESET_TTL_SECS,
            "reset-password",
            "Reset your password",
            "Someone (hopefully you) asked to reset the password of your Personal Finance \
             account. Open this link within 30 minutes to choose a new one:",
        ),
        LinkPurpose::VerifyEmail => (
            VERIFY_TTL_SECS,
            "verify-email",
            "Confirm your e-mail address",
            "Confirm that this address belongs to your Personal Finance account by opening \
             this link within 48 hours:",
        ),
    };
    store
        .create_link(purpose, &hash_secret(&token), &link, now_secs(), ttl)
        .await?;
    let to = match purpose {
        LinkPurpose::PasswordReset => user.reset_address(),
        LinkPurpose::VerifyEmail => &user.email,
    };
    let mail = Mail {
        to: to.to_owned(),
        subject: subject.into(),
        // No name from the profile: whoever registers an address chooses it, and it would
        // put a stranger's words (a link, "your account is locked") in the service's mail.
        body: format!(
            "Hello,\n\n{text}\n\n{}/{page}?token={token}\n\nIf you did not ask for this, \
             ignore this message.\n",
            links.app_url
        ),
    };
    post(links, user.id, mail).await;
    Ok(())
}

/// Hands a mail to the process's outbox; a failure to hand it over is logged.
pub(super) async fn post(links: Links<'_>, user_id: u64, mail: Mail) {
    if let Err(e) = pf_mail::outbox().post(links.mailer, mail).await {
        tracing::warn!(user_id, error = %e, "a mail was not sent");
    }
}

/// Mails a verification link to the user's current address (registration, e-mail change),
/// within the hourly allowance (beyond it, nothing is sent).
pub async fn mail_verification(store: &Store, links: Links<'_>, user: &User) -> AppResult<()> {
    let purpose = LinkPurpose::VerifyEmail;
    let email = user.normalized_email();
    if store
        .reserve_mail(purpose, &email, MAILS_PER_HOUR, now_secs())
        .await?
        .is_ok()
    {
        send_link(store, links, purpose, user).await?;
    }
    Ok(())
}

/// `POST /auth/verify-email/resend`: a new link, 429 beyond the hourly allowance, 409 when
/// the address is verified already.
pub async fn resend_verification(store: &Store, links: Links<'_>, user_id: u64) -> AppResult<()> {
    let user = store
        .get_user(user_id)
        .await?
        .ok_or_else(|| AppError::Forbidden("the account no longer exists".into()))?;
    if user.email_verified {
        return Err(AppError::Conflict(
            "the e-mail address is verified already".into(),
        ));
    }
    let purpose = LinkPurpose::VerifyEmail;
    if let Err(t) = store
        .reserve_mail(
            purpose,
            &user.normalized_email(),
            MAILS_PER_HOUR,
            now_secs(),
        )
        .await?
    {
        return Err(AppError::Throttled {
            message: "verification mails are limited to 3 an hour; try again later".into(),
            retry_after: t.retry_after,
        });
    }
    send_link(store, links, purpose, &user).await
}

fn link_refused() -> AppError {
    AppError::invalid("token", "the link is invalid, expired or already used")
}

/// A token as it travels: URL-safe base64 of 256 bits; anything else is refused unread.
fn token_hash(token: &str) -> AppResult<String> {
    let ok = token.len() == 43
        && token
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    ok.then(|| hash_secret(token)).ok_or_else(link_refused)
}

/// Uses up the link of `token` and gives the user it names, if it went to their current
/// address (and, a reset link, was mailed in the session epoch the profile still has: a
/// reset, password, e-mail or role change or logout-all since ends every reset link
/// mailed before);
/// `400` naming `token` otherwise.
async fn link_owner(store: &Store, purpose: LinkPurpose, token: &str) -> AppResult<User> {
    let hash = token_hash(token)?;
    let link = store
        .use_link(purpose, &hash, now_secs())
        .await?
        .ok_or_else(link_refused)?;
    store
        .get_user(link.user_id)
        .await?
        .filter(|u| u.normalized_email() == link.email)
        .filter(|u| {
            let stands = link.epoch.is_none_or(|e| e == u.session_epoch);
            purpose != LinkPurpose::PasswordReset || stands
        })
        .ok_or_else(link_refused)
}

/// Writes profile changes decided by a link (no `If-Match`: the link is the authority).
async fn apply_changes(store: &Store, user: &User, changes: ProfileChanges) -> AppResult<User> {
    Ok(store
        .update_user(user, changes, Timestamp::now(), None)
        .await?)
}

/// `POST /auth/verify-email`: marks the address verified.
pub async fn verify_email(store: &Store, token: &str) -> AppResult<()> {
    let user = link_owner(store, LinkPurpose::VerifyEmail, token).await?;
    if user.email_verified {
        return Ok(());
    }
    let changes = ProfileChanges {
        email_verified: Some(true),
        ..Default::default()
    };
    apply_changes(store, &user, changes).await?;
    Ok(())
}

/// `POST /auth/password-reset`: mails a reset link when the address has an account (and
/// its hourly allowance lasts), then waits until [`RESET_MIN_MILLIS`] have passed, so
/// known and unknown addresses answer alike and in the same time.
pub async fn request_password_reset(store: &Store, links: Links<'_>, email: &str) -> AppResult<()> {
    let until = Instant::now() + Duration::from_millis(RESET_MIN_MILLIS);
    let result = async {
        let Ok(email) = Email::parse(email) else {
            return Ok(());
        };
        let normalized = email.normalized();
        let purpose = LinkPurpose::PasswordReset;
        let allowed = store
            .reserve_mail(purpose, &normalized, MAILS_PER_HOUR, now_secs())
            .await?
            .is_ok();
        if let (true, Some(user)) = (allowed, store.find_user_by_email(&normalized).await?) {
            send_link(store, links, purpose, &user).await?;
        }
        Ok(())
    }
    .await;
    tokio::time::sleep_until(until.into()).await;
    result
}

/// `POST /auth/password-reset/confirm`: sets the password, marks the address verified
/// (when the link went to it: after an e-mail change it may have gone to the previous
/// one), ends every session and device token, and starts a new session: the owner is in
/// at once, with a device token that passes the e-mail's back-off that strangers'
/// guesses keep up (a login without one would wait for it).
pub async fn confirm_password_reset(
    store: &Store,
    tokens: &TokenKeys,
    token: &str,
    new_password: &str,
    confirm: &str,
) -> AppResult<super::Session> {
    let mut errors = Vec::new();
    let password = Password::parse(new_password)
        .map_err(|e| errors.push(Violation::new("password", e)))
        .ok();
    if new_password != confirm {
        errors.push(Violation::new(
            "confirmPassword",
            "must repeat the password",
        ));
    }
    let (Some(password), true) = (password, errors.is_empty()) else {
        // A malformed token is reported with the other fields.
        if token_hash(token).is_err() {
            errors.push(Violation::new(
                "token",
                "the link is invalid, expired or already used",
            ));
        }
        return Err(AppError::Invalid(errors));
    };
    let user = link_owner(store, LinkPurpose::PasswordReset, token).await?;
    let proved_current = user.reset_address() == user.email;
    let changes = ProfileChanges {
        password_hash: Some(password::hash_off_thread(password.expose().to_owned()).await?),
        email_verified: proved_current.then_some(true),
        ..Default::default()
    };
    // A new password hash moves the session epoch: every session and device token ends.
    let user = apply_changes(store, &user, changes).await?;
    // The owner gets in at once, even from an address they locked by mistyping. The
    // reset stands whatever happens here (its link is spent): a failure only leaves the
    // counters to run out their 15 minutes.
    let email = user.email.to_lowercase();
    if let Err(e) = store.clear_address_counters(&email).await {
        tracing::warn!(user_id = user.id, error = %e, "login counters not cleared after a reset");
    }
    super::sessions::start(store, tokens, user).await
}
