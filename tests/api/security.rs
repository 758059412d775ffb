//! Accounts that cannot be taken over: roles only from the operator, sessions that end
//! when they must, throttles that hold under parallel and distributed guessing,
//! re-authentication for sensitive changes, sealed cursors, bounded outages, a private
//! local DynamoDB, and password hashes that age.

use std::net::IpAddr;
use std::time::Duration;

use aws_sdk_dynamodb::types::AttributeValue;
use reqwest::{Client, Method, Response};
use serde_json::{json, Value};
use shared::store::throttle::{EMAIL_FREE_ATTEMPTS, PAIR_MAX_ATTEMPTS};

use crate::helpers::{
    assert_problem, spawn_app, spawn_app_and_user, spawn_app_with, TestApp, TestUser, PASSWORD,
};

const NEW_PASSWORD: &str = "another long passphrase 42";

/// A client whose requests come from `ip` (any 127.0.0.0/8 address is this machine).
fn client_from(ip: &str) -> Client {
    Client::builder()
        .local_address(ip.parse::<IpAddr>().unwrap())
        .build()
        .unwrap()
}

async fn login_from(app: &TestApp, client: &Client, email: &str, password: &str) -> Response {
    client
        .post(app.url("/auth/login"))
        .json(&json!({"email": email, "password": password}))
        .send()
        .await
        .unwrap()
}

/// Registers a unique e-mail that starts with `prefix`; returns the user, logged in, and
/// the e-mail.
async fn user_named(app: &TestApp, prefix: &str) -> (TestUser, String) {
    let email = unique_email(prefix);
    let user = app.new_user_with_email(&email).await;
    (user, email)
}

/// Logs in `n` times: `n` independent sessions, as their refresh tokens.
async fn sessions(app: &TestApp, email: &str, password: &str, n: usize) -> Vec<String> {
    let mut tokens = Vec::new();
    for _ in 0..n {
        let r = app.login(email, password).await;
        assert_eq!(r.status(), 200);
        let body: Value = r.json().await.unwrap();
        tokens.push(body["refreshToken"].as_str().unwrap().to_owned());
    }
    tokens
}

async fn refresh(app: &TestApp, token: &str) -> Response {
    app.client
        .post(app.url("/auth/refresh"))
        .json(&json!({"refreshToken": token}))
        .send()
        .await
        .unwrap()
}

fn unique_email(prefix: &str) -> String {
    format!("{prefix}{}@example.com", rand::random::<u32>())
}

#[tokio::test]
async fn registration_never_grants_a_role_and_only_the_operator_command_makes_the_first_admin() {
    let app = spawn_app().await;
    let (boss, email) = user_named(&app, "boss").await;
    let me: Value = app.get_json(&boss, "/users/me").await;
    assert_eq!(me["role"], "USER");
    // Not an admin: the user list is refused.
    assert_problem(app.get(&boss, "/users").await, 403).await;

    let out = local::admin::run(&app.state.store, &["promote".into(), email.clone()])
        .await
        .unwrap();
    assert!(out.contains("ADMIN"), "{out}");
    let admin = app
        .login(&email, PASSWORD)
        .await
        .json::<Value>()
        .await
        .unwrap();
    assert_eq!(admin["user"]["role"], "ADMIN");
    let admin = TestUser {
        id: boss.id,
        token: admin["token"].as_str().unwrap().to_owned(),
    };
    assert_eq!(app.get(&admin, "/users").await.status(), 200);

    // Unknown e-mails and bad commands are errors, never a silent success.
    assert!(local::admin::run(
        &app.state.store,
        &["promote".into(), unique_email("nobody")]
    )
    .await
    .is_err());
    assert!(
        local::admin::run(&app.state.store, &["crown".into(), email.clone()])
            .await
            .is_err()
    );
    local::admin::run(&app.state.store, &["demote".into(), email.clone()])
        .await
        .unwrap();
    assert_problem(app.get(&admin, "/users").await, 403).await;
}

/// Every way of ending all sessions: each leaves no refresh token of the user working, nor
/// the access token they had.
#[tokio::test]
async fn password_email_and_role_changes_logout_all_and_deletion_end_every_session() {
    let app = spawn_app().await;
    let admin = app.new_admin().await;
    let cases = [
        "own password",
        "admin reset",
        "own e-mail",
        "role",
        "logout-all",
        "deletion",
    ];
    for case in cases {
        let (user, email) = user_named(&app, "victim").await;
        let tokens = sessions(&app, &email, PASSWORD, 2).await;
        // Sessions work before the change (and rotating one keeps it alive).
        let rotated: Value = refresh(&app, &tokens[0]).await.json().await.unwrap();
        let tokens = [
            rotated["refreshToken"].as_str().unwrap().to_owned(),
            tokens[1].clone(),
        ];
        let path = format!("/users/{}", user.id);
        let r = match case {
            "own password" => {
                let body = json!({"password": NEW_PASSWORD, "currentPassword": PASSWORD});
                app.put(&user, &path, &body).await
            }
            "admin reset" => {
                let body = json!({"password": NEW_PASSWORD});
                app.put(&admin, &path, &body).await
            }
            "own e-mail" => {
                let body = json!({"email": unique_email("moved"), "currentPassword": PASSWORD});
                app.put(&user, &path, &body).await
            }
            "role" => {
                let body = json!({"role": "ADMIN"});
                app.put(&admin, &path, &body).await
            }
            "logout-all" => {
                app.call(Method::POST, "/auth/logout-all", Some(&user), None)
                    .await
            }
            "deletion" => {
                let body = json!({"currentPassword": PASSWORD});
                app.call(Method::DELETE, &path, Some(&user), Some(&body))
                    .await
            }
            _ => unreachable!(),
        };
        assert!(r.status().is_success(), "{case}: {}", r.status());
        for token in &tokens {
            let r = refresh(&app, token).await;
            assert_eq!(r.status(), 401, "{case}: a session survived");
        }
        // And the access token issued before is refused (a deleted user's reaches nothing).
        let status = if case == "deletion" { 404 } else { 403 };
        let r = app.get(&user, "/users/me").await;
        assert_eq!(r.status(), status, "{case}: an access token survived");
    }
    // Changing only a name keeps the sessions.
    let (user, email) = user_named(&app, "kept").await;
    let tokens = sessions(&app, &email, PASSWORD, 1).await;
    let body = json!({"firstName": "Renamed"});
    let path = format!("/users/{}", user.id);
    assert_eq!(app.put(&user, &path, &body).await.status(), 200);
    assert_eq!(refresh(&app, &tokens[0]).await.status(), 200);
}

#[tokio::test]
async fn a_session_ends_thirty_days_after_its_login_however_often_it_is_refreshed() {
    let app = spawn_app().await;
    let (user, email) = user_named(&app, "ann").await;
    let first = sessions(&app, &email, PASSWORD, 1).await.remove(0);
    let family = first.split('.').nth(1).unwrap().to_owned();
    let store = &app.state.store;
    let at_login = store
        .get_session(user.id, &family)
        .await
        .unwrap()
        .unwrap()
        .expires_at;
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let next: Value = refresh(&app, &first).await.json().await.unwrap();
    let next = next["refreshToken"].as_str().unwrap().to_owned();
    assert_eq!(
        next.split('.').nth(1),
        Some(family.as_str()),
        "same session"
    );
    let after = store.get_session(user.id, &family).await.unwrap().unwrap();
    assert_eq!(
        after.expires_at, at_login,
        "a refresh must not extend the session"
    );

    // Once the login is 30 days old, the session's token is refused.
    store
        .client()
        .update_item()
        .table_name(store.table())
        .key("PK", AttributeValue::S(format!("USER#{}", user.id)))
        .key("SK", AttributeValue::S(format!("SESSION#{family}")))
        .update_expression("SET expiresAt = :past")
        .expression_attribute_values(":past", AttributeValue::N("1000".into()))
        .send()
        .await
        .unwrap();
    assert_eq!(refresh(&app, &next).await.status(), 401);
}

#[tokio::test]
async fn forty_parallel_wrong_logins_reach_the_hash_at_most_the_allowed_number_of_times() {
    let app = spawn_app().await;
    let (_, email) = user_named(&app, "target").await;
    let attempts = (0..40).map(|i| {
        let (client, url, email) = (app.client.clone(), app.url("/auth/login"), email.clone());
        tokio::spawn(async move {
            let body = json!({"email": email, "password": format!("wrong password number {i}")});
            client
                .post(url)
                .json(&body)
                .send()
                .await
                .unwrap()
                .status()
                .as_u16()
        })
    });
    let mut statuses = Vec::new();
    for a in attempts.collect::<Vec<_>>() {
        statuses.push(a.await.unwrap());
    }
    // A well-formed login is answered 401 only after its password was hashed.
    let hashed = statuses.iter().filter(|s| **s == 401).count() as u64;
    let refused = statuses.iter().filter(|s| **s == 429).count() as u64;
    println!("40 parallel wrong logins: {hashed} reached the hash, {refused} refused with 429");
    assert!(hashed <= PAIR_MAX_ATTEMPTS, "{hashed} reached the hash");
    assert_eq!(hashed + refused, 40, "{statuses:?}");
}

#[tokio::test]
async fn a_stranger_cannot_lock_the_owner_out_while_many_addresses_meet_the_back_off() {
    let app = spawn_app().await;
    let (_, email) = user_named(&app, "owner").await; // one successful login from 127.0.0.1
    let stranger = client_from("127.0.0.2");
    let mut last = 0;
    for _ in 0..PAIR_MAX_ATTEMPTS + 2 {
        last = login_from(&app, &stranger, &email, "not the password at all")
            .await
            .status()
            .as_u16();
    }
    assert_eq!(last, 429, "the stranger's address is throttled");
    let r = login_from(&app, &stranger, &email, PASSWORD).await;
    assert_eq!(
        r.status(),
        429,
        "even with the right password, from that address"
    );
    // The owner, from their own address, is not locked out.
    assert_eq!(app.login(&email, PASSWORD).await.status(), 200);

    // Guessing spread over many addresses meets the e-mail-wide back-off.
    let mut throttled = None;
    for i in 0..(EMAIL_FREE_ATTEMPTS + 10) {
        let client = client_from(&format!("127.0.1.{}", i + 1));
        let r = login_from(&app, &client, &email, "still not the password").await;
        if r.status() == 429 {
            throttled = Some(r);
            break;
        }
        assert_eq!(r.status(), 401);
    }
    let r = throttled.expect("addresses beyond the e-mail's allowance are slowed down");
    let retry: u64 = r.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=900).contains(&retry), "Retry-After {retry}");
}

#[tokio::test]
async fn registrations_are_throttled_per_client_address() {
    let app = spawn_app_with(|c| c.registrations_per_hour = 3).await;
    let register = |client: Client, email: String| {
        let url = app.url("/auth/register");
        async move {
            client
                .post(url)
                .json(&json!({"firstname": "A", "lastname": "B", "email": email,
                    "password": PASSWORD, "confirmPassword": PASSWORD}))
                .send()
                .await
                .unwrap()
        }
    };
    let here = client_from("127.0.0.1");
    for _ in 0..3 {
        assert_eq!(
            register(here.clone(), unique_email("r")).await.status(),
            201
        );
    }
    let r = register(here.clone(), unique_email("r")).await;
    assert!(r.headers().contains_key("retry-after"));
    assert_problem(r, 429).await;
    let elsewhere = client_from("127.0.0.3");
    assert_eq!(register(elsewhere, unique_email("r")).await.status(), 201);
}

#[tokio::test]
async fn changing_ones_email_or_deleting_ones_account_needs_the_current_password() {
    // An old login (the window is 1 s): the current password is what it takes.
    let app = spawn_app_with(|c| c.reauth_window_secs = 1).await;
    let (user, email) = user_named(&app, "careful").await;
    let path = format!("/users/{}", user.id);
    let new_email = unique_email("taken-over");
    tokio::time::sleep(Duration::from_millis(2100)).await;
    for body in [
        json!({"email": new_email}),
        json!({"email": new_email, "currentPassword": "not my password, sorry"}),
    ] {
        assert_problem(app.put(&user, &path, &body).await, 403).await;
    }
    for body in [
        None,
        Some(json!({"currentPassword": "not my password, sorry"})),
    ] {
        let r = app
            .call(Method::DELETE, &path, Some(&user), body.as_ref())
            .await;
        assert_problem(r, 403).await;
    }
    assert_eq!(
        app.login(&email, PASSWORD).await.status(),
        200,
        "nothing changed"
    );
    let body = json!({"email": new_email, "currentPassword": PASSWORD});
    assert_eq!(app.put(&user, &path, &body).await.status(), 200);
    // The e-mail change ended the sessions, their access token with them: log in again.
    assert_problem(app.get(&user, "/users/me").await, 403).await;
    let login = app.login_json(&new_email, PASSWORD).await;
    let user = TestUser {
        id: user.id,
        token: login["token"].as_str().unwrap().to_owned(),
    };
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let body = json!({"currentPassword": PASSWORD});
    assert_eq!(
        app.call(Method::DELETE, &path, Some(&user), Some(&body))
            .await
            .status(),
        204
    );
}

#[tokio::test]
async fn wrong_current_passwords_count_against_the_login_throttle() {
    let app = spawn_app().await;
    let (user, email) = user_named(&app, "guessed").await;
    let path = format!("/users/{}", user.id);
    let body = json!({"password": NEW_PASSWORD, "currentPassword": "a guess that is wrong"});
    let mut statuses = Vec::new();
    for _ in 0..PAIR_MAX_ATTEMPTS + 1 {
        let r = app.put(&user, &path, &body).await;
        statuses.push(r.status().as_u16());
    }
    assert_eq!(statuses.last(), Some(&429), "{statuses:?}");
    // The same allowance as logins from this address.
    assert_eq!(app.login(&email, PASSWORD).await.status(), 429);
}

#[tokio::test]
async fn forged_altered_or_foreign_cursors_are_400_never_500() {
    let (app, user) = spawn_app_and_user().await;
    for day in 1..=3 {
        app.add(&user, "1.00", 4, &format!("2026-06-0{day}")).await;
    }
    let r = app.get(&user, "/api/transactions?limit=1").await;
    let link = r.headers()["link"].to_str().unwrap().to_owned();
    let next = link
        .trim_start_matches('<')
        .split('>')
        .next()
        .unwrap()
        .to_owned();
    assert_eq!(app.get(&user, &next).await.status(), 200);
    let cursor = next.split("cursor=").nth(1).unwrap().to_owned();

    use base64::Engine;
    let forged = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode("TXN#~~|TXN#1");
    let (payload, tag) = cursor.split_once('.').unwrap();
    let altered_payload = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode("TXN#~~|TXN#1");
    let other = app.new_user().await;
    for (who, bad) in [
        (&user, forged.clone()),
        (&user, format!("{forged}.{tag}")),
        (&user, format!("{altered_payload}.{tag}")),
        (&user, format!("{payload}.AAAAAAAAAAAAAAAAAAAAAA")),
        (&other, cursor.clone()),
    ] {
        let r = app
            .get(who, &format!("/api/transactions?limit=1&cursor={bad}"))
            .await;
        let body = assert_problem(r, 400).await;
        assert_eq!(body["errors"][0]["field"], "cursor");
    }
}

/// A DynamoDB that accepts connections and never answers, and one that refuses them.
#[tokio::test]
async fn an_unreachable_or_hanging_dynamodb_is_a_503_with_retry_after_never_a_hang() {
    let hanging = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let hanging_url = format!("http://{}", hanging.local_addr().unwrap());
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((socket, _)) = hanging.accept().await {
            held.push(socket); // read nothing, answer nothing
        }
    });
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let closed_url = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);

    for endpoint in [hanging_url, closed_url] {
        let mut config = crate::helpers::test_config("unreachable");
        config.dynamodb_endpoint = Some(endpoint.clone());
        let state = shared::lambda::state_from_config(config).await.unwrap();
        let token = state
            .tokens
            .issue(1, shared::domain::Role::User, 0, 0)
            .unwrap();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let app = local::app(state);
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        // Liveness, not speed: without bounded SDK calls this request would never end.
        let r = tokio::time::timeout(
            Duration::from_secs(25),
            Client::new()
                .get(format!("{base}/api/wallet"))
                .bearer_auth(&token)
                .send(),
        )
        .await
        .unwrap_or_else(|_| panic!("{endpoint}: the request hung"))
        .unwrap();
        assert_eq!(r.status(), 503, "{endpoint}");
        assert_eq!(r.headers()["retry-after"], "2");
        let body: Value = r.json().await.unwrap();
        assert_eq!(
            body["detail"],
            "The service is temporarily unavailable; try again shortly."
        );
    }
}

#[tokio::test]
async fn a_hash_with_weaker_parameters_is_renewed_at_the_next_login() {
    use argon2::password_hash::PasswordHasher;
    let app = spawn_app().await;
    let (user, email) = user_named(&app, "old").await;
    let weak = argon2::Argon2::new(
        argon2::Algorithm::Argon2id,
        argon2::Version::V0x13,
        argon2::Params::new(4096, 1, 1, None).unwrap(),
    )
    .hash_password(PASSWORD.as_bytes())
    .unwrap()
    .to_string();
    let store = &app.state.store;
    store
        .client()
        .update_item()
        .table_name(store.table())
        .key("PK", AttributeValue::S(format!("USER#{}", user.id)))
        .key("SK", AttributeValue::S("PROFILE".into()))
        .update_expression("SET passwordHash = :h")
        .expression_attribute_values(":h", AttributeValue::S(weak.clone()))
        .send()
        .await
        .unwrap();
    assert_eq!(app.login(&email, PASSWORD).await.status(), 200);
    let stored = store
        .get_user(user.id)
        .await
        .unwrap()
        .unwrap()
        .password_hash;
    assert_ne!(stored, weak);
    assert!(
        stored.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
        "{stored}"
    );
    assert_eq!(app.login(&email, PASSWORD).await.status(), 200);
}

/// `make test` starts DynamoDB Local with scripts/dynamodb-local.sh, as `make run` does:
/// it must listen on loopback only, with telemetry off.
#[cfg(target_os = "linux")]
#[test]
fn the_local_dynamodb_listens_on_loopback_only_with_telemetry_off() {
    let endpoint = std::env::var("DYNAMODB_ENDPOINT").unwrap();
    let port: u16 = endpoint.rsplit(':').next().unwrap().parse().unwrap();
    let port_hex = format!("{port:04X}");
    let mut listeners = Vec::new();
    for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
        let text = std::fs::read_to_string(table).unwrap_or_default();
        for line in text.lines().skip(1) {
            let cols: Vec<&str> = line.split_whitespace().collect();
            // Column 3 is the state: 0A is LISTEN.
            if cols.len() > 3 && cols[3] == "0A" && cols[1].ends_with(&format!(":{port_hex}")) {
                listeners.push(cols[1].to_owned());
            }
        }
    }
    assert!(!listeners.is_empty(), "nothing listens on {port}");
    for local in &listeners {
        let addr = local.split(':').next().unwrap();
        // 127.0.0.1 as /proc writes it (IPv4, or IPv4-mapped IPv6).
        assert!(
            addr == "0100007F" || addr == "0000000000000000FFFF00000100007F",
            "DynamoDB Local listens on {local}: reachable from other machines"
        );
    }
    let port_arg = port.to_string();
    let mut found = false;
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let args: Vec<String> = cmdline
            .split(|b| *b == 0)
            .map(|a| String::from_utf8_lossy(a).into_owned())
            .collect();
        let is_ddb = args.iter().any(|a| a.ends_with("DynamoDBLocal.jar"));
        if is_ddb && args.windows(2).any(|w| w[0] == "-port" && w[1] == port_arg) {
            found = true;
            assert!(args.iter().any(|a| a == "-disableTelemetry"), "{args:?}");
        }
    }
    assert!(found, "no DynamoDB Local process on port {port}");
}
