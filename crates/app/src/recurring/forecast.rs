//! The balance forecast: today's balance plus every occurrence still to be created (not
//! skipped) up to a day at most two years ahead, one point per day that changes.
//! Occurrences overdue but not yet created by the job count on today.

use std::collections::BTreeMap;

use rust_decimal::Decimal;
use time::{Date, Duration};

use super::today;
use crate::{AppError, AppResult};
use pf_domain::recurring::MAX_WINDOW_DAYS;
use pf_domain::Currency;
use pf_store::Store;

#[derive(Debug, Clone, PartialEq)]
pub struct ForecastPoint {
    pub date: Date,
    pub change: Decimal,
    pub balance: Decimal,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Forecast {
    pub currency: Currency,
    pub start_balance: Decimal,
    pub end_balance: Decimal,
    pub points: Vec<ForecastPoint>,
}

/// The forecast up to `to` (today to two years ahead): one `GetItem`, one `Query`.
pub async fn forecast(store: &Store, user_id: u64, to: Date) -> AppResult<Forecast> {
    let today = today();
    if to < today || to > today.saturating_add(Duration::days(MAX_WINDOW_DAYS)) {
        return Err(AppError::invalid(
            "to",
            "must lie between today and two years ahead",
        ));
    }
    let wallet = store
        .get_wallet(user_id)
        .await?
        .ok_or_else(|| AppError::not_found("wallet"))?;
    let mut changes: BTreeMap<Date, Decimal> = BTreeMap::new();
    for r in store.all_recurring(user_id).await? {
        for p in r.pending_until(to) {
            *changes.entry(p.date.max(today)).or_default() +=
                r.details.category_type.signed(p.amount);
        }
    }
    let start = wallet.balance();
    let mut balance = start;
    let points = changes
        .into_iter()
        .filter(|(_, change)| !change.is_zero())
        .map(|(date, change)| {
            balance += change;
            ForecastPoint {
                date,
                change,
                balance,
            }
        })
        .collect();
    Ok(Forecast {
        currency: wallet.currency,
        start_balance: start,
        end_balance: balance,
        points,
    })
}
