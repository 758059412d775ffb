//! Local server: creates the table and seeds categories when missing, then serves every
//! function's routes on `127.0.0.1:$PORT` (default 3000).

use std::net::SocketAddr;

use anyhow::Context;
use shared::config::Config;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    shared::lambda::init_tracing();
    let mut config = Config::from_env()?;
    if config.jwt_secret.is_none() {
        config.jwt_secret = Some(local::secret::load_or_create(std::path::Path::new(
            ".local/jwt-secret",
        ))?);
    }
    let state = shared::lambda::state_from_config(config).await?;
    state
        .store
        .ensure_table()
        .await
        .context("creating the table")?;
    let moved = local::upgrade::run(&state.store)
        .await
        .context("upgrading the local table")?;
    if moved > 0 {
        println!("Moved {moved} users' feed heads onto their wallets (present layout)");
    }
    state
        .store
        .seed_global_categories(&shared::domain::time::now_local_date_time())
        .await
        .context("seeding categories")?;
    spawn_recurring_job(state.store.clone());
    let port: u16 = std::env::var("PORT")
        .ok()
        .and_then(|p| p.parse().ok())
        .unwrap_or(3000);
    let listener = local::listen(("127.0.0.1", port))
        .await
        .with_context(|| format!("binding port {port}"))?;
    println!("Personal finance API listening on http://127.0.0.1:{port}");
    // The peer address is the client address that throttles key on (API Gateway's
    // `sourceIp` in AWS).
    let app = local::app(state).into_make_service_with_connect_info::<SocketAddr>();
    axum::serve(listener, app)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await?;
    Ok(())
}

/// Runs the recurring job (what the hourly schedule runs in AWS) every
/// `RECURRING_JOB_SECONDS` (default 60), so due occurrences appear within a minute.
fn spawn_recurring_job(store: shared::store::Store) {
    let every = std::env::var("RECURRING_JOB_SECONDS")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .unwrap_or(60)
        .max(1);
    let every = std::time::Duration::from_secs(every);
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(every);
        loop {
            tick.tick().await;
            let deadline = recurring_fn::deadline_within(every);
            if let Err(error) = recurring_fn::run_job(store.clone(), deadline).await {
                tracing::warn!(%error, "recurring job failed; retrying at the next tick");
            }
        }
    });
}
