use reqwest::Method;
use serde_json::{json, Value};

use crate::helpers::{assert_problem, error_fields, spawn_app, spawn_app_and_user, PASSWORD};

fn registration(email: &str) -> Value {
    json!({"firstname": "Ann", "lastname": "Lee", "email": email, "password": PASSWORD, "confirmPassword": PASSWORD})
}

#[tokio::test]
async fn register_returns_201_with_the_user_a_location_and_never_the_password() {
    let app = spawn_app().await;
    let r = app.register(&registration("ann@example.com")).await;
    assert_eq!(r.status(), 201);
    let location = r.headers()["location"].to_str().unwrap().to_owned();
    let body: Value = r.json().await.unwrap();
    assert_eq!(location, format!("/users/{}", body["id"]));
    assert_eq!(body["firstName"], "Ann");
    assert_eq!(body["lastName"], "Lee");
    assert_eq!(body["email"], "ann@example.com");
    assert_eq!(body["role"], "USER");
    assert!(body["createdAt"].as_str().unwrap().len() == 19);
    let text = body.to_string();
    assert!(
        !text.contains("password") && !text.contains("argon2"),
        "{text}"
    );
}

#[tokio::test]
async fn register_creates_an_empty_euro_wallet() {
    let (app, user) = spawn_app_and_user().await;
    let r = app.get(&user, "/api/wallet").await;
    let wallet: Value = r.json().await.unwrap();
    assert_eq!(wallet["currency"]["code"], "EUR");
    assert_eq!(wallet["amountBalance"]["amount"].to_string(), "0.00");
}

#[tokio::test]
async fn register_accepts_camel_case_names_and_never_grants_a_role() {
    let app = spawn_app().await;
    let r = app
        .register(&json!({"firstName": "Ada", "lastName": "Root", "email": "Admin@Example.com", "password": PASSWORD, "confirmPassword": PASSWORD}))
        .await;
    assert_eq!(r.status(), 201);
    assert_eq!(r.json::<Value>().await.unwrap()["role"], "USER");
}

#[tokio::test]
async fn register_reports_every_invalid_field() {
    let app = spawn_app().await;
    let r = app
        .register(&json!({"firstname": " ", "lastname": "Lee", "email": "not-an-email", "password": "short", "confirmPassword": "other"}))
        .await;
    let body = assert_problem(r, 400).await;
    let fields = error_fields(&body);
    assert_eq!(
        fields,
        ["firstname", "email", "password", "confirmPassword"]
    );
}

#[tokio::test]
async fn register_refuses_a_confirmation_that_differs() {
    let app = spawn_app().await;
    let mut body = registration("ann@example.com");
    body["confirmPassword"] = json!("correct horse battery stapler");
    let problem = assert_problem(app.register(&body).await, 400).await;
    assert_eq!(problem["errors"][0]["field"], "confirmPassword");
}

#[tokio::test]
async fn register_refuses_common_passwords_and_unknown_fields() {
    let app = spawn_app().await;
    let mut body = registration("ann@example.com");
    body["password"] = json!("passwordpassword");
    body["confirmPassword"] = json!("passwordpassword");
    assert_problem(app.register(&body).await, 400).await;
    let mut body = registration("ann@example.com");
    body["role"] = json!("ADMIN");
    assert_problem(app.register(&body).await, 400).await;
}

#[tokio::test]
async fn register_with_an_email_already_taken_in_any_case_is_409() {
    let app = spawn_app().await;
    assert_eq!(
        app.register(&registration("ann@example.com"))
            .await
            .status(),
        201
    );
    assert_problem(app.register(&registration("ANN@example.com")).await, 409).await;
}

#[tokio::test]
async fn login_returns_a_bearer_token_with_its_lifetime_and_the_user() {
    let app = spawn_app().await;
    app.register(&registration("ann@example.com")).await;
    let r = app.login("Ann@Example.com", PASSWORD).await;
    assert_eq!(r.status(), 200);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["tokenType"], "Bearer");
    assert_eq!(body["expiresIn"], 900);
    assert_eq!(body["user"]["email"], "ann@example.com");
    assert_eq!(body["token"].as_str().unwrap().split('.').count(), 3);
}

#[tokio::test]
async fn login_failures_look_the_same_for_unknown_emails_and_wrong_passwords() {
    let app = spawn_app().await;
    app.register(&registration("ann@example.com")).await;
    let wrong = assert_problem(
        app.login("ann@example.com", "wrong horse battery staple")
            .await,
        401,
    )
    .await;
    let unknown = assert_problem(app.login("nobody@example.com", PASSWORD).await, 401).await;
    assert_eq!(wrong["detail"], unknown["detail"]);
    assert_problem(app.login("not an email", PASSWORD).await, 401).await;
}

#[tokio::test]
async fn malformed_json_and_wrong_content_types_get_problem_bodies() {
    let app = spawn_app().await;
    let r = app
        .call_raw(
            Method::POST,
            "/auth/login",
            None,
            "application/json",
            "{\"email\": ",
        )
        .await;
    assert_problem(r, 400).await;
    let r = app
        .client
        .post(app.url("/auth/login"))
        .body("email=a")
        .send()
        .await
        .unwrap();
    assert_problem(r, 415).await;
}

#[tokio::test]
async fn ten_failed_logins_lock_the_email_for_a_while_with_retry_after() {
    let app = spawn_app().await;
    app.register(&registration("ann@example.com")).await;
    for _ in 0..10 {
        assert_problem(
            app.login("ann@example.com", "wrong horse battery staple")
                .await,
            401,
        )
        .await;
    }
    // Even the right password is refused now, without revealing whether it was right.
    let r = app.login("ANN@example.com", PASSWORD).await;
    let retry_after: u64 = r.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=900).contains(&retry_after));
    assert_problem(r, 429).await;
    // Unknown e-mails are throttled the same way.
    for _ in 0..10 {
        app.login("nobody@example.com", PASSWORD).await;
    }
    assert_problem(app.login("nobody@example.com", PASSWORD).await, 429).await;
    // Other accounts are unaffected.
    app.register(&registration("bob@example.com")).await;
    assert_eq!(app.login("bob@example.com", PASSWORD).await.status(), 200);
}

async fn refresh(app: &crate::helpers::TestApp, path: &str, token: &str) -> reqwest::Response {
    app.client
        .post(app.url(path))
        .json(&json!({"refreshToken": token}))
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn refresh_tokens_rotate_and_a_replayed_one_revokes_the_login() {
    let app = spawn_app().await;
    app.register(&registration("ann@example.com")).await;
    let login: Value = app.login_json("ann@example.com", PASSWORD).await;
    let first = login["refreshToken"].as_str().unwrap().to_owned();

    let r = refresh(&app, "/auth/refresh", &first).await;
    assert_eq!(r.status(), 200);
    let rotated: Value = r.json().await.unwrap();
    let second = rotated["refreshToken"].as_str().unwrap().to_owned();
    assert_ne!(second, first);
    let me = app
        .client
        .get(app.url("/users/me"))
        .bearer_auth(rotated["token"].as_str().unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(me.status(), 200);

    // Replaying the used token is refused and revokes its successor too.
    assert_problem(refresh(&app, "/auth/refresh", &first).await, 401).await;
    assert_problem(refresh(&app, "/auth/refresh", &second).await, 401).await;
    assert_problem(refresh(&app, "/auth/refresh", "garbage").await, 401).await;
    assert_eq!(refresh(&app, "/auth/logout", "garbage").await.status(), 204);
}

#[tokio::test]
async fn logout_revokes_the_refresh_token_of_that_login_only() {
    let app = spawn_app().await;
    app.register(&registration("ann@example.com")).await;
    let phone: Value = app.login_json("ann@example.com", PASSWORD).await;
    let laptop: Value = app.login_json("ann@example.com", PASSWORD).await;
    let phone_token = phone["refreshToken"].as_str().unwrap();
    assert_eq!(
        refresh(&app, "/auth/logout", phone_token).await.status(),
        204
    );
    assert_problem(refresh(&app, "/auth/refresh", phone_token).await, 401).await;
    assert_eq!(
        refresh(
            &app,
            "/auth/refresh",
            laptop["refreshToken"].as_str().unwrap()
        )
        .await
        .status(),
        200
    );
}
