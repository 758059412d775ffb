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
/// The `matches` conditions of all of a user's rules (`rules::MAX_PATTERNS`).
pub const PATTERN_COUNT: &str = "patternCount";

/// A second counter a write moves on the profile, with the counter of the item it creates
/// or deletes (a transaction touches an item once): `delta` added, at most `max` after an
/// increase. A profile without it yet starts from `base`, the count the caller read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tally {
    pub attribute: &'static str,
    pub base: u64,
    pub delta: i64,
    pub max: u64,
}

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
        self.count_on_profile_with(tx, user_id, Some((attribute, delta, max)), None)
    }

    /// [`Store::count_on_profile`] of `counter` (if any) and `tally` (if any) in one update
    /// of the profile, each increase bounded by its maximum.
    pub(crate) fn count_on_profile_with(
        &self,
        tx: &mut TxItems<'_>,
        user_id: u64,
        counter: Option<(&str, i64, u64)>,
        tally: Option<Tally>,
    ) -> anyhow::Result<()> {
        let mut values = Item::new();
        let mut condition = "attribute_exists(PK)".to_owned();
        let mut update = String::new();
        if let Some((attribute, delta, max)) = counter {
            values.insert(":d".into(), n(delta));
            if delta > 0 {
                values.insert(":max".into(), n(max));
                condition.push_str(&format!(
                    " AND (attribute_not_exists({attribute}) OR {attribute} < :max)"
                ));
            }
            update = format!("ADD {attribute} :d");
        }
        if let Some(t) = tally.filter(|t| t.delta != 0) {
            let a = t.attribute;
            values.insert(":tbase".into(), n(t.base));
            values.insert(":tdelta".into(), n(t.delta));
            if t.delta > 0 {
                // `a + delta <= max`, as DynamoDB can compare: `a <= max - delta`.
                let room = t.max.saturating_sub(t.delta.unsigned_abs());
                values.insert(":troom".into(), n(room));
                condition.push_str(&format!(
                    " AND (attribute_not_exists({a}) OR {a} <= :troom)"
                ));
            }
            update.push_str(&format!(" SET {a} = if_not_exists({a}, :tbase) + :tdelta"));
        }
        if update.is_empty() {
            return Ok(());
        }
        tx.update(
            &user_pk(user_id),
            PROFILE,
            update.trim_start(),
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
