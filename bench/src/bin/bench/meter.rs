//! Read and write units of every DynamoDB call, for the cost table: an SDK interceptor
//! of the benchmark's own client (never the service's) that asks each call for
//! `ReturnConsumedCapacity = TOTAL` and adds up what DynamoDB reports.

use std::sync::{Arc, Mutex};

use aws_sdk_dynamodb::config::interceptors::{
    AfterDeserializationInterceptorContextRef, BeforeSerializationInterceptorContextMut,
};
use aws_sdk_dynamodb::config::{ConfigBag, Intercept, RuntimeComponents};
use aws_sdk_dynamodb::operation as op;
use aws_sdk_dynamodb::types::{ConsumedCapacity, ReturnConsumedCapacity};
use aws_smithy_runtime_api::box_error::BoxError;

/// Units consumed, split as billed: reads (GetItem, Query, BatchGetItem, TransactGetItems)
/// and writes (everything that writes, condition checks of a transaction included).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Units {
    pub read: f64,
    pub write: f64,
    pub calls: u32,
    /// Of `write`, what `TransactWriteItems` calls reported.
    pub transact_write: f64,
    /// Items of the `TransactWriteItems` calls sent (condition checks included), and the
    /// local-index copies their puts carry (an `LSI1SK`) or their deletes remove (a
    /// transaction's).
    pub transact_items: u32,
    pub index_copies: u32,
}

impl Units {
    /// Write units as AWS bills them where DynamoDB Local reports less: every item of a
    /// `TransactWriteItems` (condition checks and local-index copies included) 2 units,
    /// for items up to 1 KB; other writes as reported.
    pub fn aws_write(&self) -> f64 {
        self.write - self.transact_write + 2.0 * f64::from(self.transact_items + self.index_copies)
    }
}

impl std::ops::Sub for Units {
    type Output = Units;
    fn sub(self, o: Units) -> Units {
        Units {
            read: self.read - o.read,
            write: self.write - o.write,
            calls: self.calls - o.calls,
            transact_write: self.transact_write - o.transact_write,
            transact_items: self.transact_items - o.transact_items,
            index_copies: self.index_copies - o.index_copies,
        }
    }
}

#[derive(Clone, Debug, Default)]
pub struct Meter(Arc<Mutex<Units>>);

impl Meter {
    pub fn total(&self) -> Units {
        self.0.lock().map(|u| *u).unwrap_or_default()
    }

    /// The units `f` consumed.
    pub async fn measure<F: std::future::Future<Output = T>, T>(&self, f: F) -> (Units, T) {
        let before = self.total();
        let out = f.await;
        (self.total() - before, out)
    }

    fn add(&self, write: bool, consumed: &[ConsumedCapacity]) {
        let units: f64 = consumed.iter().filter_map(|c| c.capacity_units).sum();
        if let Ok(mut u) = self.0.lock() {
            u.calls += 1;
            if write {
                u.write += units;
            } else {
                u.read += units;
            }
        }
    }

    /// Counts the items of a `TransactWriteItems` about to be sent.
    fn count_transact(&self, input: &op::transact_write_items::TransactWriteItemsInput) {
        let items = input.transact_items.as_deref().unwrap_or_default();
        let copies = items
            .iter()
            .filter(|i| {
                let put = i
                    .put
                    .as_ref()
                    .is_some_and(|p| p.item.contains_key("LSI1SK"));
                let delete = i.delete.as_ref().is_some_and(|d| {
                    d.key
                        .get("SK")
                        .and_then(|sk| sk.as_s().ok())
                        .is_some_and(|sk| sk.starts_with("TXN#"))
                });
                put || delete
            })
            .count();
        if let Ok(mut u) = self.0.lock() {
            u.transact_items += items.len() as u32;
            u.index_copies += copies as u32;
        }
    }

    /// The reported units of a `TransactWriteItems`, apart.
    fn add_transact(&self, consumed: &[ConsumedCapacity]) {
        let units: f64 = consumed.iter().filter_map(|c| c.capacity_units).sum();
        if let Ok(mut u) = self.0.lock() {
            u.transact_write += units;
        }
    }
}

/// Sets `return_consumed_capacity` on whichever of the listed inputs `$input` is.
macro_rules! ask_total {
    ($input:expr, $($t:ty),+) => {
        $(if let Some(i) = $input.downcast_mut::<$t>() {
            i.return_consumed_capacity = Some(ReturnConsumedCapacity::Total);
        })+
    };
}

/// Adds the consumed capacity of whichever of the listed outputs `$out` is (`one`: a
/// single `ConsumedCapacity`, `many`: a list per table).
macro_rules! read_units {
    ($meter:expr, $out:expr, $($t:ty => $write:expr, $shape:ident);+ $(;)?) => {
        $(if let Some(o) = $out.downcast_ref::<$t>() {
            read_units!(@$shape $meter, $write, o);
        })+
    };
    (@one $meter:expr, $write:expr, $o:expr) => {
        $meter.add($write, $o.consumed_capacity.as_slice())
    };
    (@many $meter:expr, $write:expr, $o:expr) => {
        $meter.add($write, $o.consumed_capacity.as_deref().unwrap_or_default())
    };
}

impl Intercept for Meter {
    fn name(&self) -> &'static str {
        "CapacityMeter"
    }

    fn modify_before_serialization(
        &self,
        context: &mut BeforeSerializationInterceptorContextMut<'_>,
        _: &RuntimeComponents,
        _: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let input = context.input_mut();
        if let Some(t) = input.downcast_ref::<op::transact_write_items::TransactWriteItemsInput>() {
            self.count_transact(t);
        }
        ask_total!(
            input,
            op::get_item::GetItemInput,
            op::query::QueryInput,
            op::batch_get_item::BatchGetItemInput,
            op::transact_get_items::TransactGetItemsInput,
            op::put_item::PutItemInput,
            op::update_item::UpdateItemInput,
            op::delete_item::DeleteItemInput,
            op::batch_write_item::BatchWriteItemInput,
            op::transact_write_items::TransactWriteItemsInput
        );
        Ok(())
    }

    fn read_after_deserialization(
        &self,
        context: &AfterDeserializationInterceptorContextRef<'_>,
        _: &RuntimeComponents,
        _: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        if let Ok(out) = context.output_or_error() {
            if let Some(o) =
                out.downcast_ref::<op::transact_write_items::TransactWriteItemsOutput>()
            {
                self.add_transact(o.consumed_capacity.as_deref().unwrap_or_default());
            }
            read_units!(self, out,
                op::get_item::GetItemOutput => false, one;
                op::query::QueryOutput => false, one;
                op::batch_get_item::BatchGetItemOutput => false, many;
                op::transact_get_items::TransactGetItemsOutput => false, many;
                op::put_item::PutItemOutput => true, one;
                op::update_item::UpdateItemOutput => true, one;
                op::delete_item::DeleteItemOutput => true, one;
                op::batch_write_item::BatchWriteItemOutput => true, many;
                op::transact_write_items::TransactWriteItemsOutput => true, many;
            );
        }
        Ok(())
    }
}
