//! Start-up shared by every function's `main`: logging, configuration, clients, and the
//! Lambda runtime (or nothing else: each `main` stays a few lines).

use std::sync::Arc;

use crate::auth::token::TokenKeys;
use crate::config::{Config, Secret};
use crate::http::AppState;
use crate::store::Store;

/// JSON logs for CloudWatch, level from `RUST_LOG` (default `info`).
pub fn init_tracing() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .json()
        .with_env_filter(filter)
        .with_current_span(false)
        .without_time() // CloudWatch stamps each line
        .try_init();
}

/// Builds the state from the environment: the table client and the signing key.
pub async fn state_from_env() -> anyhow::Result<AppState> {
    let config = Config::from_env()?;
    let store = Store::connect(&config.table_name, config.dynamodb_endpoint.as_deref()).await;
    let secret = match (&config.jwt_secret, &config.jwt_secret_arn) {
        (Some(s), _) => s.clone(),
        (None, Some(arn)) => fetch_secret(arn).await?,
        (None, None) => anyhow::bail!("set JWT_SECRET (local) or JWT_SECRET_ARN (AWS)"),
    };
    Ok(AppState {
        store,
        tokens: Arc::new(TokenKeys::new(&secret)),
        config: Arc::new(config),
    })
}

/// Reads the signing secret from Secrets Manager through the Lambda extension-free HTTP
/// API is not available here, so the secret's value must be given as `JWT_SECRET`.
async fn fetch_secret(_arn: &str) -> anyhow::Result<Secret> {
    anyhow::bail!("JWT_SECRET_ARN is not supported yet; set JWT_SECRET")
}

/// Runs a function's router on the Lambda runtime.
pub async fn run(router: axum::Router) -> Result<(), lambda_http::Error> {
    lambda_http::run(crate::http::with_fallback(router)).await
}
