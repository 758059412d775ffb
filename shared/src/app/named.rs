//! Tags and providers: named things a user owns, unique by name ignoring case, bounded in
//! number, and undeletable while a transaction uses them. One implementation serves both.

use super::{AppError, AppResult, IfMatch};
use crate::domain::text::{parse_name, NAME_MAX_LEN};
use crate::domain::time::Timestamp;
use crate::store::named::{Kind, NamedRecord};
use crate::store::{with_fresh_id, ConflictKind, Store, StoreError};

/// Every one of `kind` the user owns, by id.
pub async fn list_all(store: &Store, user_id: u64, kind: Kind) -> AppResult<Vec<NamedRecord>> {
    Ok(store.list_named(user_id, kind).await?)
}

/// One kind, with the names the API gives it (for messages and fields at fault).
#[derive(Debug, Clone, Copy)]
pub struct Named {
    pub kind: Kind,
    /// The field that carries the name, e.g. `tagName`.
    pub field: &'static str,
    /// Singular noun, e.g. `tag`.
    pub noun: &'static str,
}

impl Named {
    fn parse_name(&self, raw: &str) -> AppResult<String> {
        parse_name(raw, NAME_MAX_LEN).map_err(|e| AppError::invalid(self.field, e))
    }

    fn not_found(&self) -> AppError {
        AppError::not_found(self.noun)
    }

    fn error(&self, limits: crate::config::Limits, e: StoreError) -> AppError {
        match e {
            StoreError::Conflict(ConflictKind::NameTaken) => {
                AppError::Conflict(format!("you already have a {} with this name", self.noun))
            }
            StoreError::Conflict(ConflictKind::LimitReached) => AppError::Conflict(format!(
                "you have reached the limit of {} {}s",
                self.kind.max_per_user(limits),
                self.noun
            )),
            StoreError::NotFound => self.not_found(),
            StoreError::Conflict(ConflictKind::Changed) => super::stale(),
            StoreError::Conflict(ConflictKind::InUse) => AppError::Conflict(format!(
                "the {} is used by transactions; change them first",
                self.noun
            )),
            e => AppError::Store(e),
        }
    }

    /// One page of the user's, by id (one `Query`), after the position `after`.
    pub async fn list_page(
        &self,
        store: &Store,
        user_id: u64,
        limit: i32,
        after: Option<&str>,
    ) -> AppResult<(Vec<NamedRecord>, Option<String>)> {
        store
            .list_named_page(user_id, self.kind, limit, after)
            .await
            .map_err(super::page_error)
    }

    /// A default category must be one the user sees (global or own), else 404.
    async fn check_category(&self, store: &Store, user_id: u64, id: Option<u64>) -> AppResult<()> {
        match id {
            Some(id) if store.get_category(user_id, id).await?.is_none() => {
                Err(AppError::not_found("category"))
            }
            _ => Ok(()),
        }
    }

    /// Creates one (a provider may name its default category).
    pub async fn create(
        &self,
        store: &Store,
        user_id: u64,
        raw_name: &str,
        default_category: Option<u64>,
    ) -> AppResult<NamedRecord> {
        let name = self.parse_name(raw_name)?;
        self.check_category(store, user_id, default_category)
            .await?;
        let now = Timestamp::now();
        let create = |id| store.create_named(user_id, self.kind, id, &name, default_category, now);
        with_fresh_id(create).await.map_err(|e| match e {
            StoreError::NotFound => super::users::account_gone(),
            e => self.error(store.limits(), e),
        })
    }

    pub async fn get(&self, store: &Store, user_id: u64, id: u64) -> AppResult<NamedRecord> {
        store
            .get_named(user_id, self.kind, id)
            .await?
            .ok_or_else(|| self.not_found())
    }

    /// Renames one; `default_category` `None` keeps its default category, `Some(None)`
    /// clears it, `Some(Some(id))` sets it.
    pub async fn rename(
        &self,
        store: &Store,
        user_id: u64,
        id: u64,
        raw_name: &str,
        default_category: Option<Option<u64>>,
        expected: Option<IfMatch>,
    ) -> AppResult<NamedRecord> {
        let name = self.parse_name(raw_name)?;
        let current = self.get(store, user_id, id).await?;
        let default_category = default_category.unwrap_or(current.default_category_id);
        if default_category != current.default_category_id {
            self.check_category(store, user_id, default_category)
                .await?;
        }
        let keep = super::version_to_keep(expected, current.version)?;
        let now = Timestamp::now();
        store
            .rename_named(
                user_id,
                self.kind,
                &current,
                &name,
                default_category,
                now,
                keep,
            )
            .await
            .map_err(|e| self.error(store.limits(), e))
    }

    pub async fn delete(
        &self,
        store: &Store,
        user_id: u64,
        id: u64,
        expected: Option<IfMatch>,
    ) -> AppResult<()> {
        let current = self.get(store, user_id, id).await?;
        let keep = super::version_to_keep(expected, current.version)?;
        store
            .delete_named(user_id, self.kind, &current, keep)
            .await
            .map_err(|e| self.error(store.limits(), e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TAGS: Named = Named {
        kind: Kind::Tag,
        field: "tagName",
        noun: "tag",
    };

    #[test]
    fn names_are_checked_and_refusals_speak_of_the_kind() {
        assert!(
            matches!(TAGS.parse_name("  "), Err(AppError::Invalid(v)) if v[0].field == "tagName")
        );
        assert_eq!(TAGS.parse_name(" weekly ").unwrap(), "weekly");
        let AppError::Conflict(m) = TAGS.error(
            Default::default(),
            StoreError::Conflict(ConflictKind::NameTaken),
        ) else {
            panic!()
        };
        assert_eq!(m, "you already have a tag with this name");
        assert!(
            matches!(TAGS.error(Default::default(), StoreError::NotFound), AppError::NotFound(m) if m == "tag not found")
        );
    }
}
