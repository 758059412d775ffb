//! Caps on what one user may own: a counter on the profile, changed in the same
//! transaction as each create and delete (and its feed entry), so that concurrent creates
//! never pass the cap.

use aws_sdk_dynamodb::types::AttributeValue;

use super::attr::{n, Item};
use super::keys::{user_pk, PROFILE};
use super::transact::TxItems;
use super::{ConflictKind, Store, StoreError};

/// The profile's counters: own categories, tags, providers, rules, recurring schedules.
pub const CATEGORY_COUNT: &str = "categoryCount";
pub const TAG_COUNT: &str = "tagCount";
pub const PROVIDER_COUNT: &str = "providerCount";
pub const RULE_COUNT: &str = "ruleCount";
pub const RECURRING_COUNT: &str = "recurringCount";

/// On profiles whose counters have counted since registration (every profile registered
/// since this attribute exists): there, a counter at zero (or none yet) means none, which
/// a first sync page trusts to skip a `Query`. Older profiles' counters began when caps
/// did and may be short, so nothing is inferred from them.
const COUNTED: &str = "countedSinceSignup";

/// The attribute a new profile carries: its counters count from the start.
pub(crate) fn counted_from_signup() -> (String, AttributeValue) {
    (COUNTED.to_owned(), AttributeValue::Bool(true))
}

/// How many of `counter`'s items `profile` says it held when it was read (none yet: 0), on
/// a profile counted since registration only (`None` on others, or for an unreadable
/// counter).
pub fn counted(profile: &Item, counter: &str) -> Option<u64> {
    if !matches!(profile.get(COUNTED), Some(AttributeValue::Bool(true))) {
        return None;
    }
    match profile.get(counter) {
        None => Some(0),
        Some(AttributeValue::N(v)) => v.parse().ok(),
        Some(_) => None,
    }
}

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
