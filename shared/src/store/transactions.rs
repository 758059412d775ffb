//! Transactions: each write also moves the wallet balance and the reference counts of the
//! category, provider and tags it uses, in one `TransactWriteItems`.

use std::collections::{BTreeSet, HashMap};

use aws_sdk_dynamodb::types::{AttributeValue, KeysAndAttributes};
use rust_decimal::Decimal;

use super::attr::{get_decimal, get_opt_s, get_opt_u64, get_s, get_u64, get_u64_list, n, s, Item};
use super::categories::CategoryRecord;
use super::keys::{
    cat_sk, idem_sk, provider_sk, tag_sk, txn_lsi, txn_sk, user_pk, GLOBAL_PK, LSI1, WALLET,
};
use super::transact::{TransactError, TxItems};
use super::wallet::WalletRecord;
use super::{backoff, sdk_error, Store, StoreError, StoreResult, MAX_ATTEMPTS};
use crate::domain::{CategoryType, Currency};

#[derive(Debug, Clone, PartialEq)]
pub struct TransactionRecord {
    pub user_id: u64,
    pub id: u64,
    /// Always positive; the category type gives the direction.
    pub amount: Decimal,
    pub currency: Currency,
    /// `YYYY-MM-DD`.
    pub date: String,
    pub note: Option<String>,
    pub category_id: u64,
    pub category_type: CategoryType,
    pub category_global: bool,
    pub provider_id: Option<u64>,
    pub tag_ids: Vec<u64>,
    pub version: u64,
    pub created_at: String,
    pub updated_at: String,
}

impl TransactionRecord {
    /// The change this transaction makes to its wallet's balance.
    pub fn signed_amount(&self) -> Decimal {
        self.category_type.signed(self.amount)
    }

    fn to_item(&self) -> Item {
        let mut item = Item::from([
            ("PK".into(), s(user_pk(self.user_id))),
            ("SK".into(), s(txn_sk(self.id))),
            ("LSI1SK".into(), s(txn_lsi(&self.date, self.id))),
            ("id".into(), n(self.id)),
            ("amount".into(), n(self.amount)),
            ("currencyCode".into(), s(self.currency.code())),
            ("date".into(), s(&self.date)),
            ("categoryId".into(), n(self.category_id)),
            ("categoryType".into(), s(self.category_type.as_str())),
            (
                "categoryGlobal".into(),
                AttributeValue::Bool(self.category_global),
            ),
            ("version".into(), n(self.version)),
            ("createdAt".into(), s(&self.created_at)),
            ("updatedAt".into(), s(&self.updated_at)),
        ]);
        if let Some(note) = &self.note {
            item.insert("note".into(), s(note));
            // Lower-cased copy for case-insensitive `q` search.
            item.insert("noteLc".into(), s(note.to_lowercase()));
        }
        if let Some(p) = self.provider_id {
            item.insert("providerId".into(), n(p));
        }
        if !self.tag_ids.is_empty() {
            // Sets may not be empty in DynamoDB, so no tags means no attribute.
            item.insert(
                "tagIds".into(),
                AttributeValue::Ns(self.tag_ids.iter().map(u64::to_string).collect()),
            );
        }
        item
    }
}

impl TryFrom<&Item> for TransactionRecord {
    type Error = anyhow::Error;

    fn try_from(item: &Item) -> anyhow::Result<Self> {
        let user_id = get_s(item, "PK")?
            .strip_prefix("USER#")
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| anyhow::anyhow!("transaction item has a malformed PK"))?;
        let code = get_s(item, "currencyCode")?;
        let kind = get_s(item, "categoryType")?;
        Ok(Self {
            user_id,
            id: get_u64(item, "id")?,
            amount: get_decimal(item, "amount")?,
            currency: Currency::from_code(code)
                .ok_or_else(|| anyhow::anyhow!("unknown stored currency {code}"))?,
            date: get_s(item, "date")?.to_owned(),
            note: get_opt_s(item, "note"),
            category_id: get_u64(item, "categoryId")?,
            category_type: CategoryType::parse(kind)
                .ok_or_else(|| anyhow::anyhow!("unknown category type {kind}"))?,
            category_global: matches!(item.get("categoryGlobal"), Some(AttributeValue::Bool(true))),
            provider_id: get_opt_u64(item, "providerId"),
            tag_ids: get_u64_list(item, "tagIds"),
            version: get_u64(item, "version")?,
            created_at: get_s(item, "createdAt")?.to_owned(),
            updated_at: get_s(item, "updatedAt")?.to_owned(),
        })
    }
}

/// A stored idempotency key: which request (by hash) created which transaction.
#[derive(Debug, Clone, PartialEq)]
pub struct IdempotencyRecord {
    pub request_hash: String,
    pub transaction_id: u64,
}

/// Idempotency keys are remembered for a day.
const IDEMPOTENCY_TTL_SECS: i64 = 24 * 3600;

/// What a transaction write refers to, fetched in one `BatchGetItem`.
#[derive(Debug, Default)]
pub struct Refs {
    pub wallet: Option<WalletRecord>,
    pub category: Option<CategoryRecord>,
    pub provider_found: bool,
    pub tags_found: BTreeSet<u64>,
    pub transaction: Option<TransactionRecord>,
    pub idempotency: Option<IdempotencyRecord>,
}

/// The keys to fetch for [`Store::fetch_refs`].
#[derive(Debug, Default)]
pub struct RefKeys<'a> {
    pub category_id: Option<u64>,
    pub provider_id: Option<u64>,
    pub tag_ids: &'a [u64],
    pub transaction_id: Option<u64>,
    pub idempotency_key: Option<&'a str>,
    /// Leave the wallet out (a read that only needs the references).
    pub skip_wallet: bool,
}

/// Why a transaction write was refused by a condition.
#[derive(Debug, thiserror::Error)]
pub enum TxnWriteError {
    /// The wallet is gone (user deleted) or its currency changed meanwhile.
    #[error("wallet changed or missing")]
    Wallet,
    /// A referenced category, provider or tag vanished or changed type meanwhile.
    #[error("a referenced {0} no longer exists")]
    Reference(&'static str),
    /// The transaction changed or vanished since it was read.
    #[error("transaction changed meanwhile")]
    Stale,
    /// Another request with the same idempotency key won the race.
    #[error("idempotency key already used")]
    IdempotencyKey,
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<anyhow::Error> for TxnWriteError {
    fn from(e: anyhow::Error) -> Self {
        TxnWriteError::Store(StoreError::Other(e))
    }
}

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
    pub items: Vec<TransactionRecord>,
    pub next_cursor: Option<String>,
}

/// The cursor was not one we issued.
#[derive(Debug, thiserror::Error)]
#[error("invalid cursor")]
pub struct InvalidCursor;

/// The position after `key`, as `<LSI1SK>|<SK>`. The HTTP layer seals it into an opaque,
/// authenticated cursor (`auth::cursor`); the store only ever sees positions it wrote.
fn encode_cursor(key: &Item) -> Option<String> {
    let sk = key.get("SK")?.as_s().ok()?;
    let lsi = key.get("LSI1SK")?.as_s().ok()?;
    Some(format!("{lsi}|{sk}"))
}

/// Decodes a position into the start key of the caller's own partition: the partition is
/// never taken from the position.
fn decode_cursor(user_id: u64, cursor: &str) -> Result<Item, InvalidCursor> {
    let (lsi, sk) = cursor.split_once('|').ok_or(InvalidCursor)?;
    if !lsi.starts_with("TXN#") || !sk.starts_with("TXN#") || lsi.len() > 64 || sk.len() > 64 {
        return Err(InvalidCursor);
    }
    Ok(Item::from([
        ("PK".into(), s(user_pk(user_id))),
        ("SK".into(), s(sk)),
        ("LSI1SK".into(), s(lsi)),
    ]))
}

fn key(pk: String, sk: String) -> Item {
    Item::from([("PK".into(), s(pk)), ("SK".into(), s(sk))])
}

impl Store {
    /// Fetches the wallet and everything a write refers to in one strongly consistent
    /// `BatchGetItem` (retrying only keys DynamoDB reports unprocessed).
    pub async fn fetch_refs(&self, user_id: u64, keys: RefKeys<'_>) -> StoreResult<Refs> {
        let pk = user_pk(user_id);
        let mut wanted = Vec::new();
        if !keys.skip_wallet {
            wanted.push(key(pk.clone(), WALLET.into()));
        }
        if let Some(c) = keys.category_id {
            wanted.push(key(GLOBAL_PK.into(), cat_sk(c)));
            wanted.push(key(pk.clone(), cat_sk(c)));
        }
        if let Some(p) = keys.provider_id {
            wanted.push(key(pk.clone(), provider_sk(p)));
        }
        let tags: BTreeSet<u64> = keys.tag_ids.iter().copied().collect();
        for t in &tags {
            wanted.push(key(pk.clone(), tag_sk(*t)));
        }
        if let Some(t) = keys.transaction_id {
            wanted.push(key(pk.clone(), txn_sk(t)));
        }
        if let Some(k) = keys.idempotency_key {
            wanted.push(key(pk.clone(), idem_sk(k)));
        }

        let mut found: Vec<Item> = Vec::new();
        let mut pending = Some(wanted);
        let mut attempt = 0;
        while let Some(batch) = pending.take().filter(|b| !b.is_empty()) {
            attempt += 1;
            let request = KeysAndAttributes::builder()
                .set_keys(Some(batch))
                .consistent_read(true)
                .build()
                .map_err(anyhow::Error::from)?;
            let out = self
                .client
                .batch_get_item()
                .request_items(&self.table, request)
                .send()
                .await
                .map_err(sdk_error)?;
            if let Some(mut responses) = out.responses {
                found.extend(responses.remove(&self.table).unwrap_or_default());
            }
            pending = out
                .unprocessed_keys
                .and_then(|mut u| u.remove(&self.table))
                .map(|k| k.keys);
            if pending.as_ref().is_some_and(|p| !p.is_empty()) {
                if attempt >= MAX_ATTEMPTS {
                    return Err(StoreError::Contention);
                }
                backoff(attempt).await;
            }
        }

        let mut refs = Refs::default();
        for item in found {
            let (item_pk, sk) = (
                get_s(&item, "PK")?.to_owned(),
                get_s(&item, "SK")?.to_owned(),
            );
            if sk == WALLET {
                refs.wallet = Some(WalletRecord::try_from(&item)?);
            } else if sk.starts_with("CAT#") {
                let cat: CategoryRecord =
                    serde_dynamo::from_item(item).map_err(anyhow::Error::from)?;
                // A user's own category is preferred should ids ever coincide.
                if item_pk == pk || refs.category.is_none() {
                    refs.category = Some(cat);
                }
            } else if sk.starts_with("PROV#") {
                refs.provider_found = true;
            } else if let Some(t) = sk.strip_prefix("TAG#").and_then(|t| t.parse().ok()) {
                refs.tags_found.insert(t);
            } else if sk.starts_with("TXN#") {
                refs.transaction = Some(TransactionRecord::try_from(&item)?);
            } else if sk.starts_with("IDEM#") {
                refs.idempotency = Some(IdempotencyRecord {
                    request_hash: get_s(&item, "requestHash")?.to_owned(),
                    transaction_id: get_u64(&item, "transactionId")?,
                });
            }
        }
        Ok(refs)
    }

    /// Reads one of the caller's transactions (one `GetItem`).
    pub async fn get_transaction(
        &self,
        user_id: u64,
        id: u64,
    ) -> StoreResult<Option<TransactionRecord>> {
        let out = self
            .client
            .get_item()
            .table_name(&self.table)
            .key("PK", s(user_pk(user_id)))
            .key("SK", s(txn_sk(id)))
            .consistent_read(true)
            .send()
            .await
            .map_err(sdk_error)?;
        Ok(match out.item {
            Some(item) => Some(TransactionRecord::try_from(&item)?),
            None => None,
        })
    }

    /// Writes a new transaction, its balance change and reference counts atomically.
    /// `expected_currency` guards against a concurrent change of the wallet's currency.
    pub async fn insert_transaction(
        &self,
        txn: &TransactionRecord,
        idempotency: Option<(&str, &str)>,
        now: &str,
    ) -> Result<(), TxnWriteError> {
        let mut tx = TxItems::new(self);
        let txn_pos = tx.put(txn.to_item(), Some("attribute_not_exists(PK)"), None)?;
        let wallet_pos = self.add_wallet_change(&mut tx, txn, txn.signed_amount(), 1, now)?;
        let mut ref_positions = Vec::new();
        self.add_category_use(&mut tx, txn, 1, true, &mut ref_positions)?;
        if let Some(p) = txn.provider_id {
            ref_positions.push((
                tx.update(
                    &user_pk(txn.user_id),
                    &provider_sk(p),
                    "ADD useCount :one",
                    Some("attribute_exists(PK)"),
                    one(),
                    None,
                )?,
                "provider",
            ));
        }
        for t in &txn.tag_ids {
            ref_positions.push((
                tx.update(
                    &user_pk(txn.user_id),
                    &tag_sk(*t),
                    "ADD useCount :one",
                    Some("attribute_exists(PK)"),
                    one(),
                    None,
                )?,
                "tag",
            ));
        }
        let idem_pos = match idempotency {
            Some((key, hash)) => {
                let expires =
                    time::OffsetDateTime::now_utc().unix_timestamp() + IDEMPOTENCY_TTL_SECS;
                let item = Item::from([
                    ("PK".into(), s(user_pk(txn.user_id))),
                    ("SK".into(), s(idem_sk(key))),
                    ("requestHash".into(), s(hash)),
                    ("transactionId".into(), n(txn.id)),
                    ("expiresAt".into(), n(expires)),
                ]);
                Some(tx.put(item, Some("attribute_not_exists(PK)"), None)?)
            }
            None => None,
        };
        match self.transact(tx).await {
            Ok(()) => Ok(()),
            Err(TransactError::ConditionFailed(pos)) if pos == txn_pos => Err(TxnWriteError::Stale),
            Err(TransactError::ConditionFailed(pos)) if pos == wallet_pos => {
                Err(TxnWriteError::Wallet)
            }
            Err(TransactError::ConditionFailed(pos)) if Some(pos) == idem_pos => {
                Err(TxnWriteError::IdempotencyKey)
            }
            Err(TransactError::ConditionFailed(pos)) => {
                Err(TxnWriteError::Reference(reference_at(&ref_positions, pos)))
            }
            Err(TransactError::Store(e)) => Err(e.into()),
        }
    }

    /// Replaces `old` by `new` if `old` is still the stored version, moving the balance by
    /// the difference and the reference counts of what changed.
    pub async fn replace_transaction(
        &self,
        old: &TransactionRecord,
        new: &TransactionRecord,
        now: &str,
    ) -> Result<(), TxnWriteError> {
        let mut tx = TxItems::new(self);
        let txn_pos = tx.put(
            new.to_item(),
            Some("attribute_exists(PK) AND version = :v"),
            Some(Item::from([(":v".into(), n(old.version))])),
        )?;
        let wallet_pos = self.add_wallet_change(
            &mut tx,
            new,
            new.signed_amount() - old.signed_amount(),
            0,
            now,
        )?;
        let mut ref_positions = Vec::new();
        if old.category_id != new.category_id || old.category_global != new.category_global {
            self.add_category_use(&mut tx, old, -1, false, &mut ref_positions)?;
            self.add_category_use(&mut tx, new, 1, true, &mut ref_positions)?;
        }
        if old.provider_id != new.provider_id {
            if let Some(p) = old.provider_id {
                tx.update(
                    &user_pk(old.user_id),
                    &provider_sk(p),
                    "ADD useCount :one",
                    None,
                    minus_one(),
                    None,
                )?;
            }
            if let Some(p) = new.provider_id {
                ref_positions.push((
                    tx.update(
                        &user_pk(new.user_id),
                        &provider_sk(p),
                        "ADD useCount :one",
                        Some("attribute_exists(PK)"),
                        one(),
                        None,
                    )?,
                    "provider",
                ));
            }
        }
        let old_tags: BTreeSet<u64> = old.tag_ids.iter().copied().collect();
        let new_tags: BTreeSet<u64> = new.tag_ids.iter().copied().collect();
        for t in old_tags.difference(&new_tags) {
            tx.update(
                &user_pk(old.user_id),
                &tag_sk(*t),
                "ADD useCount :one",
                None,
                minus_one(),
                None,
            )?;
        }
        for t in new_tags.difference(&old_tags) {
            ref_positions.push((
                tx.update(
                    &user_pk(new.user_id),
                    &tag_sk(*t),
                    "ADD useCount :one",
                    Some("attribute_exists(PK)"),
                    one(),
                    None,
                )?,
                "tag",
            ));
        }
        match self.transact(tx).await {
            Ok(()) => Ok(()),
            Err(TransactError::ConditionFailed(pos)) if pos == txn_pos => Err(TxnWriteError::Stale),
            Err(TransactError::ConditionFailed(pos)) if pos == wallet_pos => {
                Err(TxnWriteError::Wallet)
            }
            Err(TransactError::ConditionFailed(pos)) => {
                Err(TxnWriteError::Reference(reference_at(&ref_positions, pos)))
            }
            Err(TransactError::Store(e)) => Err(e.into()),
        }
    }

    /// Deletes `old` if it is still the stored version, reverting its balance change and
    /// releasing its references.
    pub async fn remove_transaction(
        &self,
        old: &TransactionRecord,
        now: &str,
    ) -> Result<(), TxnWriteError> {
        let mut tx = TxItems::new(self);
        let txn_pos = tx.delete(
            &user_pk(old.user_id),
            &txn_sk(old.id),
            Some("attribute_exists(PK) AND version = :v"),
            Some(Item::from([(":v".into(), n(old.version))])),
        )?;
        let wallet_pos = self.add_wallet_change(&mut tx, old, -old.signed_amount(), -1, now)?;
        let mut ignored = Vec::new();
        self.add_category_use(&mut tx, old, -1, false, &mut ignored)?;
        if let Some(p) = old.provider_id {
            tx.update(
                &user_pk(old.user_id),
                &provider_sk(p),
                "ADD useCount :one",
                None,
                minus_one(),
                None,
            )?;
        }
        for t in &old.tag_ids {
            tx.update(
                &user_pk(old.user_id),
                &tag_sk(*t),
                "ADD useCount :one",
                None,
                minus_one(),
                None,
            )?;
        }
        match self.transact(tx).await {
            Ok(()) => Ok(()),
            Err(TransactError::ConditionFailed(pos)) if pos == txn_pos => Err(TxnWriteError::Stale),
            Err(TransactError::ConditionFailed(pos)) if pos == wallet_pos => {
                Err(TxnWriteError::Wallet)
            }
            Err(TransactError::ConditionFailed(_)) => Err(TxnWriteError::Stale),
            Err(TransactError::Store(e)) => Err(e.into()),
        }
    }

    /// Moves the wallet's sum and count; conditional on the wallet existing (so nothing is
    /// written for a deleted user) and on its currency being the transaction's.
    fn add_wallet_change(
        &self,
        tx: &mut TxItems<'_>,
        txn: &TransactionRecord,
        delta: Decimal,
        count: i64,
        now: &str,
    ) -> anyhow::Result<usize> {
        tx.update(
            &user_pk(txn.user_id),
            WALLET,
            "SET txnSum = txnSum + :delta, txnCount = txnCount + :count, updatedAt = :now",
            Some("attribute_exists(PK) AND currencyCode = :cur"),
            Item::from([
                (":delta".into(), n(delta)),
                (":count".into(), n(count)),
                (":now".into(), s(now)),
                (":cur".into(), s(txn.currency.code())),
            ]),
            None,
        )
    }

    /// Counts a use of an own category (conditional on it existing with the same type when
    /// `check` is set); a global category is only checked, never written (no hot key).
    fn add_category_use(
        &self,
        tx: &mut TxItems<'_>,
        txn: &TransactionRecord,
        delta: i64,
        check: bool,
        positions: &mut Vec<(usize, &'static str)>,
    ) -> anyhow::Result<()> {
        let values = Item::from([(":t".into(), s(txn.category_type.as_str()))]);
        let condition = "attribute_exists(PK) AND categoryType = :t";
        if txn.category_global {
            if check {
                positions.push((
                    tx.check(GLOBAL_PK, &cat_sk(txn.category_id), condition, Some(values))?,
                    "category",
                ));
            }
        } else {
            let mut update_values = Item::from([(":one".into(), n(delta))]);
            let condition = if check {
                update_values.extend(values);
                Some(condition)
            } else {
                None
            };
            let pos = tx.update(
                &user_pk(txn.user_id),
                &cat_sk(txn.category_id),
                "ADD useCount :one",
                condition,
                update_values,
                None,
            )?;
            if check {
                positions.push((pos, "category"));
            }
        }
        Ok(())
    }

    /// One page of the caller's transactions, newest date first, from one `Query` on the
    /// date-ordered index. Filters other than the date range apply within the page, so a
    /// page can hold fewer than `limit` items while a next cursor still exists.
    pub async fn list_transactions(
        &self,
        user_id: u64,
        filter: &TxnFilter,
        limit: i32,
        cursor: Option<&str>,
    ) -> Result<TxnPage, ListError> {
        let start = cursor.map(|c| decode_cursor(user_id, c)).transpose()?;
        let lo = format!("TXN#{}", filter.from.as_deref().unwrap_or(""));
        let hi = match &filter.to {
            Some(to) => format!("TXN#{to}#~"),
            None => "TXN#~".to_owned(),
        };
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
            add("categoryId = :cat", ":cat", n(c));
        }
        if let Some(t) = filter.category_type {
            add("categoryType = :type", ":type", s(t.as_str()));
        }
        if let Some(p) = filter.provider_id {
            add("providerId = :prov", ":prov", n(p));
        }
        if let Some(t) = filter.tag_id {
            add("contains(tagIds, :tag)", ":tag", n(t));
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
        let out = self
            .client
            .query()
            .table_name(&self.table)
            .index_name(LSI1)
            .key_condition_expression("PK = :pk AND LSI1SK BETWEEN :lo AND :hi")
            .set_filter_expression(if conditions.is_empty() {
                None
            } else {
                Some(conditions.join(" AND "))
            })
            .set_expression_attribute_values(Some(values))
            .scan_index_forward(false)
            .consistent_read(true)
            .limit(limit)
            .set_exclusive_start_key(start)
            .send()
            .await
            .map_err(sdk_error)?;
        let items = out
            .items
            .unwrap_or_default()
            .iter()
            .map(TransactionRecord::try_from)
            .collect::<anyhow::Result<Vec<_>>>()?;
        Ok(TxnPage {
            items,
            next_cursor: out.last_evaluated_key.as_ref().and_then(encode_cursor),
        })
    }
}

/// Listing failed because of the cursor or the store.
#[derive(Debug, thiserror::Error)]
pub enum ListError {
    #[error(transparent)]
    Cursor(#[from] InvalidCursor),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<anyhow::Error> for ListError {
    fn from(e: anyhow::Error) -> Self {
        ListError::Store(StoreError::Other(e))
    }
}

fn one() -> Item {
    Item::from([(":one".into(), n(1))])
}

fn minus_one() -> Item {
    Item::from([(":one".into(), n(-1))])
}

fn reference_at(positions: &[(usize, &'static str)], pos: usize) -> &'static str {
    positions
        .iter()
        .find(|(p, _)| *p == pos)
        .map(|(_, kind)| *kind)
        .unwrap_or("reference")
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
        assert!(decode_cursor(7, "not-a-cursor!").is_err());
        assert!(decode_cursor(7, "PROFILE|WALLET").is_err());
    }
}
