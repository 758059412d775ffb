//! The category of a create that names none: the user's rules choose one (one `Query` for
//! the rules, once per request), else the provider's default category, else it stays
//! without one and `build_record` refuses it (400 naming `categoryId`). The provider the
//! request names is read once, for the rules' `payee` and its default, beside the rules;
//! one a rule set is read for its default. Whichever chooses, the category sets the
//! transaction's type.

use rules::Subject;

use super::{TransactionDraft, MAX_TAGS};
use crate::ruleset::{RulesOnce, Ruleset};
use crate::{AppError, AppResult};
use pf_domain::{CategorySource, LabelKind};
use pf_store::Store;

pub(super) async fn category(
    store: &Store,
    user_id: u64,
    input: &mut TransactionDraft,
    rules: &RulesOnce,
) -> AppResult<()> {
    let provider = |id: Option<u64>| async move {
        match id {
            Some(id) => Ok::<_, AppError>(store.get_label(user_id, LabelKind::Provider, id).await?),
            None => Ok(None),
        }
    };
    let (named, ruleset) =
        tokio::try_join!(provider(input.provider_id), rules.get(store, user_id))?;
    categorize(ruleset, named.as_ref().map(|p| p.name.as_str()), input);
    if input.category_id.is_some() {
        return Ok(());
    }
    // A rule never replaces the provider a request names: only one it set is unread.
    let provider = match named {
        Some(p) => Some(p),
        None => provider(input.provider_id).await?,
    };
    if let Some(default) = provider.and_then(|p| p.default_category_id) {
        input.category_id = Some(default);
        input.category_source = CategorySource::Provider;
    }
    Ok(())
}

/// A create without `categoryId`: the rules decide its category (and may add a provider,
/// tags and a note); `payee` is the name of the provider the request names. Without a
/// matching rule the draft stays without category.
fn categorize(ruleset: &Ruleset, payee: Option<&str>, draft: &mut TransactionDraft) {
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
