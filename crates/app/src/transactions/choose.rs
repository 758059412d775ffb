//! The category of a create that names none: the user's rules choose one (one `Query` for
//! the rules, once per request), else the provider's default category, else it stays
//! without one and `build_record` refuses it (400 naming `categoryId`). The provider the
//! request names is read once, for the rules' `payee` and its default, beside the rules;
//! one a rule set is read for its default. Whichever chooses, the category sets the
//! transaction's type.

use super::TransactionDraft;
use crate::rules::{categorize, RulesOnce};
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
