//! Whole-item writes of a user's versioned resources (rules, recurring schedules) with
//! their change-feed entry in the same `TransactWriteItems`: a put of a new item or of a
//! new version over the one read, and a delete at the version read (a tombstone).

use super::attr::{n, Item};
use super::feed::Entity;
use super::keys::user_pk;
use super::transact::TxItems;
use super::{ConflictKind, Store, StoreError, StoreResult};

/// The counter on the profile and the cap of what a user may own of `entity`: counted in
/// the same transaction as each create and delete, so concurrent creates never pass it.
fn cap_of(entity: Entity) -> Option<(&'static str, u64)> {
    match entity {
        Entity::Rule => Some((super::caps::RULE_COUNT, rules::MAX_RULES as u64)),
        Entity::Recurring => Some((
            super::caps::RECURRING_COUNT,
            pf_domain::recurring::MAX_SCHEDULES as u64,
        )),
        _ => None,
    }
}

/// Which of a user's items a write is about, and what the feed calls it.
pub struct Versioned {
    pub user_id: u64,
    pub entity: Entity,
    pub id: u64,
    pub sk: String,
    /// Another counter of the profile the write moves (a rule's patterns).
    pub tally: Option<super::caps::Tally>,
}

impl Versioned {
    pub fn new(entity: Entity, user_id: u64, id: u64, sk: String) -> Self {
        Self {
            user_id,
            entity,
            id,
            sk,
            tally: None,
        }
    }

    /// The write also moves `tally` on the profile, in the same transaction.
    pub fn with_tally(self, tally: super::caps::Tally) -> Self {
        Self {
            tally: Some(tally),
            ..self
        }
    }
}

impl Store {
    /// Puts `item` (at `version`) and records its upsert: a new item (`expected: None`;
    /// a taken id is `Conflict(IdTaken)`) or the next version of the one at `expected`
    /// (`Changed` when it moved or is gone). `also` adds to the same transaction.
    pub(crate) async fn put_versioned(
        &self,
        at: &Versioned,
        (item, version): (Item, u64),
        expected: Option<u64>,
        also: impl FnOnce(&mut TxItems<'_>) -> anyhow::Result<()>,
    ) -> StoreResult<()> {
        let mut tx = TxItems::new(self);
        match expected {
            None => {
                tx.put(item, Some("attribute_not_exists(PK)"), None)?;
                tx.on_conflict(ConflictKind::IdTaken);
                let counter = cap_of(at.entity).map(|(c, max)| (c, 1, max));
                self.count_on_profile_with(&mut tx, at.user_id, counter, at.tally)?;
            }
            Some(read) => {
                let values = Item::from([(":v".into(), n(read))]);
                let condition = "attribute_exists(PK) AND version = :v";
                tx.put(item, Some(condition), Some(values))?;
                tx.on_conflict(ConflictKind::Changed);
                self.count_on_profile_with(&mut tx, at.user_id, None, at.tally)?;
            }
        }
        tx.upserted(at.user_id, at.entity, at.id, version);
        also(&mut tx)?;
        // A create is sent once: its caller's fresh-id retry builds it again after a
        // conflict (one loop); a replacement retries its own conflicts.
        let sent = match expected {
            None => self.transact_once(tx).await,
            Some(_) => self.transact(tx).await,
        };
        match sent {
            Err(e) if e.is_conflict(ConflictKind::LimitReached) => {
                Err(self.profile_failure(at.user_id).await)
            }
            other => other,
        }
    }

    /// Deletes the item if it is still at `version`, recording the tombstone: `NotFound`
    /// when it is gone, `Conflict(Changed)` when it is at another version.
    pub(crate) async fn delete_versioned(&self, at: &Versioned, version: u64) -> StoreResult<()> {
        let pk = user_pk(at.user_id);
        let mut tx = TxItems::new(self);
        let values = Item::from([(":v".into(), n(version))]);
        let condition = "attribute_exists(PK) AND version = :v";
        tx.delete(&pk, &at.sk, Some(condition), Some(values))?;
        tx.deleted(at.user_id, at.entity, at.id, version);
        let counter = cap_of(at.entity).map(|(c, max)| (c, -1, max));
        self.count_on_profile_with(&mut tx, at.user_id, counter, at.tally)?;
        match self.transact(tx).await {
            Err(StoreError::Conflict(ConflictKind::Changed)) => {
                Err(match self.get(&pk, &at.sk).await? {
                    Some(_) => StoreError::Conflict(ConflictKind::Changed),
                    None => StoreError::NotFound,
                })
            }
            other => other,
        }
    }
}
