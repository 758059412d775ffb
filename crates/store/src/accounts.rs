//! Changing, listing and deleting users.
//!
//! Deleting a user first removes the profile, the e-mail reservation and the wallet in one
//! transaction: from then on every write for that user fails its condition (transactions
//! need the wallet, tags/providers/categories/pictures need the profile) and the e-mail
//! can register again. Then the rest of the partition is purged in parallel batches.

use std::time::Instant;

use aws_sdk_dynamodb::types::{AttributeValue, DeleteRequest, WriteRequest};
use futures::stream::{self, TryStreamExt};

use super::attr::{get_s, n, s, Item};
use super::feed::Entity;
use super::keys::{email_pk, user_pk, users_index_pk, EMAIL_SK, PROFILE, WALLET};
use super::transact::TxItems;
use super::{sdk_error, ConflictKind, Store, StoreError, StoreResult};
use pf_domain::time::Timestamp;
use pf_domain::{Role, User};

pub use super::user_list::UserSummary;

/// New values for a profile; `None` keeps the current one.
#[derive(Debug, Default)]
pub struct ProfileChanges {
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    /// New e-mail as given and its normalized form.
    pub email: Option<(String, String)>,
    pub password_hash: Option<String>,
    pub role: Option<Role>,
    /// Set by a verification link or a reset; a new e-mail is unverified.
    pub email_verified: Option<bool>,
}

/// How far a deletion got within its time budget.
#[derive(Debug, PartialEq, Eq)]
pub enum Purge {
    /// Nothing of the user is left.
    Complete { items: u64 },
    /// The budget ran out; calling again continues.
    Partial { items: u64 },
}

/// Parallel `BatchWriteItem` requests while purging.
const PURGE_CONCURRENCY: usize = 8;

impl Store {
    /// Applies the changes to `current`, swapping the e-mail reservation when it changes,
    /// all in one transaction conditional on the profile being as read (`Conflict(Changed)`
    /// otherwise; `Conflict(EmailTaken)` when the new e-mail is registered).
    pub async fn update_user(
        &self,
        current: &User,
        changes: ProfileChanges,
        now: Timestamp,
        expected: Option<u64>,
    ) -> StoreResult<User> {
        let mut next = current.clone();
        next.version += 1;
        // A profile of the unsharded users index (`USERS`) moves to its shard's.
        let mut sets = vec![
            "updatedAt = :now".to_owned(),
            "version = if_not_exists(version, :v1) + :v1".to_owned(),
            "GSI1PK = :index".to_owned(),
        ];
        let mut values = Item::from([
            (":now".into(), s(now.to_string())),
            (":index".into(), s(users_index_pk(current.id))),
            (":oldEmail".into(), s(&current.email)),
            (":v1".into(), n(1)),
        ]);
        if let Some(v) = changes.first_name {
            sets.push("firstName = :fn".into());
            values.insert(":fn".into(), s(&v));
            next.first_name = v;
        }
        if let Some(v) = changes.last_name {
            sets.push("lastName = :ln".into());
            values.insert(":ln".into(), s(&v));
            next.last_name = v;
        }
        // A new password, e-mail or role ends every session (see `sessions`).
        let mut end_sessions = false;
        if let Some(v) = changes.password_hash {
            sets.push("passwordHash = :ph".into());
            values.insert(":ph".into(), s(&v));
            next.password_hash = v;
            end_sessions = true;
        }
        if let Some(r) = changes.role {
            sets.push("#role = :role".into());
            values.insert(":role".into(), s(r.as_str()));
            end_sessions |= r != current.role;
            next.role = r;
        }
        let mut email_swap = None;
        if let Some((email, normalized)) = changes.email {
            sets.push("email = :email".into());
            values.insert(":email".into(), s(&email));
            let old_normalized = current.email.to_lowercase();
            if normalized != old_normalized {
                email_swap = Some((old_normalized, normalized));
            }
            end_sessions |= email != current.email;
            next.email = email;
        }
        // Resets keep going where they went before the change until the new address is
        // verified (`User::reset_address`): a new address never gets them unproven.
        if email_swap.is_some() {
            let previous = current.reset_address().to_owned();
            sets.push("previousEmail = :prev".into());
            values.insert(":prev".into(), s(&previous));
            next.previous_email = Some(previous);
        }
        let verified = match changes.email_verified {
            Some(v) => Some(v),
            None if email_swap.is_some() => Some(false),
            None => None,
        };
        if let Some(v) = verified {
            sets.push("emailVerified = :ev".into());
            values.insert(
                ":ev".into(),
                aws_sdk_dynamodb::types::AttributeValue::Bool(v),
            );
            next.email_verified = v;
        }
        next.updated_at = now;
        let mut expression = format!("SET {}", sets.join(", "));
        if end_sessions {
            expression.push_str(" ADD sessionEpoch :one");
            values.insert(":one".into(), n(1));
            next.session_epoch += 1;
        }

        let mut tx = TxItems::new(self);
        // DynamoDB refuses unused placeholders, so the name of `role` (a reserved word) is
        // declared only when it is set.
        let names = values
            .contains_key(":role")
            .then(|| std::collections::HashMap::from([("#role".to_owned(), "role".to_owned())]));
        let condition = super::at_version(
            "attribute_exists(PK) AND email = :oldEmail",
            expected,
            &mut values,
        );
        tx.update(
            &user_pk(current.id),
            PROFILE,
            &expression,
            Some(&condition),
            values,
            names,
        )?;
        tx.upserted(current.id, Entity::User, current.id, next.version);
        if let Some((old, new)) = &email_swap {
            tx.delete(&email_pk(old), EMAIL_SK, None, None)?;
            let item = Item::from([
                ("PK".into(), s(email_pk(new))),
                ("SK".into(), s(EMAIL_SK)),
                ("userId".into(), n(current.id)),
            ]);
            tx.put(item, Some("attribute_not_exists(PK)"), None)?;
            tx.on_conflict(ConflictKind::EmailTaken);
        }
        self.transact(tx).await?;
        if end_sessions {
            self.forget_session_epoch(current.id);
        }
        Ok(next)
    }

    /// Removes the profile, the e-mail reservation and the wallet atomically. `NotFound`
    /// when the profile was already gone.
    pub async fn delete_profile(&self, user: &User) -> StoreResult<()> {
        let mut tx = TxItems::new(self);
        tx.delete(
            &user_pk(user.id),
            PROFILE,
            Some("attribute_exists(PK)"),
            None,
        )?;
        tx.delete(
            &email_pk(&user.email.to_lowercase()),
            EMAIL_SK,
            Some("attribute_not_exists(PK) OR userId = :id"),
            Some(Item::from([(":id".into(), n(user.id))])),
        )?;
        tx.delete(&user_pk(user.id), WALLET, None, None)?;
        match self.transact(tx).await {
            Err(StoreError::Conflict(_)) => Err(StoreError::NotFound),
            other => other,
        }
    }

    /// True when anything is left in the user's partition.
    pub async fn has_user_items(&self, user_id: u64) -> StoreResult<bool> {
        let out = self
            .query_table()
            .key_condition_expression("PK = :pk")
            .expression_attribute_values(":pk", s(user_pk(user_id)))
            .projection_expression("PK")
            .limit(1)
            .send()
            .await
            .map_err(sdk_error)?;
        Ok(out.count > 0)
    }

    /// Deletes everything left in the user's partition until done or `deadline`.
    pub async fn purge_user(&self, user_id: u64, deadline: Instant) -> StoreResult<Purge> {
        let pk = user_pk(user_id);
        let mut deleted = 0u64;
        loop {
            if Instant::now() >= deadline {
                return Ok(Purge::Partial { items: deleted });
            }
            let out = self
                .query_table()
                .key_condition_expression("PK = :pk")
                .expression_attribute_values(":pk", s(&pk))
                .projection_expression("PK, SK")
                .limit(1000)
                .consistent_read(true)
                .send()
                .await
                .map_err(sdk_error)?;
            let keys: Vec<Item> = out.items.unwrap_or_default();
            if keys.is_empty() {
                return Ok(Purge::Complete { items: deleted });
            }
            let count = keys.len() as u64;
            let batches: Vec<Vec<Item>> = keys.chunks(25).map(<[Item]>::to_vec).collect();
            stream::iter(batches.into_iter().map(Ok::<_, StoreError>))
                .try_for_each_concurrent(PURGE_CONCURRENCY, |batch| async move {
                    self.delete_batch(batch).await
                })
                .await?;
            deleted += count;
        }
    }

    /// One `BatchWriteItem` of deletes, retrying what DynamoDB leaves unprocessed.
    pub(crate) async fn delete_batch(&self, keys: Vec<Item>) -> StoreResult<()> {
        let pending: Vec<WriteRequest> = keys
            .into_iter()
            .map(|key| {
                let pk = get_s(&key, "PK").map(str::to_owned)?;
                let sk = get_s(&key, "SK").map(str::to_owned)?;
                let delete = DeleteRequest::builder()
                    .key("PK", AttributeValue::S(pk))
                    .key("SK", AttributeValue::S(sk))
                    .build()?;
                Ok(WriteRequest::builder().delete_request(delete).build())
            })
            .collect::<anyhow::Result<_>>()?;
        super::batch::until_processed(pending, |batch| async move {
            let out = self
                .client
                .batch_write_item()
                .request_items(&self.table, batch)
                .send()
                .await
                .map_err(sdk_error)?;
            let unprocessed = out
                .unprocessed_items
                .and_then(|mut u| u.remove(&self.table));
            Ok((Vec::<()>::new(), unprocessed.unwrap_or_default()))
        })
        .await?;
        Ok(())
    }
}
