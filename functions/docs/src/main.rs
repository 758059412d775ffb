//! Lambda entry point of the docs function (no database, no secrets).

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), lambda_http::Error> {
    pf_http::lambda::init_tracing();
    let config = pf_http::config::Config::from_env()?;
    let router = docs_fn::router(&config.doc_path, docs_fn::Sort::parse(&config.sort));
    lambda_http::run(pf_http::with_fallback(router)).await
}
