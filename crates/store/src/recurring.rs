//! Recurring schedules: `PK = USER#<id>`, `SK = RECUR#<id, 16 digits>`, and, while the
//! schedule has a next due date, the due-date index key on GSI1:
//! `GSI1PK = RECUR#<shard>` (the user's shard, as the users index and the global
//! categories), `GSI1SK = <due date>#<user id>#<schedule id>`. The job Queries each
//! shard for keys before tomorrow: no Scan, and no key every user writes.
//!
//! An occurrence is created by [`Store::insert_occurrence`]: the transaction (as every
//! create writes it) and the schedule's `done` moved past it, in one
//! `TransactWriteItems` conditional on the schedule still being the version read, with
//! an id derived from (schedule, date).

use crate::FromItem;
use std::collections::BTreeMap;

use aws_sdk_dynamodb::types::AttributeValue;
use rust_decimal::Decimal;

use super::attr::{get_opt_s, get_s, get_u64, n, s};
use super::feed::Entity;
use super::items::transaction::{get_details, put_details};
use super::items::{get_owner, get_times, get_version, stamps};
use super::keys::{shard_of, user_pk, GSI1};
use super::transact::TxItems;
use super::versioned::Versioned;
use super::{batch, ConflictKind, Item, Store, StoreResult};
use pf_domain::recurring::{Exception, Recurring};
use pf_domain::time::{format_date, parse_date};
use pf_domain::Transaction;

pub const RECUR_PREFIX: &str = "RECUR#";

pub fn recur_sk(id: u64) -> String {
    format!("RECUR#{id:016}")
}

fn versioned(user_id: u64, id: u64) -> Versioned {
    Versioned::new(Entity::Recurring, user_id, id, recur_sk(id))
}

/// The due-date index partition of one shard.
pub fn due_pk(shard: u64) -> String {
    format!("RECUR#{shard}")
}

fn due_sk(r: &Recurring) -> Option<String> {
    let due = r.due_date()?;
    Some(format!("{}#{}#{}", format_date(due), r.user_id, r.id))
}

/// The schedule's item, with its due-date index key when it has a next due date.
pub fn to_item(r: &Recurring) -> Item {
    let mut item = Item::from([
        ("PK".into(), s(user_pk(r.user_id))),
        ("SK".into(), s(recur_sk(r.id))),
        ("id".into(), n(r.id)),
        ("start".into(), s(format_date(r.schedule.start))),
        ("rrule".into(), s(&r.rrule)),
        ("weekend".into(), s(r.schedule.weekend.as_str())),
        ("backfill".into(), AttributeValue::Bool(r.backfill)),
        ("notBefore".into(), s(format_date(r.not_before))),
        ("exceptions".into(), s(exceptions_json(&r.exceptions))),
    ]);
    put_details(&mut item, &r.details);
    item.extend(stamps(r.version, r.created_at, r.updated_at));
    if let Some(d) = r.done {
        item.insert("done".into(), s(format_date(d)));
    }
    if let Some(key) = due_sk(r) {
        item.insert("GSI1PK".into(), s(due_pk(shard_of(r.user_id))));
        item.insert("GSI1SK".into(), s(key));
    }
    item
}

fn exceptions_json(exceptions: &BTreeMap<time::Date, Exception>) -> String {
    let map: serde_json::Map<String, serde_json::Value> = exceptions
        .iter()
        .map(|(nominal, e)| {
            let value = match e {
                Exception::Skip => serde_json::json!({"skip": true}),
                Exception::Change { date, amount } => serde_json::json!({
                    "date": date.map(format_date),
                    "amount": amount.map(|a| a.to_string()),
                }),
            };
            (format_date(*nominal), value)
        })
        .collect();
    serde_json::Value::Object(map).to_string()
}

fn parse_exceptions(text: &str) -> anyhow::Result<BTreeMap<time::Date, Exception>> {
    let map: BTreeMap<String, serde_json::Value> = serde_json::from_str(text)?;
    let date = |v: &serde_json::Value| v.as_str().map(parse_date).transpose();
    let mut out = BTreeMap::new();
    for (nominal, v) in map {
        let e = if v.get("skip").and_then(|s| s.as_bool()) == Some(true) {
            Exception::Skip
        } else {
            let amount = v.get("amount").and_then(|a| a.as_str());
            Exception::Change {
                date: v
                    .get("date")
                    .map(date)
                    .transpose()
                    .map_err(anyhow::Error::msg)?
                    .flatten(),
                amount: amount.map(|a| a.parse::<Decimal>()).transpose()?,
            }
        };
        out.insert(parse_date(&nominal).map_err(anyhow::Error::msg)?, e);
    }
    Ok(out)
}

impl FromItem for Recurring {
    fn from_item(item: &Item) -> anyhow::Result<Self> {
        let date = |name: &str| -> anyhow::Result<time::Date> {
            parse_date(get_s(item, name)?).map_err(anyhow::Error::msg)
        };
        let rrule = get_s(item, "rrule")?.to_owned();
        let rule = rrule
            .parse()
            .map_err(|e| anyhow::anyhow!("stored rrule: {e}"))?;
        let weekend = get_s(item, "weekend")?
            .parse()
            .map_err(|e| anyhow::anyhow!("stored weekend: {e}"))?;
        let (created_at, updated_at) = get_times(item)?;
        let done = get_opt_s(item, "done").map(|d| parse_date(&d)).transpose();
        Ok(Self {
            user_id: get_owner(item, "recurring")?,
            id: get_u64(item, "id")?,
            details: get_details(item)?,
            schedule: recurrence::Schedule::new(date("start")?, rule, weekend),
            rrule,
            backfill: matches!(item.get("backfill"), Some(AttributeValue::Bool(true))),
            not_before: date("notBefore")?,
            done: done.map_err(anyhow::Error::msg)?,
            exceptions: parse_exceptions(get_s(item, "exceptions").unwrap_or("{}"))?,
            version: get_version(item),
            created_at,
            updated_at,
        })
    }
}

/// A schedule found due: its owner and id.
pub type DueKey = (u64, u64);

impl Store {
    pub async fn get_recurring(&self, user_id: u64, id: u64) -> StoreResult<Option<Recurring>> {
        let item = self.get(&user_pk(user_id), &recur_sk(id)).await?;
        Ok(item.as_ref().map(Recurring::from_item).transpose()?)
    }

    /// Every schedule of the user (at most [`MAX_SCHEDULES`](pf_domain::recurring::MAX_SCHEDULES)): one Query.
    pub async fn all_recurring(&self, user_id: u64) -> StoreResult<Vec<Recurring>> {
        let items = self.query_prefix(&user_pk(user_id), RECUR_PREFIX).await?;
        Ok(items
            .iter()
            .map(Recurring::from_item)
            .collect::<anyhow::Result<_>>()?)
    }

    /// One page of the user's schedules after schedule `after`, oldest first, and the
    /// last id when more may follow.
    pub async fn list_recurring(
        &self,
        user_id: u64,
        limit: i32,
        after: Option<u64>,
    ) -> StoreResult<(Vec<Recurring>, Option<u64>)> {
        let pk = user_pk(user_id);
        let query = self.query_prefix_range(&pk, None, RECUR_PREFIX);
        let start = after.map(|id| batch::key(&pk, &recur_sk(id)));
        let page = self.query_page(query, start, limit).await?;
        let items: Vec<Recurring> = page
            .items
            .unwrap_or_default()
            .iter()
            .map(Recurring::from_item)
            .collect::<anyhow::Result<_>>()?;
        let next = page.last_evaluated_key.and(items.last().map(|r| r.id));
        Ok((items, next))
    }

    /// Writes a new schedule (`expected` `None`: the id must be free, else `IdTaken`) or
    /// replaces the stored one if it is still at version `expected` (else `Changed`),
    /// with its change-feed entry.
    pub async fn put_recurring(&self, r: &Recurring, expected: Option<u64>) -> StoreResult<()> {
        let item = (to_item(r), r.version);
        self.put_versioned(&versioned(r.user_id, r.id), item, expected, |_| Ok(()))
            .await
    }

    /// Deletes a schedule if still at `version`, with its tombstone in the change feed:
    /// `NotFound` when absent, `Changed` when at another version. The transactions it
    /// made stay.
    pub async fn delete_recurring(&self, user_id: u64, id: u64, version: u64) -> StoreResult<()> {
        self.delete_versioned(&versioned(user_id, id), version)
            .await
    }

    /// Creates an occurrence: puts `txn` as every create does and replaces the schedule
    /// by `after` (its `done` moved to the occurrence), conditional on the schedule still
    /// being at version `read` (else `Changed`; a taken id is `IdTaken`).
    pub async fn insert_occurrence(
        &self,
        txn: &Transaction,
        after: &Recurring,
        read: u64,
        head: Option<u64>,
        now: &str,
    ) -> StoreResult<()> {
        self.insert_transaction_with(txn, head, now, |tx: &mut TxItems<'_>| {
            let values = Item::from([(":v".into(), n(read))]);
            let condition = "attribute_exists(PK) AND version = :v";
            tx.put(to_item(after), Some(condition), Some(values))?;
            tx.on_conflict(ConflictKind::Changed);
            tx.upserted(after.user_id, Entity::Recurring, after.id, after.version);
            Ok(())
        })
        .await
    }

    /// One page of the due-date index of `shard`: schedules due on or before `today`.
    pub async fn due_recurring(
        &self,
        shard: u64,
        today: time::Date,
        start: Option<Item>,
    ) -> StoreResult<(Vec<DueKey>, Option<Item>)> {
        let tomorrow = today
            .next_day()
            .map(format_date)
            .unwrap_or_else(|| "9".into());
        let out = self
            .query_table()
            .index_name(GSI1)
            .key_condition_expression("GSI1PK = :pk AND GSI1SK < :tomorrow")
            .expression_attribute_values(":pk", s(due_pk(shard)))
            .expression_attribute_values(":tomorrow", s(tomorrow))
            .set_exclusive_start_key(start)
            .send()
            .await
            .map_err(super::error::sdk_error)?;
        let keys = out
            .items
            .unwrap_or_default()
            .iter()
            .filter_map(|item| {
                let user = get_owner(item, "recurring").ok()?;
                let id = get_s(item, "SK")
                    .ok()?
                    .strip_prefix(RECUR_PREFIX)?
                    .parse()
                    .ok()?;
                Some((user, id))
            })
            .collect();
        Ok((keys, out.last_evaluated_key))
    }
}
