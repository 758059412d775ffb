//! A category's item: `PK = USER#<owner>`, `SK = CAT#<id>`; a global category has
//! identical copies in `GLOBAL` (the source) and in every shard's `GLOBAL#<shard>`.

use aws_sdk_dynamodb::types::AttributeValue;

use super::super::attr::{get_opt_u64, get_s, get_timestamp, get_u64, n, s, Item};
use super::super::keys::{cat_sk, global_pk, shard_of, user_pk, GLOBAL_PK, SHARDS};
use crate::domain::{Category, CategoryType};

/// Where `user_id` reads a category: their own partition, or their shard's copy of the
/// global categories.
pub fn category_pk(user_id: u64, global: bool) -> String {
    if global {
        global_pk(shard_of(user_id))
    } else {
        user_pk(user_id)
    }
}

/// Every partition that holds a copy of the category: its owner's, or for a global one
/// the source and every shard's (written together, in one transaction).
pub fn partitions(c: &Category) -> Vec<String> {
    match c.owner {
        Some(owner) => vec![user_pk(owner)],
        None => std::iter::once(GLOBAL_PK.to_owned())
            .chain((0..SHARDS).map(global_pk))
            .collect(),
    }
}

/// The item of the category's copy in partition `pk`.
pub fn to_item(c: &Category, pk: &str) -> Item {
    Item::from([
        ("PK".into(), s(pk)),
        ("SK".into(), s(cat_sk(c.id))),
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
            _ if pk == GLOBAL_PK || pk.starts_with("GLOBAL#") => None,
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
        assert_eq!(partitions(&c), ["USER#7"]);
        assert_eq!(Category::try_from(&to_item(&c, "USER#7")).unwrap(), c);
        c.owner = None;
        let copies = partitions(&c);
        assert_eq!(copies.len() as u64, 1 + SHARDS);
        for pk in &copies {
            assert_eq!(Category::try_from(&to_item(&c, pk)).unwrap(), c);
            assert_eq!(to_item(&c, pk)["isGlobal"], AttributeValue::Bool(true));
        }
        assert!(copies.contains(&category_pk(7, true)));
    }
}
