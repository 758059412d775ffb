//! Sessions: one item per login (`SESSION#<family>` in the user's partition) holding the
//! SHA-256 of the one refresh token that is valid now, the profile's session epoch at
//! login and a fixed expiry 30 days after the login.
//!
//! - A refresh replaces the current hash in one transaction that also checks the profile's
//!   `sessionEpoch` is still the session's: bumping the epoch (password, e-mail or role
//!   change, "log out everywhere") ends every session of the user at once, with no window
//!   in which a refresh could slip through, and a deleted profile ends them too.
//! - Presenting a token of the family that is not the current one means it was copied: the
//!   whole session is deleted.
//! - Refreshing never extends the session: it ends 30 days after the login.

use sha2::{Digest, Sha256};

use super::attr::{get_opt_u64, get_s, n, s, Item};
use super::keys::{user_pk, PROFILE};
use super::transact::TxItems;
use super::{sdk_error, ConflictKind, Store, StoreError, StoreResult};

/// Sessions end 30 days after the login.
pub const REFRESH_TTL_SECS: i64 = 30 * 24 * 3600;

/// A session as stored (never the token itself: its SHA-256).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionRecord {
    pub current: String,
    pub epoch: u64,
    pub expires_at: i64,
    /// The password login that started the session (0 for sessions stored before).
    pub auth_time: i64,
}

fn sk(family: &str) -> String {
    format!("SESSION#{family}")
}

/// SHA-256 of the secret part, hex.
pub fn hash_secret(secret: &str) -> String {
    Sha256::digest(secret.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A session step's secrets, stored hashed: the refresh secret and a device token.
pub struct StepHashes<'a> {
    pub refresh: &'a str,
    pub device: &'a str,
}

/// Outcome of presenting a refresh token for rotation.
#[derive(Debug, PartialEq, Eq)]
pub enum Rotation {
    /// Rotated; the session's login time, kept.
    Rotated { auth_time: i64 },
    /// Unknown, expired, revoked, or not the current token (then the session is ended).
    Refused,
}

/// The condition on the profile that a session of `epoch` is still valid: it exists and
/// its epoch has not moved (profiles written before epochs existed have none: epoch 0).
pub(crate) fn epoch_condition(epoch: u64) -> (String, Item) {
    let (is_epoch, values) = super::number_is("sessionEpoch", ":epoch", epoch);
    (format!("attribute_exists(PK) AND {is_epoch}"), values)
}

impl Store {
    /// Starts a session at login, as long as the profile is still at `epoch` (else
    /// `Conflict(Changed)`: the password, e-mail or role changed meanwhile).
    pub async fn start_session(
        &self,
        user_id: u64,
        family: &str,
        hashes: StepHashes<'_>,
        epoch: u64,
        now: i64,
    ) -> StoreResult<()> {
        let item = Item::from([
            ("PK".into(), s(user_pk(user_id))),
            ("SK".into(), s(sk(family))),
            ("current".into(), s(hashes.refresh)),
            ("epoch".into(), n(epoch)),
            ("expiresAt".into(), n(now + REFRESH_TTL_SECS)),
            ("authTime".into(), n(now)),
        ]);
        let mut tx = TxItems::new(self);
        tx.put(item, Some("attribute_not_exists(PK)"), None)?;
        let device = super::devices::device_item(user_id, hashes.device, epoch, now);
        tx.put(device, None, None)?;
        let (cond, values) = epoch_condition(epoch);
        tx.check(&user_pk(user_id), PROFILE, &cond, Some(values))?;
        tx.on_conflict(ConflictKind::SessionsEnded);
        self.transact(tx).await
    }

    /// The session of a family, if it exists.
    pub async fn get_session(
        &self,
        user_id: u64,
        family: &str,
    ) -> StoreResult<Option<SessionRecord>> {
        let out = self.get(&user_pk(user_id), &sk(family)).await?;
        let Some(item) = out else {
            return Ok(None);
        };
        Ok(Some(SessionRecord {
            current: get_s(&item, "current")?.to_owned(),
            epoch: get_opt_u64(&item, "epoch").unwrap_or(0),
            expires_at: get_opt_u64(&item, "expiresAt").unwrap_or(0) as i64,
            auth_time: get_opt_u64(&item, "authTime").unwrap_or(0) as i64,
        }))
    }

    /// Replaces the session's current token `old_hash` by `new_hash`, atomically with the
    /// check that the profile's epoch is still the session's. A token that is not the
    /// current one (already used, or raced by a copy) ends the session.
    pub async fn rotate_session(
        &self,
        user_id: u64,
        family: &str,
        old_hash: &str,
        new: StepHashes<'_>,
        now: i64,
    ) -> StoreResult<Rotation> {
        let new_hash = new.refresh;
        let Some(session) = self.get_session(user_id, family).await? else {
            return Ok(Rotation::Refused);
        };
        if session.current != old_hash {
            self.end_session(user_id, family).await?;
            return Ok(Rotation::Refused);
        }
        if session.expires_at <= now {
            return Ok(Rotation::Refused);
        }
        let mut tx = TxItems::new(self);
        tx.update(
            &user_pk(user_id),
            &sk(family),
            "SET #current = :new",
            Some("#current = :old AND expiresAt > :now"),
            Item::from([
                (":new".into(), s(new_hash)),
                (":old".into(), s(old_hash)),
                (":now".into(), n(now)),
            ]),
            Some(std::collections::HashMap::from([(
                "#current".to_owned(),
                "current".to_owned(),
            )])),
        )?;
        let (cond, values) = epoch_condition(session.epoch);
        tx.check(&user_pk(user_id), PROFILE, &cond, Some(values))?;
        let device = super::devices::device_item(user_id, new.device, session.epoch, now);
        tx.put(device, None, None)?;
        tx.on_conflict(ConflictKind::SessionsEnded);
        match self.transact(tx).await {
            Ok(()) => Ok(Rotation::Rotated {
                auth_time: session.auth_time,
            }),
            Err(e) if e.is_conflict(ConflictKind::Changed) => {
                // Rotated concurrently by another holder of the same token: a copy exists.
                self.end_session(user_id, family).await?;
                Ok(Rotation::Refused)
            }
            Err(StoreError::Conflict(_)) => Ok(Rotation::Refused),
            Err(e) => Err(e),
        }
    }

    /// Ends one session (logout). Unknown sessions are ignored.
    pub async fn end_session(&self, user_id: u64, family: &str) -> StoreResult<()> {
        self.delete_item(&user_pk(user_id), &sk(family)).await
    }

    /// Ends every session of the user at once by moving the profile's session epoch.
    /// `NotFound` when the profile does not exist.
    /// Ends the session only if `hash` is its current refresh secret: `false` (nothing
    /// ended) when the session lives on with another one. An unknown session is `true`.
    pub async fn end_session_of(
        &self,
        user_id: u64,
        family: &str,
        hash: &str,
    ) -> StoreResult<bool> {
        let out = self
            .delete_at(&user_pk(user_id), &sk(family))
            .condition_expression("attribute_not_exists(PK) OR #current = :h")
            .expression_attribute_names("#current", "current")
            .expression_attribute_values(":h", s(hash))
            .send()
            .await;
        match out {
            Ok(_) => Ok(true),
            Err(e) if super::is_condition_failure(&e) => Ok(false),
            Err(e) => Err(sdk_error(e)),
        }
    }

    pub async fn end_all_sessions(&self, user_id: u64) -> StoreResult<()> {
        let out = self
            .update_at(&user_pk(user_id), PROFILE)
            .update_expression("ADD sessionEpoch :one")
            .condition_expression("attribute_exists(PK)")
            .expression_attribute_values(":one", n(1))
            .send()
            .await;
        self.forget_session_epoch(user_id);
        match out {
            Ok(_) => Ok(()),
            Err(e) if super::is_condition_failure(&e) => Err(StoreError::NotFound),
            Err(e) => Err(sdk_error(e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_stored_as_sha256_hex() {
        assert_eq!(
            hash_secret("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn epoch_zero_also_matches_profiles_without_an_epoch() {
        assert!(epoch_condition(0)
            .0
            .contains("attribute_not_exists(sessionEpoch)"));
        assert!(!epoch_condition(3).0.contains("attribute_not_exists"));
        assert_eq!(
            epoch_condition(3).1[":epoch"],
            aws_sdk_dynamodb::types::AttributeValue::N("3".into())
        );
    }
}
