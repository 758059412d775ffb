//! Counts DynamoDB calls per operation, so tests can prove each endpoint's round trips.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use aws_sdk_dynamodb::config::interceptors::BeforeTransmitInterceptorContextRef;
use aws_sdk_dynamodb::config::{ConfigBag, Intercept, RuntimeComponents};
use aws_smithy_runtime_api::box_error::BoxError;

/// A shared tally of operations sent, keyed by operation name (`GetItem`, `Query`, ...).
#[derive(Clone, Debug, Default)]
pub struct CallCounter(Arc<Mutex<BTreeMap<String, u64>>>);

impl CallCounter {
    /// Calls made so far, by operation.
    pub fn snapshot(&self) -> BTreeMap<String, u64> {
        self.0.lock().map(|m| m.clone()).unwrap_or_default()
    }

    /// Total calls made so far.
    pub fn total(&self) -> u64 {
        self.snapshot().values().sum()
    }
}

impl Intercept for CallCounter {
    fn name(&self) -> &'static str {
        "CallCounter"
    }

    fn read_before_transmit(
        &self,
        context: &BeforeTransmitInterceptorContextRef<'_>,
        _runtime_components: &RuntimeComponents,
        _cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        // DynamoDB's JSON protocol names the operation in `X-Amz-Target: DynamoDB_20120810.<Op>`.
        let op = context
            .request()
            .headers()
            .get("x-amz-target")
            .and_then(|t| t.rsplit('.').next())
            .unwrap_or("unknown")
            .to_owned();
        tracing::debug!(operation = %op, "dynamodb call");
        if let Ok(mut m) = self.0.lock() {
            *m.entry(op).or_default() += 1;
        }
        Ok(())
    }
}
