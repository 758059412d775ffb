//! A user's wallet: its currency, an initial balance, and the running sum and count of
//! its transactions, so that the balance is always exact and an O(1) read.

use rust_decimal::Decimal;

use super::time::Timestamp;
use super::Currency;

#[derive(Debug, Clone, PartialEq)]
pub struct Wallet {
    pub user_id: u64,
    pub id: u64,
    pub name: String,
    pub currency: Currency,
    pub initial_balance: Decimal,
    /// Credits minus debits of every transaction.
    pub txn_sum: Decimal,
    pub txn_count: u64,
    /// Starts at 1; every change, a transaction's included, adds one (the ETag).
    pub version: u64,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
}

impl Wallet {
    /// The wallet every user starts with: "Main wallet", EUR, empty.
    pub fn new_default(user_id: u64, id: u64, now: Timestamp) -> Self {
        Self {
            user_id,
            id,
            name: "Main wallet".into(),
            currency: Currency::eur(),
            initial_balance: Decimal::ZERO,
            txn_sum: Decimal::ZERO,
            txn_count: 0,
            version: 1,
            created_at: now,
            updated_at: now,
        }
    }

    /// Initial balance plus credits minus debits.
    pub fn balance(&self) -> Decimal {
        self.initial_balance + self.txn_sum
    }
}
