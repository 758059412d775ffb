//! Refresh tokens: stored hashed in the user's partition, rotated on every use, grouped
//! in families (one per login) so that replaying a rotated token revokes the family.

use sha2::{Digest, Sha256};

use super::attr::{get_s, n, s, Item};
use super::keys::user_pk;
use super::transact::{TransactError, TxItems};
use super::{sdk_error, Store, StoreResult};

/// Refresh tokens live 30 days.
pub const REFRESH_TTL_SECS: i64 = 30 * 24 * 3600;

/// A refresh token as stored (never the token itself: its SHA-256).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefreshRecord {
    pub family: String,
    pub used: bool,
    pub expires_at: i64,
}

fn sk(hash: &str) -> String {
    format!("REFRESH#{hash}")
}

/// SHA-256 of the secret part, hex.
pub fn hash_secret(secret: &str) -> String {
    hex_encode(&Sha256::digest(secret.as_bytes()))
}

fn hex_encode(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Outcome of presenting a refresh token for rotation.
#[derive(Debug, PartialEq, Eq)]
pub enum Rotation {
    Rotated,
    /// Unknown, expired, or already used (then its family is revoked).
    Refused,
}

fn record_item(user_id: u64, hash: &str, family: &str, expires_at: i64) -> Item {
    Item::from([
        ("PK".into(), s(user_pk(user_id))),
        ("SK".into(), s(sk(hash))),
        ("family".into(), s(family)),
        (
            "used".into(),
            aws_sdk_dynamodb::types::AttributeValue::Bool(false),
        ),
        ("expiresAt".into(), n(expires_at)),
    ])
}

impl Store {
    /// Stores a new refresh token (by hash) of a family; the profile must exist.
    pub async fn add_refresh(
        &self,
        user_id: u64,
        hash: &str,
        family: &str,
        now: i64,
    ) -> StoreResult<bool> {
        let mut tx = TxItems::new(self);
        tx.put(
            record_item(user_id, hash, family, now + REFRESH_TTL_SECS),
            Some("attribute_not_exists(PK)"),
            None,
        )?;
        tx.check(
            &user_pk(user_id),
            super::keys::PROFILE,
            "attribute_exists(PK)",
            None,
        )?;
        match self.transact(tx).await {
            Ok(()) => Ok(true),
            Err(TransactError::ConditionFailed(_)) => Ok(false),
            Err(TransactError::Store(e)) => Err(e),
        }
    }

    async fn get_refresh(&self, user_id: u64, hash: &str) -> StoreResult<Option<RefreshRecord>> {
        let out = self
            .client
            .get_item()
            .table_name(&self.table)
            .key("PK", s(user_pk(user_id)))
            .key("SK", s(sk(hash)))
            .consistent_read(true)
            .send()
            .await
            .map_err(sdk_error)?;
        let Some(item) = out.item else {
            return Ok(None);
        };
        Ok(Some(RefreshRecord {
            family: get_s(&item, "family")?.to_owned(),
            used: matches!(
                item.get("used"),
                Some(aws_sdk_dynamodb::types::AttributeValue::Bool(true))
            ),
            expires_at: item
                .get("expiresAt")
                .and_then(|v| v.as_n().ok())
                .and_then(|v| v.parse().ok())
                .unwrap_or(0),
        }))
    }

    /// Marks the presented token used and stores its successor, atomically. A token that
    /// was already used means it leaked (or a client raced itself): its family is revoked.
    pub async fn rotate_refresh(
        &self,
        user_id: u64,
        old_hash: &str,
        new_hash: &str,
        now: i64,
    ) -> StoreResult<Rotation> {
        let Some(old) = self.get_refresh(user_id, old_hash).await? else {
            return Ok(Rotation::Refused);
        };
        if old.used {
            self.revoke_family(user_id, &old.family).await?;
            return Ok(Rotation::Refused);
        }
        if old.expires_at <= now {
            return Ok(Rotation::Refused);
        }
        let mut tx = TxItems::new(self);
        tx.update(
            &user_pk(user_id),
            &sk(old_hash),
            "SET #used = :true",
            Some("attribute_exists(PK) AND #used = :false"),
            Item::from([
                (
                    ":true".into(),
                    aws_sdk_dynamodb::types::AttributeValue::Bool(true),
                ),
                (
                    ":false".into(),
                    aws_sdk_dynamodb::types::AttributeValue::Bool(false),
                ),
            ]),
            Some(std::collections::HashMap::from([(
                "#used".to_owned(),
                "used".to_owned(),
            )])),
        )?;
        tx.put(
            record_item(user_id, new_hash, &old.family, now + REFRESH_TTL_SECS),
            Some("attribute_not_exists(PK)"),
            None,
        )?;
        tx.check(
            &user_pk(user_id),
            super::keys::PROFILE,
            "attribute_exists(PK)",
            None,
        )?;
        match self.transact(tx).await {
            Ok(()) => Ok(Rotation::Rotated),
            Err(TransactError::ConditionFailed(0)) => {
                // Used concurrently by someone else: treat as reuse.
                self.revoke_family(user_id, &old.family).await?;
                Ok(Rotation::Refused)
            }
            Err(TransactError::ConditionFailed(_)) => Ok(Rotation::Refused),
            Err(TransactError::Store(e)) => Err(e),
        }
    }

    /// Revokes the family of the presented token (logout). Unknown tokens are ignored.
    pub async fn revoke_refresh(&self, user_id: u64, hash: &str) -> StoreResult<()> {
        if let Some(r) = self.get_refresh(user_id, hash).await? {
            self.revoke_family(user_id, &r.family).await?;
        }
        Ok(())
    }

    /// Deletes every refresh token of a family (bounded: one per rotation within 30 days).
    async fn revoke_family(&self, user_id: u64, family: &str) -> StoreResult<()> {
        let mut start = None;
        loop {
            let page = self
                .client
                .query()
                .table_name(&self.table)
                .key_condition_expression("PK = :pk AND begins_with(SK, :prefix)")
                .filter_expression("#family = :family")
                .expression_attribute_names("#family", "family")
                .expression_attribute_values(":pk", s(user_pk(user_id)))
                .expression_attribute_values(":prefix", s("REFRESH#"))
                .expression_attribute_values(":family", s(family))
                .projection_expression("SK")
                .set_exclusive_start_key(start)
                .send()
                .await
                .map_err(sdk_error)?;
            for item in page.items.unwrap_or_default() {
                let sk = get_s(&item, "SK")?;
                self.client
                    .delete_item()
                    .table_name(&self.table)
                    .key("PK", s(user_pk(user_id)))
                    .key("SK", s(sk))
                    .send()
                    .await
                    .map_err(sdk_error)?;
            }
            start = page.last_evaluated_key;
            if start.is_none() {
                return Ok(());
            }
        }
    }
}
