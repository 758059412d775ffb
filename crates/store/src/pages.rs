//! One page of a partition's items in key order, for the lists that page by key (tags,
//! providers, categories): one strongly consistent `Query` per page, its position the sort
//! key of the last item read. The HTTP layer seals positions into opaque cursors; the
//! store only ever sees positions it wrote, and the partition never comes from one.

use super::attr::Item;
use super::batch::key;
use super::{Store, StoreError, StoreResult};

/// Items of one page and the position after them when more may follow.
#[derive(Debug)]
pub struct KeyPage {
    pub items: Vec<Item>,
    /// The sort key of the last item read (the next page starts after it).
    pub last: Option<String>,
}

/// An optional filter of a page: the expression and its values.
pub type PageFilter<'a> = Option<(&'a str, Item)>;

impl Store {
    /// At most `limit` items of partition `pk` whose sort key starts with `prefix`, after
    /// the sort key `after` (`NotFound` for a position that is not one of this prefix),
    /// read with one `Query`. A `filter` applies within the page, so a page can hold fewer
    /// than `limit` items while a next position still exists.
    pub async fn query_key_page(
        &self,
        pk: &str,
        prefix: &str,
        filter: PageFilter<'_>,
        limit: i32,
        after: Option<&str>,
    ) -> StoreResult<KeyPage> {
        let start = match after {
            Some(sk) if sk.starts_with(prefix) && sk.len() <= 64 => Some(key(pk, sk)),
            Some(_) => return Err(StoreError::NotFound),
            None => None,
        };
        let mut query = self.query_prefix_range(pk, None, prefix);
        if let Some((expression, values)) = filter {
            query = query.filter_expression(expression);
            for (name, value) in values {
                query = query.expression_attribute_values(name, value);
            }
        }
        let out = self.query_page(query, start, limit).await?;
        let last = out
            .last_evaluated_key
            .as_ref()
            .and_then(|k| k.get("SK"))
            .and_then(|v| v.as_s().ok())
            .cloned();
        Ok(KeyPage {
            items: out.items.unwrap_or_default(),
            last,
        })
    }
}
