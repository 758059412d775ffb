//! Categorisation rules: the caller's ordered rules (`rules` crate: conditions, folding,
//! linear-time regexes, evaluation), stored in the user's partition, loaded with one Query
//! and compiled once per request that needs them. They run on creates without a
//! `categoryId` ([`categorize`]) and over existing transactions on request ([`apply`]),
//! and never change a category the user chose (`categorySource: user`).

use std::collections::HashMap;

use rules::{CompiledRule, Kind, Outcome, RuleBody, Subject};

use super::transactions::{TransactionDraft, MAX_TAGS};
use super::{kept, version_to_keep, AppError, AppResult, IfMatch};
use pf_domain::time::Timestamp;
use pf_domain::{CategorySource, CategoryType, Violation};
use pf_store::rules::StoredRule;
use pf_store::transactions::RefKeys;
use pf_store::{ConflictKind, Ref, Store, StoreError};

mod apply;

pub use apply::{apply, changes, ApplyReport, Change};
pub use rules::MAX_RULES;

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

/// A rule's body checked: it compiles, and what its actions name is the caller's (another
/// user's object is a 404). Gives the type of its category, if it names one, and the
/// id of that category when it is the user's own (marked by the write, see
/// `store::categories::refs`).
async fn check(
    store: &Store,
    user_id: u64,
    body: &RuleBody,
) -> AppResult<(Option<CategoryType>, Option<u64>)> {
    body.compile().map_err(|errors| {
        AppError::Invalid(
            errors
                .into_iter()
                .map(|e| Violation::new(&e.field, e.message))
                .collect(),
        )
    })?;
    let a = &body.actions;
    let keys = RefKeys {
        category_id: a.category_id,
        provider_id: a.provider_id,
        tag_ids: &a.tag_ids,
        ..Default::default()
    };
    let refs = store.fetch_refs(user_id, keys).await?;
    if a.category_id.is_some() && refs.category.is_none() {
        return Err(AppError::not_found("category"));
    }
    if a.provider_id.is_some() && !refs.provider_found {
        return Err(AppError::not_found("provider"));
    }
    if a.tag_ids.iter().any(|t| !refs.tags_found.contains(t)) {
        return Err(AppError::not_found("tag"));
    }
    let own = refs
        .category
        .as_ref()
        .filter(|c| !c.is_global())
        .map(|c| c.id);
    Ok((refs.category.map(|c| c.category_type), own))
}

/// The rule's own category was deleted, or its type changed, since it was checked.
fn category_changed() -> AppError {
    AppError::Conflict(
        "the rule's category was deleted or changed its type meanwhile; retry".into(),
    )
}

pub async fn list(store: &Store, user_id: u64) -> AppResult<Vec<RuleView>> {
    ordered(store, user_id).await?.iter().map(view).collect()
}

pub async fn get(store: &Store, user_id: u64, id: u64) -> AppResult<RuleView> {
    let found = store.get_rule(user_id, id).await?;
    view(&found.ok_or_else(|| AppError::not_found("rule"))?)
}

/// The `matches` conditions of a rule.
fn patterns(body: &RuleBody) -> usize {
    let regex = |c: &&rules::Condition| c.op == rules::Op::Matches;
    body.conditions.iter().filter(regex).count()
}

/// The `matches` conditions of the user's rules as read, but rule `except`'s.
fn patterns_of(all: &[StoredRule], except: Option<u64>) -> usize {
    all.iter()
        .filter(|r| Some(r.id) != except)
        .filter_map(|r| view(r).ok())
        .map(|v| patterns(&v.body))
        .sum()
}

fn too_many_patterns() -> AppError {
    let max = rules::MAX_PATTERNS;
    AppError::Conflict(format!(
        "a user's rules may hold at most {max} `matches` conditions in all; \
         use contains, startsWith or endsWith, or delete one"
    ))
}

/// `409` when `body` (replacing rule `replacing`) would give the user more than
/// [`rules::MAX_PATTERNS`] `matches` conditions in all, as read. The write checks it
/// again on the profile's count, in its transaction, so concurrent writes cannot pass it.
fn check_patterns(all: &[StoredRule], replacing: Option<u64>, body: &RuleBody) -> AppResult<()> {
    let others = patterns_of(all, replacing);
    if patterns(body) > 0 && others + patterns(body) > rules::MAX_PATTERNS {
        return Err(too_many_patterns());
    }
    Ok(())
}

/// The change of the user's pattern count from `before` to `after` patterns.
fn delta(before: usize, after: usize) -> i64 {
    after as i64 - before as i64
}

/// Creates a rule: after the last one unless `position` says otherwise; at most
/// [`MAX_RULES`] per user.
pub async fn create(store: &Store, user_id: u64, mut body: RuleBody) -> AppResult<RuleView> {
    body.normalize();
    let (category_type, own) = check(store, user_id, &body).await?;
    let existing = store.list_rules(user_id).await?;
    check_patterns(&existing, None, &body)?;
    let added = patterns(&body);
    let tally = pf_store::rules::patterns(patterns_of(&existing, None), delta(0, added));
    let full = || {
        AppError::Conflict(format!(
            "a user may have at most {MAX_RULES} rules; delete one first"
        ))
    };
    let position = match body.position {
        Some(p) => u64::from(p),
        // After the last, and never past the largest position a rule can show.
        None => existing
            .iter()
            .map(|r| (r.position + 1).min(u64::from(u32::MAX)))
            .max()
            .unwrap_or(0),
    };
    body.position = u32::try_from(position).ok();
    let now = Timestamp::now();
    let stored = StoredRule {
        user_id,
        id: 0,
        rule: serde_json::to_string(&body).map_err(anyhow::Error::from)?,
        position,
        category_type,
        version: 1,
        created_at: now,
        updated_at: now,
    };
    let created = kept::create((existing.len(), MAX_RULES), full, |id| {
        let rule = StoredRule {
            id,
            ..stored.clone()
        };
        async move { store.put_rule(&rule, None, tally, own).await.map(|()| rule) }
    });
    match created.await {
        Err(AppError::Store(StoreError::Conflict(ConflictKind::Reference(Ref::Category)))) => {
            Err(category_changed())
        }
        // Refused on the profile's counts: the rules' or, under it, the patterns'.
        Err(AppError::Conflict(_))
            if added > 0 && store.list_rules(user_id).await?.len() < MAX_RULES =>
        {
            Err(too_many_patterns())
        }
        other => view(&other?),
    }
}

/// Replaces a rule (`If-Match` honoured); an absent `position` keeps the rule's place.
pub async fn update(
    store: &Store,
    user_id: u64,
    id: u64,
    mut body: RuleBody,
    expected: Option<IfMatch>,
) -> AppResult<RuleView> {
    body.normalize();
    let current = store
        .get_rule(user_id, id)
        .await?
        .ok_or_else(|| AppError::not_found("rule"))?;
    // A malformed body is 400 whatever its If-Match, as on every other update.
    let (category_type, own) = check(store, user_id, &body).await?;
    version_to_keep(expected, current.version)?;
    let was = view(&current).map_or(0, |v| patterns(&v.body));
    let change = delta(was, patterns(&body));
    // The user's count as read, for a profile that has none yet (only read when it moves).
    let mut base = 0;
    if change != 0 || patterns(&body) > 0 {
        let all = store.list_rules(user_id).await?;
        check_patterns(&all, Some(id), &body)?;
        base = patterns_of(&all, Some(id)) + was;
    }
    let tally = pf_store::rules::patterns(base, change);
    let position = body.position.map_or(current.position, u64::from);
    body.position = u32::try_from(position).ok();
    let next = StoredRule {
        rule: serde_json::to_string(&body).map_err(anyhow::Error::from)?,
        position,
        category_type,
        version: current.version + 1,
        updated_at: Timestamp::now(),
        ..current.clone()
    };
    match store
        .put_rule(&next, Some(current.version), tally, own)
        .await
    {
        Ok(()) => view(&next),
        Err(StoreError::Conflict(ConflictKind::Reference(Ref::Category))) => {
            Err(category_changed())
        }
        Err(StoreError::Conflict(ConflictKind::Changed)) => Err(super::stale()),
        Err(StoreError::Conflict(ConflictKind::LimitReached)) => Err(too_many_patterns()),
        Err(e) => Err(e.into()),
    }
}

/// Adds the rules' tags to `tags` that are not there yet, as long as the transaction's
/// limit leaves room: the tags beyond it are left out, never an error of the transaction.
pub(crate) fn add_tags(tags: &mut Vec<u64>, from_rules: &[u64]) -> bool {
    let mut added = false;
    for tag in from_rules {
        if tags.len() >= MAX_TAGS {
            break;
        }
        if !tags.contains(tag) {
            tags.push(*tag);
            added = true;
        }
    }
    added
}

/// Deletes a rule (`If-Match` honoured), leaving a tombstone in the change feed; the
/// profile's pattern count loses the rule's (as read with its version: a version that
/// moved fails the delete, which reads again).
pub async fn delete(
    store: &Store,
    user_id: u64,
    id: u64,
    expected: Option<IfMatch>,
) -> AppResult<()> {
    let read = || async move { Ok(store.get_rule(user_id, id).await?.map(|r| r.version)) };
    let delete = |version| async move {
        let all = store.list_rules(user_id).await?;
        let own = all
            .iter()
            .filter(|r| r.id == id && r.version == version)
            .map(|r| view(r).map_or(0, |v| patterns(&v.body)))
            .sum();
        let tally = pf_store::rules::patterns(patterns_of(&all, None), delta(own, 0));
        store.delete_rule(user_id, id, version, tally).await
    };
    super::delete_at_read_version("rule", expected, read, delete).await
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

/// A create without `categoryId`: the rules decide its category (and may add a provider,
/// tags and a note); `payee` is the name of the provider the request names. Without a
/// matching rule the draft stays without category.
pub fn categorize(ruleset: &Ruleset, payee: Option<&str>, draft: &mut TransactionDraft) {
    if ruleset.is_empty() {
        return;
    }
    let subject = Subject {
        payee,
        note: draft.note.as_deref(),
        amount: Some(draft.amount),
        kind: None,
    };
    let o = ruleset.evaluate(&subject);
    if let Some(c) = o.actions.category_id {
        draft.category_id = Some(c);
        draft.category_source = CategorySource::Rule;
    }
    if draft.provider_id.is_none() {
        draft.provider_id = o.actions.provider_id;
    }
    draft.tag_ids.sort_unstable();
    draft.tag_ids.dedup();
    add_tags(&mut draft.tag_ids, &o.actions.tag_ids);
    if draft.note.is_none() {
        draft.note = o.actions.note;
    }
}
