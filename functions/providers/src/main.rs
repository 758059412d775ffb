//! Lambda entry point of the providers function.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::lambda::init_tracing();
    let state = shared::lambda::state_from_env().await?;
    shared::lambda::run(providers_fn::router(state)).await
}
