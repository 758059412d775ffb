//! Caps on what one user may own: a counter on the profile, changed in the same
//! transaction as each create and delete, so that concurrent creates never pass the cap.

use super::attr::{n, Item};
use super::keys::{user_pk, PROFILE};
use super::transact::TxItems;
use super::{ConflictKind, Store, StoreError};

impl Store {
    /// Adds `delta` to a counter on the profile; increments are bounded by `max` and all
    /// of it requires the profile to exist (so nothing is created for a deleted user).
    pub(crate) fn count_on_profile(
        &self,
        tx: &mut TxItems<'_>,
        user_id: u64,
        attribute: &str,
        delta: i64,
        max: u64,
    ) -> anyhow::Result<()> {
        let mut values = Item::from([(":d".into(), n(delta))]);
        let condition = if delta > 0 {
            values.insert(":max".into(), n(max));
            format!("attribute_exists(PK) AND (attribute_not_exists({attribute}) OR {attribute} < :max)")
        } else {
            "attribute_exists(PK)".to_owned()
        };
        tx.update(
            &user_pk(user_id),
            PROFILE,
            &format!("ADD {attribute} :d"),
            Some(&condition),
            values,
            None,
        )?;
        // Told apart by `profile_failure`: the profile is gone, or at the limit.
        tx.on_conflict(ConflictKind::LimitReached);
        Ok(())
    }

    /// After a failed profile condition: the user is gone (`NotFound`) or at the limit.
    pub(crate) async fn profile_failure(&self, user_id: u64) -> StoreError {
        match self.get_user(user_id).await {
            Ok(Some(_)) => StoreError::Conflict(ConflictKind::LimitReached),
            Ok(None) => StoreError::NotFound,
            Err(e) => e,
        }
    }
}
