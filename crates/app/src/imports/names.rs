//! The caller's names, read once per import: the wallet, the categories the caller sees
//! (global and own, never another user's), providers and tags.

use std::collections::HashMap;

use super::{CategoryRef, NameRef};
use crate::{labels, AppError, AppResult};
use pf_domain::{Category, CategoryType, Label, LabelKind, Wallet};
use pf_store::categories::{UNCATEGORIZED_CREDIT, UNCATEGORIZED_DEBIT};
use pf_store::Store;

/// Case-insensitive lookup key of a name.
pub(super) fn fold(name: &str) -> String {
    name.trim().to_lowercase()
}

/// Ids by folded name.
type Index = HashMap<String, u64>;

/// The caller's names, resolved once per import.
pub(super) struct Names {
    pub(super) wallet: Wallet,
    /// By (folded name, type); an own category shadows a global one.
    pub(super) categories: HashMap<(String, CategoryType), Category>,
    pub(super) by_id: HashMap<u64, Category>,
    pub(super) providers: HashMap<String, u64>,
    pub(super) tags: HashMap<String, u64>,
}

impl Names {
    pub(super) async fn load(store: &Store, user_id: u64) -> AppResult<Self> {
        let (wallet, names) = tokio::try_join!(
            async { Ok::<_, AppError>(store.get_wallet(user_id).await?) },
            Self::lists(store, user_id),
        )?;
        let wallet = wallet.ok_or_else(crate::users::account_gone)?;
        let (categories, providers, tags) = names;
        Ok(Self::new(wallet, categories, providers, tags))
    }

    /// The names of the wallet's owner, the wallet already read (by the caller, who
    /// needed its currency to read the file).
    pub(super) async fn of_wallet(store: &Store, wallet: Wallet) -> AppResult<Self> {
        let (categories, providers, tags) = Self::lists(store, wallet.user_id).await?;
        Ok(Self::new(wallet, categories, providers, tags))
    }

    /// Categories, providers (by folded name) and tags (by folded name), read at once.
    async fn lists(store: &Store, user_id: u64) -> AppResult<(Vec<Category>, Index, Index)> {
        let (categories, providers, tags) = tokio::try_join!(
            crate::categories::list(store, user_id, None),
            labels::list_all(store, user_id, LabelKind::Provider),
            labels::list_all(store, user_id, LabelKind::Tag),
        )?;
        let index = |list: Vec<Label>| list.into_iter().map(|r| (fold(&r.name), r.id)).collect();
        Ok((categories, index(providers), index(tags)))
    }

    pub(super) fn new(
        wallet: Wallet,
        categories: Vec<Category>,
        providers: HashMap<String, u64>,
        tags: HashMap<String, u64>,
    ) -> Self {
        let mut by_name = HashMap::new();
        // Global first, then own: an own category of the same name and type wins.
        for c in categories.iter().filter(|c| c.is_global()) {
            by_name
                .entry((fold(&c.name), c.category_type))
                .or_insert_with(|| c.clone());
        }
        for c in categories.iter().filter(|c| !c.is_global()) {
            by_name.insert((fold(&c.name), c.category_type), c.clone());
        }
        Self {
            wallet,
            by_id: categories.into_iter().map(|c| (c.id, c)).collect(),
            categories: by_name,
            providers,
            tags,
        }
    }

    /// The category of that name and type, or one to create as the caller's own.
    pub(super) fn category_ref(&self, name: String, category_type: CategoryType) -> CategoryRef {
        match self.categories.get(&(fold(&name), category_type)) {
            Some(c) => CategoryRef::Known(c.clone()),
            None => CategoryRef::New {
                name,
                category_type,
            },
        }
    }

    /// The seeded global `Uncategorized` category of a type (absent on a table that was
    /// not seeded since it was added).
    pub(super) fn uncategorized(&self, category_type: CategoryType) -> Option<&Category> {
        let id = match category_type {
            CategoryType::Debit => UNCATEGORIZED_DEBIT,
            CategoryType::Credit => UNCATEGORIZED_CREDIT,
        };
        self.by_id.get(&id).filter(|c| c.is_global())
    }

    pub(super) fn name_ref(map: &HashMap<String, u64>, name: String) -> NameRef {
        match map.get(&fold(&name)) {
            Some(id) => NameRef::Known(*id),
            None => NameRef::New(name),
        }
    }
}
