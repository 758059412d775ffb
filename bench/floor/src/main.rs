//! The floor of the Lambda benchmark (`bench/src/bin/lambda_bench`): what any Rust
//! function on this stack pays at least. The same runtime (`lambda_http` on tokio's
//! multi-threaded runtime, or its current-thread one: `FLOOR_RUNTIME`), the same SDK
//! configuration source (`aws-config`) and one DynamoDB client built at cold start; then, per event, the DynamoDB calls `FLOOR_OPS`
//! names (by default one strongly consistent `GetItem` of `FLOOR_PK`/`FLOOR_SK` in
//! `TABLE_NAME`), answered as a tiny JSON body. No router, no logging, no secrets: each
//! function's cold start and warm path are measured against the floor that makes the same
//! round trips.
//!
//! `FLOOR_INIT` (calls made once, before the first event) and `FLOOR_OPS` are steps
//! separated by `;`, made one after the other; a step's calls, separated by `+`, are made
//! at once. A call is one of
//! - `get PK SK`: a strongly consistent `GetItem`;
//! - `get5s PK SK`: the same, at most once every 5 s per process (as the functions read a
//!   user's session epoch);
//! - `query PK PREFIX`: a strongly consistent `Query` of the items of `PK` whose `SK`
//!   begins with `PREFIX`, every page;
//! - `due GSI1PK BEFORE`: an eventually consistent `Query` of index `GSI1` for
//!   `GSI1PK = … AND GSI1SK < BEFORE` (the recurring job's read of one shard).

use std::sync::Mutex;
use std::time::{Duration, Instant};

use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;
use lambda_http::{service_fn, Body, Error, Request, Response};

type Steps = Vec<Vec<Call>>;

#[derive(Debug, Clone)]
enum Call {
    Get(String, String),
    Get5s(String, String),
    Query(String, String),
    Due(String, String),
}

fn parse(spec: &str) -> Result<Steps, Error> {
    let call = |text: &str| {
        let words: Vec<&str> = text.split_whitespace().collect();
        let [kind, a, b] = words[..] else {
            return Err(format!("not a floor call: {text:?}"));
        };
        let (a, b) = (a.to_owned(), b.to_owned());
        Ok(match kind {
            "get" => Call::Get(a, b),
            "get5s" => Call::Get5s(a, b),
            "query" => Call::Query(a, b),
            "due" => Call::Due(a, b),
            _ => return Err(format!("not a floor call: {text:?}")),
        })
    };
    let steps = spec.split(';').map(str::trim).filter(|s| !s.is_empty());
    Ok(steps
        .map(|step| step.split('+').map(call).collect::<Result<Vec<_>, _>>())
        .collect::<Result<_, _>>()?)
}

struct Floor {
    client: Client,
    table: String,
    /// When `get5s` last read (one cache for the process: the floor reads one user).
    read_at: Mutex<Option<Instant>>,
}

impl Floor {
    async fn run(&self, steps: &Steps) -> Result<usize, Error> {
        let mut found = 0;
        for step in steps {
            let calls = step.iter().map(|c| self.call(c));
            for n in futures::future::try_join_all(calls).await? {
                found += n;
            }
        }
        Ok(found)
    }

    async fn call(&self, call: &Call) -> Result<usize, Error> {
        let s = |v: &str| AttributeValue::S(v.to_owned());
        let table = self.table.as_str();
        Ok(match call {
            Call::Get5s(..) if self.fresh() => 1,
            Call::Get(pk, sk) | Call::Get5s(pk, sk) => {
                let out = self.client.get_item().table_name(table);
                let out = out.key("PK", s(pk)).key("SK", s(sk)).consistent_read(true);
                let found = out.send().await?.item.map_or(0, |_| 1);
                if matches!(call, Call::Get5s(..)) {
                    *self.read_at.lock().map_err(|_| "poisoned")? = Some(Instant::now());
                }
                found
            }
            Call::Query(pk, prefix) => {
                let mut start = None;
                let mut found = 0;
                loop {
                    let out = self
                        .client
                        .query()
                        .table_name(table)
                        .key_condition_expression("PK = :pk AND begins_with(SK, :sk)")
                        .expression_attribute_values(":pk", s(pk))
                        .expression_attribute_values(":sk", s(prefix))
                        .consistent_read(true)
                        .set_exclusive_start_key(start)
                        .send()
                        .await?;
                    found += out.items.map_or(0, |i| i.len());
                    start = out.last_evaluated_key;
                    if start.is_none() {
                        break found;
                    }
                }
            }
            Call::Due(pk, before) => {
                let out = self
                    .client
                    .query()
                    .table_name(table)
                    .index_name("GSI1")
                    .key_condition_expression("GSI1PK = :pk AND GSI1SK < :before")
                    .expression_attribute_values(":pk", s(pk))
                    .expression_attribute_values(":before", s(before))
                    .send()
                    .await?;
                out.items.map_or(0, |i| i.len())
            }
        })
    }

    fn fresh(&self) -> bool {
        let read_at = self.read_at.lock().map_or(None, |r| *r);
        read_at.is_some_and(|at| at.elapsed() < Duration::from_secs(5))
    }
}

/// tokio's multi-threaded runtime (`#[tokio::main]`'s default, what a bare `lambda_http`
/// function gets), or its current-thread runtime when `FLOOR_RUNTIME=current_thread` (as
/// the functions run since 2026-12-02): the floor of either choice.
fn main() -> Result<(), Error> {
    let runtime = match std::env::var("FLOOR_RUNTIME").as_deref() {
        Ok("current_thread") => tokio::runtime::Builder::new_current_thread(),
        _ => tokio::runtime::Builder::new_multi_thread(),
    }
    .enable_all()
    .build()?;
    runtime.block_on(floor())
}

async fn floor() -> Result<(), Error> {
    let var = |name: &str| std::env::var(name).map_err(|_| format!("set {name}"));
    let table = var("TABLE_NAME")?;
    let ops = match std::env::var("FLOOR_OPS") {
        Ok(ops) => ops,
        Err(_) => format!("get {} {}", var("FLOOR_PK")?, var("FLOOR_SK")?),
    };
    let (init, ops) = (
        parse(&std::env::var("FLOOR_INIT").unwrap_or_default())?,
        parse(&ops)?,
    );
    let mut loader = aws_config::defaults(aws_config::BehaviorVersion::latest());
    if let Ok(url) = std::env::var("DYNAMODB_ENDPOINT") {
        loader = loader.endpoint_url(url);
    }
    let floor = Floor {
        client: Client::new(&loader.load().await),
        table,
        read_at: Mutex::new(None),
    };
    floor.run(&init).await?;
    let (floor, ops) = (&floor, &ops);
    lambda_http::run(service_fn(|_: Request| async move {
        let found = floor.run(ops).await?;
        let body = format!("{{\"found\":{found}}}");
        Ok::<_, Error>(
            Response::builder()
                .status(200)
                .header("content-type", "application/json")
                .body(Body::from(body))?,
        )
    }))
    .await
}
