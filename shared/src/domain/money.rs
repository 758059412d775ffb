//! Exact money: a decimal amount tied to an ISO 4217 currency.
//!
//! Amounts are `rust_decimal::Decimal`, never floats. Operations that mix
//! currencies return an error value instead of converting or panicking.

use std::fmt;

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

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

    /// The US dollar.
    pub fn usd() -> Self {
        Self::new("USD", "$", 2)
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
    #[error("currencies differ: {0} and {1}")]
    CurrencyMismatch(&'static str, &'static str),
    #[error("amount has more decimals than {code} allows ({allowed})")]
    TooManyDecimals { code: &'static str, allowed: u32 },
    #[error("amount must be below 10^13 in magnitude")]
    OutOfRange,
    #[error("amount is not a finite number")]
    NotFinite,
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

    /// Zero of a currency.
    pub fn zero(currency: Currency) -> Self {
        Self::rescaled(Decimal::ZERO, currency)
    }

    /// Euros from a double, taking its shortest decimal form: `0.1` is exactly 0.10 €.
    pub fn euros(value: f64) -> Result<Self, MoneyError> {
        Self::from_double(value, Currency::eur())
    }

    /// Dollars from a double, taking its shortest decimal form.
    pub fn dollars(value: f64) -> Result<Self, MoneyError> {
        Self::from_double(value, Currency::usd())
    }

    fn from_double(value: f64, currency: Currency) -> Result<Self, MoneyError> {
        if !value.is_finite() {
            return Err(MoneyError::NotFinite);
        }
        // `Display` of an f64 is the shortest string that round-trips, so 0.1 reads as "0.1",
        // not as the binary approximation 0.1000000000000000055511151231257827.
        let amount: Decimal = value
            .to_string()
            .parse()
            .map_err(|_| MoneyError::OutOfRange)?;
        Self::new(amount, currency)
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

    fn same_currency(&self, other: &Money) -> Result<(), MoneyError> {
        if self.currency == other.currency {
            Ok(())
        } else {
            Err(MoneyError::CurrencyMismatch(
                self.currency.code,
                other.currency.code,
            ))
        }
    }

    pub fn add(&self, other: &Money) -> Result<Money, MoneyError> {
        self.same_currency(other)?;
        let sum = self
            .amount
            .checked_add(other.amount)
            .ok_or(MoneyError::OutOfRange)?;
        Money::new(sum, self.currency)
    }

    pub fn subtract(&self, other: &Money) -> Result<Money, MoneyError> {
        self.same_currency(other)?;
        let diff = self
            .amount
            .checked_sub(other.amount)
            .ok_or(MoneyError::OutOfRange)?;
        Money::new(diff, self.currency)
    }

    /// Multiplies by a decimal factor, rounding half-even (banker's rounding) to the minor unit.
    pub fn multiply(&self, factor: Decimal) -> Result<Money, MoneyError> {
        let product = self
            .amount
            .checked_mul(factor)
            .ok_or(MoneyError::OutOfRange)?;
        let rounded = product.round_dp_with_strategy(
            self.currency.minor_unit,
            rust_decimal::RoundingStrategy::MidpointNearestEven,
        );
        Money::new(rounded, self.currency)
    }

    /// True when `self` is strictly greater than `other` (same currency only).
    pub fn greater_than(&self, other: &Money) -> Result<bool, MoneyError> {
        self.same_currency(other)?;
        Ok(self.amount > other.amount)
    }
}

impl fmt::Display for Money {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.amount, self.currency.code)
    }
}

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
            code: c.code.to_owned(),
            symbol: c.symbol.to_owned(),
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
        amount.rescale(currency.minor_unit);
        Self {
            amount,
            currency: currency.into(),
        }
    }
}

impl From<Money> for MoneyDto {
    fn from(m: Money) -> Self {
        Self {
            amount: m.amount,
            currency: m.currency.into(),
        }
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
    fn euros_from_a_double_is_exact_in_decimal() {
        assert_eq!(Money::euros(0.1).unwrap().amount().to_string(), "0.10");
        let sum = Money::euros(0.1)
            .unwrap()
            .add(&Money::euros(0.2).unwrap())
            .unwrap();
        assert_eq!(sum, eur("0.3"));
        assert_eq!(Money::dollars(19.99).unwrap().currency().code(), "USD");
    }

    #[test]
    fn a_double_with_too_many_decimals_is_refused() {
        assert!(matches!(
            Money::euros(0.125),
            Err(MoneyError::TooManyDecimals { .. })
        ));
        assert_eq!(Money::euros(f64::NAN), Err(MoneyError::NotFinite));
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

    #[test]
    fn mixing_currencies_is_an_error_value() {
        let d = Money::dollars(1.0).unwrap();
        let e = Money::euros(1.0).unwrap();
        assert_eq!(e.add(&d), Err(MoneyError::CurrencyMismatch("EUR", "USD")));
        assert_eq!(
            e.subtract(&d),
            Err(MoneyError::CurrencyMismatch("EUR", "USD"))
        );
        assert!(e.greater_than(&d).is_err());
    }

    #[test]
    fn multiply_rounds_half_even_to_the_minor_unit() {
        assert_eq!(
            eur("10.00")
                .multiply(Decimal::from_str("0.125").unwrap())
                .unwrap(),
            eur("1.25")
        );
        assert_eq!(
            eur("0.05")
                .multiply(Decimal::from_str("0.5").unwrap())
                .unwrap(),
            eur("0.02")
        );
        assert_eq!(
            eur("0.15")
                .multiply(Decimal::from_str("0.5").unwrap())
                .unwrap(),
            eur("0.08")
        );
    }

    #[test]
    fn greater_than_compares_amounts() {
        assert!(eur("2").greater_than(&eur("1.99")).unwrap());
        assert!(!eur("1.99").greater_than(&eur("1.99")).unwrap());
    }

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
        let json = serde_json::to_string(&MoneyDto::from(eur("12.5"))).unwrap();
        assert_eq!(
            json,
            r#"{"amount":12.50,"currency":{"code":"EUR","symbol":"€"}}"#
        );
    }

    fn cents() -> impl Strategy<Value = Money> {
        (-99_999_999_999i64..99_999_999_999i64)
            .prop_map(|c| Money::new(Decimal::new(c, 2), Currency::eur()).unwrap())
    }

    proptest! {
        #[test]
        fn add_then_subtract_is_identity(a in cents(), b in cents()) {
            prop_assert_eq!(a.add(&b).unwrap().subtract(&b).unwrap(), a);
        }

        #[test]
        fn addition_commutes_and_associates(a in cents(), b in cents(), c in cents()) {
            prop_assert_eq!(a.add(&b).unwrap(), b.add(&a).unwrap());
            prop_assert_eq!(a.add(&b).unwrap().add(&c).unwrap(), a.add(&b.add(&c).unwrap()).unwrap());
        }

        #[test]
        fn greater_than_agrees_with_subtraction(a in cents(), b in cents()) {
            let diff = a.subtract(&b).unwrap();
            prop_assert_eq!(a.greater_than(&b).unwrap(), diff.amount() > Decimal::ZERO);
        }

        #[test]
        fn multiply_by_one_is_identity_and_by_integer_is_repeated_addition(a in cents(), n in 0i64..5) {
            prop_assert_eq!(a.multiply(Decimal::ONE).unwrap(), a);
            let mut sum = Money::zero(Currency::eur());
            for _ in 0..n { sum = sum.add(&a).unwrap(); }
            prop_assert_eq!(a.multiply(Decimal::from(n)).unwrap(), sum);
        }

        #[test]
        fn any_two_decimal_double_is_exact(c in -100_000_000_i64..100_000_000_i64) {
            let expected = Decimal::new(c, 2);
            let as_double: f64 = expected.to_string().parse().unwrap();
            prop_assert_eq!(Money::euros(as_double).unwrap().amount(), expected);
        }
    }
}
