//! `spawn_app()`: the whole API on a random loopback port, backed by a fresh table in
//! the DynamoDB Local that `make test` started (`DYNAMODB_ENDPOINT`).

use std::sync::Arc;

use aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder;
use aws_sdk_dynamodb::types::AttributeValue;
use reqwest::{Client, Method, RequestBuilder, Response};
use serde::de::DeserializeOwned;
use serde_json::{json, Value};
use shared::auth::token::TokenKeys;
use shared::config::{Config, Secret};
use shared::http::AppState;
use shared::store::Store;

pub const SECRET: &str = "test-secret-0123456789abcdef-0123456789";
pub const PASSWORD: &str = "correct horse battery staple";

pub struct TestApp {
    pub base: String,
    pub state: AppState,
    pub client: Client,
}

/// A registered, logged-in user.
pub struct TestUser {
    pub id: u64,
    pub token: String,
}

fn endpoint() -> String {
    std::env::var("DYNAMODB_ENDPOINT")
        .expect("DYNAMODB_ENDPOINT must point at DynamoDB Local: run the tests with `make test`")
}

/// The benchmark's configuration (a table of its own on DynamoDB Local, the fixed
/// `SECRET`, no registration throttle: the tests register hundreds of users from
/// 127.0.0.1, and the throttle has tests of its own), with the login throttle, the links
/// and the mail of a deployment.
pub fn test_config(table: &str) -> Config {
    let secret = Secret::new(SECRET.as_bytes().to_vec());
    Config {
        login_failures_per_address: shared::config::DEFAULT_LOGIN_FAILURES_PER_ADDRESS,
        app_url: "http://app.example".into(),
        mail_from: "Personal Finance <no-reply@example.com>".into(),
        // The SMTP catcher `make test` starts (tests read what it caught).
        mail_transport: match std::env::var("SMTP_PORT") {
            Ok(port) => shared::config::MailTransport::Smtp {
                host: "127.0.0.1".into(),
                port: port.parse().expect("SMTP_PORT"),
                tls: false,
            },
            Err(_) => shared::config::MailTransport::Off,
        },
        ..bench::bench_config(table, &endpoint(), &secret)
    }
}

/// A state over a new table of its own, created and seeded like `make run` does.
pub async fn fresh_state() -> AppState {
    fresh_state_with(|_| {}).await
}

async fn fresh_state_with(adjust: impl FnOnce(&mut Config)) -> AppState {
    let table = format!("test-{}", rand::random::<u64>());
    let mut config = test_config(&table);
    adjust(&mut config);
    let store = Store::connect(&table, config.dynamodb_endpoint.as_deref())
        .await
        .with_limits(config.limits);
    store.ensure_table().await.expect("create table");
    store
        .seed_global_categories("2026-01-01T00:00:00")
        .await
        .expect("seed");
    let secret = config.jwt_secret.clone().expect("secret");
    let mail = shared::mail::Mailer::from_config(&config)
        .await
        .expect("mailer");
    AppState {
        store,
        tokens: Arc::new(TokenKeys::new(&secret)),
        mail: Arc::new(mail),
        config: Arc::new(config),
    }
}

pub async fn spawn_app() -> TestApp {
    spawn_app_with(|_| {}).await
}

/// `spawn_app` and a new user of it.
pub async fn spawn_app_and_user() -> (TestApp, TestUser) {
    let app = spawn_app().await;
    let user = app.new_user().await;
    (app, user)
}

/// `spawn_app` with a configuration change.
pub async fn spawn_app_with(adjust: impl FnOnce(&mut Config)) -> TestApp {
    // Logs (5xx details included) show in the output of a failing test.
    shared::lambda::init_tracing();
    let state = fresh_state_with(adjust).await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("addr"));
    let app =
        local::app(state.clone()).into_make_service_with_connect_info::<std::net::SocketAddr>();
    tokio::spawn(async move { axum::serve(listener, app).await.expect("serve") });
    TestApp {
        base,
        state,
        client: Client::new(),
    }
}

impl TestApp {
    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.base, path)
    }

    pub async fn register(&self, body: &Value) -> Response {
        self.call(Method::POST, "/auth/register", None, Some(body))
            .await
    }

    pub async fn login(&self, email: &str, password: &str) -> Response {
        let body = json!({"email": email, "password": password});
        self.call(Method::POST, "/auth/login", None, Some(&body))
            .await
    }

    /// The body of a login, whatever its status.
    pub async fn login_json(&self, email: &str, password: &str) -> Value {
        self.login(email, password)
            .await
            .json()
            .await
            .expect("json")
    }

    /// Registers and logs in a new user with a unique e-mail.
    pub async fn new_user(&self) -> TestUser {
        let email = format!("user{}@example.com", rand::random::<u32>());
        self.new_user_with_email(&email).await
    }

    pub async fn new_user_with_email(&self, email: &str) -> TestUser {
        let r = self
            .register(&json!({
                "firstname": "Test", "lastname": "User", "email": email,
                "password": PASSWORD, "confirmPassword": PASSWORD
            }))
            .await;
        assert_eq!(r.status(), 201, "register {email}");
        let id = r.json::<Value>().await.expect("json")["id"]
            .as_u64()
            .expect("id");
        let token = self.login_token(email).await;
        TestUser { id, token }
    }

    /// Logs in with `PASSWORD`, expects 200 and returns the access token.
    async fn login_token(&self, email: &str) -> String {
        let login = self.login(email, PASSWORD).await;
        assert_eq!(login.status(), 200);
        login.json::<Value>().await.expect("json")["token"]
            .as_str()
            .expect("token")
            .to_owned()
    }

    pub async fn create_transaction(&self, user: &TestUser, body: &Value) -> Response {
        self.call(Method::POST, "/api/transactions", Some(user), Some(body))
            .await
    }

    /// Creates a valid transaction and returns its body.
    pub async fn add(&self, user: &TestUser, amount: &str, category_id: u64, date: &str) -> Value {
        let r = self
            .create_transaction(
                user,
                &json!({"amount": amount, "categoryId": category_id, "date": date}),
            )
            .await;
        assert_eq!(r.status(), 201);
        r.json().await.expect("json")
    }

    /// Creates a valid transaction and returns its id.
    pub async fn add_id(&self, user: &TestUser, amount: &str, category_id: u64, date: &str) -> u64 {
        let t = self.add(user, amount, category_id, date).await;
        t["id"].as_u64().expect("id")
    }

    pub async fn get_transaction(&self, user: &TestUser, id: u64) -> Response {
        let path = format!("/api/transactions/{id}");
        self.call(Method::GET, &path, Some(user), None).await
    }

    pub async fn list_transactions(&self, user: &TestUser, query: &str) -> Response {
        let path = format!("/api/transactions{query}");
        self.call(Method::GET, &path, Some(user), None).await
    }

    /// `POST /api/transactions` with an `Idempotency-Key`, as `user`.
    pub async fn create_transaction_keyed(
        &self,
        user: &TestUser,
        key: &str,
        body: &Value,
    ) -> Response {
        self.request(Method::POST, "/api/transactions", Some(user))
            .header("idempotency-key", key)
            .json(body)
            .send()
            .await
            .expect("request")
    }

    /// The transactions `list_transactions` answers, whatever its status.
    pub async fn listed(&self, user: &TestUser, query: &str) -> Vec<Value> {
        let r = self.list_transactions(user, query).await;
        r.json().await.expect("json")
    }

    pub async fn update_transaction(&self, user: &TestUser, id: u64, body: &Value) -> Response {
        let path = format!("/api/transactions/{id}");
        self.call(Method::PUT, &path, Some(user), Some(body)).await
    }

    pub async fn delete_transaction(&self, user: &TestUser, id: u64) -> Response {
        let path = format!("/api/transactions/{id}");
        self.call(Method::DELETE, &path, Some(user), None).await
    }

    /// The wallet's `amountBalance.amount`, as the exact decimal text sent on the wire.
    pub async fn balance(&self, user: &TestUser) -> String {
        let r = self
            .call(Method::GET, "/api/wallet", Some(user), None)
            .await;
        assert_eq!(r.status(), 200);
        let body: Value = r.json().await.expect("json");
        body["amountBalance"]["amount"].to_string()
    }
}

/// The path of the next page, from `Link: <path>; rel="next"`.
pub fn next_link(r: &Response) -> Option<String> {
    let link = r.headers().get("link")?.to_str().ok()?;
    let (url, rel) = link.strip_prefix('<')?.split_once('>')?;
    assert_eq!(rel, "; rel=\"next\"", "{link}");
    Some(url.to_owned())
}

/// Checks the problem+json shape every error shares and returns the body.
pub async fn assert_problem(r: Response, status: u16) -> Value {
    assert_eq!(r.status(), status);
    let content_type = r
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_owned();
    assert_eq!(content_type, "application/problem+json");
    let body: Value = r.json().await.expect("problem json");
    assert_eq!(body["status"], status);
    for member in [
        "type",
        "title",
        "detail",
        "instance",
        "timestamp",
        "error",
        "message",
        "path",
    ] {
        assert!(
            body.get(member).is_some(),
            "problem lacks `{member}`: {body}"
        );
    }
    body
}

impl TestApp {
    /// Any request, as `user` (or anonymously), with an optional JSON body.
    pub async fn call(
        &self,
        method: Method,
        path: &str,
        user: Option<&TestUser>,
        body: Option<&Value>,
    ) -> Response {
        let mut req = self.request(method, path, user);
        if let Some(b) = body {
            req = req.json(b);
        }
        req.send().await.expect("request")
    }

    /// Any request with a raw body of the given content type, as `user` (or anonymously).
    pub async fn call_raw(
        &self,
        method: Method,
        path: &str,
        user: Option<&TestUser>,
        content_type: &str,
        body: impl Into<reqwest::Body>,
    ) -> Response {
        self.request(method, path, user)
            .header("content-type", content_type)
            .body(body)
            .send()
            .await
            .expect("request")
    }

    /// `GET` as `user`.
    pub async fn get(&self, user: &TestUser, path: &str) -> Response {
        self.call(Method::GET, path, Some(user), None).await
    }

    /// Every page of a list from `path` as `user`, following `Link: <...>; rel="next"`:
    /// each page's JSON array.
    pub async fn pages(&self, user: &TestUser, path: &str) -> Vec<Vec<Value>> {
        let mut pages = Vec::new();
        let mut next = Some(path.to_owned());
        while let Some(path) = next.take() {
            let r = self.get(user, &path).await;
            assert_eq!(r.status(), 200, "GET {path}");
            next = r.headers().get("link").map(|l| {
                let l = l.to_str().unwrap();
                assert!(l.ends_with("; rel=\"next\""), "{l}");
                l[1..l.find('>').unwrap()].to_owned()
            });
            pages.push(r.json().await.unwrap());
            assert!(pages.len() <= 1_000, "the list never ended");
        }
        pages
    }

    /// `DELETE` as `user`.
    pub async fn delete(&self, user: &TestUser, path: &str) -> Response {
        self.call(Method::DELETE, path, Some(user), None).await
    }

    /// `PUT` of a JSON body as `user`.
    pub async fn put(&self, user: &TestUser, path: &str, body: &Value) -> Response {
        self.call(Method::PUT, path, Some(user), Some(body)).await
    }

    /// `POST` of a JSON body as `user`.
    pub async fn post(&self, user: &TestUser, path: &str, body: &Value) -> Response {
        self.call(Method::POST, path, Some(user), Some(body)).await
    }

    /// A request to build further (headers, body), as `user` (or anonymously).
    pub fn request(&self, method: Method, path: &str, user: Option<&TestUser>) -> RequestBuilder {
        let req = self.client.request(method, self.url(path));
        match user {
            Some(u) => req.bearer_auth(&u.token),
            None => req,
        }
    }

    /// The JSON body of a `GET` as `user`, whatever its status.
    pub async fn get_json<T: DeserializeOwned>(&self, user: &TestUser, path: &str) -> T {
        let r = self.call(Method::GET, path, Some(user), None).await;
        r.json().await.expect("json")
    }

    /// Creates something with POST and returns its id.
    pub async fn create(&self, user: &TestUser, path: &str, body: &Value) -> u64 {
        let r = self.call(Method::POST, path, Some(user), Some(body)).await;
        assert_eq!(r.status(), 201, "POST {path} {body}");
        r.json::<Value>().await.expect("json")["id"]
            .as_u64()
            .expect("id")
    }

    /// `POST /api/transactions/batch` with these operations.
    pub async fn post_batch(&self, user: &TestUser, operations: &Value) -> Response {
        let body = json!({"operations": operations});
        self.post(user, "/api/transactions/batch", &body).await
    }

    /// Creates a category of `user`'s (`kind` DEBIT or CREDIT) and returns its id.
    pub async fn create_category(&self, user: &TestUser, name: &str, kind: &str) -> u64 {
        let body = json!({"categoryName": name, "type": kind});
        self.create(user, "/api/categories", &body).await
    }

    /// Creates a tag, a provider and a DEBIT category of `user`'s, with these names;
    /// returns their ids in that order.
    pub async fn create_refs(
        &self,
        user: &TestUser,
        tag_name: &str,
        provider_name: &str,
        category_name: &str,
    ) -> (u64, u64, u64) {
        let tag = self
            .create(user, "/api/tags", &json!({"tagName": tag_name}))
            .await;
        let provider = self
            .create(
                user,
                "/api/providers",
                &json!({"providerName": provider_name}),
            )
            .await;
        let category = self.create_category(user, category_name, "DEBIT").await;
        (tag, provider, category)
    }

    /// Makes `user`'s profile look older than its counters: no `countedSinceSignup`, and
    /// counters of categories, tags and providers at zero whatever the user owns (as when
    /// counting began after they were made and as many were deleted since).
    pub async fn age_profile(&self, user: &TestUser) {
        let counters = "categoryCount = :n, tagCount = :n, providerCount = :n";
        self.update_profile(
            user,
            &format!("REMOVE countedSinceSignup SET {counters}"),
            0,
        )
        .await;
    }

    /// Applies `expression` (its one value `:n` = `n`) to `user`'s profile item directly.
    pub async fn update_profile(&self, user: &TestUser, expression: &str, n: u64) {
        let store = &self.state.store;
        store
            .client()
            .update_item()
            .table_name(store.table())
            .set_key(Some(shared::store::batch::key(
                &shared::store::keys::user_pk(user.id),
                shared::store::keys::PROFILE,
            )))
            .update_expression(expression)
            .expression_attribute_values(
                ":n",
                aws_sdk_dynamodb::types::AttributeValue::N(n.to_string()),
            )
            .send()
            .await
            .expect("profile updated");
    }

    /// An admin: registered like anyone, promoted with the operator's `admin` command,
    /// then logged in again (the promotion ends the user's sessions).
    pub async fn new_admin(&self) -> TestUser {
        let email = format!("admin{}@example.com", rand::random::<u32>());
        let user = self.new_user_with_email(&email).await;
        let args = ["promote".to_owned(), email.clone()];
        local::admin::run(&self.state.store, &args)
            .await
            .expect("promote");
        let token = self.login_token(&email).await;
        TestUser { id: user.id, token }
    }

    /// `POST /api/imports{query}` of a file of `content_type`, as `user`.
    pub async fn upload(
        &self,
        user: &TestUser,
        query: &str,
        content_type: &str,
        file: impl Into<reqwest::Body>,
    ) -> Response {
        let path = format!("/api/imports{query}");
        self.call_raw(Method::POST, &path, Some(user), content_type, file)
            .await
    }

    /// `POST /api/imports?dryRun=true` of a file of `content_type`, as `user`.
    pub async fn dry_run(
        &self,
        user: &TestUser,
        content_type: &str,
        file: impl Into<reqwest::Body>,
    ) -> Response {
        self.upload(user, "?dryRun=true", content_type, file).await
    }

    pub async fn put_picture(
        &self,
        user: &TestUser,
        target: u64,
        content_type: &str,
        bytes: Vec<u8>,
    ) -> Response {
        let path = format!("/users/{target}/picture");
        self.call_raw(Method::PUT, &path, Some(user), content_type, bytes)
            .await
    }
}

/// The `field` of each entry of a problem's `errors`, in order.
pub fn error_fields(problem: &Value) -> Vec<&str> {
    let errors = problem["errors"].as_array().expect("errors");
    pluck(errors, "field", Value::as_str)
}

/// `key` of each of `items`, read with `get` (`Value::as_u64`, `Value::as_str`...), in
/// order; panics on an item without it.
pub fn pluck<'a, T, C: FromIterator<T>>(
    items: &'a [Value],
    key: &str,
    get: fn(&'a Value) -> Option<T>,
) -> C {
    items
        .iter()
        .map(|item| get(&item[key]).unwrap_or_else(|| panic!("no {key} in {item}")))
        .collect()
}

/// A minimal valid PNG (1x1 pixel).
pub fn png() -> Vec<u8> {
    let mut v = b"\x89PNG\r\n\x1a\n".to_vec();
    v.extend_from_slice(&[
        0, 0, 0, 13, b'I', b'H', b'D', b'R', 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0, 0x1f, 0x15,
        0xc4, 0x89,
    ]);
    v
}

impl TestApp {
    /// `GET /api/sync` from `cursor`, as `user`.
    pub async fn sync_from(&self, user: &TestUser, cursor: &str) -> Response {
        let path = format!("/api/sync?cursor={}", urlencode(cursor));
        self.call(Method::GET, &path, Some(user), None).await
    }

    /// `DELETE /users/{id}` of the user's own account, with their password.
    pub async fn delete_self(&self, user: &TestUser) -> Response {
        let path = format!("/users/{}", user.id);
        let body = json!({"currentPassword": PASSWORD});
        self.call(Method::DELETE, &path, Some(user), Some(&body))
            .await
    }

    /// `PUT /users/{id}` of the user's own profile.
    pub async fn update_self(&self, user: &TestUser, body: &Value) -> Response {
        let path = format!("/users/{}", user.id);
        self.call(Method::PUT, &path, Some(user), Some(body)).await
    }

    /// `PUT /users/{id}` with only a role, as `admin`.
    pub async fn set_role(&self, admin: &TestUser, user_id: u64, role: &str) -> Response {
        let path = format!("/users/{user_id}");
        let body = json!({ "role": role });
        self.call(Method::PUT, &path, Some(admin), Some(&body))
            .await
    }

    /// `PUT` of a JSON body with `If-Match`, as `user`.
    pub async fn put_if_match(
        &self,
        user: &TestUser,
        path: &str,
        etag: &str,
        body: &Value,
    ) -> Response {
        self.request(Method::PUT, path, Some(user))
            .header("if-match", etag)
            .json(body)
            .send()
            .await
            .expect("request")
    }

    /// The items of a user's partition, read consistently: a `Query` to finish.
    pub fn query_partition(&self, user_id: u64) -> QueryFluentBuilder {
        let store = &self.state.store;
        store
            .client()
            .query()
            .table_name(store.table())
            .key_condition_expression("PK = :pk")
            .expression_attribute_values(":pk", AttributeValue::S(format!("USER#{user_id}")))
            .consistent_read(true)
    }
}

/// A query parameter's value, percent-encoded.
pub fn urlencode(text: &str) -> String {
    form_urlencoded::byte_serialize(text.as_bytes()).collect()
}
