use std::time::{Duration, Instant};

use reqwest::{Method, Response};
use serde_json::{json, Value};

use crate::accounts::{
    client_from, login_with, request_reset, reset_password_from, unique_email, NEW_PASSWORD,
};
use crate::helpers::{
    assert_problem, error_fields, spawn_app, spawn_app_and_user, spawn_app_with, TestApp, PASSWORD,
};

/// `GET /users/me` with an access token.
async fn me_with(app: &TestApp, token: &str) -> Response {
    app.client
        .get(app.url("/users/me"))
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
}

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
    let me = me_with(&app, rotated["token"].as_str().unwrap()).await;
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

fn retry_after(r: &reqwest::Response) -> u64 {
    r.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap()
}

/// The lockout of issue 48, replayed: a stranger makes 20 failed logins from two
/// addresses, then one guess each time the e-mail's back-off opens (`Retry-After` says
/// when); the owner with the right password but no device token gets `429`. The reset's
/// answer is a login: with its device token the owner is in at once, while the
/// stranger's guesses stay throttled (the back-off is the e-mail's, the reset keeps it).
#[tokio::test]
async fn a_reset_lets_the_owner_in_at_once_while_the_strangers_guesses_stay_throttled() {
    let app = spawn_app().await;
    let email = unique_email("besieged");
    assert_eq!(app.register(&registration(&email)).await.status(), 201);
    let wrong = json!({"email": email, "password": "a stranger's guess, number n"});
    let first_addresses = ["127.0.8.1", "127.0.8.2"];
    for ip in first_addresses {
        let stranger = client_from(ip);
        for _ in 0..10 {
            assert_eq!(
                login_with(&app, &stranger, wrong.clone()).await.status(),
                401
            );
        }
    }
    // One guess each time the back-off opens (it doubles: 1, 2, 4, 8, 16 s).
    let (mut next, mut opened) = (3, 0);
    while opened < 5 {
        assert!(next < 60, "the back-off never opened");
        let r = login_with(
            &app,
            &client_from(&format!("127.0.8.{next}")),
            wrong.clone(),
        )
        .await;
        next += 1;
        match r.status().as_u16() {
            401 => opened += 1,
            429 => tokio::time::sleep(Duration::from_secs(retry_after(&r))).await,
            other => panic!("a guess answered {other}"),
        }
    }
    let owner = client_from("127.0.8.100");
    let right = json!({"email": email, "password": PASSWORD});
    let r = login_with(&app, &owner, right).await;
    assert_eq!(r.status(), 429, "the owner is kept out");

    let r = reset_password_from(&app, &owner, &email, 2).await;
    assert_eq!(r.status(), 200);
    let reset: Value = r.json().await.unwrap();
    let me = me_with(&app, reset["token"].as_str().unwrap()).await;
    assert_eq!(me.status(), 200, "the reset's answer is a session");
    let device = reset["deviceToken"].as_str().unwrap();
    let again = json!({"email": email, "password": NEW_PASSWORD, "deviceToken": device});
    assert_eq!(login_with(&app, &owner, again).await.status(), 200);
    // The stranger, at an address of before (its counter cleared) or a new one: still 429.
    for ip in [first_addresses[0], "127.0.8.200"] {
        let r = login_with(&app, &client_from(ip), wrong.clone()).await;
        assert_eq!(r.status(), 429, "the stranger from {ip}");
    }
}

/// `409` tells who has an account, so it is rationed per client address: after 10 in an
/// hour, registrations from there answer `429` (a new e-mail too); other addresses are not
/// affected.
#[tokio::test]
async fn ten_409s_from_one_address_make_its_next_registrations_429() {
    let app = spawn_app().await;
    let taken = unique_email("taken");
    let prober = client_from("127.0.9.1");
    let register = |client: &reqwest::Client, email: &str| {
        client
            .post(app.url("/auth/register"))
            .json(&registration(email))
            .send()
    };
    assert_eq!(register(&prober, &taken).await.unwrap().status(), 201);
    for _ in 0..10 {
        assert_problem(register(&prober, &taken).await.unwrap(), 409).await;
    }
    for email in [taken.clone(), unique_email("fresh")] {
        let r = register(&prober, &email).await.unwrap();
        assert!((1..=3600).contains(&retry_after(&r)));
        assert_problem(r, 429).await;
    }
    let elsewhere = client_from("127.0.9.2");
    assert_problem(register(&elsewhere, &taken).await.unwrap(), 409).await;
    let fresh = unique_email("fresh");
    assert_eq!(register(&elsewhere, &fresh).await.unwrap().status(), 201);
}

/// The mails go out after the answer: with a mail server that takes connections and never
/// answers (lettre waits 10 s for it), a reset request for a known address still answers
/// within the 600 ms floor's reach, and so does a registration.
#[tokio::test]
async fn a_mail_server_that_never_answers_does_not_slow_the_answers() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let (called, mut calls) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((socket, _)) = listener.accept().await {
            held.push(socket);
            let _ = called.send(());
        }
    });
    let app = spawn_app_with(|c| {
        c.mail_transport = shared::config::MailTransport::Smtp {
            host: "127.0.0.1".into(),
            port,
            tls: false,
        }
    })
    .await;
    let email = unique_email("slow-mail");
    let started = Instant::now();
    assert_eq!(app.register(&registration(&email)).await.status(), 201);
    let registering = started.elapsed();
    let wait = Duration::from_secs(5);
    let sent = tokio::time::timeout(wait, calls.recv()).await;
    assert!(sent.is_ok(), "the verification mail went to the server");
    let started = Instant::now();
    assert_eq!(request_reset(&app, &email).await.status(), 202);
    let known = started.elapsed();
    let sent = tokio::time::timeout(wait, calls.recv()).await;
    assert!(sent.is_ok(), "the reset mail went to the server");
    let started = Instant::now();
    assert_eq!(
        request_reset(&app, &unique_email("nobody")).await.status(),
        202
    );
    let unknown = started.elapsed();
    assert!(
        known < Duration::from_secs(3),
        "a known address took {known:?}"
    );
    assert!(
        known < unknown + Duration::from_millis(500),
        "known {known:?}, unknown {unknown:?}"
    );
    assert!(
        registering < Duration::from_secs(5),
        "registering took {registering:?}"
    );
}

/// In Lambda the auth function hands each mail to itself: the event it sends is told apart
/// from an API Gateway request, and its invocation sends the mail (here to the catcher).
#[tokio::test]
async fn the_auth_functions_mail_event_sends_its_mail_and_requests_are_no_mail_events() {
    let state = crate::helpers::fresh_state().await;
    let to = unique_email("lambda-mail");
    let mail = shared::mail::Mail {
        to: to.clone(),
        subject: "Handed over".into(),
        body: "sent by the invocation the event started\n".into(),
    };
    let event = mail.event();
    assert!(auth_fn::mail::is_mail_event(&event));
    let request: Value =
        serde_json::from_str(include_str!("../fixtures/apigw_v2_register.json")).unwrap();
    assert!(!auth_fn::mail::is_mail_event(&request));
    auth_fn::mail::on_event(&state.mail, event).await.unwrap();
    let mails = crate::accounts::mails_to(&to, 1).await;
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0]["subject"], "Handed over");
}
