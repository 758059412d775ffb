//! Decimals in request bodies: a JSON number (kept exact by serde_json's arbitrary
//! precision) or a plain decimal string such as `"12.50"`.

use std::str::FromStr;

use rust_decimal::Decimal;
use serde_json::Value;

/// `12`, `12.5`, `-3.25` (sign only when `signed`): up to 13 integer digits and 3 decimals,
/// nothing else (no spaces, exponents or `+`), as the API document's pattern states.
pub fn parse_plain(text: &str, signed: bool) -> Option<Decimal> {
    let unsigned = if signed {
        text.strip_prefix('-').unwrap_or(text)
    } else {
        text
    };
    let (int, frac) = unsigned.split_once('.').unwrap_or((unsigned, "0"));
    let digits = |s: &str, max: usize| {
        !s.is_empty() && s.len() <= max && s.bytes().all(|b| b.is_ascii_digit())
    };
    if digits(int, 13) && digits(frac, 3) {
        Decimal::from_str(text).ok()
    } else {
        None
    }
}

/// A JSON number exactly as written (JSON allows exponents) or a plain decimal string.
pub fn from_json(value: &Value, signed: bool) -> Option<Decimal> {
    match value {
        Value::Number(n) => {
            let text = n.to_string();
            Decimal::from_str(&text)
                .ok()
                .or_else(|| Decimal::from_scientific(&text).ok())
        }
        Value::String(s) => parse_plain(s, signed),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_decimals_pass_as_strings() {
        assert_eq!(parse_plain("12.50", false).unwrap().to_string(), "12.50");
        assert_eq!(parse_plain("-3", true).unwrap().to_string(), "-3");
        for bad in [
            "",
            " 1",
            "1 ",
            "+1",
            "1e2",
            "1.2345",
            "12345678901234",
            ".5",
            "5.",
            "-1",
        ] {
            assert!(parse_plain(bad, false).is_none(), "{bad:?}");
        }
    }

    #[test]
    fn json_numbers_keep_their_digits() {
        let v: Value = serde_json::from_str("0.10").unwrap();
        assert_eq!(from_json(&v, false).unwrap().to_string(), "0.10");
        let v: Value = serde_json::from_str("1e2").unwrap();
        assert_eq!(from_json(&v, false).unwrap(), Decimal::from(100));
        assert!(from_json(&Value::Bool(true), false).is_none());
    }
}
