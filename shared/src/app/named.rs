//! Tags and providers: named things a user owns, unique by name ignoring case, bounded in
//! number, and undeletable while a transaction uses them. One implementation serves both.

use super::{AppError, AppResult, IfMatch};
use crate::domain::text::{parse_name, NAME_MAX_LEN};
use crate::domain::time::Timestamp;
use crate::store::named::{Kind, NamedRecord};
use crate::store::{with_fresh_id, ConflictKind, Store, StoreError};

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

    fn error(&self, e: StoreError) -> AppError {
        match e {
            StoreError::Conflict(ConflictKind::NameTaken) => {
                AppError::Conflict(format!("you already have a {} with this name", self.noun))
            }
            StoreError::Conflict(ConflictKind::LimitReached) => AppError::Conflict(format!(
                "you have reached the limit of {} {}s",
                self.kind.max_per_user(),
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

    /// All of the user's, by name.
    pub async fn list(&self, store: &Store, user_id: u64) -> AppResult<Vec<NamedRecord>> {
        Ok(store.list_named(user_id, self.kind).await?)
    }

    pub async fn create(
        &self,
        store: &Store,
        user_id: u64,
        raw_name: &str,
    ) -> AppResult<NamedRecord> {
        let name = self.parse_name(raw_name)?;
        let now = Timestamp::now();
        with_fresh_id(|id| store.create_named(user_id, self.kind, id, &name, now))
            .await
            .map_err(|e| match e {
                StoreError::NotFound => AppError::Forbidden("this account no longer exists".into()),
                e => self.error(e),
            })
    }

    pub async fn get(&self, store: &Store, user_id: u64, id: u64) -> AppResult<NamedRecord> {
        store
            .get_named(user_id, self.kind, id)
            .await?
            .ok_or_else(|| self.not_found())
    }

    pub async fn rename(
        &self,
        store: &Store,
        user_id: u64,
        id: u64,
        raw_name: &str,
        expected: Option<IfMatch>,
    ) -> AppResult<NamedRecord> {
        let name = self.parse_name(raw_name)?;
        let current = self.get(store, user_id, id).await?;
        let keep = super::version_to_keep(expected, current.version)?;
        store
            .rename_named(user_id, self.kind, &current, &name, Timestamp::now(), keep)
            .await
            .map_err(|e| self.error(e))
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
            .map_err(|e| self.error(e))
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
        let AppError::Conflict(m) = TAGS.error(StoreError::Conflict(ConflictKind::NameTaken))
        else {
            panic!()
        };
        assert_eq!(m, "you already have a tag with this name");
        assert!(
            matches!(TAGS.error(StoreError::NotFound), AppError::NotFound(m) if m == "tag not found")
        );
    }
}
