//! Lambda entry point of the rules function.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::lambda::init_tracing();
    let state = shared::lambda::state_from_env().await?;
    shared::lambda::run(rules_fn::router(state)).await
}
