//! A wallet's item: `PK = USER#<id>`, `SK = WALLET`.

use super::super::attr::{get_decimal, get_opt_u64, get_s, get_timestamp, get_u64, n, s, Item};
use super::super::keys::{user_pk, WALLET};
use crate::domain::{Currency, Wallet};

pub fn to_item(w: &Wallet) -> Item {
    Item::from([
        ("PK".into(), s(user_pk(w.user_id))),
        ("SK".into(), s(WALLET)),
        ("id".into(), n(w.id)),
        ("name".into(), s(&w.name)),
        ("currencyCode".into(), s(w.currency.code())),
        ("initialBalance".into(), n(w.initial_balance)),
        ("txnSum".into(), n(w.txn_sum)),
        ("txnCount".into(), n(w.txn_count)),
        ("version".into(), n(w.version)),
        ("createdAt".into(), s(w.created_at.to_string())),
        ("updatedAt".into(), s(w.updated_at.to_string())),
    ])
}

impl TryFrom<&Item> for Wallet {
    type Error = anyhow::Error;

    fn try_from(item: &Item) -> anyhow::Result<Self> {
        let user_id = get_s(item, "PK")?
            .strip_prefix("USER#")
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| anyhow::anyhow!("wallet item has a malformed PK"))?;
        let code = get_s(item, "currencyCode")?;
        Ok(Self {
            user_id,
            id: get_u64(item, "id")?,
            name: get_s(item, "name")?.to_owned(),
            currency: Currency::from_code(code)
                .ok_or_else(|| anyhow::anyhow!("unknown stored currency {code}"))?,
            initial_balance: get_decimal(item, "initialBalance")?,
            txn_sum: get_decimal(item, "txnSum")?,
            txn_count: get_u64(item, "txnCount")?,
            version: get_opt_u64(item, "version").unwrap_or(1),
            created_at: get_timestamp(item, "createdAt")?,
            updated_at: get_timestamp(item, "updatedAt")?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::time::Timestamp;

    #[test]
    fn a_wallet_survives_its_item() {
        let at = Timestamp::parse("2026-01-01T00:00:00").unwrap();
        let mut w = Wallet::new_default(7, 8, at);
        w.txn_sum = rust_decimal::Decimal::new(-1250, 2);
        w.txn_count = 2;
        assert_eq!(Wallet::try_from(&to_item(&w)).unwrap(), w);
        assert_eq!(w.balance().to_string(), "-12.50");
    }
}
