//! What names a category, provider or tag besides transactions: rules' actions,
//! recurring schedules' transactions and (a category) providers' default categories.
//! None may be left naming one that is gone, nor a rule or schedule a category whose
//! type changed under it.

use super::{AppError, AppResult};
use pf_domain::LabelKind;
use pf_store::Store;

/// What a rule's actions (or a schedule's transaction) may name.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Named {
    Category(u64),
    Label(LabelKind, u64),
}

impl Named {
    /// Its noun when these fields name it (`None` when they do not).
    pub(crate) fn among(
        self,
        category: Option<u64>,
        provider: Option<u64>,
        tags: &[u64],
    ) -> Option<&'static str> {
        let (named, noun) = match self {
            Named::Category(id) => (category == Some(id), "category"),
            Named::Label(LabelKind::Provider, id) => (provider == Some(id), "provider"),
            Named::Label(LabelKind::Tag, id) => (tags.contains(&id), "tag"),
        };
        named.then_some(noun)
    }
}

/// `409` when one of the caller's rules or recurring schedules names `target`: neither
/// may set a category, provider or tag that is gone, nor a category of another type than
/// when it was saved (a schedule keeps its category's type: its forecast and its
/// transactions would disagree in sign). Called before deleting them or changing a
/// category's type (a Query of the schedules, one of the rules; a category's delete also
/// refuses while a provider has it as its default, [`refuse_if_a_default`]).
pub(crate) async fn refuse_if_named(store: &Store, user_id: u64, target: Named) -> AppResult<()> {
    for r in store.all_recurring(user_id).await? {
        let d = &r.details;
        if let Some(noun) = target.among(Some(d.category_id), d.provider_id, &d.tag_ids) {
            return Err(AppError::Conflict(format!(
                "recurring schedule {} ({:?}) names this {noun}: change or delete the \
                 schedule first",
                r.id,
                d.note.as_deref().unwrap_or(&r.rrule)
            )));
        }
    }
    for stored in crate::ruleset::ordered(store, user_id).await? {
        let body = crate::ruleset::view(&stored)?.body;
        let a = &body.actions;
        if let Some(noun) = target.among(a.category_id, a.provider_id, &a.tag_ids) {
            return Err(AppError::Conflict(format!(
                "rule {} ({:?}) names this {noun}: change or delete the rule first",
                stored.id, body.name
            )));
        }
    }
    Ok(())
}

/// `409` when one of the caller's providers has `category` as its default category (the
/// category of a create that names none): before deleting it (reads the providers).
pub(crate) async fn refuse_if_a_default(
    store: &Store,
    user_id: u64,
    category: u64,
) -> AppResult<()> {
    let providers = store.list_labels(user_id, LabelKind::Provider).await?;
    match providers
        .iter()
        .find(|p| p.default_category_id == Some(category))
    {
        Some(p) => Err(AppError::Conflict(format!(
            "provider {} ({:?}) has this category as its default: change the provider first",
            p.id, p.name
        ))),
        None => Ok(()),
    }
}
