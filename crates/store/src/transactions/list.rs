//! One page of a user's transactions, newest date first, from the date-ordered index.

use crate::FromItem;
use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;
use rust_decimal::Decimal;

use super::Transaction;
use crate::attr::{n, s, Item};
use crate::keys::{user_pk, LSI1};
use crate::{Store, StoreError, StoreResult};
use pf_domain::CategoryType;

/// Filters of the transaction list; all optional and combined with AND.
#[derive(Debug, Default, Clone)]
pub struct TxnFilter {
    pub from: Option<String>,
    pub to: Option<String>,
    pub category_id: Option<u64>,
    pub category_type: Option<CategoryType>,
    pub provider_id: Option<u64>,
    pub tag_id: Option<u64>,
    pub min_amount: Option<Decimal>,
    pub max_amount: Option<Decimal>,
    pub q: Option<String>,
}

/// One page of transactions and the cursor of the next, if any.
#[derive(Debug)]
pub struct TxnPage {
    pub items: Vec<Transaction>,
    pub next_cursor: Option<String>,
}

/// The position after `key`, as `<LSI1SK>|<SK>`. The HTTP layer seals it into an opaque,
/// authenticated cursor (`auth::cursor`); the store only ever sees positions it wrote.
fn encode_cursor(key: &Item) -> Option<String> {
    let sk = key.get("SK")?.as_s().ok()?;
    let lsi = key.get("LSI1SK")?.as_s().ok()?;
    Some(format!("{lsi}|{sk}"))
}

/// The position after `t`, as the list issues positions (an export's pages end on one).
pub fn position_after(t: &Transaction) -> String {
    let date = pf_domain::time::format_date(t.date);
    format!(
        "{}|{}",
        crate::keys::txn_lsi(&date, t.id),
        crate::keys::txn_sk(t.id)
    )
}

/// Decodes a position into the start key of the caller's own partition: the partition is
/// never taken from the position.
fn decode_cursor(user_id: u64, cursor: &str) -> Option<Item> {
    let (lsi, sk) = cursor.split_once('|')?;
    if !lsi.starts_with("TXN#") || !sk.starts_with("TXN#") || lsi.len() > 64 || sk.len() > 64 {
        return None;
    }
    Some(Item::from([
        ("PK".into(), s(user_pk(user_id))),
        ("SK".into(), s(sk)),
        ("LSI1SK".into(), s(lsi)),
    ]))
}

impl Store {
    /// One page of the caller's transactions, newest date first, from one `Query` on the
    /// date-ordered index (`NotFound` for a position that does not parse). Filters other than the date range apply within the page, so a
    /// page can hold fewer than `limit` items while a next cursor still exists.
    pub async fn list_transactions(
        &self,
        user_id: u64,
        filter: &TxnFilter,
        limit: i32,
        cursor: Option<&str>,
    ) -> StoreResult<TxnPage> {
        // Positions come sealed from the HTTP layer; one that does not parse is not ours.
        let start = cursor
            .map(|c| decode_cursor(user_id, c).ok_or(StoreError::NotFound))
            .transpose()?;
        let lo = format!("TXN#{}", filter.from.as_deref().unwrap_or(""));
        let hi = match &filter.to {
            Some(to) => format!("TXN#{to}#~"),
            None => "TXN#~".to_owned(),
        };
        // A position of the same list with other dates lies outside this range: DynamoDB
        // would refuse it as a start key (a 500); it is not this list's cursor.
        let outside = |key: &Item| {
            let lsi = key.get("LSI1SK").and_then(|v| v.as_s().ok());
            lsi.is_none_or(|lsi| *lsi < lo || *lsi > hi)
        };
        if start.as_ref().is_some_and(outside) {
            return Err(StoreError::NotFound);
        }
        if lo > hi {
            // An empty date range: nothing to read.
            return Ok(TxnPage {
                items: Vec::new(),
                next_cursor: None,
            });
        }
        let mut values: HashMap<String, AttributeValue> = HashMap::from([
            (":pk".into(), s(user_pk(user_id))),
            (":lo".into(), s(lo)),
            (":hi".into(), s(hi)),
        ]);
        let mut conditions = Vec::new();
        let mut add = |cond: &str, name: &str, value: AttributeValue| {
            conditions.push(cond.to_owned());
            values.insert(name.into(), value);
        };
        if let Some(c) = filter.category_id {
            // A split is in every category one of its parts is in.
            let cond = "(categoryId = :cat OR contains(splitCategoryIds, :cat))";
            add(cond, ":cat", n(c));
        }
        if let Some(t) = filter.category_type {
            add("categoryType = :type", ":type", s(t.as_str()));
        }
        if let Some(p) = filter.provider_id {
            add("providerId = :prov", ":prov", n(p));
        }
        if let Some(t) = filter.tag_id {
            let cond = "(contains(tagIds, :tag) OR contains(splitTagIds, :tag))";
            add(cond, ":tag", n(t));
        }
        if let Some(min) = filter.min_amount {
            add("amount >= :min", ":min", n(min));
        }
        if let Some(max) = filter.max_amount {
            add("amount <= :max", ":max", n(max));
        }
        if let Some(q) = &filter.q {
            add("contains(noteLc, :q)", ":q", s(q.to_lowercase()));
        }
        let query = self
            .query_table()
            .index_name(LSI1)
            .key_condition_expression("PK = :pk AND LSI1SK BETWEEN :lo AND :hi")
            .set_filter_expression(if conditions.is_empty() {
                None
            } else {
                Some(conditions.join(" AND "))
            })
            .set_expression_attribute_values(Some(values))
            .scan_index_forward(false);
        let out = self.query_page(query, start, limit).await?;
        let items = out
            .items
            .unwrap_or_default()
            .iter()
            .map(Transaction::from_item)
            .collect::<anyhow::Result<Vec<_>>>()?;
        Ok(TxnPage {
            items,
            next_cursor: out.last_evaluated_key.as_ref().and_then(encode_cursor),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_round_trip_and_stay_in_the_callers_partition() {
        let key = Item::from([
            ("PK".into(), s("USER#1")),
            ("SK".into(), s("TXN#0000000000000042")),
            ("LSI1SK".into(), s("TXN#2026-01-02#0000000000000042")),
        ]);
        let cursor = encode_cursor(&key).unwrap();
        let decoded = decode_cursor(7, &cursor).unwrap();
        assert_eq!(decoded.get("PK").unwrap().as_s().unwrap(), "USER#7");
        assert_eq!(decoded.get("SK"), key.get("SK"));
        assert!(decode_cursor(7, "not-a-cursor!").is_none());
        assert!(decode_cursor(7, "PROFILE|WALLET").is_none());
    }
}
