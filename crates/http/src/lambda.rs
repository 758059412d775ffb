//! Start-up shared by every function's `main`: logging, configuration, clients, and the
//! Lambda runtime (or nothing else: each `main` stays a few lines).
//!
//! Every `main` runs on tokio's current-thread runtime (`flavor = "current_thread"`):
//! Lambda hands a process one invocation at a time, so worker threads only cost a cold
//! start their spawning and each invocation the hand-offs between the thread that polls
//! the handler and the ones that drive its sockets (`BENCHMARKS.md`, "Lambda binaries").
//! Blocking work (argon2) still goes to tokio's blocking pool (`spawn_blocking`).

use std::sync::Arc;

use crate::AppState;
use pf_auth::token::TokenKeys;
use pf_config::{Config, Secret};
use pf_store::{aws_error, Store};

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
    state_from_config(Config::from_env()?).await
}

/// Builds the state from a configuration: the table client and the signing key (from
/// the configuration, or else from Secrets Manager).
pub async fn state_from_config(config: Config) -> anyhow::Result<AppState> {
    let store = Store::connect(&config.table_name, config.dynamodb_endpoint.as_deref())
        .await
        .with_limits(config.limits);
    let secret = match (&config.jwt_secret, &config.jwt_secret_arn) {
        (Some(s), _) => s.clone(),
        (None, Some(arn)) => fetch_secret(arn).await?,
        (None, None) => anyhow::bail!("set JWT_SECRET (local) or JWT_SECRET_ARN (AWS)"),
    };
    let mail = pf_mail::Mailer::from_config(&config).await?;
    Ok(AppState {
        store,
        tokens: Arc::new(TokenKeys::new(&secret)),
        mail: Arc::new(mail),
        config: Arc::new(config),
    })
}

/// Reads the signing secret from Secrets Manager (`JWT_SECRET_ARN`), once per cold start,
/// with the function's own credentials and region. The value is the secret's string (as
/// `template.yaml` generates it) or, failing that, its binary, used as is; it must be at
/// least [`MIN_SECRET_BYTES`](pf_config::MIN_SECRET_BYTES) bytes. Errors name the
/// secret and the cause, never the value.
async fn fetch_secret(arn: &str) -> anyhow::Result<Secret> {
    let sdk = pf_store::sdk_defaults().load().await;
    let out = aws_sdk_secretsmanager::Client::new(&sdk)
        .get_secret_value()
        .secret_id(arn)
        .send()
        .await
        .map_err(|e| {
            aws_error(
                &format!("reading the JWT secret {arn} from Secrets Manager"),
                e,
            )
        })?;
    let bytes = match (out.secret_string, out.secret_binary) {
        (Some(text), _) => text.into_bytes(),
        (None, Some(blob)) => blob.into_inner(),
        (None, None) => anyhow::bail!("the JWT secret {arn} has no value"),
    };
    pf_config::check_secret(&bytes).map_err(|e| anyhow::anyhow!("the JWT secret {arn} {e}"))?;
    Ok(Secret::new(bytes))
}

/// The whole life of a plain function: tracing, the state from the environment, then its
/// router (of its documented routes, `api`) on the Lambda runtime.
pub async fn serve(
    api: utoipa_axum::router::OpenApiRouter<AppState>,
) -> Result<(), lambda_http::Error> {
    init_tracing();
    let state = state_from_env().await?;
    run(crate::router(api, state)).await
}

/// [`serve`] for a function that reads categories: the global categories are made sure
/// of first ([`with_global_categories`]).
pub async fn serve_with_global_categories(
    api: utoipa_axum::router::OpenApiRouter<AppState>,
) -> Result<(), lambda_http::Error> {
    init_tracing();
    let state = state_from_env().await?;
    run(with_global_categories(api, state).await).await
}

/// Runs a function's router on the Lambda runtime.
pub async fn run(router: axum::Router) -> Result<(), lambda_http::Error> {
    let router = router.layer(axum::middleware::from_fn(within_deadline));
    lambda_http::run(crate::with_fallback(router)).await
}

/// Serves a request within its invocation's deadline: retries stop in time to answer
/// (see [`pf_store::retry`]).
async fn within_deadline(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use lambda_http::RequestExt;
    let left = request
        .lambda_context_ref()
        .map(|c| time_left(c.deadline()));
    match left {
        Some(left) => {
            let end = std::time::Instant::now() + left;
            pf_store::retry::within(end, next.run(request)).await
        }
        None => next.run(request).await,
    }
}

/// The time left until an invocation's deadline.
fn time_left(deadline: std::time::SystemTime) -> std::time::Duration {
    deadline
        .duration_since(std::time::SystemTime::now())
        .unwrap_or_default()
}

/// Makes sure the global categories exist before the first request is served, so a fresh
/// deployment needs no manual seeding: checked at cold start (one `GetItem`) and seeded
/// when missing (conditional `PutItem`s: concurrent cold starts are harmless, categories an
/// admin edited are kept). If that fails, it is logged and retried before each request
/// until it succeeds. Used by the functions that read categories: categories, transactions.
/// Answers the function's router (of its documented routes, `api`) with that check.
pub async fn with_global_categories(
    api: utoipa_axum::router::OpenApiRouter<AppState>,
    state: AppState,
) -> axum::Router {
    use std::sync::atomic::{AtomicBool, Ordering};

    let store = state.store.clone();
    let router = crate::router(api, state);
    let seeded = Arc::new(AtomicBool::new(ensure_global_categories(&store).await));
    router.layer(axum::middleware::from_fn(
        move |request: axum::extract::Request, next: axum::middleware::Next| {
            let (seeded, store) = (seeded.clone(), store.clone());
            async move {
                if !seeded.load(Ordering::Relaxed) && ensure_global_categories(&store).await {
                    seeded.store(true, Ordering::Relaxed);
                }
                next.run(request).await
            }
        },
    ))
}

async fn ensure_global_categories(store: &Store) -> bool {
    let result = async {
        if !store.global_categories_seeded().await? {
            store
                .seed_global_categories(&pf_domain::time::now_local_date_time())
                .await?;
            tracing::info!("seeded the global categories");
        }
        Ok::<_, pf_store::StoreError>(())
    }
    .await;
    match result {
        Ok(()) => true,
        Err(error) => {
            tracing::error!(
                ?error,
                "could not seed the global categories; retrying with the next request"
            );
            false
        }
    }
}

/// Runs a function that serves HTTP and also a scheduled event (EventBridge, `source`
/// `aws.events`): the event runs `job` with the invocation's deadline, everything else
/// goes to the router as [`run`] would send it.
pub async fn run_with_schedule<J, F, R, E>(
    router: axum::Router,
    job: J,
) -> Result<(), lambda_http::Error>
where
    J: Fn(std::time::Instant) -> F + Clone + Send + 'static,
    F: std::future::Future<Output = Result<R, E>> + Send,
    R: serde::Serialize,
    E: std::fmt::Display,
{
    let is_schedule = |payload: &serde_json::Value| {
        payload.get("source").and_then(serde_json::Value::as_str) == Some("aws.events")
    };
    run_with_events(router, is_schedule, move |_, deadline| job(deadline)).await
}

/// Runs a function that serves HTTP and also events of its own kind (those `is_event`
/// tells): such an event runs `job` with its payload and the invocation's deadline (2 s
/// before the function's timeout), everything else goes to the router as [`run`] would
/// send it.
pub async fn run_with_events<M, J, F, R, E>(
    router: axum::Router,
    is_event: M,
    job: J,
) -> Result<(), lambda_http::Error>
where
    M: Fn(&serde_json::Value) -> bool + Clone + Send + 'static,
    J: Fn(serde_json::Value, std::time::Instant) -> F + Clone + Send + 'static,
    F: std::future::Future<Output = Result<R, E>> + Send,
    R: serde::Serialize,
    E: std::fmt::Display,
{
    use lambda_http::request::LambdaRequest;
    use lambda_http::{Adapter, LambdaEvent, Service};
    use pf_store::retry::within;
    use serde_json::Value;

    /// A job stops this long before the invocation's deadline.
    const JOB_MARGIN: std::time::Duration = std::time::Duration::from_secs(2);

    let adapter = Adapter::from(crate::with_fallback(router));
    let handler = lambda_http::service_fn(move |event: LambdaEvent<Value>| {
        let (mut adapter, is_event, job) = (adapter.clone(), is_event.clone(), job.clone());
        async move {
            let LambdaEvent { payload, context } = event;
            let left = time_left(context.deadline());
            let end = std::time::Instant::now() + left;
            if is_event(&payload) {
                // Boxed: a job's future is deep (the compiler's query depth).
                let work = Box::pin(job(payload, end - left.min(JOB_MARGIN)));
                let report = within(end, work).await.map_err(|e| e.to_string())?;
                return Ok::<Value, lambda_http::Error>(serde_json::to_value(report)?);
            }
            let request: LambdaRequest = serde_json::from_value(payload)?;
            let response = within(end, adapter.call(LambdaEvent::new(request, context))).await?;
            Ok(serde_json::to_value(response)?)
        }
    });
    lambda_http::lambda_runtime::run(handler).await
}
