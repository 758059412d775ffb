//! `cargo run -p local --bin admin -- promote <email>`: see `local::admin`. Reads
//! `TABLE_NAME`, `DYNAMODB_ENDPOINT` (unset: AWS, with the shell's credentials and region).

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let _ = dotenvy::dotenv();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let table = std::env::var("TABLE_NAME").unwrap_or_else(|_| "personal-finance".into());
    let endpoint = std::env::var("DYNAMODB_ENDPOINT")
        .ok()
        .filter(|v| !v.is_empty());
    let store = shared::store::Store::connect(&table, endpoint.as_deref()).await;
    match local::admin::run(&store, &args).await {
        Ok(message) => {
            println!("{message}");
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("admin: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
