//! Exact money: a decimal amount tied to an ISO 4217 currency.
//!
//! Amounts are `rust_decimal::Decimal`, never floats. The JSON shapes of money live on
//! the HTTP side (`pf_http::money`).

use rust_decimal::Decimal;

/// Largest accepted magnitude of an amount (exclusive): 10^13 major units.
pub const MAX_AMOUNT_EXCLUSIVE: Decimal = Decimal::from_parts(1_316_134_912, 2_328, 0, false, 0);

/// An ISO 4217 currency this service knows: code, symbol and minor unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Currency {
    code: &'static str,
    symbol: &'static str,
    minor_unit: u32,
}

/// Currencies accepted by the service (ISO 4217 codes with their minor units).
const CURRENCIES: &[Currency] = &[
    Currency::new("EUR", "€", 2),
    Currency::new("USD", "$", 2),
    Currency::new("GBP", "£", 2),
    Currency::new("CHF", "CHF", 2),
    Currency::new("JPY", "¥", 0),
    Currency::new("CAD", "CA$", 2),
    Currency::new("AUD", "A$", 2),
    Currency::new("NZD", "NZ$", 2),
    Currency::new("SEK", "kr", 2),
    Currency::new("NOK", "kr", 2),
    Currency::new("DKK", "kr.", 2),
    Currency::new("PLN", "zł", 2),
    Currency::new("CZK", "Kč", 2),
    Currency::new("HUF", "Ft", 2),
    Currency::new("CNY", "¥", 2),
    Currency::new("INR", "₹", 2),
    Currency::new("BRL", "R$", 2),
    Currency::new("MXN", "MX$", 2),
    Currency::new("ZAR", "R", 2),
    Currency::new("KRW", "₩", 0),
    Currency::new("MAD", "MAD", 2),
    Currency::new("XOF", "F CFA", 0),
    Currency::new("TND", "DT", 3),
    Currency::new("BHD", "BD", 3),
    Currency::new("KWD", "KD", 3),
];

impl Currency {
    const fn new(code: &'static str, symbol: &'static str, minor_unit: u32) -> Self {
        Self {
            code,
            symbol,
            minor_unit,
        }
    }

    /// The euro.
    pub fn eur() -> Self {
        Self::new("EUR", "€", 2)
    }

    /// Looks a currency up by its ISO 4217 code (upper case, exactly three letters).
    pub fn from_code(code: &str) -> Option<Self> {
        CURRENCIES.iter().copied().find(|c| c.code == code)
    }

    /// Every supported currency.
    pub fn all() -> &'static [Currency] {
        CURRENCIES
    }

    pub fn code(&self) -> &'static str {
        self.code
    }

    pub fn symbol(&self) -> &'static str {
        self.symbol
    }

    /// Number of decimals of the currency's minor unit (EUR 2, JPY 0, BHD 3).
    pub fn minor_unit(&self) -> u32 {
        self.minor_unit
    }
}

/// Why an amount or an operation on money was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoneyError {
    #[error("amount has more decimals than {code} allows ({allowed})")]
    TooManyDecimals { code: &'static str, allowed: u32 },
    #[error("amount must be below 10^13 in magnitude")]
    OutOfRange,
}

/// What a field out of range is told: the one message of the 10^13 bound.
pub const OUT_OF_RANGE: &str = "must be below 10^13";

impl MoneyError {
    /// The refusal as a field's message (`amount`: "must be below 10^13", …).
    pub fn field_message(&self) -> String {
        match self {
            MoneyError::TooManyDecimals { code, allowed } => {
                format!("{code} amounts have at most {allowed} decimals")
            }
            MoneyError::OutOfRange => OUT_OF_RANGE.to_owned(),
        }
    }
}

/// An exact amount of a currency.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Money {
    amount: Decimal,
    currency: Currency,
}

impl Money {
    /// Builds money, refusing amounts finer than the currency's minor unit or out of range.
    pub fn new(amount: Decimal, currency: Currency) -> Result<Self, MoneyError> {
        if amount.abs() >= MAX_AMOUNT_EXCLUSIVE {
            return Err(MoneyError::OutOfRange);
        }
        if amount.normalize().scale() > currency.minor_unit {
            return Err(MoneyError::TooManyDecimals {
                code: currency.code,
                allowed: currency.minor_unit,
            });
        }
        Ok(Self::rescaled(amount, currency))
    }

    fn rescaled(mut amount: Decimal, currency: Currency) -> Self {
        amount.rescale(currency.minor_unit);
        Self { amount, currency }
    }

    pub fn amount(&self) -> Decimal {
        self.amount
    }

    pub fn currency(&self) -> Currency {
        self.currency
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::str::FromStr;

    fn eur(s: &str) -> Money {
        Money::new(Decimal::from_str(s).unwrap(), Currency::eur()).unwrap()
    }

    #[test]
    fn max_amount_constant_is_ten_to_the_thirteen() {
        assert_eq!(MAX_AMOUNT_EXCLUSIVE, Decimal::from(10_000_000_000_000_i64));
    }

    #[test]
    fn minor_units_are_enforced_per_currency() {
        let jpy = Currency::from_code("JPY").unwrap();
        assert!(Money::new(Decimal::from_str("100.5").unwrap(), jpy).is_err());
        let bhd = Currency::from_code("BHD").unwrap();
        assert_eq!(
            Money::new(Decimal::from_str("1.234").unwrap(), bhd)
                .unwrap()
                .amount()
                .to_string(),
            "1.234"
        );
        // Trailing zeros beyond the minor unit are not extra precision.
        assert_eq!(eur("1.2000").amount().to_string(), "1.20");
    }

    #[test]
    fn amounts_are_bounded() {
        assert_eq!(
            Money::new(
                Decimal::from_str("10000000000000").unwrap(),
                Currency::eur()
            ),
            Err(MoneyError::OutOfRange)
        );
        assert!(Money::new(
            Decimal::from_str("9999999999999.99").unwrap(),
            Currency::eur()
        )
        .is_ok());
    }

    proptest! {
        #[test]
        fn any_amount_in_cents_is_kept_exactly(c in -999_999_999_999_999i64..=999_999_999_999_999i64) {
            let money = Money::new(Decimal::new(c, 2), Currency::eur()).unwrap();
            prop_assert_eq!(money.amount(), Decimal::new(c, 2));
            prop_assert_eq!(money.amount().scale(), 2);
        }

        #[test]
        fn a_third_decimal_is_refused_in_euros(c in -99_999_999_999_999i64..99_999_999_999_999i64) {
            prop_assume!(c % 10 != 0);
            prop_assert_eq!(
                Money::new(Decimal::new(c, 3), Currency::eur()),
                Err(MoneyError::TooManyDecimals { code: "EUR", allowed: 2 })
            );
        }
    }
}
