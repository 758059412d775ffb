//! Transactions: their reads and writes (the item mapping is in `items`). Each write (`write`) also moves the
//! wallet balance and the reference counts of the category, provider and tags it uses, in
//! one `TransactWriteItems`; `counters` merges what a write moves per item; `refs` reads what a write refers to in
//! one `BatchGetItem`;
//! `list` pages through them by date.

mod counters;
mod list;
mod refs;
mod write;

use super::keys::{txn_sk, user_pk};
use super::{Store, StoreResult};
use crate::FromItem;

pub use counters::{
    counters, Counter, Use, IMPORT_TXN_ITEMS, IMPORT_WRITE_ITEMS, MAX_TRANSACTIONS,
};
pub use list::{position_after, TxnFilter, TxnPage};
pub use refs::{IdempotencyRecord, RefKeys, Refs};

use pf_domain::Transaction;

impl Store {
    /// Reads one of the caller's transactions (one `GetItem`).
    pub async fn get_transaction(&self, user_id: u64, id: u64) -> StoreResult<Option<Transaction>> {
        let out = self.get(&user_pk(user_id), &txn_sk(id)).await?;
        Ok(match out {
            Some(item) => Some(Transaction::from_item(&item)?),
            None => None,
        })
    }
}
