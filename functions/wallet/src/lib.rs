//! Wallet endpoint: the caller's wallet and its exact, current balance.

use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use pf_app as app;
use pf_domain::{Currency, Wallet};
use serde::Deserialize;
use serde_json::Value;

use pf_app::wallet::WalletChange;
use pf_http::auth::Caller;
use pf_http::extract::{IfMatchHeader, Json};
use pf_http::respond::Versioned;
use pf_http::{decimal, docs, ApiResult, AppState};

/// The routes with their documentation: a route cannot exist without it.
pub fn api() -> OpenApiRouter<AppState> {
    docs::protected("wallet", OpenApiRouter::new().routes(routes!(read, update)))
}

pub use pf_http::dto::wallet::WalletResponse;

/// The caller's wallet and its current balance.
#[utoipa::path(get, path = "/api/wallet", params(docs::IfNoneMatch),
    responses(
        (status = 200, description = "The wallet", body = WalletResponse, headers(
            ("ETag" = String, description = "Version (every transaction write moves it), for If-Match"))),
        docs::Cached,
        docs::ReadErrors,
    ))]
async fn read(me: Caller) -> ApiResult<Versioned<WalletResponse>> {
    versioned(&app::wallet::get(me.store(), me.id).await?)
}

fn versioned(wallet: &Wallet) -> ApiResult<Versioned<WalletResponse>> {
    Ok(Versioned::new(
        wallet.version,
        WalletResponse::try_from(wallet)?,
    ))
}

/// Body of `PUT /api/wallet`: every field is replaced.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[schema(as = WalletInput)]
pub struct WalletRequest {
    #[schema(value_type = docs::Name)]
    pub name: String,
    /// A JSON number or a decimal string (may be negative), with at most the currency's decimals.
    #[schema(schema_with = signed_amount)]
    pub initial_balance: Value,
    /// An ISO 4217 code.
    #[schema(schema_with = pf_http::docs::required_currency_code)]
    pub currency: Value,
}

fn signed_amount() -> utoipa::openapi::schema::Schema {
    docs::number_or_decimal_string(true)
}

fn parse_currency(v: &Value) -> Option<Currency> {
    v.as_str().and_then(Currency::from_code)
}

/// Renames the wallet, sets its initial balance, and changes its currency while it holds
/// no transactions, no budgets and no recurring schedules (409 otherwise: their amounts
/// would silently change meaning).
#[utoipa::path(
    put,
    path = "/api/wallet",
    params(docs::IfMatch),
    request_body = WalletRequest,
    responses(
        (status = 200, description = "Updated", body = WalletResponse, headers(("ETag" = String, description = "New version"))),
        docs::VersionedUpdateErrors,
    )
)]
async fn update(
    me: Caller,
    IfMatchHeader(expected): IfMatchHeader,
    Json(body): Json<WalletRequest>,
) -> ApiResult<Versioned<WalletResponse>> {
    let change = WalletChange {
        name: &body.name,
        initial_balance: decimal::from_json(&body.initial_balance, true),
        currency: parse_currency(&body.currency),
    };
    let wallet = app::wallet::update(me.store(), me.id, change, expected).await?;
    versioned(&wallet)
}
