//! Transactions: the stored record and its reads. Each write (`write`) also moves the
//! wallet balance and the reference counts of the category, provider and tags it uses, in
//! one `TransactWriteItems`; `refs` reads what a write refers to in one `BatchGetItem`;
//! `list` pages through them by date.

mod list;
mod refs;
mod write;

use aws_sdk_dynamodb::types::AttributeValue;
use rust_decimal::Decimal;

use super::attr::{get_decimal, get_opt_s, get_opt_u64, get_s, get_u64, get_u64_list, n, s, Item};
use super::keys::{txn_lsi, txn_sk, user_pk};
use super::{Store, StoreResult};
use crate::domain::{CategoryType, Currency};

pub use list::{TxnFilter, TxnPage};
pub use refs::{IdempotencyRecord, RefKeys, Refs};

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

impl Store {
    /// Reads one of the caller's transactions (one `GetItem`).
    pub async fn get_transaction(
        &self,
        user_id: u64,
        id: u64,
    ) -> StoreResult<Option<TransactionRecord>> {
        let out = self.get(&user_pk(user_id), &txn_sk(id)).await?;
        Ok(match out {
            Some(item) => Some(TransactionRecord::try_from(&item)?),
            None => None,
        })
    }
}
