//! Device tokens (OWASP's "device cookie") and the throttles that know them.
//!
//! - A device item `PK = USER#<id>`, `SK = DEVICE#<sha256 of the token>` is written with
//!   each session step (login, refresh) in the same transaction; it holds the session
//!   epoch it was issued at and expires after [`DEVICE_TTL_SECS`]. It is valid while the
//!   user's epoch is unchanged: ending every session revokes every device token too.
//! - A login with a valid device token is counted against that device only
//!   ([`PAIR_MAX_ATTEMPTS`] in [`PAIR_WINDOW_SECS`]), never against the e-mail's ceiling.
//! - Failed logins per client address across all e-mails (`ADDR#<address>`), reserved
//!   before the hash like every attempt and given back when the password matched.

use super::attr::{get_opt_u64, n, s, Item};
use super::keys::{email_pk, user_pk};
use super::throttle::{device_counter_sk, window, Throttled, PAIR_MAX_ATTEMPTS, PAIR_WINDOW_SECS};
use super::{Store, StoreResult};

/// Device tokens live a year.
pub const DEVICE_TTL_SECS: i64 = 365 * 24 * 3600;

pub fn device_sk(hash: &str) -> String {
    format!("DEVICE#{hash}")
}

/// The device item written beside a session step.
pub fn device_item(user_id: u64, hash: &str, epoch: u64, now: i64) -> Item {
    Item::from([
        ("PK".into(), s(user_pk(user_id))),
        ("SK".into(), s(device_sk(hash))),
        ("epoch".into(), n(epoch)),
        ("expiresAt".into(), n(now + DEVICE_TTL_SECS)),
    ])
}

fn address_key(address: &str, now: i64) -> (String, String) {
    (
        format!("ADDR#{address}"),
        format!("LOGIN#{}", window(now, PAIR_WINDOW_SECS)),
    )
}

impl Store {
    /// Whether the device token of this hash was issued to the user, is unexpired, and
    /// was issued in the user's current session epoch (one `GetItem`).
    pub async fn device_is_valid(
        &self,
        user_id: u64,
        hash: &str,
        epoch: u64,
        now: i64,
    ) -> StoreResult<bool> {
        let Some(item) = self.get(&user_pk(user_id), &device_sk(hash)).await? else {
            return Ok(false);
        };
        let issued_epoch = get_opt_u64(&item, "epoch").unwrap_or(u64::MAX);
        let expires_at = get_opt_u64(&item, "expiresAt").unwrap_or(0) as i64;
        Ok(issued_epoch == epoch && expires_at > now)
    }

    /// Reserves one password check of a trusted device (its own allowance).
    pub async fn reserve_device_attempt(
        &self,
        normalized_email: &str,
        hash: &str,
        now: i64,
    ) -> StoreResult<Result<(), Throttled>> {
        let counter = (email_pk(normalized_email), device_counter_sk(hash, now));
        self.take_slot(counter, PAIR_MAX_ATTEMPTS, PAIR_WINDOW_SECS, now)
            .await
    }

    /// Reserves one password check from `address` within `max` per window, all e-mails.
    pub async fn reserve_address_attempt(
        &self,
        address: &str,
        max: u64,
        now: i64,
    ) -> StoreResult<Result<(), Throttled>> {
        self.take_slot(address_key(address, now), max, PAIR_WINDOW_SECS, now)
            .await
    }

    /// Gives back the reservation of a check that matched: only failures count.
    pub async fn refund_address_attempt(&self, address: &str, now: i64) -> StoreResult<()> {
        self.refund_slot(address_key(address, now)).await
    }
}
