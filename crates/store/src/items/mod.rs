//! DynamoDB items of the domain entities: each converts to an item and back with
//! `TryFrom<&Item>`, failing (never panicking) on an item that is not one.

pub mod category;
mod split;
pub mod transaction;
pub mod user;
pub mod wallet;

#[cfg(test)]
mod tests;

use aws_sdk_dynamodb::types::AttributeValue;

use super::attr::{get_opt_u64, get_s, get_timestamp, n, s, Item};
use pf_domain::time::Timestamp;
use pf_domain::{CategoryType, Currency};

/// The attributes every entity's item carries last: its version and when it was created
/// and last updated.
pub(crate) fn stamps(
    version: u64,
    created_at: Timestamp,
    updated_at: Timestamp,
) -> [(String, AttributeValue); 3] {
    [
        ("version".into(), n(version)),
        ("createdAt".into(), s(created_at.to_string())),
        ("updatedAt".into(), s(updated_at.to_string())),
    ]
}

/// The version of an item written before versions existed is 1.
pub(crate) fn get_version(item: &Item) -> u64 {
    get_opt_u64(item, "version").unwrap_or(1)
}

/// When the item was created and last updated.
pub(crate) fn get_times(item: &Item) -> anyhow::Result<(Timestamp, Timestamp)> {
    Ok((
        get_timestamp(item, "createdAt")?,
        get_timestamp(item, "updatedAt")?,
    ))
}

/// The user whose partition (`PK = USER#<id>`) holds the item, `what` naming the item.
pub(crate) fn get_owner(item: &Item, what: &str) -> anyhow::Result<u64> {
    get_s(item, "PK")?
        .strip_prefix("USER#")
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| anyhow::anyhow!("{what} item has a malformed PK"))
}

pub(crate) fn get_currency(item: &Item) -> anyhow::Result<Currency> {
    let code = get_s(item, "currencyCode")?;
    Currency::from_code(code).ok_or_else(|| anyhow::anyhow!("unknown stored currency {code}"))
}

pub(crate) fn get_category_type(item: &Item) -> anyhow::Result<CategoryType> {
    let kind = get_s(item, "categoryType")?;
    CategoryType::parse(kind).ok_or_else(|| anyhow::anyhow!("unknown category type {kind}"))
}

/// A string attribute, owned.
fn get_string(item: &Item, name: &str) -> anyhow::Result<String> {
    Ok(get_s(item, name)?.to_owned())
}
