//! Lambda entry point of the auth function.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::lambda::init_tracing();
    let state = shared::lambda::state_from_env().await?;
    shared::lambda::run(auth_fn::router(state)).await
}
