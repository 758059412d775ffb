//! Lambda entry point of the transactions function (seeds the global categories when a
//! fresh deployment has none, so the first transaction can use them).

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::lambda::init_tracing();
    let state = shared::lambda::state_from_env().await?;
    let store = state.store.clone();
    let router =
        shared::lambda::with_global_categories(transactions_fn::router(state), store).await;
    shared::lambda::run(router).await
}
