//! The admins' user list: a scatter-gather over the users index. Profiles are spread over
//! [`SHARDS`] index partitions (`USERS#<shard>`) so that registrations and profile changes
//! never all write one partition; a page queries every shard at once and merges them in index order, so pages
//! and cursors are as with one partition.

use std::collections::BTreeMap;

use aws_sdk_dynamodb::types::AttributeValue;

use super::attr::{get_opt_u64, s, Item};
use super::batch::key;
use super::keys::{user_pk, users_shard_pk, GSI1, PROFILE, SHARDS};
use super::{sdk_error, Store, StoreResult};
use pf_domain::Role;

/// A user as listed from the index (no password hash there).
#[derive(Debug, Clone, serde::Deserialize)]
pub struct UserSummary {
    pub id: u64,
    pub email: String,
    #[serde(rename = "firstName")]
    pub first_name: String,
    #[serde(rename = "lastName")]
    pub last_name: String,
    pub role: Role,
    /// Not in the index (its projection predates verification): read from the profiles
    /// of the page, see [`Store::list_users`].
    #[serde(rename = "emailVerified", default)]
    pub email_verified: bool,
    #[serde(rename = "createdAt")]
    pub created_at: String,
    #[serde(rename = "updatedAt")]
    pub updated_at: String,
}

/// What one index partition returned after the cursor: items by index sort key, and
/// whether it stopped before its end (`LastEvaluatedKey`).
struct ShardPage {
    items: Vec<(String, Item)>,
    truncated: bool,
}

impl Store {
    /// One page of users in index order (`USER#<id>`), after the user `cursor`: one
    /// `Query` per index partition, concurrently; then the page's profiles for what the
    /// index does not hold (`emailVerified`: a GSI's projection cannot change in place),
    /// one `BatchGetItem` per 100 users.
    pub async fn list_users(
        &self,
        limit: i32,
        cursor: Option<u64>,
    ) -> StoreResult<(Vec<UserSummary>, Option<u64>)> {
        let after = cursor.map(user_pk);
        let partitions = (0..SHARDS).map(users_shard_pk);
        let pages = futures::future::try_join_all(
            partitions.map(|pk| self.users_index_page(pk, after.clone(), limit)),
        )
        .await?;
        let (items, next) = merge(pages, limit.max(1) as usize);
        let mut users = items
            .into_iter()
            .map(|item| serde_dynamo::from_item(item).map_err(anyhow::Error::from))
            .collect::<anyhow::Result<Vec<UserSummary>>>()?;
        let keys = users.iter().map(|u| key(&user_pk(u.id), PROFILE)).collect();
        let verified: std::collections::HashSet<u64> = self
            .batch_get_all(keys)
            .await?
            .iter()
            .filter(|p| matches!(p.get("emailVerified"), Some(AttributeValue::Bool(true))))
            .filter_map(|p| get_opt_u64(p, "id"))
            .collect();
        for u in &mut users {
            u.email_verified = verified.contains(&u.id);
        }
        let next = next.and_then(|sk| sk.strip_prefix("USER#").and_then(|v| v.parse().ok()));
        Ok((users, next))
    }

    async fn users_index_page(
        &self,
        pk: String,
        after: Option<String>,
        limit: i32,
    ) -> StoreResult<ShardPage> {
        let mut query = self
            .query_table()
            .index_name(GSI1)
            .expression_attribute_values(":pk", s(pk))
            .limit(limit);
        query = match after {
            Some(sk) => query
                .key_condition_expression("GSI1PK = :pk AND GSI1SK > :after")
                .expression_attribute_values(":after", s(sk)),
            None => query.key_condition_expression("GSI1PK = :pk"),
        };
        let out = query.send().await.map_err(sdk_error)?;
        let items = out
            .items
            .unwrap_or_default()
            .into_iter()
            .filter_map(|item| {
                let sk = item.get("GSI1SK")?.as_s().ok()?.clone();
                Some((sk, item))
            })
            .collect();
        Ok(ShardPage {
            items,
            truncated: out.last_evaluated_key.is_some(),
        })
    }
}

/// The first `limit` items of all pages in sort-key order, and the sort key to continue
/// after when more may follow. A page that stopped early may hide items beyond its last
/// one, so nothing beyond the lowest such stop is taken: the next page continues there.
fn merge(pages: Vec<ShardPage>, limit: usize) -> (Vec<Item>, Option<String>) {
    let bound = pages
        .iter()
        .filter(|p| p.truncated)
        .filter_map(|p| p.items.last().map(|(sk, _)| sk.clone()))
        .min();
    let more_hidden = pages.iter().any(|p| p.truncated);
    let mut all: BTreeMap<String, Item> = BTreeMap::new();
    for (sk, item) in pages.into_iter().flat_map(|p| p.items) {
        if bound.as_ref().is_none_or(|b| &sk <= b) {
            all.insert(sk, item);
        }
    }
    let more = more_hidden || all.len() > limit;
    let taken: Vec<(String, Item)> = all.into_iter().take(limit).collect();
    let next = taken.last().map(|(sk, _)| sk.clone()).filter(|_| more);
    (taken.into_iter().map(|(_, item)| item).collect(), next)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(sks: &[&str], truncated: bool) -> ShardPage {
        ShardPage {
            items: sks
                .iter()
                .map(|sk| (sk.to_string(), Item::from([("GSI1SK".into(), s(*sk))])))
                .collect(),
            truncated,
        }
    }

    fn merged(pages: Vec<ShardPage>, limit: usize) -> (Vec<String>, Option<String>) {
        let (items, next) = merge(pages, limit);
        let sks = items
            .iter()
            .map(|i| i["GSI1SK"].as_s().unwrap().clone())
            .collect();
        (sks, next)
    }

    #[test]
    fn shards_merge_in_key_order_and_the_cursor_follows_the_last_item_taken() {
        let (sks, next) = merged(
            vec![
                page(&["USER#1", "USER#4"], false),
                page(&["USER#2", "USER#3"], false),
            ],
            3,
        );
        assert_eq!(sks, ["USER#1", "USER#2", "USER#3"]);
        assert_eq!(next.as_deref(), Some("USER#3"));
        let (sks, next) = merged(vec![page(&["USER#1"], false), page(&[], false)], 3);
        assert_eq!((sks, next), (vec!["USER#1".to_owned()], None));
    }

    #[test]
    fn nothing_is_taken_beyond_where_a_shard_stopped() {
        // Shard A stopped at USER#2 and may hold USER#3: USER#5 of shard B must wait.
        let (sks, next) = merged(
            vec![page(&["USER#1", "USER#2"], true), page(&["USER#5"], false)],
            3,
        );
        assert_eq!(sks, ["USER#1", "USER#2"]);
        assert_eq!(next.as_deref(), Some("USER#2"));
    }
}
