//! Lambda entry point of the imports function (imports and exports): its HTTP routes,
//! and the events it sends itself to go on with a large import (`job`).

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::lambda::init_tracing();
    let state = shared::lambda::state_from_env().await?;
    let invoke = imports_fn::job::SelfInvoke::from_env().await?;
    shared::app::imports::job::set_continuation(Box::new(invoke));
    let store = state.store.clone();
    let on_event = move |event, deadline| imports_fn::job::on_event(store.clone(), event, deadline);
    let router = shared::http::router(imports_fn::api(), state);
    shared::lambda::run_with_events(router, imports_fn::job::is_job_event, on_event).await
}
