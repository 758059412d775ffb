//! A wallet's item: `PK = USER#<id>`, `SK = WALLET`.

use super::{get_currency, get_owner, get_string, get_times, get_version, stamps};
use crate::attr::{get_decimal, get_u64, n, s, Item};
use crate::keys::{user_pk, WALLET};
use crate::FromItem;
use pf_domain::Wallet;

pub fn to_item(w: &Wallet) -> Item {
    let mut item = Item::from([
        ("PK".into(), s(user_pk(w.user_id))),
        ("SK".into(), s(WALLET)),
        ("id".into(), n(w.id)),
        ("name".into(), s(&w.name)),
        ("currencyCode".into(), s(w.currency.code())),
        ("initialBalance".into(), n(w.initial_balance)),
        ("txnSum".into(), n(w.txn_sum)),
        ("txnCount".into(), n(w.txn_count)),
    ]);
    item.extend(stamps(w.version, w.created_at, w.updated_at));
    item
}

impl FromItem for Wallet {
    fn from_item(item: &Item) -> anyhow::Result<Self> {
        let (created_at, updated_at) = get_times(item)?;
        Ok(Self {
            user_id: get_owner(item, "wallet")?,
            id: get_u64(item, "id")?,
            name: get_string(item, "name")?,
            currency: get_currency(item)?,
            initial_balance: get_decimal(item, "initialBalance")?,
            txn_sum: get_decimal(item, "txnSum")?,
            txn_count: get_u64(item, "txnCount")?,
            version: get_version(item),
            created_at,
            updated_at,
        })
    }
}
