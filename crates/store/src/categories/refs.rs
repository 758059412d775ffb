//! The mark that budgets and rules leave on an own category they name (`refMark`, a
//! number only ever added to), in the same `TransactWriteItems` as their own write and
//! conditional on the category's type being the one they were checked against. A type
//! change reads the mark before it looks for budgets and rules and conditions its write
//! on the mark being unchanged: a budget or rule written between the look and the change
//! fails the change (then `409` naming it), one written after it fails on the type. So no
//! budget or rule ever ends on a category of another type than it was made for.
//! Global categories have none: their type never changes.

use super::super::attr::{get_opt_u64, n, s, Item};
use super::super::keys::{cat_sk, user_pk};
use super::super::transact::TxItems;
use super::super::{ConflictKind, Ref, Store, StoreResult};
use pf_domain::CategoryType;

const REF_MARK: &str = "refMark";

/// Marks own category `category_id` as named, conditional on it existing with type
/// `category_type`: `Conflict(Reference(Category))` otherwise.
pub(crate) fn mark(
    tx: &mut TxItems<'_>,
    user_id: u64,
    category_id: u64,
    category_type: CategoryType,
) -> anyhow::Result<()> {
    let values = Item::from([
        (":one".into(), n(1)),
        (":t".into(), s(category_type.as_str())),
    ]);
    tx.update(
        &user_pk(user_id),
        &cat_sk(category_id),
        &format!("ADD {REF_MARK} :one"),
        Some("attribute_exists(PK) AND categoryType = :t"),
        values,
        None,
    )?;
    tx.on_conflict(ConflictKind::Reference(Ref::Category));
    Ok(())
}

/// The condition that own category's mark is still `read` (0: none yet), for a type
/// change's write; its value goes into `values`.
pub(super) fn unchanged(read: u64, values: &mut Item) -> String {
    if read == 0 {
        return format!("attribute_not_exists({REF_MARK})");
    }
    values.insert(":refMark".into(), n(read));
    format!("{REF_MARK} = :refMark")
}

impl Store {
    /// Own category `category_id`'s mark as stored now (a strongly consistent read; 0
    /// when none yet, or no such item): read before a type change looks for what names
    /// the category.
    pub async fn category_ref_mark(&self, user_id: u64, category_id: u64) -> StoreResult<u64> {
        let item = self.get(&user_pk(user_id), &cat_sk(category_id)).await?;
        Ok(item.and_then(|i| get_opt_u64(&i, REF_MARK)).unwrap_or(0))
    }
}
