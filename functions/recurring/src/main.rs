//! Lambda entry point of the recurring function: its HTTP routes, and the hourly
//! scheduled event that runs the job creating due occurrences.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::lambda::init_tracing();
    let state = shared::lambda::state_from_env().await?;
    let store = state.store.clone();
    let job = move |deadline| recurring_fn::run_job(store.clone(), deadline);
    shared::lambda::run_with_schedule(shared::http::router(recurring_fn::api(), state), job).await
}
