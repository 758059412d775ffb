//! Users, their e-mail reservations and their wallet's creation.

use crate::FromItem;
use aws_sdk_dynamodb::types::AttributeValue;

use super::attr::{s, Item};
use super::keys::{email_pk, user_pk, EMAIL_SK, PROFILE};
use super::transact::TxItems;
use super::{with_fresh_id, ConflictKind, Store, StoreResult};
use pf_domain::ids::new_id;
use pf_domain::{Role, User, Wallet};

/// What registration supplies; the store assigns ids.
pub struct NewUser {
    pub email: String,
    pub normalized_email: String,
    pub first_name: String,
    pub last_name: String,
    pub password_hash: String,
    /// `YYYY-MM-DDTHH:MM:SS`, UTC.
    pub now: String,
}

impl Store {
    /// Creates the user, reserves the e-mail and creates the wallet in one transaction:
    /// `Conflict(EmailTaken)` when the e-mail is registered.
    pub async fn create_user(&self, new: NewUser) -> StoreResult<(User, Wallet)> {
        with_fresh_id(|id| self.try_create_user(&new, id)).await
    }

    async fn try_create_user(&self, new: &NewUser, id: u64) -> StoreResult<(User, Wallet)> {
        let now = pf_domain::time::Timestamp::parse(&new.now).map_err(anyhow::Error::msg)?;
        let user = User::new(
            id,
            new.email.clone(),
            new.first_name.clone(),
            new.last_name.clone(),
            new.password_hash.clone(),
            now,
        );
        let wallet = Wallet::new_default(id, new_id(), now);
        let reservation = Item::from([
            ("PK".into(), s(email_pk(&new.normalized_email))),
            ("SK".into(), s(EMAIL_SK)),
            ("userId".into(), AttributeValue::N(id.to_string())),
        ]);
        let mut tx = TxItems::new(self);
        let not_exists = Some("attribute_not_exists(PK)");
        tx.put(reservation, not_exists, None)?;
        tx.on_conflict(ConflictKind::EmailTaken);
        let mut profile = super::items::user::to_item(&user);
        profile.extend([super::caps::counted_from_signup()]);
        tx.put(profile, not_exists, None)?;
        tx.on_conflict(ConflictKind::IdTaken);
        tx.put(super::items::wallet::to_item(&wallet), not_exists, None)?;
        tx.on_conflict(ConflictKind::IdTaken);
        self.transact_once(tx).await?;
        Ok((user, wallet))
    }

    /// Finds a user by e-mail: the reservation gives the id, then the profile (two reads).
    pub async fn find_user_by_email(&self, normalized_email: &str) -> StoreResult<Option<User>> {
        let out = self.get(&email_pk(normalized_email), EMAIL_SK).await?;
        let Some(item) = out else {
            return Ok(None);
        };
        let id = super::attr::get_u64(&item, "userId")?;
        self.get_user(id).await
    }

    pub async fn get_user(&self, id: u64) -> StoreResult<Option<User>> {
        let out = self.get(&user_pk(id), PROFILE).await?;
        match out {
            Some(item) => Ok(Some(User::from_item(&item)?)),
            None => Ok(None),
        }
    }
}

/// Outcome of the operator's role change.
#[derive(Debug, PartialEq, Eq)]
pub enum RoleChange {
    Changed { user_id: u64 },
    Unchanged { user_id: u64 },
    NoSuchUser,
}

impl Store {
    /// Sets the role of the user registered with this e-mail, straight in the table (the
    /// operator's `admin` command). A change ends the user's sessions, like any role change.
    pub async fn set_role_by_email(
        &self,
        normalized_email: &str,
        role: Role,
        now: &str,
    ) -> StoreResult<RoleChange> {
        let Some(user) = self.find_user_by_email(normalized_email).await? else {
            return Ok(RoleChange::NoSuchUser);
        };
        if user.role == role {
            return Ok(RoleChange::Unchanged { user_id: user.id });
        }
        let mut tx = super::transact::TxItems::new(self);
        tx.update(
            &user_pk(user.id),
            PROFILE,
            &format!(
                "SET #role = :role, updatedAt = :now, {} ADD sessionEpoch :one",
                super::NEXT_VERSION
            ),
            Some("attribute_exists(PK)"),
            super::attr::Item::from([
                (":role".into(), s(role.as_str())),
                (":now".into(), s(now)),
                (":one".into(), AttributeValue::N("1".into())),
            ]),
            Some(std::collections::HashMap::from([(
                "#role".to_owned(),
                "role".to_owned(),
            )])),
        )?;
        tx.record(super::feed::Change::upsert(
            super::feed::Feed::User(user.id),
            super::feed::Entity::User,
            user.id,
            user.version + 1,
        ));
        self.transact(tx).await?;
        self.forget_session_epoch(user.id);
        Ok(RoleChange::Changed { user_id: user.id })
    }

    /// Replaces a password hash by a stronger one of the same password, unless the
    /// password changed meanwhile (then nothing happens). Sessions are kept: the password
    /// is the same.
    pub async fn upgrade_password_hash(
        &self,
        user_id: u64,
        old_hash: &str,
        new_hash: &str,
    ) -> StoreResult<()> {
        let out = self
            .update_at(&user_pk(user_id), PROFILE)
            .update_expression("SET passwordHash = :new")
            .condition_expression("passwordHash = :old")
            .expression_attribute_values(":new", s(new_hash))
            .expression_attribute_values(":old", s(old_hash))
            .send()
            .await;
        super::done_unless_other_error(out)
    }
}
