//! The wallet's answer (the wallet function's, and the sync's for a wallet change).

use serde::Serialize;
use utoipa::ToSchema;

use crate::money::{CurrencyDto, MoneyDto};
use crate::{ApiError, ApiResult};
use pf_domain::Wallet;

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = Wallet)]
pub struct WalletResponse {
    pub id: u64,
    pub name: String,
    pub currency: CurrencyDto,
    pub initial_balance: MoneyDto,
    /// Initial balance plus credits minus debits.
    pub amount_balance: MoneyDto,
    pub transaction_count: u64,
    /// UTC, `YYYY-MM-DDTHH:MM:SS`.
    #[schema(example = "2026-11-22T10:00:00")]
    pub created_at: String,
    #[schema(example = "2026-11-22T10:00:00")]
    pub updated_at: String,
}

impl TryFrom<&Wallet> for WalletResponse {
    type Error = ApiError;

    fn try_from(w: &Wallet) -> ApiResult<Self> {
        let money = |amount| -> ApiResult<MoneyDto> { Ok(MoneyDto::total(amount, w.currency)) };
        Ok(Self {
            id: w.id,
            name: w.name.clone(),
            currency: w.currency.into(),
            initial_balance: money(w.initial_balance)?,
            amount_balance: money(w.balance())?,
            transaction_count: w.txn_count,
            created_at: w.created_at.to_string(),
            updated_at: w.updated_at.to_string(),
        })
    }
}
