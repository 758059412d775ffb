//! Lambda entry point of the imports function (imports and exports): its HTTP routes,
//! and the events it sends itself to go on with a large import (`job`).

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), lambda_http::Error> {
    pf_http::lambda::init_tracing();
    let state = pf_http::lambda::state_from_env().await?;
    let invoke = pf_http::invoke::SelfInvoke::from_env()?;
    pf_http::invoke::set_continuation(Box::new(invoke));
    let store = state.store.clone();
    let on_event = move |event, deadline| imports_fn::job::on_event(store.clone(), event, deadline);
    let router = pf_http::router(imports_fn::api(), state);
    pf_http::lambda::run_with_events(router, imports_fn::job::is_job_event, on_event).await
}
