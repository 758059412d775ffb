//! The data the requests need (a user with transactions, tags, providers, a rule and a
//! schedule; users to log in) and the request each binary gets: one representative
//! request per function.

use anyhow::Context as _;
use serde_json::{json, Value};

use super::event::ApiRequest;
use super::{Args, Case, FLOOR, PASSWORD, SECRET};

/// What the requests need: a user with data, its token, and users to log in.
pub struct Fixture {
    pub table: String,
    token: String,
    transaction_id: u64,
    schedule_id: u64,
    user_id: u64,
    login_emails: Vec<String>,
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
    })
}

pub fn cases(f: &Fixture, args: &Args) -> Vec<Case> {
    let token = f.token.clone();
    let authed = move |method, route| ApiRequest::new(method, route).bearer(&token);
    let get = |route: &'static str| {
        let authed = authed.clone();
        Box::new(move |_| authed("GET", route)) as Box<dyn Fn(usize) -> ApiRequest>
    };
    let case = |binary, request, expect| Case {
        binary,
        request,
        expect,
        warm: args.warm,
        extra_env: vec![],
    };
    let id = f.transaction_id;
    let emails = f.login_emails.clone();
    let create = authed.clone();
    let insights = authed.clone();
    let single = authed.clone();
    let export = authed.clone();
    let rules = authed.clone();
    let recurring = authed.clone();
    let schedule = f.schedule_id;
    vec![
        Case {
            warm: args.login_warm,
            ..case(
                "auth",
                Box::new(move |n| {
                    ApiRequest::new("POST", "/auth/login")
                        .json(json!({"email": emails[n % emails.len()], "password": PASSWORD}))
                }),
                200,
            )
        },
        case(
            "transactions",
            Box::new(move |_| single("GET", "/api/transactions/{id}").param("id", id)),
            200,
        ),
        case(
            "transactions",
            Box::new(move |n| {
                create("POST", "/api/transactions").json(json!({
                    "amount": format!("{}.50", 1 + n % 90),
                    "categoryId": 4,
                    "date": "2026-03-01",
                    "note": "bench"
                }))
            }),
            201,
        ),
        case("categories", get("/api/categories"), 200),
        case("wallet", get("/api/wallet"), 200),
        case("users", get("/users/me"), 200),
        case("tags", get("/api/tags"), 200),
        case("providers", get("/api/providers"), 200),
        case(
            "insights",
            Box::new(move |_| {
                insights("GET", "/api/insights/monthly")
                    .query("from", "2026-01")
                    .query("to", "2026-12")
            }),
            200,
        ),
        case("sync", get("/api/sync"), 200),
        case(
            "rules",
            Box::new(move |_| {
                rules("POST", "/api/rules/test")
                    .json(json!({"payee": "Corner shop", "amount": "4.20", "type": "DEBIT"}))
            }),
            200,
        ),
        case(
            "recurring",
            Box::new(move |_| {
                recurring("GET", "/api/recurring/{id}/occurrences")
                    .param("id", schedule)
                    .query("from", "2026-01-01")
                    .query("to", "2026-12-31")
            }),
            200,
        ),
        case(
            "imports",
            Box::new(move |_| export("GET", "/api/export").query("format", "json")),
            200,
        ),
        case(
            "docs",
            Box::new(|_| ApiRequest::new("GET", "/api-docs/openapi.json")),
            200,
        ),
        Case {
            extra_env: vec![
                ("FLOOR_PK", format!("USER#{}", f.user_id)),
                ("FLOOR_SK", format!("TXN#{id:016}")),
            ],
            ..case(FLOOR, Box::new(|_| ApiRequest::new("GET", "/floor")), 200)
        },
    ]
}
