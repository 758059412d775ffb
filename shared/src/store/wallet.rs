//! The wallet: initial balance, the signed sum of its transactions, and their count.
//!
//! `txnSum` and `txnCount` change in the same transaction as every transaction item,
//! so `amountBalance = initialBalance + txnSum` is always exact and current (O(1) read).

use rust_decimal::Decimal;

use super::attr::{n, s};
use super::keys::{user_pk, WALLET};
use super::{sdk_error, ConflictKind, Store, StoreError, StoreResult};
use crate::domain::Currency;

pub use crate::domain::Wallet;

impl Store {
    /// The caller's wallet, one strongly consistent read.
    pub async fn get_wallet(&self, user_id: u64) -> StoreResult<Option<Wallet>> {
        let out = self.get(&user_pk(user_id), WALLET).await?;
        Ok(match out {
            Some(item) => Some(Wallet::try_from(&item)?),
            None => None,
        })
    }
}

impl Store {
    /// Sets name, initial balance and currency; a currency change requires an empty wallet,
    /// without transactions or budgets (`budgetCount`, kept by `store::budgets`), checked
    /// in the same conditional write, so a concurrent transaction cannot slip in.
    pub async fn update_wallet(
        &self,
        user_id: u64,
        name: &str,
        initial_balance: Decimal,
        currency: Currency,
        now: &str,
    ) -> StoreResult<Wallet> {
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
                "attribute_exists(PK) AND (currencyCode = :cur OR (txnCount = :zero \
                 AND (attribute_not_exists(budgetCount) OR budgetCount = :zero)))",
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
                Ok(Wallet::try_from(&item)?)
            }
            Err(e) if super::is_condition_failure(&e) => match self.get_wallet(user_id).await? {
                Some(w) if w.txn_count > 0 => {
                    Err(StoreError::Conflict(ConflictKind::HasTransactions))
                }
                Some(_) => Err(StoreError::Conflict(ConflictKind::HasBudgets)),
                None => Err(StoreError::NotFound),
            },
            Err(e) => Err(sdk_error(e)),
        }
    }
}
