//! Lambda entry point of the rules function.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::lambda::serve(rules_fn::api()).await
}
