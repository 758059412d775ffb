//! Local server: creates the table and seeds categories when missing, then serves every
//! function's routes on `127.0.0.1:$PORT` (default 3000).

use anyhow::Context;
use shared::config::{Secret, MIN_SECRET_BYTES};

/// Without `JWT_SECRET`, a random secret is kept in `.local/jwt-secret` so that tokens
/// survive restarts of `make run`.
fn local_secret() -> anyhow::Result<Secret> {
    let path = std::path::Path::new(".local/jwt-secret");
    if let Ok(existing) = std::fs::read(path) {
        if existing.len() >= MIN_SECRET_BYTES {
            return Ok(Secret::new(existing));
        }
    }
    let mut bytes = [0u8; 32];
    rand_bytes(&mut bytes);
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    std::fs::create_dir_all(".local")?;
    std::fs::write(path, &hex).context("writing .local/jwt-secret")?;
    Ok(Secret::new(hex.into_bytes()))
}

fn rand_bytes(out: &mut [u8]) {
    use std::io::Read;
    if let Ok(mut f) = std::fs::File::open("/dev/urandom") {
        let _ = f.read_exact(out);
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    shared::lambda::init_tracing();
    let _ = dotenvy::dotenv();
    if std::env::var_os("JWT_SECRET").is_none() {
        let secret = local_secret()?;
        // SAFETY: no other thread exists yet that could read the environment concurrently.
        unsafe {
            std::env::set_var(
                "JWT_SECRET",
                String::from_utf8_lossy(secret.expose()).as_ref(),
            )
        };
    }
    let state = shared::lambda::state_from_env().await?;
    state
        .store
        .ensure_table()
        .await
        .context("creating the table")?;
    state
        .store
        .seed_global_categories(&shared::domain::time::now_local_date_time())
        .await
        .context("seeding categories")?;
    let port: u16 = std::env::var("PORT")
        .ok()
        .and_then(|p| p.parse().ok())
        .unwrap_or(3000);
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
        .await
        .with_context(|| format!("binding port {port}"))?;
    println!("Personal finance API listening on http://127.0.0.1:{port}");
    axum::serve(listener, local::app(state))
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await?;
    Ok(())
}
