//! Lambda entry point of the insights function.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::lambda::serve(insights_fn::api()).await
}
