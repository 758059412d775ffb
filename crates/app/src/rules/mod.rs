//! Categorisation rules: the caller's ordered rules (`rules` crate: conditions, folding,
//! linear-time regexes, evaluation), stored in the user's partition, loaded with one Query
//! and compiled once per request that needs them. They run on creates without a
//! `categoryId` ([`categorize`]) and over existing transactions on request ([`apply`]),
//! and never change a category the user chose (`categorySource: user`).

use rules::RuleBody;

use super::{kept, version_to_keep, AppError, AppResult, IfMatch};
use pf_domain::time::Timestamp;
use pf_domain::{CategoryType, Violation};
use pf_store::rules::StoredRule;
use pf_store::transactions::RefKeys;
use pf_store::{ConflictKind, Ref, Store, StoreError};

mod apply;

use crate::ruleset::{ordered, view};
pub use crate::ruleset::{RuleView, Ruleset};
pub use apply::{apply, changes, ApplyReport, Change};
pub use rules::MAX_RULES;

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
