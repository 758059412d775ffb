//! Own categories' name reservations: one item per user, type and folded name
//! (`CATNAME#<type>#<lower name>`, holding the category's id), written in the same
//! `TransactWriteItems` as the category, so that two creates of one name at once (two
//! imports naming the same new category) make it once and the other is
//! `Conflict(NameTaken)`. Global categories have none. Categories stored before the
//! reservations existed have none either: they stay as they are (duplicates too), and
//! `app::categories` refuses a name that one of them already has by reading them.

use super::super::attr::{get_u64, n, s, Item};
use super::super::keys::{cat_name_sk, cat_sk, user_pk};
use super::super::transact::TxItems;
use super::super::{ConflictKind, Store, StoreResult};
use crate::FromItem;
use pf_domain::{Category, CategoryType};

/// The reservation's key of an own category of that type and name.
fn name_sk(category_type: CategoryType, name: &str) -> String {
    cat_name_sk(category_type.as_str(), name)
}

/// Whether two categories' names are the same reservation.
pub(super) fn same_name(a: &Category, b: &Category) -> bool {
    name_sk(a.category_type, &a.name) == name_sk(b.category_type, &b.name)
}

/// Puts the reservation of own category `c`'s name, conditional on it not existing:
/// `Conflict(NameTaken)` otherwise.
pub(super) fn reserve(tx: &mut TxItems<'_>, user_id: u64, c: &Category) -> anyhow::Result<()> {
    let item = Item::from([
        ("PK".into(), s(user_pk(user_id))),
        ("SK".into(), s(name_sk(c.category_type, &c.name))),
        ("categoryId".into(), n(c.id)),
    ]);
    tx.put(item, Some("attribute_not_exists(PK)"), None)?;
    tx.on_conflict(ConflictKind::NameTaken);
    Ok(())
}

/// Deletes the reservation of own category `c`'s name (none for a category stored before
/// reservations: nothing to delete).
pub(super) fn release(tx: &mut TxItems<'_>, user_id: u64, c: &Category) -> anyhow::Result<()> {
    let sk = name_sk(c.category_type, &c.name);
    tx.delete(&user_pk(user_id), &sk, None, None)?;
    Ok(())
}

impl Store {
    /// The user's own category that holds the reservation of that type and name (two
    /// strongly consistent `GetItem`s): `None` when no category holds it.
    pub async fn own_category_named(
        &self,
        user_id: u64,
        category_type: CategoryType,
        name: &str,
    ) -> StoreResult<Option<Category>> {
        let pk = user_pk(user_id);
        let Some(reservation) = self.get(&pk, &name_sk(category_type, name)).await? else {
            return Ok(None);
        };
        let id = get_u64(&reservation, "categoryId")?;
        Ok(match self.get(&pk, &cat_sk(id)).await? {
            Some(item) => Some(Category::from_item(&item)?),
            None => None,
        })
    }
}
