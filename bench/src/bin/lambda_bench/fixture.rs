//! The data the requests need: a user with transactions, tags, providers, a rule and a
//! schedule; users to log in; another user's finished import job.

use anyhow::Context as _;
use serde_json::{json, Value};

use super::{PASSWORD, SECRET};

/// What the requests need: a user with data, its token, and users to log in.
pub struct Fixture {
    pub table: String,
    pub token: String,
    pub transaction_id: u64,
    pub schedule_id: u64,
    pub user_id: u64,
    pub login_emails: Vec<String>,
    /// A finished import job's user and id.
    pub job: (u64, u64),
}

pub async fn fixture(endpoint: &str, logins: usize) -> anyhow::Result<Fixture> {
    let table = format!("lambda-bench-{}", std::process::id());
    let secret = shared::config::Secret::new(SECRET.as_bytes().to_vec());
    let config = bench::bench_config(&table, endpoint, &secret);
    let store = shared::store::Store::connect(&table, Some(endpoint)).await;
    store.ensure_table().await?;
    store.seed_global_categories("2026-01-01T00:00:00").await?;
    let state = shared::http::AppState {
        store,
        tokens: std::sync::Arc::new(shared::auth::token::TokenKeys::new(&secret)),
        mail: std::sync::Arc::new(shared::mail::Mailer::Off),
        config: std::sync::Arc::new(config),
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let base = format!("http://{}", listener.local_addr()?);
    let app = local::app(state).into_make_service_with_connect_info::<std::net::SocketAddr>();
    tokio::spawn(async move { axum::serve(listener, app).await });
    let http = reqwest::Client::new();
    let call = |method: reqwest::Method, path: &str, token: Option<&str>, body: Value| {
        let mut req = http.request(method, format!("{base}{path}")).json(&body);
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        async move {
            let response = req.send().await?;
            let status = response.status();
            let body: Value = response.json().await.unwrap_or(Value::Null);
            anyhow::ensure!(status.is_success(), "{status}: {body}");
            Ok::<_, anyhow::Error>(body)
        }
    };
    let register = |email: String| {
        let body = json!({"firstname": "Bench", "lastname": "Mark", "email": email,
            "password": PASSWORD, "confirmPassword": PASSWORD});
        call(reqwest::Method::POST, "/auth/register", None, body)
    };
    let user = register("bench@example.com".into()).await?;
    let user_id = user["id"].as_u64().context("registered user's id")?;
    let login = call(
        reqwest::Method::POST,
        "/auth/login",
        None,
        json!({"email": "bench@example.com", "password": PASSWORD}),
    )
    .await?;
    let token = login["token"].as_str().context("token")?.to_owned();
    use reqwest::Method;
    for (path, body) in [
        ("/api/tags", json!({"tagName": "groceries"})),
        ("/api/providers", json!({"providerName": "Corner shop"})),
    ] {
        call(Method::POST, path, Some(&token), body).await?;
    }
    let mut transaction_id = 0;
    for i in 0..20 {
        let body = json!({"amount": format!("{}.25", 3 + i), "categoryId": 4,
            "date": format!("2026-{:02}-{:02}", 1 + i % 6, 1 + i), "note": "bench"});
        let created = call(Method::POST, "/api/transactions", Some(&token), body).await?;
        transaction_id = created["id"].as_u64().context("transaction id")?;
    }
    let rule = json!({"name": "Coffee", "conditions": [
        {"field": "payee", "op": "contains", "value": "corner"},
        {"field": "amount", "op": "lt", "value": "20"}], "actions": {"categoryId": 8}});
    call(Method::POST, "/api/rules", Some(&token), rule).await?;
    let schedule = json!({"amount": "1200.00", "categoryId": 5, "note": "Rent",
        "start": "2026-01-31", "rrule": "FREQ=MONTHLY;BYMONTHDAY=-1"});
    let schedule = call(Method::POST, "/api/recurring", Some(&token), schedule).await?;
    let schedule_id = schedule["id"].as_u64().context("schedule id")?;
    let job = import_job(&http, &base, &register).await?;
    let mut login_emails = Vec::with_capacity(logins);
    for i in 0..logins {
        let email = format!("login-{i}@example.com");
        register(email.clone()).await?;
        login_emails.push(email);
    }
    Ok(Fixture {
        table,
        token,
        transaction_id,
        schedule_id,
        user_id,
        login_emails,
        job,
    })
}

/// Another user's import of 3,001 rows (a job: more than `SYNC_ROWS`), run to its end by
/// the local server: the job an import job event names (a worker invoked again for a job
/// that has ended, as a retried or late invocation is, reads it and stops).
async fn import_job<F, R>(
    http: &reqwest::Client,
    base: &str,
    register: &F,
) -> anyhow::Result<(u64, u64)>
where
    F: Fn(String) -> R,
    R: std::future::Future<Output = anyhow::Result<Value>>,
{
    let email = "job@example.com";
    let user = register(email.into()).await?;
    let user_id = user["id"].as_u64().context("job user's id")?;
    let login = http
        .post(format!("{base}/auth/login"))
        .json(&json!({"email": email, "password": PASSWORD}))
        .send()
        .await?
        .json::<Value>()
        .await?;
    let token = login["token"].as_str().context("job user's token")?;
    let mut file = String::from("Date,Amount,Memo\n");
    for i in 0..3_001 {
        file.push_str(&format!(
            "2026-{:02}-{:02},-{}.{:02},row {i}\n",
            1 + i % 12,
            1 + i % 28,
            1 + i % 50,
            i % 100
        ));
    }
    let started = http
        .post(format!("{base}/api/imports"))
        .bearer_auth(token)
        .header("content-type", "text/csv")
        .body(file)
        .send()
        .await?;
    anyhow::ensure!(
        started.status() == 202,
        "an import job: {}",
        started.status()
    );
    let job: Value = started.json().await?;
    let job_id = job["id"].as_u64().context("job id")?;
    for _ in 0..600 {
        let job: Value = http
            .get(format!("{base}/api/imports/{job_id}"))
            .bearer_auth(token)
            .send()
            .await?
            .json()
            .await?;
        if job["status"] == "done" {
            return Ok((user_id, job_id));
        }
        anyhow::ensure!(job["status"] == "running", "the import job ended: {job}");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    anyhow::bail!("the import job did not end within a minute")
}
