//! `GET /api/forecast`: the balance forecast and its bodies.

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use pf_app as app;
use pf_app::recurring::Forecast;
use pf_domain::time::{format_date, parse_date};
use pf_http::auth::Caller;
use pf_http::extract::{Json, Query};
use pf_http::money::MoneyDto;
use pf_http::{docs, ApiError, ApiResult, FieldError};

/// Today's balance and the balance after every scheduled occurrence (not skipped, not
/// yet created) up to `to`, at most two years ahead: one point per day that changes.
#[utoipa::path(
    get,
    path = "/api/forecast",
    params(ForecastQuery),
    responses(
        (status = 200, description = "The forecast", body = ForecastResponse),
        docs::ListErrors,
    )
)]
pub(crate) async fn forecast(
    me: Caller,
    Query(query): Query<ForecastQuery>,
) -> ApiResult<Json<ForecastResponse>> {
    let to =
        parse_date(&query.to).map_err(|e| ApiError::validation(vec![FieldError::new("to", e)]))?;
    let f = app::recurring::forecast(me.store(), me.id, to).await?;
    Ok(Json(ForecastResponse::from(&f)))
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ForecastQuery {
    /// Last day of the forecast (`YYYY-MM-DD`), today to two years ahead.
    #[param(format = Date, value_type = String, max_length = 10)]
    pub to: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ForecastPointResponse {
    #[schema(format = Date, example = "2026-11-30")]
    pub date: String,
    /// The day's net change (negative for debits).
    pub change: MoneyDto,
    /// The balance after the day.
    pub balance: MoneyDto,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ForecastResponse {
    /// Today's balance.
    pub start_balance: MoneyDto,
    /// The balance on `to`.
    pub end_balance: MoneyDto,
    pub points: Vec<ForecastPointResponse>,
}

impl From<&Forecast> for ForecastResponse {
    fn from(f: &Forecast) -> Self {
        let money = |d| MoneyDto::total(d, f.currency);
        Self {
            start_balance: money(f.start_balance),
            end_balance: money(f.end_balance),
            points: f
                .points
                .iter()
                .map(|p| ForecastPointResponse {
                    date: format_date(p.date),
                    change: money(p.change),
                    balance: money(p.balance),
                })
                .collect(),
        }
    }
}
