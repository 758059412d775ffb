//! The JSON shapes of money: `{"amount": 12.50, "currency": {"code": "EUR", "symbol": "€"}}`,
//! with their OpenAPI schemas (`Money`, `Currency`).

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use pf_domain::{Currency, Money};

/// Wire shape of a currency: `{"code": "EUR", "symbol": "€"}`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, utoipa::ToSchema)]
#[schema(as = Currency)]
pub struct CurrencyDto {
    pub code: String,
    pub symbol: String,
}

impl From<Currency> for CurrencyDto {
    fn from(c: Currency) -> Self {
        Self {
            code: c.code().to_owned(),
            symbol: c.symbol().to_owned(),
        }
    }
}

/// Wire shape of money: the amount is a JSON number with exactly the currency's decimals.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, utoipa::ToSchema)]
#[schema(as = Money)]
pub struct MoneyDto {
    /// Exact decimal with exactly the currency's decimals.
    #[serde(with = "rust_decimal::serde::arbitrary_precision")]
    #[schema(value_type = f64, example = 12.5)]
    pub amount: Decimal,
    pub currency: CurrencyDto,
}

impl MoneyDto {
    /// A stored total (a balance), shown with the currency's decimals. Unlike [`Money::new`]
    /// it has no upper bound: a sum of many bounded amounts may exceed it.
    pub fn total(mut amount: Decimal, currency: Currency) -> Self {
        amount.rescale(currency.minor_unit());
        Self {
            amount,
            currency: currency.into(),
        }
    }
}

impl From<Money> for MoneyDto {
    fn from(m: Money) -> Self {
        Self {
            amount: m.amount(),
            currency: m.currency().into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    #[test]
    fn totals_beyond_the_amount_bound_still_display() {
        let big = Decimal::from_str("25000000000000.5").unwrap();
        assert_eq!(
            MoneyDto::total(big, Currency::eur()).amount.to_string(),
            "25000000000000.50"
        );
    }

    #[test]
    fn serializes_amount_as_an_exact_json_number() {
        let money = Money::new(Decimal::from_str("12.5").unwrap(), Currency::eur()).unwrap();
        let json = serde_json::to_string(&MoneyDto::from(money)).unwrap();
        assert_eq!(
            json,
            r#"{"amount":12.50,"currency":{"code":"EUR","symbol":"€"}}"#
        );
    }
}
