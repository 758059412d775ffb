//! Wallet endpoint: the caller's wallet and its exact, current balance.

use axum::extract::State;
use axum::routing::get;
use axum::Router;
use std::str::FromStr;

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use shared::domain::text::{parse_name, NAME_MAX_LEN};
use shared::domain::time::now_local_date_time;
use shared::domain::Currency;

use shared::domain::money::CurrencyDto;
use shared::domain::{Money, MoneyDto};
use shared::http::auth::AuthUser;
use shared::http::extract::Json;
use shared::http::{finish, ApiError, ApiResult, AppState, FieldError};
use shared::store::wallet::{WalletRecord, WalletUpdateError};

/// Every (method, path) this function serves, in API Gateway syntax; template.yaml and
/// the OpenAPI document are checked against it.
pub const ROUTES: &[(&str, &str)] = &[("GET", "/api/wallet"), ("PUT", "/api/wallet")];

pub fn router(state: AppState) -> Router {
    finish(
        Router::new().route("/api/wallet", get(read).put(update)),
        state,
    )
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

/// Body of `PUT /api/wallet`: every field is replaced.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct WalletRequest {
    pub name: String,
    /// A JSON number or a string, in the wallet's (new) currency.
    pub initial_balance: Value,
    /// An ISO 4217 code, or `{"code": ...}`.
    pub currency: Value,
}

fn parse_currency(v: &Value) -> Option<Currency> {
    match v {
        Value::String(code) => Currency::from_code(code),
        Value::Object(m) => m
            .get("code")
            .and_then(Value::as_str)
            .and_then(Currency::from_code),
        _ => None,
    }
}

fn parse_decimal(v: &Value) -> Option<Decimal> {
    let text = match v {
        Value::Number(n) => n.to_string(),
        Value::String(s) => s.trim().to_owned(),
        _ => return None,
    };
    Decimal::from_str(&text)
        .ok()
        .or_else(|| Decimal::from_scientific(&text).ok())
}

/// Renames the wallet, sets its initial balance, and changes its currency while it holds
/// no transactions (409 otherwise: their amounts would silently change meaning).
async fn update(
    State(state): State<AppState>,
    user: AuthUser,
    Json(body): Json<WalletRequest>,
) -> ApiResult<Json<WalletResponse>> {
    let mut errors = Vec::new();
    let name = parse_name(&body.name, NAME_MAX_LEN)
        .map_err(|e| errors.push(FieldError::new("name", e)))
        .ok();
    let currency = parse_currency(&body.currency);
    if currency.is_none() {
        errors.push(FieldError::new(
            "currency",
            "must be a supported ISO 4217 code",
        ));
    }
    let initial = match (parse_decimal(&body.initial_balance), currency) {
        (None, _) => {
            errors.push(FieldError::new(
                "initialBalance",
                "must be a decimal number",
            ));
            None
        }
        (Some(amount), Some(c)) => match Money::new(amount, c) {
            Ok(m) => Some(m.amount()),
            Err(e) => {
                errors.push(FieldError::new("initialBalance", e.to_string()));
                None
            }
        },
        (Some(_), None) => None,
    };
    let (Some(name), Some(currency), Some(initial)) = (name, currency, initial) else {
        return Err(ApiError::validation(errors));
    };
    let wallet = state
        .store
        .update_wallet(user.id, &name, initial, currency, &now_local_date_time())
        .await
        .map_err(|e| match e {
            WalletUpdateError::NotFound => ApiError::NotFound("wallet not found".into()),
            WalletUpdateError::HasTransactions => ApiError::Conflict(e.to_string()),
            WalletUpdateError::Store(e) => e.into(),
        })?;
    Ok(Json(WalletResponse::try_from(&wallet)?))
}
