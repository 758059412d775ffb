//! The caller's rules as creates, imports and `/api/rules/apply` read them: the stored
//! rules in their order, each as the API shows it, and compiled once into a [`Ruleset`]
//! per request that needs them ([`RulesOnce`]). Below both the rules' service
//! (`rules/`) and the transactions' (`transactions/choose.rs`), which read it and never
//! each other's internals.

use std::collections::HashMap;

use rules::{CompiledRule, Kind, Outcome, RuleBody, Subject};

use crate::{AppError, AppResult};
use pf_domain::time::Timestamp;
use pf_domain::CategoryType;
use pf_store::rules::StoredRule;
use pf_store::Store;

/// A rule as the API shows it.
#[derive(Debug, Clone)]
pub struct RuleView {
    pub id: u64,
    pub body: RuleBody,
    pub version: u64,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
}

pub(crate) fn kind_of(t: CategoryType) -> Kind {
    match t {
        CategoryType::Debit => Kind::Debit,
        CategoryType::Credit => Kind::Credit,
    }
}

pub(crate) fn view(r: &StoredRule) -> AppResult<RuleView> {
    let body: RuleBody = serde_json::from_str(&r.rule)
        .map_err(|e| AppError::from(anyhow::anyhow!("stored rule {} unreadable: {e}", r.id)))?;
    Ok(RuleView {
        id: r.id,
        body,
        version: r.version,
        created_at: r.created_at,
        updated_at: r.updated_at,
    })
}

/// The user's rules in their order: by position, equal positions in creation order.
pub(crate) async fn ordered(store: &Store, user_id: u64) -> AppResult<Vec<StoredRule>> {
    let mut all = store.list_rules(user_id).await?;
    all.sort_by_key(|r| (r.position, r.created_at, r.id));
    Ok(all)
}

/// The user's rules compiled, in order, with the types of the categories they name.
pub struct Ruleset {
    compiled: Vec<CompiledRule>,
    kinds: HashMap<u64, Kind>,
}

impl Ruleset {
    /// Loads and compiles the user's rules (one Query).
    pub async fn load(store: &Store, user_id: u64) -> AppResult<Self> {
        let mut compiled = Vec::new();
        let mut kinds = HashMap::new();
        for stored in ordered(store, user_id).await? {
            let body = view(&stored)?.body;
            if let (Some(c), Some(t)) = (body.actions.category_id, stored.category_type) {
                kinds.insert(c, kind_of(t));
            }
            // A rule that no longer compiles (limits tightened since) is left out.
            if let Ok(rule) = body.compile() {
                compiled.push(rule.with_id(stored.id));
            }
        }
        Ok(Self { compiled, kinds })
    }

    pub fn is_empty(&self) -> bool {
        self.compiled.is_empty()
    }

    pub fn evaluate(&self, subject: &Subject<'_>) -> Outcome {
        rules::evaluate(&self.compiled, subject, |c| self.kinds.get(&c).copied())
    }
}

/// The caller's rules for one request: loaded by its first create that needs them, so a
/// batch of creates loads them once.
#[derive(Default)]
pub struct RulesOnce(tokio::sync::OnceCell<Ruleset>);

impl RulesOnce {
    pub async fn get(&self, store: &Store, user_id: u64) -> AppResult<&Ruleset> {
        self.0
            .get_or_try_init(|| Ruleset::load(store, user_id))
            .await
    }
}
