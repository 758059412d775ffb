//! Reading and writing attribute values without panicking on unexpected items.

use std::collections::HashMap;
use std::str::FromStr;

use aws_sdk_dynamodb::types::AttributeValue;
use rust_decimal::Decimal;

pub type Item = HashMap<String, AttributeValue>;

pub fn s(v: impl Into<String>) -> AttributeValue {
    AttributeValue::S(v.into())
}

pub fn n(v: impl ToString) -> AttributeValue {
    AttributeValue::N(v.to_string())
}

fn missing(name: &str) -> anyhow::Error {
    anyhow::anyhow!("stored item lacks a valid `{name}` attribute")
}

pub fn get_s<'a>(item: &'a Item, name: &str) -> anyhow::Result<&'a str> {
    item.get(name)
        .and_then(|v| v.as_s().ok())
        .map(String::as_str)
        .ok_or_else(|| missing(name))
}

/// A `YYYY-MM-DDTHH:MM:SS` timestamp attribute.
pub fn get_timestamp(item: &Item, name: &str) -> anyhow::Result<pf_domain::time::Timestamp> {
    pf_domain::time::Timestamp::parse(get_s(item, name)?).map_err(anyhow::Error::msg)
}

pub fn get_opt_s(item: &Item, name: &str) -> Option<String> {
    item.get(name).and_then(|v| v.as_s().ok()).cloned()
}

pub fn get_u64(item: &Item, name: &str) -> anyhow::Result<u64> {
    item.get(name)
        .and_then(|v| v.as_n().ok())
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| missing(name))
}

pub fn get_opt_u64(item: &Item, name: &str) -> Option<u64> {
    item.get(name)
        .and_then(|v| v.as_n().ok())
        .and_then(|v| v.parse().ok())
}

/// DynamoDB numbers are exact decimals (38 digits), so they round-trip through `Decimal`.
pub fn get_decimal(item: &Item, name: &str) -> anyhow::Result<Decimal> {
    item.get(name)
        .and_then(|v| v.as_n().ok())
        .and_then(|v| Decimal::from_str(v).ok())
        .ok_or_else(|| missing(name))
}

pub fn get_u64_list(item: &Item, name: &str) -> Vec<u64> {
    match item.get(name) {
        Some(AttributeValue::Ns(values)) => {
            let mut ids: Vec<u64> = values.iter().filter_map(|v| v.parse().ok()).collect();
            ids.sort_unstable();
            ids
        }
        _ => Vec::new(),
    }
}
