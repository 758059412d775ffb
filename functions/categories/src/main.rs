//! Lambda entry point of the categories function (seeds the global categories when a
//! fresh deployment has none).

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::lambda::init_tracing();
    let state = shared::lambda::state_from_env().await?;
    let store = state.store.clone();
    let router = shared::lambda::with_global_categories(categories_fn::router(state), store).await;
    shared::lambda::run(router).await
}
