//! Wire shapes of insights and budgets (money in the API's `Money` shape).

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::openapi::schema::{ObjectBuilder, Schema, SchemaType, Type};
use utoipa::openapi::RefOr;
use utoipa::{IntoParams, PartialSchema, ToSchema};

use pf_app::insights::{BudgetStatus, Insights, MAX_MONTHS};
use pf_domain::{CategoryType, Currency};
use pf_http::docs;
use pf_http::money::MoneyDto;

/// `YYYY-MM`.
const MONTH_PATTERN: &str = "^[0-9]{4}-(0[1-9]|1[0-2])$";
/// `YYYY-MM` in the years 1900 to 2999 (transactions' dates).
const BUDGET_MONTH_PATTERN: &str = "^(19[0-9]{2}|2[0-9]{3})-(0[1-9]|1[0-2])$";

fn month_schema(pattern: &str) -> RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type(SchemaType::new(Type::String))
        .pattern(Some(pattern))
        .min_length(Some(7))
        .max_length(Some(7))
        .examples(["2026-11"])
        .into()
}

/// A month in a path or query: `YYYY-MM`.
pub struct MonthParam;

impl PartialSchema for MonthParam {
    fn schema() -> RefOr<Schema> {
        month_schema(MONTH_PATTERN)
    }
}

impl ToSchema for MonthParam {}

/// The month a budget is set for: `YYYY-MM`, 1900 to 2999.
pub struct BudgetMonthParam;

impl PartialSchema for BudgetMonthParam {
    fn schema() -> RefOr<Schema> {
        month_schema(BUDGET_MONTH_PATTERN)
    }
}

impl ToSchema for BudgetMonthParam {}

/// Query of `GET /api/insights/monthly`; unknown parameters are refused.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct MonthlyQuery {
    /// First month, `YYYY-MM`.
    #[param(required = true, value_type = String, pattern = "^[0-9]{4}-(0[1-9]|1[0-2])$", min_length = 7, max_length = 7, example = "2026-01")]
    pub from: Option<String>,
    /// Last month, `YYYY-MM`, not before `from` and at most 35 months after it.
    #[param(required = true, value_type = String, pattern = "^[0-9]{4}-(0[1-9]|1[0-2])$", min_length = 7, max_length = 7, example = "2026-12")]
    pub to: Option<String>,
}

/// One category's total in a month.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = CategoryTotal)]
pub struct CategoryTotalResponse {
    pub category_id: u64,
    /// The category's current name.
    pub category_name: String,
    #[serde(rename = "type")]
    pub category_type: CategoryType,
    /// Sum of the month's amounts in this category (positive).
    pub total: MoneyDto,
    /// Number of the month's transactions in this category.
    pub count: u64,
}

/// One month's totals in the wallet's currency.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = MonthInsight)]
pub struct MonthInsightResponse {
    /// `YYYY-MM`.
    #[schema(example = "2026-11")]
    pub month: String,
    /// Sum of CREDIT transactions.
    pub income: MoneyDto,
    /// Sum of DEBIT transactions (positive).
    pub expenses: MoneyDto,
    /// Income minus expenses.
    pub net: MoneyDto,
    /// Number of transactions in the month.
    pub count: u64,
    /// Only categories with transactions this month: CREDIT first, then by name.
    #[schema(max_items = 1000)]
    pub categories: Vec<CategoryTotalResponse>,
}

pub fn insights(insights: &Insights) -> Vec<MonthInsightResponse> {
    debug_assert!(insights.months.len() <= MAX_MONTHS as usize);
    let money = |amount| MoneyDto::total(amount, insights.currency);
    insights
        .months
        .iter()
        .map(|m| MonthInsightResponse {
            month: m.month.to_string(),
            income: money(m.income),
            expenses: money(m.expenses),
            net: money(m.net()),
            count: m.count,
            categories: m
                .categories
                .iter()
                .map(|c| CategoryTotalResponse {
                    category_id: c.category_id,
                    category_name: c.category_name.clone(),
                    category_type: c.category_type,
                    total: money(c.total),
                    count: c.count,
                })
                .collect(),
        })
        .collect()
}

/// Body of `PUT /api/budgets/{month}/{categoryId}`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = BudgetInput)]
pub struct BudgetRequest {
    /// At least 0, with at most the wallet currency's decimals: a JSON number or a decimal string.
    #[schema(schema_with = budget_amount)]
    pub amount: Value,
}

fn budget_amount() -> Schema {
    docs::number_or_decimal_string(false)
}

/// A month's budget of a category with what was spent against it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = Budget)]
pub struct BudgetResponse {
    pub category_id: u64,
    /// The category's current name.
    pub category_name: String,
    pub budgeted: MoneyDto,
    /// The month's DEBIT total of the category.
    pub spent: MoneyDto,
    /// Budgeted minus spent: negative when overspent.
    pub remaining: MoneyDto,
}

impl BudgetResponse {
    pub fn new(b: &BudgetStatus, currency: Currency) -> Self {
        let money = |amount| MoneyDto::total(amount, currency);
        Self {
            category_id: b.category_id,
            category_name: b.category_name.clone(),
            budgeted: money(b.budgeted),
            spent: money(b.spent),
            remaining: money(b.remaining()),
        }
    }
}
