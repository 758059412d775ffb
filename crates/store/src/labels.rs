//! Labels (tags and providers): names a user owns, unique by name (case-insensitively) per
//! user, counted on the profile (bounded), and undeletable while a transaction uses them.

use super::attr::{get_opt_u64, get_s, get_timestamp, get_u64, n, s, Item};
use super::feed::Entity;
use super::keys::user_pk;
use super::transact::TxItems;
use super::{ConflictKind, Store, StoreError, StoreResult};
use crate::FromItem;
use pf_domain::time::Timestamp;
use pf_domain::{Label, LabelKind};

/// Where each kind of label is kept (a trait: `LabelKind` is the domain's).
pub trait LabelKindKeys: Copy {
    fn entity(self) -> Entity;
    fn prefix(self) -> &'static str;
    fn name_prefix(self) -> &'static str;
    fn count_attribute(self) -> &'static str;
    fn max_per_user(self, limits: pf_config::Limits) -> u64;
    fn sk(self, id: u64) -> String;
    fn name_sk(self, name: &str) -> String;
}

impl LabelKindKeys for LabelKind {
    /// What the change feed calls it.
    fn entity(self) -> Entity {
        match self {
            LabelKind::Tag => Entity::Tag,
            LabelKind::Provider => Entity::Provider,
        }
    }
    fn prefix(self) -> &'static str {
        match self {
            LabelKind::Tag => "TAG#",
            LabelKind::Provider => "PROV#",
        }
    }

    fn name_prefix(self) -> &'static str {
        match self {
            LabelKind::Tag => "TAGNAME#",
            LabelKind::Provider => "PROVNAME#",
        }
    }

    fn count_attribute(self) -> &'static str {
        match self {
            LabelKind::Tag => super::caps::TAG_COUNT,
            LabelKind::Provider => super::caps::PROVIDER_COUNT,
        }
    }

    /// Most of this kind one user may own, under `limits`.
    fn max_per_user(self, limits: pf_config::Limits) -> u64 {
        match self {
            LabelKind::Tag => limits.tags,
            LabelKind::Provider => limits.providers,
        }
    }

    fn sk(self, id: u64) -> String {
        format!("{}{id}", self.prefix())
    }

    fn name_sk(self, name: &str) -> String {
        format!("{}{}", self.name_prefix(), name.to_lowercase())
    }
}

impl FromItem for Label {
    fn from_item(item: &Item) -> anyhow::Result<Self> {
        Ok(Self {
            id: get_u64(item, "id")?,
            name: get_s(item, "name")?.to_owned(),
            use_count: get_opt_u64(item, "useCount").unwrap_or(0),
            default_category_id: get_opt_u64(item, "defaultCategoryId"),
            version: get_opt_u64(item, "version").unwrap_or(1),
            created_at: get_timestamp(item, "createdAt")?,
            updated_at: get_timestamp(item, "updatedAt")?,
        })
    }
}

fn reservation(user_id: u64, kind: LabelKind, name: &str, id: u64) -> Item {
    Item::from([
        ("PK".into(), s(user_pk(user_id))),
        ("SK".into(), s(kind.name_sk(name))),
        ("ownerId".into(), n(id)),
    ])
}

impl Store {
    /// Creates it, reserving the name and counting it on the profile (which must exist):
    /// `Conflict(NameTaken)`, `Conflict(LimitReached)`, `Conflict(IdTaken)` or `NotFound`.
    pub async fn create_label(
        &self,
        user_id: u64,
        kind: LabelKind,
        id: u64,
        name: &str,
        default_category: Option<u64>,
        now: Timestamp,
    ) -> StoreResult<Label> {
        let record = Label {
            id,
            name: name.to_owned(),
            use_count: 0,
            default_category_id: default_category,
            version: 1,
            created_at: now,
            updated_at: now,
        };
        let mut item = Item::from([
            ("PK".into(), s(user_pk(user_id))),
            ("SK".into(), s(kind.sk(id))),
            ("id".into(), n(id)),
            ("name".into(), s(name)),
            ("useCount".into(), n(0)),
            ("version".into(), n(1)),
            ("createdAt".into(), s(now.to_string())),
            ("updatedAt".into(), s(now.to_string())),
        ]);
        if let Some(c) = default_category {
            item.insert("defaultCategoryId".into(), n(c));
        }
        let mut tx = TxItems::new(self);
        tx.put(item, Some("attribute_not_exists(PK)"), None)?;
        tx.on_conflict(ConflictKind::IdTaken);
        tx.upserted(user_id, kind.entity(), id, 1);
        tx.put(
            reservation(user_id, kind, name, id),
            Some("attribute_not_exists(PK)"),
            None,
        )?;
        tx.on_conflict(ConflictKind::NameTaken);
        self.count_on_profile(
            &mut tx,
            user_id,
            kind.count_attribute(),
            1,
            kind.max_per_user(self.limits()),
        )?;
        // One attempt: the caller's fresh-id retry builds it again after a conflict.
        match self.transact_once(tx).await {
            Ok(()) => Ok(record),
            Err(e) if e.is_conflict(ConflictKind::LimitReached) => {
                Err(self.profile_failure(user_id).await)
            }
            Err(e) => Err(e),
        }
    }

    pub async fn get_label(
        &self,
        user_id: u64,
        kind: LabelKind,
        id: u64,
    ) -> StoreResult<Option<Label>> {
        let out = self.get(&user_pk(user_id), &kind.sk(id)).await?;
        Ok(match out {
            Some(item) => Some(Label::from_item(&item)?),
            None => None,
        })
    }

    /// One page of the user's items of this kind in key order (by id), after the position
    /// `after`: one `Query`.
    pub async fn list_labels_page(
        &self,
        user_id: u64,
        kind: LabelKind,
        limit: i32,
        after: Option<&str>,
    ) -> StoreResult<(Vec<Label>, Option<String>)> {
        let page = self
            .query_key_page(&user_pk(user_id), kind.prefix(), None, limit, after)
            .await?;
        let items = page
            .items
            .iter()
            .map(Label::from_item)
            .collect::<anyhow::Result<Vec<_>>>()?;
        Ok((items, page.last))
    }

    /// All of the user's items of this kind (bounded by `max_per_user`), by name.
    pub async fn list_labels(&self, user_id: u64, kind: LabelKind) -> StoreResult<Vec<Label>> {
        let mut out = self
            .query_prefix(&user_pk(user_id), kind.prefix())
            .await?
            .iter()
            .map(Label::from_item)
            .collect::<anyhow::Result<Vec<_>>>()?;
        out.sort_by(|a, b| {
            a.name
                .to_lowercase()
                .cmp(&b.name.to_lowercase())
                .then(a.id.cmp(&b.id))
        });
        Ok(out)
    }

    /// Renames it and sets (or removes) its default category, moving the name reservation
    /// when the name changes beyond case: `Conflict(NameTaken)`, or `NotFound` when it
    /// vanished.
    #[allow(clippy::too_many_arguments)]
    pub async fn rename_label(
        &self,
        user_id: u64,
        kind: LabelKind,
        current: &Label,
        name: &str,
        default_category: Option<u64>,
        now: Timestamp,
        expected: Option<u64>,
    ) -> StoreResult<Label> {
        let mut tx = TxItems::new(self);
        let mut values = Item::from([
            (":name".into(), s(name)),
            (":now".into(), s(now.to_string())),
            (":one".into(), n(1)),
        ]);
        let default_clause = match default_category {
            Some(c) => {
                values.insert(":cat".into(), n(c));
                ", defaultCategoryId = :cat"
            }
            None => " REMOVE defaultCategoryId",
        };
        let condition = super::at_version("attribute_exists(PK)", expected, &mut values);
        tx.update(
            &user_pk(user_id),
            &kind.sk(current.id),
            &format!(
                "SET #name = :name, updatedAt = :now, {}{default_clause}",
                super::NEXT_VERSION
            ),
            Some(&condition),
            values,
            Some(std::collections::HashMap::from([(
                "#name".to_owned(),
                "name".to_owned(),
            )])),
        )?;
        if current.name.to_lowercase() != name.to_lowercase() {
            tx.delete(&user_pk(user_id), &kind.name_sk(&current.name), None, None)?;
            tx.put(
                reservation(user_id, kind, name, current.id),
                Some("attribute_not_exists(PK)"),
                None,
            )?;
            tx.on_conflict(ConflictKind::NameTaken);
        }
        let version = current.version + 1;
        tx.upserted(user_id, kind.entity(), current.id, version);
        match self.transact(tx).await {
            Ok(()) => Ok(Label {
                name: name.to_owned(),
                default_category_id: default_category,
                updated_at: now,
                version,
                ..current.clone()
            }),
            Err(e) if e.is_conflict(ConflictKind::Changed) => {
                match (expected, self.get_label(user_id, kind, current.id).await?) {
                    (Some(_), Some(_)) => Err(e),
                    _ => Err(StoreError::NotFound),
                }
            }
            Err(e) => Err(e),
        }
    }

    /// Deletes it unless a transaction uses it (checked in the same transaction, so a
    /// concurrent create that references it either lands first and blocks this, or fails):
    /// `Conflict(InUse)`, or `NotFound`.
    pub async fn delete_label(
        &self,
        user_id: u64,
        kind: LabelKind,
        current: &Label,
        expected: Option<u64>,
    ) -> StoreResult<()> {
        let mut tx = TxItems::new(self);
        let mut values = Item::from([(":zero".into(), n(0))]);
        let condition = super::at_version(
            "attribute_exists(PK) AND (attribute_not_exists(useCount) OR useCount = :zero)",
            expected,
            &mut values,
        );
        tx.delete(
            &user_pk(user_id),
            &kind.sk(current.id),
            Some(&condition),
            Some(values),
        )?;
        tx.on_conflict(ConflictKind::InUse);
        tx.deleted(user_id, kind.entity(), current.id, current.version);
        tx.delete(&user_pk(user_id), &kind.name_sk(&current.name), None, None)?;
        self.count_on_profile(
            &mut tx,
            user_id,
            kind.count_attribute(),
            -1,
            kind.max_per_user(self.limits()),
        )?;
        match self.transact(tx).await {
            Ok(()) => Ok(()),
            // The item's own condition: in use, or already gone.
            Err(e) if e.is_conflict(ConflictKind::InUse) => {
                match self.get_label(user_id, kind, current.id).await? {
                    Some(found) if expected.is_some_and(|v| v != found.version) => {
                        Err(StoreError::Conflict(ConflictKind::Changed))
                    }
                    Some(_) => Err(e),
                    None => Err(StoreError::NotFound),
                }
            }
            Err(StoreError::Conflict(_)) => Err(StoreError::NotFound),
            Err(e) => Err(e),
        }
    }
}
