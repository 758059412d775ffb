//! A category's item: `PK = GLOBAL` (global) or `USER#<owner>`, `SK = CAT#<id>`.

use aws_sdk_dynamodb::types::AttributeValue;

use super::super::attr::{get_opt_u64, get_s, get_timestamp, get_u64, n, s, Item};
use super::super::keys::{cat_sk, user_pk, GLOBAL_PK};
use crate::domain::{Category, CategoryType};

/// The partition of a category: `GLOBAL`, or its owner's.
pub fn partition(owner: Option<u64>) -> String {
    owner.map_or_else(|| GLOBAL_PK.to_owned(), user_pk)
}

/// The key of a category.
pub fn key(c: &Category) -> (String, String) {
    (partition(c.owner), cat_sk(c.id))
}

pub fn to_item(c: &Category) -> Item {
    let (pk, sk) = key(c);
    Item::from([
        ("PK".into(), s(pk)),
        ("SK".into(), s(sk)),
        ("id".into(), n(c.id)),
        ("categoryName".into(), s(&c.name)),
        ("icon".into(), s(&c.icon)),
        ("color".into(), s(&c.color)),
        ("isGlobal".into(), AttributeValue::Bool(c.is_global())),
        ("categoryType".into(), s(c.category_type.as_str())),
        ("useCount".into(), n(c.use_count)),
        ("version".into(), n(c.version)),
        ("createdAt".into(), s(c.created_at.to_string())),
        ("updatedAt".into(), s(c.updated_at.to_string())),
    ])
}

impl TryFrom<&Item> for Category {
    type Error = anyhow::Error;

    fn try_from(item: &Item) -> anyhow::Result<Self> {
        let pk = get_s(item, "PK")?;
        let owner = match pk {
            GLOBAL_PK => None,
            _ => Some(
                pk.strip_prefix("USER#")
                    .and_then(|v| v.parse().ok())
                    .ok_or_else(|| anyhow::anyhow!("category item has a malformed PK"))?,
            ),
        };
        let kind = get_s(item, "categoryType")?;
        Ok(Self {
            id: get_u64(item, "id")?,
            owner,
            name: get_s(item, "categoryName")?.to_owned(),
            icon: get_s(item, "icon")?.to_owned(),
            color: get_s(item, "color")?.to_owned(),
            category_type: CategoryType::parse(kind)
                .ok_or_else(|| anyhow::anyhow!("unknown category type {kind}"))?,
            use_count: get_opt_u64(item, "useCount").unwrap_or(0),
            version: get_opt_u64(item, "version").unwrap_or(1),
            created_at: get_timestamp(item, "createdAt")?,
            updated_at: get_timestamp(item, "updatedAt")?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::time::Timestamp;

    #[test]
    fn own_and_global_categories_survive_their_items() {
        let at = Timestamp::parse("2026-01-01T00:00:00").unwrap();
        let mut c = Category {
            id: 99,
            owner: Some(7),
            name: "Pets".into(),
            icon: "paw".into(),
            color: "#8E24AA".into(),
            category_type: CategoryType::Debit,
            use_count: 3,
            version: 2,
            created_at: at,
            updated_at: at,
        };
        assert_eq!(Category::try_from(&to_item(&c)).unwrap(), c);
        assert_eq!(to_item(&c)["PK"].as_s().unwrap(), "USER#7");
        c.owner = None;
        assert_eq!(Category::try_from(&to_item(&c)).unwrap(), c);
        assert_eq!(to_item(&c)["isGlobal"], AttributeValue::Bool(true));
    }
}
