//! Insights at scale: a user with 10,000 transactions over 36 months, written through the
//! store's own transaction write (so the monthly totals are kept as in production), then
//! `GET /api/insights/monthly` for the 36 months next to the raw `Query` it needs and a
//! list page, with the read units each consumes.

use std::time::Duration;

use shared::domain::{CategoryType, Currency, Money, Month};
use shared::store::Store;

use super::fixture::global_transaction;

/// Transactions of the insights user (bounded: writing them takes most of this section).
pub const TRANSACTIONS: u64 = 10_000;
/// Global categories used: two CREDIT, eight DEBIT.
const CATEGORIES: [(u64, CategoryType); 10] = [
    (1, CategoryType::Credit),
    (2, CategoryType::Credit),
    (4, CategoryType::Debit),
    (5, CategoryType::Debit),
    (6, CategoryType::Debit),
    (7, CategoryType::Debit),
    (8, CategoryType::Debit),
    (9, CategoryType::Debit),
    (10, CategoryType::Debit),
    (11, CategoryType::Debit),
];

/// Writes the user's transactions: 2024-01 to 2026-12, every category in every month.
pub async fn fill(store: &Store, user_id: u64) -> anyhow::Result<Duration> {
    let start = std::time::Instant::now();
    let at = shared::domain::time::Timestamp::parse("2026-01-01T00:00:00")
        .map_err(anyhow::Error::msg)?;
    let first = time::macros::date!(2024 - 01 - 01);
    let mut taken = std::collections::HashSet::new();
    let txns = (0..TRANSACTIONS).map(|i| {
        let (category_id, category_type) = CATEGORIES[(i % CATEGORIES.len() as u64) as usize];
        // Spread evenly over 1,096 days (2024-01-01 to 2026-12-31).
        let date = first + time::Duration::days((i * 1096 / TRANSACTIONS) as i64);
        let id = loop {
            let id = shared::domain::ids::new_id();
            if taken.insert(id) {
                break id;
            }
        };
        let txn = Money::new(
            rust_decimal::Decimal::new(100 + (i as i64 * 37) % 100_000, 2),
            Currency::eur(),
        )
        .map(|amount| {
            let category = (category_id, category_type);
            global_transaction(user_id, id, amount, date, category, at)
        });
        txn.map(|t| (t, format!("bench:{i}")))
    });
    // One user's writes are serialised by their change feed: written in chunks, as an
    // import writes them (as many per TransactWriteItems as fit).
    let mut batch = txns
        .collect::<Result<Vec<_>, _>>()
        .map_err(anyhow::Error::msg)?;
    while !batch.is_empty() {
        let written = store
            .insert_transactions(&batch, None, "2026-01-01T00:00:00", None)
            .await?;
        batch.drain(..written.max(1));
    }
    Ok(start.elapsed())
}

/// Read units of the 36-month `Query` and how many totals it returned.
pub async fn query_cost(store: &Store, user_id: u64) -> anyhow::Result<(f64, usize)> {
    let (from, to) = range()?;
    let totals = store.month_totals(user_id, from, to).await?;
    Ok((totals.read_units, totals.items.len()))
}

pub fn range() -> anyhow::Result<(Month, Month)> {
    let m = |s| Month::parse(s).map_err(anyhow::Error::msg);
    Ok((m("2024-01")?, m("2026-12")?))
}
