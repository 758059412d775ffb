//! What a sync page carries: each change with the item as it is now.

use super::Position;
use crate::ruleset::{self, RuleView};
use pf_domain::recurring::Recurring;
use pf_domain::{Category, Label, Transaction, User, Wallet};
use pf_store::feed::{Entity, Op};
use pf_store::keys::{PROFILE, WALLET};
use pf_store::recurring::RECUR_PREFIX;
use pf_store::rules::{StoredRule, RULE_PREFIX};
use pf_store::FromItem;
use pf_store::Item;

/// An item as it is now.
#[derive(Debug, Clone)]
pub enum Resource {
    User(User),
    Wallet(Wallet),
    Category(Category),
    Tag(Label),
    Provider(Label),
    Transaction(Transaction),
    Rule(RuleView),
    Recurring(Recurring),
}

impl Resource {
    /// The item's id and version.
    pub(super) fn id_version(&self) -> (u64, u64) {
        match self {
            Resource::User(u) => (u.id, u.version),
            Resource::Wallet(w) => (w.id, w.version),
            Resource::Category(c) => (c.id, c.version),
            Resource::Tag(l) | Resource::Provider(l) => (l.id, l.version),
            Resource::Transaction(t) => (t.id, t.version),
            Resource::Rule(r) => (r.id, r.version),
            Resource::Recurring(r) => (r.id, r.version),
        }
    }

    pub(super) fn entity(&self) -> Entity {
        match self {
            Resource::User(_) => Entity::User,
            Resource::Wallet(_) => Entity::Wallet,
            Resource::Category(_) => Entity::Category,
            Resource::Tag(_) => Entity::Tag,
            Resource::Provider(_) => Entity::Provider,
            Resource::Transaction(_) => Entity::Transaction,
            Resource::Rule(_) => Entity::Rule,
            Resource::Recurring(_) => Entity::Recurring,
        }
    }

    /// Reads an item of a synced kind (`None` for other items).
    pub(super) fn from_item(item: &Item) -> anyhow::Result<Option<Self>> {
        let sk = item
            .get("SK")
            .and_then(|v| v.as_s().ok())
            .map(String::as_str)
            .unwrap_or_default();
        Ok(Some(if sk == PROFILE {
            Resource::User(User::from_item(item)?)
        } else if sk == WALLET {
            Resource::Wallet(Wallet::from_item(item)?)
        } else if sk.starts_with("CAT#") {
            Resource::Category(Category::from_item(item)?)
        } else if sk.starts_with("TAG#") {
            Resource::Tag(Label::from_item(item)?)
        } else if sk.starts_with("PROV#") {
            Resource::Provider(Label::from_item(item)?)
        } else if sk.starts_with("TXN#") {
            Resource::Transaction(Transaction::from_item(item)?)
        } else if sk.starts_with(RULE_PREFIX) {
            Resource::Rule(ruleset::view(&StoredRule::from_item(item)?)?)
        } else if sk.starts_with(RECUR_PREFIX) {
            Resource::Recurring(Recurring::from_item(item)?)
        } else {
            return Ok(None);
        }))
    }
}

/// One change as a client sees it: the item now, or its deletion.
#[derive(Debug, Clone)]
pub struct SyncChange {
    pub entity: Entity,
    pub id: u64,
    pub op: Op,
    pub version: u64,
    pub data: Option<Resource>,
}

impl SyncChange {
    pub(super) fn upsert(r: Resource) -> Self {
        let (id, version) = r.id_version();
        Self {
            entity: r.entity(),
            id,
            op: Op::Upsert,
            version,
            data: Some(r),
        }
    }
}

#[derive(Debug)]
pub struct SyncPage {
    pub changes: Vec<SyncChange>,
    pub next: Position,
    pub has_more: bool,
}

impl SyncPage {
    /// A page after which more changes wait.
    pub(super) fn more(changes: Vec<SyncChange>, next: Position) -> Self {
        Self {
            changes,
            next,
            has_more: true,
        }
    }
}
