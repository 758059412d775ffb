//! Monthly insights and budgets, read from the monthly totals that every transaction write
//! keeps (`store::insights`): a range costs one `Query` plus one `BatchGetItem` of category
//! names, whatever the number of transactions. Names are read at request time, so a
//! renamed category shows its new name.

use std::collections::BTreeMap;

use rust_decimal::Decimal;

use super::{AppError, AppResult};
use pf_domain::{Category, CategoryType, Currency, Money, Month, Violation};
use pf_store::budgets::Budget;
use pf_store::insights::MonthTotal;
use pf_store::{ConflictKind, Ref, Store, StoreError};

mod budgets;

pub use budgets::{
    all_budgets, budgets, check_amount, delete_budget, put_budget, BudgetStatus, Budgets,
};

/// Most months one insights request may span.
pub const MAX_MONTHS: u32 = 36;

/// Shown for a category that vanished (never expected: a category with transactions
/// cannot be deleted, and deleting one removes its budgets).
const UNKNOWN_CATEGORY: &str = "(deleted category)";

/// One category's total in a month.
#[derive(Debug, Clone, PartialEq)]
pub struct CategoryTotal {
    pub category_id: u64,
    pub category_name: String,
    pub category_type: CategoryType,
    pub total: Decimal,
    pub count: u64,
}

/// One month: income (CREDIT), expenses (DEBIT, positive), net, and per category.
#[derive(Debug, Clone, PartialEq)]
pub struct MonthInsight {
    pub month: Month,
    pub income: Decimal,
    pub expenses: Decimal,
    pub count: u64,
    pub categories: Vec<CategoryTotal>,
}

impl MonthInsight {
    pub fn net(&self) -> Decimal {
        self.income - self.expenses
    }
}

/// A month's insights, in the wallet's currency.
#[derive(Debug)]
pub struct Insights {
    pub currency: Currency,
    pub months: Vec<MonthInsight>,
}

fn parse_month(field: &str, raw: Option<&str>, errors: &mut Vec<Violation>) -> Option<Month> {
    match raw.map(Month::parse) {
        Some(Ok(m)) => Some(m),
        Some(Err(e)) => {
            errors.push(Violation::new(field, e));
            None
        }
        None => {
            errors.push(Violation::new(field, "is required (YYYY-MM)"));
            None
        }
    }
}

/// Checks a range: both months given and well formed, `from` ≤ `to`, at most
/// [`MAX_MONTHS`] months.
pub fn parse_range(from: Option<&str>, to: Option<&str>) -> AppResult<(Month, Month)> {
    let mut errors = Vec::new();
    let from = parse_month("from", from, &mut errors);
    let to = parse_month("to", to, &mut errors);
    let (Some(from), Some(to)) = (from, to) else {
        return Err(AppError::Invalid(errors));
    };
    match Month::span(from, to) {
        0 => Err(AppError::invalid("to", "must not be before from")),
        n if n > MAX_MONTHS => Err(AppError::invalid(
            "to",
            format!("the range spans {n} months; at most {MAX_MONTHS}"),
        )),
        _ => Ok((from, to)),
    }
}

/// A month in a path: 400 when it is not `YYYY-MM`.
pub fn parse_path_month(raw: &str) -> AppResult<Month> {
    Month::parse(raw).map_err(|e| AppError::invalid("month", e))
}

/// Builds one entry per month of `from..=to` from the totals (zeros where there are
/// none), categories by type (CREDIT first) then name then id.
pub fn assemble(
    from: Month,
    to: Month,
    totals: &[MonthTotal],
    categories: &std::collections::HashMap<(bool, u64), Category>,
) -> Vec<MonthInsight> {
    let mut by_month: BTreeMap<Month, Vec<&MonthTotal>> = BTreeMap::new();
    for t in totals {
        by_month.entry(t.month).or_default().push(t);
    }
    let mut months = Vec::new();
    let mut month = from;
    while month <= to {
        let mut entry = MonthInsight {
            month,
            income: Decimal::ZERO,
            expenses: Decimal::ZERO,
            count: 0,
            categories: Vec::new(),
        };
        for t in by_month.remove(&month).unwrap_or_default() {
            match t.category_type {
                CategoryType::Credit => entry.income += t.total,
                CategoryType::Debit => entry.expenses += t.total,
            }
            entry.count += t.count;
            let name = categories
                .get(&(t.category_global, t.category_id))
                .map_or(UNKNOWN_CATEGORY, |c| c.name.as_str());
            entry.categories.push(CategoryTotal {
                category_id: t.category_id,
                category_name: name.to_owned(),
                category_type: t.category_type,
                total: t.total,
                count: t.count,
            });
        }
        entry.categories.sort_by(|a, b| {
            let credit_first = |c: &CategoryTotal| c.category_type == CategoryType::Debit;
            (credit_first(a), &a.category_name, a.category_id).cmp(&(
                credit_first(b),
                &b.category_name,
                b.category_id,
            ))
        });
        months.push(entry);
        month = month.next();
    }
    months
}

/// The caller's insights for `from..=to` (validated by [`parse_range`]).
pub async fn monthly(store: &Store, user_id: u64, from: Month, to: Month) -> AppResult<Insights> {
    let (wallet, totals) = tokio::try_join!(super::wallet::get(store, user_id), async {
        Ok(store.month_totals(user_id, from, to).await?)
    },)?;
    let keys: std::collections::BTreeSet<_> = totals
        .items
        .iter()
        .map(|t| (t.category_global, t.category_id))
        .collect();
    let categories = store.categories_by_key(user_id, keys).await?;
    Ok(Insights {
        currency: wallet.currency,
        months: assemble(from, to, &totals.items, &categories),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::invalid_fields as fields;

    fn m(s: &str) -> Month {
        Month::parse(s).unwrap()
    }

    #[test]
    fn ranges_are_checked() {
        assert_eq!(
            parse_range(Some("2024-01"), Some("2026-12")).unwrap(),
            (m("2024-01"), m("2026-12"))
        );
        assert_eq!(
            fields(parse_range(Some("2024-01"), Some("2027-01")).unwrap_err()),
            ["to"]
        );
        assert_eq!(
            fields(parse_range(Some("2026-02"), Some("2026-01")).unwrap_err()),
            ["to"]
        );
        assert_eq!(
            fields(parse_range(Some("2026-13"), None).unwrap_err()),
            ["from", "to"]
        );
    }

    #[test]
    fn budget_amounts_are_exact_and_not_negative() {
        let eur = Currency::eur();
        assert_eq!(
            check_amount(Some(Decimal::new(0, 0)), eur)
                .unwrap()
                .to_string(),
            "0.00"
        );
        assert!(check_amount(Some(Decimal::new(-1, 0)), eur).is_err());
        assert!(check_amount(Some(Decimal::new(1001, 3)), eur).is_err());
        assert!(check_amount(None, eur).is_err());
    }

    #[test]
    fn every_month_of_the_range_is_listed_with_zeros_where_empty() {
        let total = |month: &str, id, t: CategoryType, cents| MonthTotal {
            month: m(month),
            category_global: true,
            category_id: id,
            category_type: t,
            total: Decimal::new(cents, 2),
            count: 1,
        };
        let totals = [
            total("2026-01", 4, CategoryType::Debit, 1050),
            total("2026-01", 1, CategoryType::Credit, 200000),
            total("2026-03", 4, CategoryType::Debit, 5),
        ];
        let months = assemble(m("2026-01"), m("2026-03"), &totals, &Default::default());
        let summary: Vec<_> = months
            .iter()
            .map(|e| (e.month.to_string(), e.net().to_string(), e.count))
            .collect();
        assert_eq!(
            summary,
            [
                ("2026-01".to_owned(), "1989.50".to_owned(), 2),
                ("2026-02".to_owned(), "0".to_owned(), 0),
                ("2026-03".to_owned(), "-0.05".to_owned(), 1),
            ]
        );
        assert_eq!(months[0].categories[0].category_type, CategoryType::Credit);
    }
}
