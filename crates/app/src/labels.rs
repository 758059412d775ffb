//! Labels (tags and providers): names a user owns, unique by name ignoring case, bounded in
//! number, and undeletable while a transaction uses them. One implementation serves both
//! kinds; each function takes the [`LabelKind`] it acts on.

use super::named::Named;
use super::{AppError, AppResult, IfMatch};
use pf_domain::text::{parse_name, NAME_MAX_LEN};
use pf_domain::time::Timestamp;
use pf_domain::{Label, LabelKind};
use pf_store::labels::LabelKindKeys;
use pf_store::{with_fresh_id, ConflictKind, Store, StoreError};

fn checked_name(kind: LabelKind, raw: &str) -> AppResult<String> {
    parse_name(raw, NAME_MAX_LEN).map_err(|e| AppError::invalid(kind.field(), e))
}

fn not_found(kind: LabelKind) -> AppError {
    AppError::not_found(kind.noun())
}

/// The refusal of `kind` over its cap, under `limits`.
pub(crate) fn limit_reached(kind: LabelKind, limits: pf_config::Limits) -> String {
    let (max, noun) = (kind.max_per_user(limits), kind.noun());
    format!("you have reached the limit of {max} {noun}s")
}

fn error(kind: LabelKind, limits: pf_config::Limits, e: StoreError) -> AppError {
    let noun = kind.noun();
    match e {
        StoreError::Conflict(ConflictKind::NameTaken) => {
            AppError::Conflict(format!("you already have a {noun} with this name"))
        }
        StoreError::Conflict(ConflictKind::LimitReached) => {
            AppError::Conflict(limit_reached(kind, limits))
        }
        StoreError::NotFound => not_found(kind),
        StoreError::Conflict(ConflictKind::Changed) => super::stale(),
        StoreError::Conflict(ConflictKind::InUse) => AppError::Conflict(format!(
            "the {noun} is used by transactions; change them first"
        )),
        e => AppError::Store(e),
    }
}

/// Every one of `kind` the user owns, by id.
pub async fn list_all(store: &Store, user_id: u64, kind: LabelKind) -> AppResult<Vec<Label>> {
    Ok(store.list_labels(user_id, kind).await?)
}

/// One page of the user's, by id (one `Query`), after the position `after`.
pub async fn list_page(
    store: &Store,
    user_id: u64,
    kind: LabelKind,
    limit: i32,
    after: Option<&str>,
) -> AppResult<(Vec<Label>, Option<String>)> {
    let page = store.list_labels_page(user_id, kind, limit, after).await;
    page.map_err(super::page_error)
}

/// A default category must be one the user sees (global or own), else 404.
async fn check_category(store: &Store, user_id: u64, id: Option<u64>) -> AppResult<()> {
    match id {
        Some(id) if store.get_category(user_id, id).await?.is_none() => {
            Err(AppError::not_found("category"))
        }
        _ => Ok(()),
    }
}

/// Creates one (a provider may name its default category).
pub async fn create(
    store: &Store,
    user_id: u64,
    kind: LabelKind,
    raw_name: &str,
    default_category: Option<u64>,
) -> AppResult<Label> {
    let name = checked_name(kind, raw_name)?;
    check_category(store, user_id, default_category).await?;
    let now = Timestamp::now();
    let create = |id| store.create_label(user_id, kind, id, &name, default_category, now);
    with_fresh_id(create).await.map_err(|e| match e {
        StoreError::NotFound => super::users::account_gone(),
        e => error(kind, store.limits(), e),
    })
}

pub async fn get(store: &Store, user_id: u64, kind: LabelKind, id: u64) -> AppResult<Label> {
    store
        .get_label(user_id, kind, id)
        .await?
        .ok_or_else(|| not_found(kind))
}

/// Renames one; `default_category` `None` keeps its default category, `Some(None)` clears
/// it, `Some(Some(id))` sets it.
pub async fn rename(
    store: &Store,
    user_id: u64,
    kind: LabelKind,
    id: u64,
    raw_name: &str,
    default_category: Option<Option<u64>>,
    expected: Option<IfMatch>,
) -> AppResult<Label> {
    let name = checked_name(kind, raw_name)?;
    let current = get(store, user_id, kind, id).await?;
    let default_category = default_category.unwrap_or(current.default_category_id);
    if default_category != current.default_category_id {
        check_category(store, user_id, default_category).await?;
    }
    // At the version read: it releases the name it read (two renames at once would
    // otherwise both succeed and leave one name reserved by nothing).
    let keep = super::at_read_version(expected, current.version)?;
    let now = Timestamp::now();
    store
        .rename_label(user_id, kind, &current, &name, default_category, now, keep)
        .await
        .map_err(|e| super::moved_on(kind.noun(), expected, error(kind, store.limits(), e)))
}

pub async fn delete(
    store: &Store,
    user_id: u64,
    kind: LabelKind,
    id: u64,
    expected: Option<IfMatch>,
) -> AppResult<()> {
    let current = get(store, user_id, kind, id).await?;
    // At the version read: it releases the name it read (two renames at once would
    // otherwise both succeed and leave one name reserved by nothing).
    let keep = super::at_read_version(expected, current.version)?;
    super::named::refuse_if_named(store, user_id, Named::Label(kind, id)).await?;
    store
        .delete_label(user_id, kind, &current, keep)
        .await
        .map_err(|e| super::moved_on(kind.noun(), expected, error(kind, store.limits(), e)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked_and_refusals_speak_of_the_kind() {
        let tag = LabelKind::Tag;
        assert!(
            matches!(checked_name(tag, "  "), Err(AppError::Invalid(v)) if v[0].field == "tagName")
        );
        assert_eq!(checked_name(tag, " weekly ").unwrap(), "weekly");
        let taken = StoreError::Conflict(ConflictKind::NameTaken);
        let AppError::Conflict(m) = error(tag, Default::default(), taken) else {
            panic!()
        };
        assert_eq!(m, "you already have a tag with this name");
        assert!(
            matches!(error(tag, Default::default(), StoreError::NotFound), AppError::NotFound(m) if m == "tag not found")
        );
    }
}
