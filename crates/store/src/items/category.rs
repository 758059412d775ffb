//! A category's item: `PK = USER#<owner>`, `SK = CAT#<id>`; a global category has
//! identical copies in `GLOBAL` (the source) and in every shard's `GLOBAL#<shard>`.

use crate::FromItem;
use aws_sdk_dynamodb::types::AttributeValue;

use super::{get_category_type, get_owner, get_string, get_times, get_version, stamps};
use crate::attr::{get_opt_u64, get_s, get_u64, n, s, Item};
use crate::keys::{cat_sk, global_pk, shard_of, user_pk, GLOBAL_PK, SHARDS};
use pf_domain::Category;

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
    let mut item = Item::from([
        ("PK".into(), s(pk)),
        ("SK".into(), s(cat_sk(c.id))),
        ("id".into(), n(c.id)),
        ("categoryName".into(), s(&c.name)),
        ("icon".into(), s(&c.icon)),
        ("color".into(), s(&c.color)),
        ("isGlobal".into(), AttributeValue::Bool(c.is_global())),
        ("categoryType".into(), s(c.category_type.as_str())),
        ("useCount".into(), n(c.use_count)),
    ]);
    item.extend(stamps(c.version, c.created_at, c.updated_at));
    item
}

impl FromItem for Category {
    fn from_item(item: &Item) -> anyhow::Result<Self> {
        let pk = get_s(item, "PK")?;
        let owner = match pk {
            _ if pk == GLOBAL_PK || pk.starts_with("GLOBAL#") => None,
            _ => Some(get_owner(item, "category")?),
        };
        let (created_at, updated_at) = get_times(item)?;
        Ok(Self {
            id: get_u64(item, "id")?,
            owner,
            name: get_string(item, "categoryName")?,
            icon: get_string(item, "icon")?,
            color: get_string(item, "color")?,
            category_type: get_category_type(item)?,
            use_count: get_opt_u64(item, "useCount").unwrap_or(0),
            version: get_version(item),
            created_at,
            updated_at,
        })
    }
}
