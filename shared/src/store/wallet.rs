//! The wallet item: initial balance, the signed sum of its transactions, and their count.
//!
//! `txnSum` and `txnCount` change in the same transaction as every transaction item,
//! so `amountBalance = initialBalance + txnSum` is always exact and current (O(1) read).

use rust_decimal::Decimal;

use super::attr::{get_decimal, get_s, get_u64, n, s, Item};
use super::keys::{user_pk, WALLET};
use super::{sdk_error, ConflictKind, Store, StoreError, StoreResult};
use crate::domain::Currency;

#[derive(Debug, Clone, PartialEq)]
pub struct WalletRecord {
    pub user_id: u64,
    pub id: u64,
    pub name: String,
    pub currency: Currency,
    pub initial_balance: Decimal,
    pub txn_sum: Decimal,
    pub txn_count: u64,
    pub created_at: String,
    pub updated_at: String,
}

impl WalletRecord {
    pub fn new_default(user_id: u64, id: u64, now: &str) -> Self {
        Self {
            user_id,
            id,
            name: "Main wallet".into(),
            currency: Currency::eur(),
            initial_balance: Decimal::ZERO,
            txn_sum: Decimal::ZERO,
            txn_count: 0,
            created_at: now.into(),
            updated_at: now.into(),
        }
    }

    /// Initial balance plus credits minus debits.
    pub fn balance(&self) -> Decimal {
        self.initial_balance + self.txn_sum
    }

    pub fn to_item(&self) -> Item {
        Item::from([
            ("PK".into(), s(user_pk(self.user_id))),
            ("SK".into(), s(WALLET)),
            ("id".into(), n(self.id)),
            ("name".into(), s(&self.name)),
            ("currencyCode".into(), s(self.currency.code())),
            ("initialBalance".into(), n(self.initial_balance)),
            ("txnSum".into(), n(self.txn_sum)),
            ("txnCount".into(), n(self.txn_count)),
            ("createdAt".into(), s(&self.created_at)),
            ("updatedAt".into(), s(&self.updated_at)),
        ])
    }
}

impl TryFrom<&Item> for WalletRecord {
    type Error = anyhow::Error;

    fn try_from(item: &Item) -> anyhow::Result<Self> {
        let pk = get_s(item, "PK")?;
        let user_id = pk
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
            created_at: get_s(item, "createdAt")?.to_owned(),
            updated_at: get_s(item, "updatedAt")?.to_owned(),
        })
    }
}

impl Store {
    /// The caller's wallet, one strongly consistent read.
    pub async fn get_wallet(&self, user_id: u64) -> StoreResult<Option<WalletRecord>> {
        let out = self.get(&user_pk(user_id), WALLET).await?;
        Ok(match out {
            Some(item) => Some(WalletRecord::try_from(&item)?),
            None => None,
        })
    }
}

impl Store {
    /// Sets name, initial balance and currency; a currency change requires an empty wallet
    /// (checked in the same conditional write, so a concurrent transaction cannot slip in).
    pub async fn update_wallet(
        &self,
        user_id: u64,
        name: &str,
        initial_balance: Decimal,
        currency: Currency,
        now: &str,
    ) -> StoreResult<WalletRecord> {
        let result = self
            .client
            .update_item()
            .table_name(&self.table)
            .key("PK", s(user_pk(user_id)))
            .key("SK", s(WALLET))
            .update_expression(
                "SET #name = :name, initialBalance = :ib, currencyCode = :cur, updatedAt = :now",
            )
            .condition_expression(
                "attribute_exists(PK) AND (currencyCode = :cur OR txnCount = :zero)",
            )
            .expression_attribute_names("#name", "name")
            .expression_attribute_values(":name", s(name))
            .expression_attribute_values(":ib", n(initial_balance))
            .expression_attribute_values(":cur", s(currency.code()))
            .expression_attribute_values(":now", s(now))
            .expression_attribute_values(":zero", n(0))
            .return_values(aws_sdk_dynamodb::types::ReturnValue::AllNew)
            .send()
            .await;
        match result {
            Ok(out) => {
                let item = out
                    .attributes
                    .ok_or_else(|| anyhow::anyhow!("update returned no attributes"))?;
                Ok(WalletRecord::try_from(&item)?)
            }
            Err(e) if super::is_condition_failure(&e) => match self.get_wallet(user_id).await? {
                Some(_) => Err(StoreError::Conflict(ConflictKind::HasTransactions)),
                None => Err(StoreError::NotFound),
            },
            Err(e) => Err(sdk_error(e)),
        }
    }
}
