//! What a transaction write refers to, read in one strongly consistent `BatchGetItem`:
//! the wallet, the category (own, or the copy of a global one in the user's shard), provider, tags, the stored transaction and
//! an idempotency record.

use crate::FromItem;
use std::collections::{BTreeMap, BTreeSet};

use super::Transaction;
use crate::attr::{get_opt_u64, get_s, get_u64};
use crate::batch::key;
use crate::categories::pick_category;
use crate::feed::head_seq;
use crate::items::category::category_pk;
use crate::keys::{cat_sk, idem_sk, provider_sk, tag_sk, txn_sk, user_pk, WALLET};
use crate::{Store, StoreResult};
use pf_domain::{Category, Wallet};

/// A stored idempotency key: which request (by hash) created which transaction.
#[derive(Debug, Clone, PartialEq)]
pub struct IdempotencyRecord {
    pub request_hash: String,
    pub transaction_id: u64,
    /// What the request did: `create`, `update` or `delete`.
    pub op: String,
    /// For an update: the transaction it left.
    pub result: Option<Transaction>,
}

/// What a transaction write refers to.
#[derive(Debug, Default)]
pub struct Refs {
    pub wallet: Option<Wallet>,
    pub category: Option<Category>,
    /// The categories of a split's parts found, by id.
    pub part_categories: BTreeMap<u64, Category>,
    pub provider_found: bool,
    pub tags_found: BTreeSet<u64>,
    pub transaction: Option<Transaction>,
    pub idempotency: Option<IdempotencyRecord>,
    /// The user's change feed head (see [`crate::feed`]).
    pub feed_head: u64,
}

/// The keys to fetch for [`Store::fetch_refs`] (the wallet is always fetched).
#[derive(Debug, Default)]
pub struct RefKeys<'a> {
    pub category_id: Option<u64>,
    pub provider_id: Option<u64>,
    pub tag_ids: &'a [u64],
    pub transaction_id: Option<u64>,
    pub idempotency_key: Option<&'a str>,
    /// A split's parts' categories and tags.
    pub part_category_ids: Vec<u64>,
    pub part_tag_ids: Vec<u64>,
}

impl Store {
    /// Fetches the wallet and everything a write refers to in one `BatchGetItem` (sent
    /// again for keys DynamoDB leaves unprocessed).
    pub async fn fetch_refs(&self, user_id: u64, keys: RefKeys<'_>) -> StoreResult<Refs> {
        self.read_refs(user_id, keys, false).await
    }

    /// [`Store::fetch_refs`] in exactly one `BatchGetItem`, for a write's retry (which
    /// reads again): keys left unprocessed are `Contention`.
    pub async fn fetch_refs_once(&self, user_id: u64, keys: RefKeys<'_>) -> StoreResult<Refs> {
        self.read_refs(user_id, keys, true).await
    }

    async fn read_refs(&self, user_id: u64, keys: RefKeys<'_>, once: bool) -> StoreResult<Refs> {
        let pk = user_pk(user_id);
        // The wallet also holds the user's feed head.
        let mut wanted = vec![key(&pk, WALLET)];
        let category_ids: BTreeSet<u64> = keys
            .category_id
            .into_iter()
            .chain(keys.part_category_ids.iter().copied())
            .collect();
        for c in &category_ids {
            wanted.push(key(&category_pk(user_id, true), &cat_sk(*c)));
            wanted.push(key(&pk, &cat_sk(*c)));
        }
        if let Some(p) = keys.provider_id {
            wanted.push(key(&pk, &provider_sk(p)));
        }
        let tags: BTreeSet<u64> = keys
            .tag_ids
            .iter()
            .chain(&keys.part_tag_ids)
            .copied()
            .collect();
        for t in &tags {
            wanted.push(key(&pk, &tag_sk(*t)));
        }
        if let Some(t) = keys.transaction_id {
            wanted.push(key(&pk, &txn_sk(t)));
        }
        if let Some(k) = keys.idempotency_key {
            wanted.push(key(&pk, &idem_sk(k)));
        }
        // A keyed update or delete reads its transaction and its key's record as of one
        // moment: apart, it could see a copy of itself done to the transaction but not yet
        // its record, and answer that copy's new version 412 instead of replaying it.
        let found = if once && keys.transaction_id.is_some() && keys.idempotency_key.is_some() {
            let found = self.transact_get_once(wanted).await?;
            found.into_iter().flatten().collect()
        } else if once {
            self.batch_get_once(wanted).await?
        } else {
            self.batch_get(wanted).await?
        };

        let mut refs = Refs::default();
        let mut categories: BTreeMap<u64, Vec<_>> = BTreeMap::new();
        for item in found {
            let sk = get_s(&item, "SK")?.to_owned();
            if sk == WALLET {
                refs.feed_head = head_seq(&item);
                refs.wallet = Some(Wallet::from_item(&item)?);
            } else if let Some(c) = sk.strip_prefix("CAT#").and_then(|c| c.parse().ok()) {
                categories.entry(c).or_default().push(item);
            } else if sk.starts_with("PROV#") {
                refs.provider_found = true;
            } else if let Some(t) = sk.strip_prefix("TAG#").and_then(|t| t.parse().ok()) {
                refs.tags_found.insert(t);
            } else if sk.starts_with("TXN#") {
                refs.transaction = Some(Transaction::from_item(&item)?);
            } else if sk.starts_with("IDEM#") {
                // Kept a day: one older is gone, whenever DynamoDB's TTL deletes it.
                let expires = get_opt_u64(&item, "expiresAt").unwrap_or(u64::MAX);
                if expires <= now_unix() {
                    continue;
                }
                let result = match item.get("result") {
                    Some(aws_sdk_dynamodb::types::AttributeValue::M(m)) => {
                        Some(Transaction::from_item(m)?)
                    }
                    _ => None,
                };
                refs.idempotency = Some(IdempotencyRecord {
                    request_hash: get_s(&item, "requestHash")?.to_owned(),
                    transaction_id: get_u64(&item, "transactionId")?,
                    op: get_s(&item, "op").unwrap_or("create").to_owned(),
                    result,
                });
            }
        }
        for (id, items) in categories {
            let Some(found) = pick_category(items)? else {
                continue;
            };
            if keys.category_id == Some(id) {
                refs.category = Some(found.clone());
            }
            if keys.part_category_ids.contains(&id) {
                refs.part_categories.insert(id, found);
            }
        }
        Ok(refs)
    }
}

/// Seconds since the Unix epoch, as `expiresAt` counts them.
pub(crate) fn now_unix() -> u64 {
    time::OffsetDateTime::now_utc().unix_timestamp().max(0) as u64
}
