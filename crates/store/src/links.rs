//! Single-use tokens that travel in mailed links (password reset, e-mail verification):
//! stored only as the SHA-256 of the token, each in a partition of its own
//! (`PK = LINK#<hash>`, so a token alone finds it), expiring by TTL and by the
//! `expiresAt` checked on use. Using one deletes it conditionally: of two concurrent
//! uses, exactly one gets it.

use aws_sdk_dynamodb::types::ReturnValue;

use super::attr::{get_opt_s, get_opt_u64, n, s, Item};
use super::keys::email_pk;
use super::throttle::{window, Throttled};
use super::{is_condition_failure, sdk_error, Store, StoreResult};

/// What a link is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkPurpose {
    PasswordReset,
    VerifyEmail,
}

impl LinkPurpose {
    pub fn as_str(self) -> &'static str {
        match self {
            LinkPurpose::PasswordReset => "reset",
            LinkPurpose::VerifyEmail => "verify",
        }
    }
}

/// A link as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    pub user_id: u64,
    /// The normalized e-mail the link was mailed to.
    pub email: String,
    /// The profile's session epoch when it was mailed: a reset link is good only while it
    /// stands (a reset, password, e-mail or role change or logout-all since ends it).
    /// `None` for a link stored before links carried it (at most 30 minutes old).
    pub epoch: Option<u64>,
}

const MAIL_WINDOW_SECS: i64 = 3600;

fn pk(hash: &str) -> String {
    format!("LINK#{hash}")
}

impl Store {
    /// Stores a link's token hash for `ttl_secs`.
    pub async fn create_link(
        &self,
        purpose: LinkPurpose,
        hash: &str,
        link: &Link,
        now: i64,
        ttl_secs: i64,
    ) -> StoreResult<()> {
        let item = Item::from([
            ("PK".into(), s(pk(hash))),
            ("SK".into(), s("LINK")),
            ("purpose".into(), s(purpose.as_str())),
            ("userId".into(), n(link.user_id)),
            ("email".into(), s(&link.email)),
            ("sessionEpoch".into(), n(link.epoch.unwrap_or(0))),
            ("expiresAt".into(), n(now + ttl_secs)),
        ]);
        self.client
            .put_item()
            .table_name(&self.table)
            .set_item(Some(item))
            .condition_expression("attribute_not_exists(PK)")
            .send()
            .await
            .map_err(sdk_error)?;
        Ok(())
    }

    /// Uses up a link: deleted (conditionally, so once) and returned when it exists, is of
    /// this purpose and has not expired; `None` otherwise.
    pub async fn use_link(
        &self,
        purpose: LinkPurpose,
        hash: &str,
        now: i64,
    ) -> StoreResult<Option<Link>> {
        let out = self
            .delete_at(&pk(hash), "LINK")
            .condition_expression("purpose = :p")
            .expression_attribute_values(":p", s(purpose.as_str()))
            .return_values(ReturnValue::AllOld)
            .send()
            .await;
        let item = match out {
            Ok(o) => o.attributes.unwrap_or_default(),
            Err(e) if is_condition_failure(&e) => return Ok(None),
            Err(e) => return Err(sdk_error(e)),
        };
        let expires_at = get_opt_u64(&item, "expiresAt").unwrap_or(0) as i64;
        match (get_opt_u64(&item, "userId"), get_opt_s(&item, "email")) {
            (Some(user_id), Some(email)) if expires_at > now => Ok(Some(Link {
                user_id,
                email,
                epoch: get_opt_u64(&item, "sessionEpoch"),
            })),
            _ => Ok(None),
        }
    }

    /// Reserves one mail of `purpose` to `normalized_email` within `per_hour`.
    pub async fn reserve_mail(
        &self,
        purpose: LinkPurpose,
        normalized_email: &str,
        per_hour: u64,
        now: i64,
    ) -> StoreResult<Result<(), Throttled>> {
        let w = window(now, MAIL_WINDOW_SECS);
        let counter = (
            email_pk(normalized_email),
            format!("MAIL#{}#{w}", purpose.as_str()),
        );
        self.take_slot(counter, per_hour, MAIL_WINDOW_SECS, now)
            .await
    }
}
