//! Wallet endpoint: the caller's wallet and its exact, current balance.

use axum::extract::State;
use axum::routing::get;
use axum::Router;
use serde::Serialize;

use shared::domain::money::CurrencyDto;
use shared::domain::{Money, MoneyDto};
use shared::http::auth::AuthUser;
use shared::http::extract::Json;
use shared::http::{finish, ApiError, ApiResult, AppState};
use shared::store::wallet::WalletRecord;

/// Every (method, path) this function serves, in API Gateway syntax; template.yaml and
/// the OpenAPI document are checked against it.
pub const ROUTES: &[(&str, &str)] = &[
    ("GET", "/api/wallet"),
];

pub fn router(state: AppState) -> Router {
    finish(Router::new().route("/api/wallet", get(read)), state)
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WalletResponse {
    pub id: u64,
    pub name: String,
    pub currency: CurrencyDto,
    pub initial_balance: MoneyDto,
    /// Initial balance plus credits minus debits.
    pub amount_balance: MoneyDto,
    pub transaction_count: u64,
    pub created_at: String,
    pub updated_at: String,
}

impl TryFrom<&WalletRecord> for WalletResponse {
    type Error = ApiError;

    fn try_from(w: &WalletRecord) -> ApiResult<Self> {
        let money = |amount| {
            Money::new(amount, w.currency)
                .map(MoneyDto::from)
                .map_err(|e| ApiError::Internal(e.into()))
        };
        Ok(Self {
            id: w.id,
            name: w.name.clone(),
            currency: w.currency.into(),
            initial_balance: money(w.initial_balance)?,
            amount_balance: money(w.balance())?,
            transaction_count: w.txn_count,
            created_at: w.created_at.clone(),
            updated_at: w.updated_at.clone(),
        })
    }
}

async fn read(State(state): State<AppState>, user: AuthUser) -> ApiResult<Json<WalletResponse>> {
    let wallet = state
        .store
        .get_wallet(user.id)
        .await?
        .ok_or_else(|| ApiError::NotFound("wallet not found".into()))?;
    Ok(Json(WalletResponse::try_from(&wallet)?))
}
