//! Lambda entry point of the imports function (imports and exports).

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::lambda::init_tracing();
    let state = shared::lambda::state_from_env().await?;
    shared::lambda::run(imports_fn::router(state)).await
}
