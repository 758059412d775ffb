//! Lambda entry point of the recurring function: its HTTP routes, and the hourly
//! scheduled event that runs the job creating due occurrences.

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), lambda_http::Error> {
    pf_http::lambda::init_tracing();
    let state = pf_http::lambda::state_from_env().await?;
    let store = state.store.clone();
    let job = move |deadline| recurring_fn::run_job(store.clone(), deadline);
    pf_http::lambda::run_with_schedule(pf_http::router(recurring_fn::api(), state), job).await
}
