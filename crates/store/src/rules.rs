//! A user's categorisation rules: `PK = USER#<id>`, `SK = RULE#<id>`, the rule as JSON
//! (`rule`), its `position`, the type of its category when it has one (`categoryType`,
//! so evaluating needs no category read) and the usual version and times. All of a
//! user's rules (at most 200, each small) are read with one Query. The profile counts the
//! rules and their `matches` conditions (`patternCount`), in the same transaction as each
//! write, so that concurrent writes never pass either cap.

use super::attr::{get_opt_s, get_opt_u64, get_s, get_u64, n, s, Item};
use super::caps::{Tally, PATTERN_COUNT};
use super::feed::Entity;
use super::items::{get_owner, get_times, get_version, stamps};
use super::keys::user_pk;
use super::versioned::Versioned;
use super::{Store, StoreResult};
use crate::FromItem;
use pf_domain::time::Timestamp;
use pf_domain::CategoryType;

pub const RULE_PREFIX: &str = "RULE#";

pub fn rule_sk(id: u64) -> String {
    format!("{RULE_PREFIX}{id}")
}

fn versioned(user_id: u64, id: u64) -> Versioned {
    Versioned::new(Entity::Rule, user_id, id, rule_sk(id))
}

/// A rule as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredRule {
    pub user_id: u64,
    pub id: u64,
    /// The rule's body (`rules::RuleBody`) as JSON.
    pub rule: String,
    pub position: u64,
    pub category_type: Option<CategoryType>,
    pub version: u64,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
}

fn to_item(r: &StoredRule) -> Item {
    let mut item = Item::from([
        ("PK".into(), s(user_pk(r.user_id))),
        ("SK".into(), s(rule_sk(r.id))),
        ("id".into(), n(r.id)),
        ("rule".into(), s(&r.rule)),
        ("position".into(), n(r.position)),
    ]);
    if let Some(t) = r.category_type {
        item.insert("categoryType".into(), s(t.as_str()));
    }
    item.extend(stamps(r.version, r.created_at, r.updated_at));
    item
}

fn from_item(user_id: u64, item: &Item) -> anyhow::Result<StoredRule> {
    let (created_at, updated_at) = get_times(item)?;
    let category_type = match get_opt_s(item, "categoryType").as_deref() {
        Some("DEBIT") => Some(CategoryType::Debit),
        Some("CREDIT") => Some(CategoryType::Credit),
        _ => None,
    };
    Ok(StoredRule {
        user_id,
        id: get_u64(item, "id")?,
        rule: get_s(item, "rule")?.to_owned(),
        position: get_opt_u64(item, "position").unwrap_or(0),
        category_type,
        version: get_version(item),
        created_at,
        updated_at,
    })
}

impl FromItem for StoredRule {
    fn from_item(item: &Item) -> anyhow::Result<Self> {
        from_item(get_owner(item, "rule")?, item)
    }
}

/// The patterns a rule write adds (`delta`, negative when it removes some) to the user's
/// `base` (all their rules' patterns as read; a profile counts from it on its first rule
/// write since the count exists), at most `rules::MAX_PATTERNS` in all.
pub fn patterns(base: usize, delta: i64) -> Tally {
    Tally {
        attribute: PATTERN_COUNT,
        base: base as u64,
        delta,
        max: rules::MAX_PATTERNS as u64,
    }
}

impl Store {
    /// Every rule of the user, unordered (one Query; the service orders them).
    pub async fn list_rules(&self, user_id: u64) -> StoreResult<Vec<StoredRule>> {
        let items = self.query_prefix(&user_pk(user_id), RULE_PREFIX).await?;
        let rules = items.iter().map(|item| from_item(user_id, item));
        Ok(rules.collect::<anyhow::Result<_>>()?)
    }

    /// One rule of the user, if it exists (one `GetItem`).
    pub async fn get_rule(&self, user_id: u64, id: u64) -> StoreResult<Option<StoredRule>> {
        let item = self.get(&user_pk(user_id), &rule_sk(id)).await?;
        Ok(item.map(|i| from_item(user_id, &i)).transpose()?)
    }

    /// Stores a rule with its change-feed entry: a new one (`expected: None`; its id must
    /// be free) or a new version of one at version `expected` (`Conflict(Changed)` when it
    /// moved or is gone), moving the profile's pattern count by `patterns`
    /// (`Conflict(LimitReached)` when it would pass its cap, as when the rules' does).
    /// An own category it sets (`own_category`) is marked as named, conditional on its
    /// type being the rule's `category_type` (`Conflict(Reference(Category))`), so that a
    /// type change racing the rule fails (`categories::refs`).
    pub async fn put_rule(
        &self,
        rule: &StoredRule,
        expected: Option<u64>,
        patterns: Tally,
        own_category: Option<u64>,
    ) -> StoreResult<()> {
        let at = versioned(rule.user_id, rule.id).with_tally(patterns);
        let item = (to_item(rule), rule.version);
        let marked = own_category.zip(rule.category_type);
        self.put_versioned(&at, item, expected, |tx| match marked {
            Some((id, t)) => super::categories::refs::mark(tx, rule.user_id, id, t),
            None => Ok(()),
        })
        .await
    }

    /// Deletes a rule at version `version`, with its tombstone in the change feed:
    /// `NotFound` when it was gone, `Conflict(Changed)` when its version moved; the
    /// profile's pattern count moves by `patterns` (the rule's, negative).
    pub async fn delete_rule(
        &self,
        user_id: u64,
        id: u64,
        version: u64,
        patterns: Tally,
    ) -> StoreResult<()> {
        let at = versioned(user_id, id).with_tally(patterns);
        self.delete_versioned(&at, version).await
    }
}
