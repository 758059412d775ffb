//! Categories: global ones (seeded, see `seed`; a copy per shard so that no partition is
//! read by every user, all copies written together) and each user's own (their names
//! reserved per type, see `names`).

mod names;
pub(crate) mod refs;

use super::attr::s;
use super::feed::{Change, Entity, Feed};
use super::items::category::{category_pk, partitions, to_item};
use super::keys::{cat_sk, user_pk, CAT_PREFIX, SHARDS};
use super::transact::TxItems;
use super::{ConflictKind, Store, StoreError, StoreResult, NEXT_VERSION};
use crate::FromItem;
use pf_domain::{Category, CategoryType};

/// Global categories every user starts with: (id, name, icon, color, type).
/// Their ids are small and fixed so seeding is idempotent; generated ids are far larger.
pub const GLOBAL_CATEGORIES: &[(u64, &str, &str, &str, CategoryType)] = &[
    (1, "Salary", "briefcase", "#2E7D32", CategoryType::Credit),
    (
        2,
        "Other income",
        "plus-circle",
        "#66BB6A",
        CategoryType::Credit,
    ),
    (3, "Refunds", "rotate-ccw", "#26A69A", CategoryType::Credit),
    (
        4,
        "Groceries",
        "shopping-cart",
        "#EF6C00",
        CategoryType::Debit,
    ),
    (5, "Rent", "home", "#6D4C41", CategoryType::Debit),
    (6, "Utilities", "zap", "#FBC02D", CategoryType::Debit),
    (7, "Transport", "bus", "#1E88E5", CategoryType::Debit),
    (8, "Restaurants", "coffee", "#D81B60", CategoryType::Debit),
    (9, "Health", "heart", "#E53935", CategoryType::Debit),
    (10, "Leisure", "film", "#8E24AA", CategoryType::Debit),
    (
        11,
        "Shopping",
        "shopping-bag",
        "#5E35B1",
        CategoryType::Debit,
    ),
    (
        12,
        "Other expenses",
        "more-horizontal",
        "#757575",
        CategoryType::Debit,
    ),
    // Added after the first twelve (ids never move): where imported rows without a
    // category go, one per type.
    (
        UNCATEGORIZED_DEBIT,
        "Uncategorized",
        "help-circle",
        "#9E9E9E",
        CategoryType::Debit,
    ),
    (
        UNCATEGORIZED_CREDIT,
        "Uncategorized",
        "help-circle",
        "#9E9E9E",
        CategoryType::Credit,
    ),
];

/// The seeded global category of imported money out that names no category.
pub const UNCATEGORIZED_DEBIT: u64 = 13;
/// The seeded global category of imported money in that names no category.
pub const UNCATEGORIZED_CREDIT: u64 = 14;

impl Store {
    /// The global categories (`global`, from the user's shard) or the user's own, by id.
    pub async fn list_categories(&self, user_id: u64, global: bool) -> StoreResult<Vec<Category>> {
        self.list_categories_in(&category_pk(user_id, global)).await
    }

    /// The categories in one partition (`GLOBAL`, `GLOBAL#<shard>` or `USER#<id>`), by id.
    pub async fn list_categories_in(&self, pk: &str) -> StoreResult<Vec<Category>> {
        let mut out = self
            .query_prefix(pk, CAT_PREFIX)
            .await?
            .iter()
            .map(Category::from_item)
            .collect::<anyhow::Result<Vec<_>>>()?;
        out.sort_by_key(|c: &Category| c.id);
        Ok(out)
    }

    /// One page of the categories the user sees: the global ones of the user's shard, then
    /// the user's own, each in key order, optionally of one type. The position says which
    /// part the page ended in (`G|<sort key>` or `O|<sort key>`), so a page is one `Query`,
    /// or two when the global part ends within it and the own part fills the rest.
    pub async fn list_categories_page(
        &self,
        user_id: u64,
        wanted: Option<CategoryType>,
        limit: i32,
        position: Option<&str>,
    ) -> StoreResult<(Vec<Category>, Option<String>)> {
        let filter = || {
            wanted.map(|t| {
                let values = super::attr::Item::from([(":type".into(), s(t.as_str()))]);
                ("categoryType = :type", values)
            })
        };
        let (mut global, after) = match position.map(|p| p.split_once('|')) {
            None => (true, None),
            Some(Some(("G", sk))) => (true, Some(sk)),
            Some(Some(("O", sk))) => (false, Some(sk)),
            Some(_) => return Err(StoreError::NotFound),
        };
        let (mut items, mut after) = (Vec::new(), after);
        loop {
            let pk = category_pk(user_id, global);
            let want = limit - items.len() as i32;
            let page = self
                .query_key_page(&pk, CAT_PREFIX, filter(), want, after)
                .await?;
            for item in &page.items {
                items.push(Category::from_item(item)?);
            }
            let part = if global { "G" } else { "O" };
            match page.last {
                Some(last) => return Ok((items, Some(format!("{part}|{last}")))),
                None if global && (items.len() as i32) < limit => {
                    (global, after) = (false, None);
                }
                // The global part ended exactly with a full page: the own part is next.
                None if global => return Ok((items, Some(format!("O|{CAT_PREFIX}")))),
                None => return Ok((items, None)),
            }
        }
    }
}

/// The feeds a category's changes go to: its owner's, or every shard's global one.
fn feeds_of(c: &Category) -> Vec<Feed> {
    match c.owner {
        Some(owner) => vec![Feed::User(owner)],
        None => (0..SHARDS).map(Feed::Global).collect(),
    }
}

/// Records the change in every feed of the category; for a global one the feed heads are
/// read in one `BatchGetItem` rather than one `GetItem` per shard.
async fn record_change(
    store: &Store,
    tx: &mut TxItems<'_>,
    c: &Category,
    change: impl Fn(Feed) -> Change,
) -> StoreResult<()> {
    let feeds = feeds_of(c);
    if c.is_global() {
        let keys = feeds
            .iter()
            .map(|f| {
                let (pk, sk) = f.head_key();
                super::batch::key(&pk, sk)
            })
            .collect();
        let mut heads = std::collections::HashMap::new();
        for item in store.batch_get(keys).await? {
            let pk = super::attr::get_s(&item, "PK")?.to_owned();
            heads.insert(pk, super::feed::head_seq(&item));
        }
        for f in &feeds {
            tx.feed_head_is(*f, heads.get(&f.pk()).copied().unwrap_or(0));
        }
    }
    for feed in feeds {
        tx.record(change(feed));
    }
    Ok(())
}

impl Store {
    /// Stores a new category: a global one in the source and every shard, an own one in
    /// the user's partition (counted on the profile, which must exist, its name reserved):
    /// `Conflict(IdTaken)`, `Conflict(NameTaken)`, `Conflict(LimitReached)` or `NotFound`.
    pub async fn create_category(&self, user_id: u64, record: &Category) -> StoreResult<()> {
        let mut tx = TxItems::new(self);
        for pk in partitions(record) {
            tx.put(to_item(record, &pk), Some("attribute_not_exists(PK)"), None)?;
            tx.on_conflict(ConflictKind::IdTaken);
        }
        let change = |feed| Change::upsert(feed, Entity::Category, record.id, 1);
        record_change(self, &mut tx, record, change).await?;
        if !record.is_global() {
            names::reserve(&mut tx, user_id, record)?;
            let max = self.limits().categories;
            self.count_on_profile(&mut tx, user_id, super::caps::CATEGORY_COUNT, 1, max)?;
        }
        // One attempt: the caller's fresh-id retry builds it again after a conflict.
        match self.transact_once(tx).await {
            Err(e) if e.is_conflict(ConflictKind::LimitReached) => {
                Err(self.profile_failure(user_id).await)
            }
            other => other,
        }
    }

    /// A category visible to the user: their own or a global one (one `BatchGetItem`).
    pub async fn get_category(&self, user_id: u64, id: u64) -> StoreResult<Option<Category>> {
        let keys = vec![
            super::batch::key(&category_pk(user_id, true), &cat_sk(id)),
            super::batch::key(&user_pk(user_id), &cat_sk(id)),
        ];
        Ok(pick_category(self.batch_get(keys).await?)?)
    }

    /// Updates name, icon, colour and type, keeping the use count, to `next.version`, in
    /// every copy. The type may change only while no transaction uses the category (it
    /// would flip their sign). An own category's name reservation moves with a new name or
    /// type: `Conflict(NameTaken)`. With `expected` (`If-Match`), only from that version:
    /// `Conflict(Changed)`. With `ref_mark` (a type change: the mark read before looking
    /// for budgets and rules, see [`refs`]), only while no budget or rule has named the
    /// category since: `Conflict(InUse)` otherwise.
    pub async fn update_category(
        &self,
        current: &Category,
        next: &Category,
        expected: Option<u64>,
        ref_mark: Option<u64>,
    ) -> StoreResult<()> {
        let sk = cat_sk(current.id);
        let mut tx = TxItems::new(self);
        let mut values = super::attr::Item::from([
            (":name".into(), s(&next.name)),
            (":icon".into(), s(&next.icon)),
            (":color".into(), s(&next.color)),
            (":type".into(), s(next.category_type.as_str())),
            (":now".into(), s(next.updated_at.to_string())),
            (":zero".into(), super::attr::n(0)),
            (":one".into(), super::attr::n(1)),
        ]);
        let mut condition = super::at_version(
            "attribute_exists(PK) AND (categoryType = :type OR attribute_not_exists(useCount) OR useCount = :zero)",
            expected,
            &mut values,
        );
        if let Some(read) = ref_mark {
            condition = format!("({condition}) AND {}", refs::unchanged(read, &mut values));
        }
        for pk in partitions(current) {
            tx.update(
                &pk,
                &sk,
                &format!("SET categoryName = :name, icon = :icon, color = :color, categoryType = :type, updatedAt = :now, {NEXT_VERSION}"),
                Some(&condition),
                values.clone(),
                None,
            )?;
        }
        if let Some(owner) = current.owner.filter(|_| !names::same_name(current, next)) {
            names::release(&mut tx, owner, current)?;
            names::reserve(&mut tx, owner, next)?;
        }
        let change = |feed| Change::upsert(feed, Entity::Category, next.id, next.version);
        record_change(self, &mut tx, next, change).await?;
        match self.transact(tx).await {
            Err(e) if e.is_conflict(ConflictKind::NameTaken) => Err(e),
            Err(StoreError::Conflict(_)) => Err(self.missing_or_in_use(current, expected).await),
            other => other,
        }
    }

    /// Deletes an own category unless a transaction uses it: `Conflict(InUse)` or
    /// `NotFound`.
    pub async fn delete_own_category(
        &self,
        user_id: u64,
        current: &Category,
        expected: Option<u64>,
    ) -> StoreResult<()> {
        let (pk, sk) = (user_pk(user_id), cat_sk(current.id));
        let mut tx = TxItems::new(self);
        let mut values = super::attr::Item::from([(":zero".into(), super::attr::n(0))]);
        let condition = super::at_version(
            "attribute_exists(PK) AND (attribute_not_exists(useCount) OR useCount = :zero)",
            expected,
            &mut values,
        );
        tx.delete(&pk, &sk, Some(&condition), Some(values))?;
        tx.deleted(user_id, Entity::Category, current.id, current.version);
        names::release(&mut tx, user_id, current)?;
        let max = self.limits().categories;
        self.count_on_profile(&mut tx, user_id, super::caps::CATEGORY_COUNT, -1, max)?;
        match self.transact(tx).await {
            Err(StoreError::Conflict(_)) => Err(self.missing_or_in_use(current, expected).await),
            other => other,
        }
    }

    /// After a failed condition: gone (`NotFound`), at another version than `expected`
    /// (`Changed`), or in use.
    async fn missing_or_in_use(&self, current: &Category, expected: Option<u64>) -> StoreError {
        match self
            .get_category(current.owner.unwrap_or(0), current.id)
            .await
        {
            Ok(Some(c)) if c.owner == current.owner && expected.is_some_and(|v| v != c.version) => {
                StoreError::Conflict(ConflictKind::Changed)
            }
            Ok(Some(c)) if c.owner == current.owner => StoreError::Conflict(ConflictKind::InUse),
            Ok(_) => StoreError::NotFound,
            Err(e) => e,
        }
    }
}

/// The category among the fetched copies of a user's own and a global one: the user's own
/// wins should a global one share its id.
pub(crate) fn pick_category(items: Vec<super::attr::Item>) -> anyhow::Result<Option<Category>> {
    let mut found: Option<Category> = None;
    for item in items {
        let is_category = item
            .get("SK")
            .and_then(|v| v.as_s().ok())
            .is_some_and(|sk| sk.starts_with(CAT_PREFIX));
        if !is_category {
            continue;
        }
        let category = Category::from_item(&item)?;
        if category.owner.is_some() || found.is_none() {
            found = Some(category);
        }
    }
    Ok(found)
}
