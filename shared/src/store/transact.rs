//! `TransactWriteItems` with retries on conflicts and condition failures reported by position.

use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError;
use aws_sdk_dynamodb::types::{
    ConditionCheck, Delete, Put, ReturnValuesOnConditionCheckFailure, TransactWriteItem, Update,
};

use super::attr::{s, Item};
use super::{backoff, sdk_error, Store, StoreError, MAX_ATTEMPTS};

/// Outcome of a cancelled transaction whose cause is a failed condition.
#[derive(Debug)]
pub enum TransactError {
    /// The condition of the item at this position (in the order given) failed.
    ConditionFailed(usize),
    Store(StoreError),
}

impl From<StoreError> for TransactError {
    fn from(e: StoreError) -> Self {
        TransactError::Store(e)
    }
}

/// Builds the items of one transaction against the store's table.
pub struct TxItems<'a> {
    table: &'a str,
    pub(crate) items: Vec<TransactWriteItem>,
}

impl<'a> TxItems<'a> {
    pub fn new(store: &'a Store) -> Self {
        Self {
            table: &store.table,
            items: Vec::new(),
        }
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Puts an item; `condition` guards it (e.g. `attribute_not_exists(PK)`).
    pub fn put(
        &mut self,
        item: Item,
        condition: Option<&str>,
        values: Option<Item>,
    ) -> anyhow::Result<usize> {
        let put = Put::builder()
            .table_name(self.table)
            .set_item(Some(item))
            .set_condition_expression(condition.map(str::to_owned))
            .set_expression_attribute_values(values)
            .build()?;
        self.push(TransactWriteItem::builder().put(put).build())
    }

    pub fn update(
        &mut self,
        pk: &str,
        sk: &str,
        expression: &str,
        condition: Option<&str>,
        values: Item,
        names: Option<std::collections::HashMap<String, String>>,
    ) -> anyhow::Result<usize> {
        let update = Update::builder()
            .table_name(self.table)
            .key("PK", s(pk))
            .key("SK", s(sk))
            .update_expression(expression)
            .set_condition_expression(condition.map(str::to_owned))
            .set_expression_attribute_values(if values.is_empty() {
                None
            } else {
                Some(values)
            })
            .set_expression_attribute_names(names)
            .return_values_on_condition_check_failure(ReturnValuesOnConditionCheckFailure::None)
            .build()?;
        self.push(TransactWriteItem::builder().update(update).build())
    }

    pub fn delete(
        &mut self,
        pk: &str,
        sk: &str,
        condition: Option<&str>,
        values: Option<Item>,
    ) -> anyhow::Result<usize> {
        let delete = Delete::builder()
            .table_name(self.table)
            .key("PK", s(pk))
            .key("SK", s(sk))
            .set_condition_expression(condition.map(str::to_owned))
            .set_expression_attribute_values(values)
            .build()?;
        self.push(TransactWriteItem::builder().delete(delete).build())
    }

    pub fn check(
        &mut self,
        pk: &str,
        sk: &str,
        condition: &str,
        values: Option<Item>,
    ) -> anyhow::Result<usize> {
        let check = ConditionCheck::builder()
            .table_name(self.table)
            .key("PK", s(pk))
            .key("SK", s(sk))
            .condition_expression(condition)
            .set_expression_attribute_values(values)
            .build()?;
        self.push(TransactWriteItem::builder().condition_check(check).build())
    }

    fn push(&mut self, item: TransactWriteItem) -> anyhow::Result<usize> {
        self.items.push(item);
        Ok(self.items.len() - 1)
    }
}

impl Store {
    /// Runs the transaction, retrying with backoff while DynamoDB reports conflicts with
    /// concurrent transactions on the same items.
    pub async fn transact(&self, tx: TxItems<'_>) -> Result<(), TransactError> {
        let mut attempt = 0;
        loop {
            attempt += 1;
            let result = self
                .client
                .transact_write_items()
                .set_transact_items(Some(tx.items.clone()))
                .send()
                .await;
            let err = match result {
                Ok(_) => return Ok(()),
                Err(e) => e,
            };
            let retryable = match err.as_service_error() {
                Some(TransactWriteItemsError::TransactionCanceledException(c)) => {
                    let reasons = c.cancellation_reasons();
                    if let Some(pos) = reasons
                        .iter()
                        .position(|r| r.code() == Some("ConditionalCheckFailed"))
                    {
                        return Err(TransactError::ConditionFailed(pos));
                    }
                    reasons
                        .iter()
                        .any(|r| r.code() == Some("TransactionConflict"))
                }
                Some(TransactWriteItemsError::TransactionInProgressException(_)) => true,
                _ => false,
            };
            if !retryable {
                return Err(TransactError::Store(sdk_error(err)));
            }
            if attempt >= MAX_ATTEMPTS {
                return Err(TransactError::Store(StoreError::Contention));
            }
            backoff(attempt).await;
        }
    }
}
