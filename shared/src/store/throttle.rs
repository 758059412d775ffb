//! Failed-login counters per e-mail, in fixed 15-minute windows that expire by TTL.
//!
//! Counting per e-mail, whether or not an account exists, keeps unknown and known
//! e-mails indistinguishable; refusing before the password hash is checked also keeps
//! a guessing attack from buying argon2 work.

use super::attr::{get_opt_u64, n, s};
use super::keys::email_pk;
use super::{sdk_error, Store, StoreResult};

/// Failures allowed per window before logins are refused.
pub const MAX_FAILURES: u64 = 10;
/// Window length in seconds.
pub const WINDOW_SECS: i64 = 15 * 60;

fn window(now: i64) -> i64 {
    now.div_euclid(WINDOW_SECS)
}

fn sk(window: i64) -> String {
    format!("LOGINFAIL#{window}")
}

impl Store {
    /// Seconds until logins for this e-mail are accepted again, if they are refused now.
    pub async fn login_blocked_for(
        &self,
        normalized_email: &str,
        now: i64,
    ) -> StoreResult<Option<u64>> {
        let w = window(now);
        let out = self
            .client
            .get_item()
            .table_name(&self.table)
            .key("PK", s(email_pk(normalized_email)))
            .key("SK", s(sk(w)))
            .consistent_read(true)
            .send()
            .await
            .map_err(sdk_error)?;
        let failures = out
            .item
            .as_ref()
            .and_then(|i| get_opt_u64(i, "failures"))
            .unwrap_or(0);
        Ok((failures >= MAX_FAILURES).then(|| ((w + 1) * WINDOW_SECS - now).max(1) as u64))
    }

    /// Counts one failed login.
    pub async fn record_login_failure(&self, normalized_email: &str, now: i64) -> StoreResult<()> {
        let w = window(now);
        self.client
            .update_item()
            .table_name(&self.table)
            .key("PK", s(email_pk(normalized_email)))
            .key("SK", s(sk(w)))
            .update_expression("ADD failures :one SET expiresAt = :exp")
            .expression_attribute_values(":one", n(1))
            .expression_attribute_values(":exp", n((w + 2) * WINDOW_SECS))
            .send()
            .await
            .map_err(sdk_error)?;
        Ok(())
    }
}
