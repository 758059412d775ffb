//! What the benchmark binaries share: the configuration they run the service with and
//! AWS's list prices. The binaries: `src/bin/bench` (`make bench`'s warm path, cost,
//! imports, the recurring job, load), `src/bin/lambda_bench` (the real Lambda binaries
//! under a Runtime API emulator) and `src/bin/capacity` (the capacity model and the cost
//! per active user). Figures are reported, never asserted.

pub mod prices;

/// The configuration the benchmarks run the service with: a table of their own on
/// DynamoDB Local, a fixed signing secret, no registration throttle, no CORS. The API
/// tests start from it too (`tests/api/helpers.rs`, `test_config`).
pub fn bench_config(
    table: &str,
    endpoint: &str,
    secret: &shared::config::Secret,
) -> shared::config::Config {
    shared::config::Config {
        table_name: table.to_owned(),
        dynamodb_endpoint: Some(endpoint.to_owned()),
        jwt_secret: Some(secret.clone()),
        jwt_secret_arn: None,
        registrations_per_hour: u64::MAX,
        doc_path: "/swagger-ui".into(),
        sort: "method".into(),
        cors_allowed_origins: vec![],
        reauth_window_secs: shared::config::DEFAULT_REAUTH_WINDOW_SECS,
        login_failures_per_address: u64::MAX,
        app_url: "http://127.0.0.1:3000".into(),
        mail_from: "bench <bench@localhost>".into(),
        mail_transport: shared::config::MailTransport::Off,
        limits: shared::config::Limits::default(),
    }
}
