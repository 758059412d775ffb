//! The floor of the Lambda benchmark (`bench/src/bin/lambda_bench`): what any Rust
//! function on this stack pays at least. The same runtime (`lambda_http` on tokio's
//! multi-threaded runtime), the same SDK configuration source (`aws-config`) and one
//! DynamoDB client built at cold start; then one strongly consistent `GetItem` of the item
//! `FLOOR_PK`/`FLOOR_SK` in `TABLE_NAME` per event, answered as a tiny JSON body. No
//! router, no logging, no secrets: every function's cold start and warm path are measured
//! against it.

use aws_sdk_dynamodb::types::AttributeValue;
use lambda_http::{service_fn, Body, Error, Request, Response};

#[tokio::main]
async fn main() -> Result<(), Error> {
    let var = |name: &str| std::env::var(name).map_err(|_| format!("set {name}"));
    let (table, pk, sk) = (var("TABLE_NAME")?, var("FLOOR_PK")?, var("FLOOR_SK")?);
    let mut loader = aws_config::defaults(aws_config::BehaviorVersion::latest());
    if let Ok(url) = std::env::var("DYNAMODB_ENDPOINT") {
        loader = loader.endpoint_url(url);
    }
    let client = aws_sdk_dynamodb::Client::new(&loader.load().await);
    let (table, pk, sk) = (table.as_str(), pk.as_str(), sk.as_str());
    lambda_http::run(service_fn(|_: Request| {
        let client = client.clone();
        async move {
            let item = client
                .get_item()
                .table_name(table)
                .key("PK", AttributeValue::S(pk.to_owned()))
                .key("SK", AttributeValue::S(sk.to_owned()))
                .consistent_read(true)
                .send()
                .await?
                .item;
            let body = format!("{{\"found\":{}}}", item.is_some());
            Ok::<_, Error>(
                Response::builder()
                    .status(200)
                    .header("content-type", "application/json")
                    .body(Body::from(body))?,
            )
        }
    }))
    .await
}
