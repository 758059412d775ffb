//! Throttles, following the OWASP Authentication cheat sheet: login attempts are counted
//! per (e-mail, client address) and per e-mail across all addresses, and reserved with a
//! conditional write *before* the password hash is checked, so however many requests run
//! in parallel, no more than the allowed number ever reach argon2.
//!
//! - Per (e-mail, address): [`PAIR_MAX_ATTEMPTS`] attempts in a fixed
//!   [`PAIR_WINDOW_SECS`] window, then `429` until the window ends. A successful login
//!   clears it, and a password reset clears all of the e-mail's. A stranger guessing from
//!   one address therefore never locks the owner out.
//! - Per e-mail, all addresses: [`EMAIL_FREE_ATTEMPTS`] attempts a day without delay;
//!   beyond them attempts are spaced by a back-off that doubles with every attempt, from
//!   1 s up to [`EMAIL_MAX_BACKOFF_SECS`]: credential stuffing from many addresses slows to
//!   a crawl, while the owner waits at most the cap.
//! - Registrations per client address: a configured number an hour, and at most
//!   [`REGISTER_CONFLICTS_PER_HOUR`] of them answered `409` (the e-mail is taken): each
//!   registration reserves a slot of that count before it runs and gives it back when it
//!   creates the account, so parallel requests cannot learn more.
//!
//! Counters live under the e-mail's (or address's) own partition and expire by TTL.
//! Unknown and known e-mails are counted alike, so they stay indistinguishable.

use super::attr::{get_opt_u64, n, Item};
use super::keys::email_pk;
use super::{is_condition_failure, sdk_error, Store, StoreResult};

pub const PAIR_MAX_ATTEMPTS: u64 = 10;
pub const PAIR_WINDOW_SECS: i64 = 15 * 60;
pub const EMAIL_FREE_ATTEMPTS: u64 = 20;
pub const EMAIL_WINDOW_SECS: i64 = 24 * 3600;
pub const EMAIL_MAX_BACKOFF_SECS: i64 = 15 * 60;
pub const REGISTER_WINDOW_SECS: i64 = 3600;
/// Registrations from one client address an hour that may find their e-mail taken.
pub const REGISTER_CONFLICTS_PER_HOUR: u64 = 10;

/// A refused attempt: retry after this many seconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Throttled {
    pub retry_after: u64,
}

/// The wait after the `n`-th attempt beyond the free ones (n ≥ 1): 1 s, 2 s, 4 s, ...
/// up to [`EMAIL_MAX_BACKOFF_SECS`].
pub fn email_backoff_secs(n: u64) -> i64 {
    let doublings = n.saturating_sub(1).min(20) as u32;
    (1i64 << doublings).min(EMAIL_MAX_BACKOFF_SECS)
}

pub(super) fn window(now: i64, len: i64) -> i64 {
    now.div_euclid(len)
}

/// The counter of one device's attempts at one e-mail (`devices.rs` takes and gives back
/// its slots).
pub(super) fn device_counter_sk(hash: &str, now: i64) -> String {
    // A prefix of the hash keeps the key short; collisions only share a counter.
    let short = hash.get(..16).unwrap_or(hash);
    format!("LOGIN#DEV#{short}#{}", window(now, PAIR_WINDOW_SECS))
}

pub(super) fn until_window_end(now: i64, len: i64) -> u64 {
    ((window(now, len) + 1) * len - now).max(1) as u64
}

fn pair_sk(address: &str, now: i64) -> String {
    format!("LOGIN#ADDR#{address}#{}", window(now, PAIR_WINDOW_SECS))
}

/// The counter of an e-mail's password checks that a successful login clears.
#[derive(Debug, Clone, Copy)]
pub enum LoginCounter<'a> {
    /// From one client address (the (e-mail, address) throttle).
    Address(&'a str),
    /// From the trusted device of this token hash (its own allowance).
    Device(&'a str),
}

impl LoginCounter<'_> {
    fn sk(self, now: i64) -> String {
        match self {
            Self::Address(address) => pair_sk(address, now),
            Self::Device(hash) => device_counter_sk(hash, now),
        }
    }
}

fn email_sk(now: i64) -> String {
    format!("LOGIN#ALL#{}", window(now, EMAIL_WINDOW_SECS))
}

fn slow_sk(now: i64) -> String {
    format!("LOGIN#SLOW#{}", window(now, EMAIL_WINDOW_SECS))
}

impl Store {
    /// Adds one to the counter at (`pk`, `sk`) of the fixed window of `len` seconds that
    /// holds `now`, unless it already reached `max` (one conditional `UpdateItem`; the
    /// counter expires a window after its own ends). Refused until that window ends.
    pub(super) async fn take_slot(
        &self,
        (pk, sk): (String, String),
        max: u64,
        len: i64,
        now: i64,
    ) -> StoreResult<Result<(), Throttled>> {
        let expires_at = (window(now, len) + 2) * len;
        let out = self
            .update_at(&pk, &sk)
            .update_expression("ADD attempts :one SET expiresAt = :exp")
            .condition_expression("attribute_not_exists(attempts) OR attempts < :max")
            .expression_attribute_values(":one", n(1))
            .expression_attribute_values(":max", n(max))
            .expression_attribute_values(":exp", n(expires_at))
            .send()
            .await;
        match out {
            Ok(_) => Ok(Ok(())),
            Err(e) if is_condition_failure(&e) => Ok(Err(Throttled {
                retry_after: until_window_end(now, len),
            })),
            Err(e) => Err(sdk_error(e)),
        }
    }

    /// Reserves one password check for `email` from `address`, or says how long to wait.
    pub async fn reserve_login_attempt(
        &self,
        normalized_email: &str,
        address: &str,
        now: i64,
    ) -> StoreResult<Result<(), Throttled>> {
        let pk = email_pk(normalized_email);
        let pair = (pk.clone(), pair_sk(address, now));
        if let Err(t) = self
            .take_slot(pair, PAIR_MAX_ATTEMPTS, PAIR_WINDOW_SECS, now)
            .await?
        {
            return Ok(Err(t));
        }
        self.reserve_email_attempt(pk, now).await
    }

    /// The e-mail-wide allowance: the free attempts of the day are taken atomically (one
    /// conditional `UpdateItem`); beyond them, attempts are spaced by the growing back-off,
    /// read then written conditional on the count read (a concurrent attempt loses and
    /// re-reads, so two never share one opening).
    async fn reserve_email_attempt(
        &self,
        pk: String,
        now: i64,
    ) -> StoreResult<Result<(), Throttled>> {
        let expiry = (window(now, EMAIL_WINDOW_SECS) + 2) * EMAIL_WINDOW_SECS;
        let free = (pk.clone(), email_sk(now));
        if self
            .take_slot(free, EMAIL_FREE_ATTEMPTS, EMAIL_WINDOW_SECS, now)
            .await?
            .is_ok()
        {
            return Ok(Ok(()));
        }
        let sk = slow_sk(now);
        for _ in 0..5 {
            let out = self.get(&pk, &sk).await?;
            let item: Item = out.unwrap_or_default();
            let attempts = get_opt_u64(&item, "attempts").unwrap_or(0);
            let next_at = get_opt_u64(&item, "nextAt").unwrap_or(0) as i64;
            if now < next_at {
                return Ok(Err(Throttled {
                    retry_after: (next_at - now) as u64,
                }));
            }
            let count = attempts + 1;
            let condition = if attempts == 0 {
                "attribute_not_exists(attempts)"
            } else {
                "attempts = :seen"
            };
            let mut update = self
                .update_at(&pk, &sk)
                .update_expression("SET attempts = :count, nextAt = :next, expiresAt = :exp")
                .condition_expression(condition)
                .expression_attribute_values(":count", n(count))
                .expression_attribute_values(":next", n(now + email_backoff_secs(count)))
                .expression_attribute_values(":exp", n(expiry));
            if attempts > 0 {
                update = update.expression_attribute_values(":seen", n(attempts));
            }
            match update.send().await {
                Ok(_) => return Ok(Ok(())),
                Err(e) if is_condition_failure(&e) => continue,
                Err(e) => return Err(sdk_error(e)),
            }
        }
        // Many concurrent attempts on one e-mail: refuse this one.
        Ok(Err(Throttled { retry_after: 1 }))
    }

    /// A successful login clears its (e-mail, address) or device counter; the e-mail-wide
    /// one stays.
    pub async fn clear_login_attempts(
        &self,
        normalized_email: &str,
        counter: LoginCounter<'_>,
        now: i64,
    ) -> StoreResult<()> {
        self.delete_item(&email_pk(normalized_email), &counter.sk(now))
            .await
    }

    /// A password reset clears every (e-mail, address) counter of the e-mail: the link
    /// proved the mailbox, so the owner who locked themselves out by mistyping gets in at
    /// once with the new password, wherever they opened the link. The e-mail-wide
    /// counter stays, as after a login. (At most a few hundred counters exist: the
    /// e-mail-wide one bounds the attempts that make them.)
    pub async fn clear_address_counters(&self, normalized_email: &str) -> StoreResult<()> {
        let pk = email_pk(normalized_email);
        let counters = self.query_prefix(&pk, "LOGIN#ADDR#").await?;
        for chunk in counters.chunks(25) {
            self.delete_batch(chunk.to_vec()).await?;
        }
        Ok(())
    }

    /// Reserves one registration for `address` within its hourly allowance.
    pub async fn reserve_registration(
        &self,
        address: &str,
        per_hour: u64,
        now: i64,
    ) -> StoreResult<Result<(), Throttled>> {
        let w = window(now, REGISTER_WINDOW_SECS);
        let counter = (format!("REGISTER#{address}"), format!("W#{w}"));
        self.take_slot(counter, per_hour, REGISTER_WINDOW_SECS, now)
            .await
    }

    fn conflict_key(address: &str, now: i64) -> (String, String) {
        let w = window(now, REGISTER_WINDOW_SECS);
        (format!("REGISTER#{address}"), format!("TAKEN#{w}"))
    }

    /// Reserves one registration that may answer `409` for `address`: refused once
    /// [`REGISTER_CONFLICTS_PER_HOUR`] of its registrations this hour found their e-mail
    /// taken (or are running).
    pub async fn reserve_registration_conflict(
        &self,
        address: &str,
        now: i64,
    ) -> StoreResult<Result<(), Throttled>> {
        let key = Self::conflict_key(address, now);
        self.take_slot(key, REGISTER_CONFLICTS_PER_HOUR, REGISTER_WINDOW_SECS, now)
            .await
    }

    /// Gives back the reservation of a registration that did not answer `409`.
    pub async fn refund_registration_conflict(&self, address: &str, now: i64) -> StoreResult<()> {
        self.refund_slot(Self::conflict_key(address, now)).await
    }

    /// Gives back one slot that [`Store::take_slot`] took (never below zero: a window
    /// that expired meanwhile has nothing to give back).
    pub(super) async fn refund_slot(&self, (pk, sk): (String, String)) -> StoreResult<()> {
        let out = self
            .update_at(&pk, &sk)
            .update_expression("ADD attempts :minus")
            .condition_expression("attempts > :zero")
            .expression_attribute_values(":minus", n(-1i64))
            .expression_attribute_values(":zero", n(0))
            .send()
            .await;
        super::error::done_unless_other_error(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_email_backoff_doubles_from_one_second_to_its_cap() {
        assert_eq!(email_backoff_secs(1), 1);
        assert_eq!(email_backoff_secs(2), 2);
        assert_eq!(email_backoff_secs(6), 32);
        assert_eq!(email_backoff_secs(10), 512);
        assert_eq!(email_backoff_secs(11), EMAIL_MAX_BACKOFF_SECS);
        assert_eq!(email_backoff_secs(1000), EMAIL_MAX_BACKOFF_SECS);
    }

    #[test]
    fn windows_end_in_the_future() {
        assert_eq!(until_window_end(0, 900), 900);
        assert_eq!(until_window_end(899, 900), 1);
        assert_eq!(until_window_end(900, 900), 900);
    }
}
