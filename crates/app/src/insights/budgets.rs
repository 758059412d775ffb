//! Budgets: an amount per month and category, with what was spent against it (read from
//! the same monthly totals as the insights).

use rust_decimal::Decimal;

use super::*;
use crate::transactions::{YEARS, YEARS_MESSAGE};
use crate::{AppError, AppResult};

/// Budgets one user may hold, over all months (ten years of 80 categories).
pub const MAX_BUDGETS: u64 = 10_000;

/// A budget with what was spent against it.
#[derive(Debug, Clone, PartialEq)]
pub struct BudgetStatus {
    pub category_id: u64,
    pub category_name: String,
    pub budgeted: Decimal,
    pub spent: Decimal,
}

impl BudgetStatus {
    /// Negative when overspent.
    pub fn remaining(&self) -> Decimal {
        self.budgeted - self.spent
    }
}

/// A month's budgets in the wallet's currency.
#[derive(Debug)]
pub struct Budgets {
    pub currency: Currency,
    pub items: Vec<BudgetStatus>,
}

/// Spent per budget from the month's totals (DEBIT totals of the budget's category).
fn statuses(
    budgets: &[Budget],
    totals: &[MonthTotal],
    categories: &std::collections::HashMap<(bool, u64), Category>,
) -> Vec<BudgetStatus> {
    budgets
        .iter()
        .map(|b| {
            let key = (b.category_global, b.category_id);
            // A budget whose category is gone (its clean-up was interrupted) is still
            // shown, so that it can be deleted (it holds the wallet's currency).
            let name = categories
                .get(&key)
                .map_or(UNKNOWN_CATEGORY, |c| c.name.as_str());
            let spent = totals
                .iter()
                .filter(|t| (t.category_global, t.category_id) == key)
                .filter(|t| t.month == b.month && t.category_type == CategoryType::Debit)
                .map(|t| t.total)
                .sum();
            BudgetStatus {
                category_id: b.category_id,
                category_name: name.to_owned(),
                budgeted: b.amount,
                spent,
            }
        })
        .collect()
}

/// The month's budgets with spent and remaining.
pub async fn budgets(store: &Store, user_id: u64, month: Month) -> AppResult<Budgets> {
    let (wallet, budgets, totals) = tokio::try_join!(
        crate::wallet::get(store, user_id),
        async { Ok(store.list_budgets(user_id, month).await?) },
        async { Ok(store.month_totals(user_id, month, month).await?) },
    )?;
    let keys = budgets.iter().map(|b| (b.category_global, b.category_id));
    let categories = store.categories_by_key(user_id, keys).await?;
    Ok(Budgets {
        currency: wallet.currency,
        items: statuses(&budgets, &totals.items, &categories),
    })
}

/// Checks a budget amount: given, ≥ 0, at most the currency's decimals, below 10^13.
pub fn check_amount(amount: Option<Decimal>, currency: Currency) -> AppResult<Decimal> {
    let message = match amount.map(|a| (a, Money::new(a, currency))) {
        None => "must be a decimal number".to_owned(),
        Some((a, _)) if a.is_sign_negative() && !a.is_zero() => "must be at least 0".to_owned(),
        Some((_, Ok(m))) => return Ok(m.amount()),
        Some((_, Err(e))) => e.field_message(),
    };
    Err(AppError::invalid("amount", message))
}

/// Sets the budget of a DEBIT category visible to the caller (global or own) for a month;
/// returns it with what was spent, in the wallet's currency.
pub async fn put_budget(
    store: &Store,
    user_id: u64,
    month: Month,
    category_id: u64,
    amount: Option<Decimal>,
) -> AppResult<(BudgetStatus, Currency)> {
    let (wallet, category) = tokio::try_join!(
        crate::wallet::get(store, user_id),
        crate::categories::get(store, user_id, category_id),
    )
    .map_err(|e| match e {
        AppError::NotFound(m) if m.starts_with("wallet") => crate::users::account_gone(),
        e => e,
    })?;
    // Budgets are for the months transactions may be dated in.
    if !YEARS.contains(&month.year()) {
        return Err(AppError::invalid("month", YEARS_MESSAGE));
    }
    let amount = check_amount(amount, wallet.currency)?;
    if category.category_type != CategoryType::Debit {
        return Err(AppError::invalid(
            "categoryId",
            "budgets are for DEBIT categories",
        ));
    }
    let budget = Budget {
        month,
        category_id,
        category_global: category.is_global(),
        amount,
        updated_at: pf_domain::time::Timestamp::now(),
    };
    store
        .put_budget(user_id, &category, &budget, wallet.currency, MAX_BUDGETS)
        .await
        .map_err(|e| match e {
            StoreError::Conflict(ConflictKind::LimitReached) => AppError::Conflict(format!(
                "at most {MAX_BUDGETS} budgets per user: delete old ones first"
            )),
            StoreError::Conflict(ConflictKind::Reference(Ref::Category)) => {
                AppError::not_found("category")
            }
            StoreError::Conflict(ConflictKind::Wallet) => {
                AppError::Conflict("the wallet changed meanwhile: try again".into())
            }
            e => AppError::Store(e),
        })?;
    let totals = store.month_totals(user_id, month, month).await?;
    let categories =
        std::collections::HashMap::from([((category.is_global(), category.id), category.clone())]);
    let status = statuses(&[budget], &totals.items, &categories)
        .pop()
        .ok_or_else(|| AppError::not_found("category"))?;
    Ok((status, wallet.currency))
}

/// Deletes a month's budget of a category: 404 when there is none.
pub async fn delete_budget(
    store: &Store,
    user_id: u64,
    month: Month,
    category_id: u64,
) -> AppResult<()> {
    store
        .delete_budget(user_id, month, category_id)
        .await
        .map_err(|e| match e {
            StoreError::NotFound => AppError::not_found("budget"),
            e => AppError::Store(e),
        })
}

/// Every budget of the user, by month then category.
pub async fn all_budgets(store: &Store, user_id: u64) -> AppResult<Vec<Budget>> {
    Ok(store.list_all_budgets(user_id).await?)
}
