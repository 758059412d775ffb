//! Counts DynamoDB calls per operation, so tests can prove each endpoint's round trips; and,
//! where one process serves several functions (the local server, the API tests), records
//! the IAM actions each function's calls need, so that `make test` can hold them against
//! the function's policy in `template.yaml` (`scripts/check_template.py --calls`).

use std::collections::{BTreeMap, BTreeSet};
use std::future::Future;
use std::sync::{Arc, Mutex};

use aws_sdk_dynamodb::config::interceptors::BeforeTransmitInterceptorContextRef;
use aws_sdk_dynamodb::config::{ConfigBag, Intercept, RuntimeComponents};
use aws_smithy_runtime_api::box_error::BoxError;
use serde::Deserialize;

tokio::task_local! {
    /// The function (its Lambda binary's name) on whose behalf the task calls DynamoDB.
    static FUNCTION: &'static str;
}

/// Runs `work` on behalf of `function`: the calls it makes are recorded as that function's
/// (see [`CallCounter::actions`]).
pub async fn on_behalf_of<F: Future>(function: &'static str, work: F) -> F::Output {
    FUNCTION.scope(function, work).await
}

/// The function on whose behalf the current task calls, if it runs in one's scope.
pub fn current_function() -> Option<&'static str> {
    FUNCTION.try_with(|f| *f).ok()
}

/// One IAM action a call needed: the function, the action (`PutItem`, ...) and the
/// resource (`table`, or `index/<name>` for a `Query` of an index).
pub type Action = (String, String, String);

/// A shared tally of operations sent, keyed by operation name (`GetItem`, `Query`, ...),
/// and of the IAM actions of the calls made on behalf of a function.
#[derive(Clone, Debug, Default)]
pub struct CallCounter {
    calls: Arc<Mutex<BTreeMap<String, u64>>>,
    actions: Arc<Mutex<BTreeSet<Action>>>,
}

impl CallCounter {
    /// Calls made so far, by operation.
    pub fn snapshot(&self) -> BTreeMap<String, u64> {
        self.calls.lock().map(|m| m.clone()).unwrap_or_default()
    }

    /// Total calls made so far.
    pub fn total(&self) -> u64 {
        self.snapshot().values().sum()
    }

    /// The IAM actions needed so far by calls made on behalf of a function.
    pub fn actions(&self) -> BTreeSet<Action> {
        self.actions.lock().map(|s| s.clone()).unwrap_or_default()
    }
}

/// The parts of a request body that decide its IAM actions.
#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct Body {
    index_name: Option<String>,
    #[serde(default)]
    transact_items: Vec<BTreeMap<String, serde_json::Value>>,
}

/// The `(action, resource)` pairs IAM checks for operation `op` with request `body`:
/// `TransactWriteItems` needs the action of each of its items, `TransactGetItems` needs
/// `GetItem`, a `Query` of an index is a `Query` of `index/<name>`.
fn iam_actions(op: &str, body: Option<&[u8]>) -> Vec<(String, String)> {
    let parsed = || body.and_then(|b| serde_json::from_slice::<Body>(b).ok());
    let table = |action: &str| (action.to_owned(), "table".to_owned());
    match op {
        "TransactWriteItems" => parsed()
            .map(|b| b.transact_items)
            .unwrap_or_default()
            .iter()
            .flat_map(|item| item.keys())
            .map(|kind| match kind.as_str() {
                "ConditionCheck" => table("ConditionCheckItem"),
                other => table(&format!("{other}Item")),
            })
            .collect(),
        "TransactGetItems" => vec![table("GetItem")],
        "Query" => match parsed().and_then(|b| b.index_name) {
            Some(index) => vec![("Query".to_owned(), format!("index/{index}"))],
            None => vec![table("Query")],
        },
        other => vec![table(other)],
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
        let request = context.request();
        let op = request
            .headers()
            .get("x-amz-target")
            .and_then(|t| t.rsplit('.').next())
            .unwrap_or("unknown")
            .to_owned();
        tracing::debug!(operation = %op, "dynamodb call");
        if let Some(function) = current_function() {
            let needed = iam_actions(&op, request.body().bytes());
            if let Ok(mut s) = self.actions.lock() {
                for (action, resource) in needed {
                    s.insert((function.to_owned(), action, resource));
                }
            }
        }
        if let Ok(mut m) = self.calls.lock() {
            *m.entry(op).or_default() += 1;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::iam_actions;

    fn pairs(op: &str, body: &str) -> Vec<(String, String)> {
        iam_actions(op, Some(body.as_bytes()))
    }

    #[test]
    fn a_transaction_needs_the_action_of_each_of_its_items() {
        let body =
            r#"{"TransactItems":[{"Put":{}},{"Update":{}},{"ConditionCheck":{}},{"Delete":{}}]}"#;
        let actions: Vec<String> = pairs("TransactWriteItems", body)
            .into_iter()
            .map(|(a, r)| format!("{a} {r}"))
            .collect();
        assert_eq!(
            actions,
            [
                "PutItem table",
                "UpdateItem table",
                "ConditionCheckItem table",
                "DeleteItem table"
            ]
        );
        assert_eq!(pairs("TransactGetItems", "{}")[0].0, "GetItem");
    }

    #[test]
    fn a_query_of_an_index_is_a_query_of_the_index() {
        let on_index = pairs("Query", r#"{"TableName":"t","IndexName":"LSI1"}"#);
        assert_eq!(on_index, [("Query".into(), "index/LSI1".into())]);
        let on_table = pairs("Query", r#"{"TableName":"t"}"#);
        assert_eq!(on_table, [("Query".into(), "table".into())]);
        assert_eq!(pairs("BatchWriteItem", "{}")[0].0, "BatchWriteItem");
    }
}
