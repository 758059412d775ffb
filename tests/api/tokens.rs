//! Every transaction endpoint refuses missing and forged tokens with 403, and the access
//! tokens of ended sessions too; every authenticated answer is `Cache-Control: no-store`.

use std::time::Duration;

use base64::Engine;
use jsonwebtoken::{encode, Algorithm, EncodingKey, Header};
use reqwest::Method;
use serde_json::{json, Value};
use shared::http::AppState;
use shared::store::Store;

use crate::helpers::{
    assert_problem, spawn_app, spawn_app_and_user, TestApp, TestUser, PASSWORD, SECRET,
};

const NEW_PASSWORD: &str = "an entirely new passphrase 9";

fn b64(v: &Value) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(v.to_string())
}

fn signed(claims: &Value, secret: &str) -> String {
    encode(
        &Header::new(Algorithm::HS256),
        claims,
        &EncodingKey::from_secret(secret.as_bytes()),
    )
    .unwrap()
}

fn claims(sub: u64, exp_offset: i64, aud: &str) -> Value {
    let now = time::OffsetDateTime::now_utc().unix_timestamp();
    json!({"iss": "personal-finance-api", "aud": aud, "sub": sub.to_string(), "exp": now + exp_offset, "iat": now, "role": "USER"})
}

/// Authorization header values that must all be refused, with what is wrong with each.
fn bad_credentials(user_id: u64, good_token: &str) -> Vec<(&'static str, Option<String>)> {
    let valid = claims(user_id, 600, "personal-finance-clients");
    let none_token = format!(
        "{}.{}.",
        b64(&json!({"alg": "none", "typ": "JWT"})),
        b64(&valid)
    );
    let hs512 = encode(
        &Header::new(Algorithm::HS512),
        &valid,
        &EncodingKey::from_secret(SECRET.as_bytes()),
    )
    .unwrap();
    let mut no_exp = valid.clone();
    no_exp.as_object_mut().unwrap().remove("exp");
    let mut tampered = good_token.to_owned();
    tampered.push('x');
    vec![
        ("no header", None),
        ("not bearer", Some(format!("Basic {good_token}"))),
        ("empty bearer", Some("Bearer ".into())),
        ("garbage", Some("Bearer abc.def.ghi".into())),
        ("tampered signature", Some(format!("Bearer {tampered}"))),
        (
            "other secret",
            Some(format!(
                "Bearer {}",
                signed(&valid, "another-secret-of-enough-length-000000")
            )),
        ),
        ("alg none", Some(format!("Bearer {none_token}"))),
        ("other algorithm", Some(format!("Bearer {hs512}"))),
        (
            "expired",
            Some(format!(
                "Bearer {}",
                signed(&claims(user_id, -3600, "personal-finance-clients"), SECRET)
            )),
        ),
        (
            "wrong audience",
            Some(format!(
                "Bearer {}",
                signed(&claims(user_id, 600, "someone-else"), SECRET)
            )),
        ),
        (
            "no expiry",
            Some(format!("Bearer {}", signed(&no_exp, SECRET))),
        ),
    ]
}

async fn call(app: &TestApp, method: Method, path: &str, auth: Option<&str>) -> reqwest::Response {
    let mut req = app.client.request(method.clone(), app.url(path));
    if let Some(a) = auth {
        req = req.header("authorization", a);
    }
    if method == Method::POST || method == Method::PUT {
        req = req.json(&json!({"amount": "1.00", "categoryId": 4, "date": "2026-01-01"}));
    }
    req.send().await.unwrap()
}

#[tokio::test]
async fn every_transaction_endpoint_answers_403_to_missing_or_forged_tokens() {
    let (app, user) = spawn_app_and_user().await;
    let txn = app.add(&user, "5.00", 4, "2026-01-01").await;
    let path = format!("/api/transactions/{}", txn["id"]);
    let endpoints = [
        (Method::POST, "/api/transactions".to_owned()),
        (Method::GET, "/api/transactions".to_owned()),
        (Method::GET, path.clone()),
        (Method::PUT, path.clone()),
        (Method::DELETE, path.clone()),
    ];
    let mut checked = 0;
    for (what, auth) in bad_credentials(user.id, &user.token) {
        for (method, path) in &endpoints {
            let r = call(&app, method.clone(), path, auth.as_deref()).await;
            assert_eq!(r.status(), 403, "{what}: {method} {path}");
            assert_problem(r, 403).await;
            checked += 1;
        }
    }
    assert_eq!(checked, 55);
    // Nothing was changed by the refused calls.
    assert_eq!(
        app.get_transaction(&user, txn["id"].as_u64().unwrap())
            .await
            .status(),
        200
    );
    assert_eq!(app.balance(&user).await, "-5.00");
}

/// Another instance of the whole API over the same table: its own store, so its own cache
/// of session epochs (as another Lambda instance, or another function, has).
async fn another_instance(app: &TestApp) -> TestApp {
    let config = app.state.config.clone();
    let store = Store::connect(app.state.store.table(), config.dynamodb_endpoint.as_deref())
        .await
        .with_limits(config.limits);
    let state = AppState {
        store,
        config,
        tokens: app.state.tokens.clone(),
        mail: app.state.mail.clone(),
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let service =
        local::app(state.clone()).into_make_service_with_connect_info::<std::net::SocketAddr>();
    tokio::spawn(async move { axum::serve(listener, service).await.unwrap() });
    TestApp {
        base,
        state,
        client: reqwest::Client::new(),
    }
}

/// The answers of `user`'s token on `app` to `/users/me` and `/api/export`.
async fn reads(app: &TestApp, user: &TestUser) -> [u16; 2] {
    let me = app.get(user, "/users/me").await.status().as_u16();
    let export = app
        .get(user, "/api/export?format=json")
        .await
        .status()
        .as_u16();
    [me, export]
}

/// A refused token's answer is exactly a forged token's: same status, same problem body.
async fn refused_like_a_forged_token(app: &TestApp, user: &TestUser) {
    let forged = TestUser {
        id: user.id,
        token: format!("{}x", user.token),
    };
    let ended = assert_problem(app.get(user, "/users/me").await, 403).await;
    let bad = assert_problem(app.get(&forged, "/users/me").await, 403).await;
    assert_eq!(ended, bad);
}

async fn logged_in(app: &TestApp, email: &str, password: &str) -> TestUser {
    let login = app.login_json(email, password).await;
    TestUser {
        id: login["user"]["id"].as_u64().unwrap(),
        token: login["token"].as_str().unwrap().to_owned(),
    }
}

/// The instance that ends the sessions (logout-all, a password change) refuses their
/// access tokens from its next request, like a forged token; a new login's token works.
#[tokio::test]
async fn an_ended_sessions_access_token_is_refused_at_once_where_it_was_ended() {
    let app = spawn_app().await;
    for case in ["logout-all", "password change"] {
        let email = format!("ended{}@example.com", rand::random::<u32>());
        let user = app.new_user_with_email(&email).await;
        let other_session = logged_in(&app, &email, PASSWORD).await;
        assert_eq!(reads(&app, &user).await, [200, 200], "{case}");
        assert_eq!(reads(&app, &other_session).await, [200, 200], "{case}");
        let (r, password) = match case {
            "logout-all" => (
                app.call(Method::POST, "/auth/logout-all", Some(&user), None)
                    .await,
                PASSWORD,
            ),
            _ => {
                let body = json!({"password": NEW_PASSWORD, "currentPassword": PASSWORD});
                let path = format!("/users/{}", user.id);
                (app.put(&user, &path, &body).await, NEW_PASSWORD)
            }
        };
        assert!(r.status().is_success(), "{case}: {}", r.status());
        for token in [&user, &other_session] {
            assert_eq!(reads(&app, token).await, [403, 403], "{case}");
            refused_like_a_forged_token(&app, token).await;
        }
        let fresh = logged_in(&app, &email, password).await;
        assert_eq!(reads(&app, &fresh).await, [200, 200], "{case}");
    }
}

/// An instance that did not end the sessions refuses their tokens once its cached epoch
/// is older than `EPOCH_MAX_AGE` (5 s); a new login's token, ahead of a cached epoch, is
/// read again and taken at once (which ends the old ones there too).
#[tokio::test]
async fn an_ended_sessions_access_token_is_refused_everywhere_within_five_seconds() {
    let app = spawn_app().await;
    let (ender, third) = (another_instance(&app).await, another_instance(&app).await);
    let email = format!("elsewhere{}@example.com", rand::random::<u32>());
    let user = app.new_user_with_email(&email).await;
    assert_eq!(reads(&app, &user).await, [200, 200]);
    assert_eq!(reads(&third, &user).await, [200, 200]);
    let r = ender
        .call(Method::POST, "/auth/logout-all", Some(&user), None)
        .await;
    assert_eq!(r.status(), 204);
    let ended = std::time::Instant::now();
    // Refused at once where it was ended; still taken where the epoch was read before
    // (the instances' caches are apart, which is what the wait below tests).
    assert_eq!(reads(&ender, &user).await, [403, 403]);
    assert_eq!(app.get(&user, "/users/me").await.status(), 200);
    let fresh = logged_in(&app, &email, PASSWORD).await;
    assert_eq!(reads(&third, &fresh).await, [200, 200]);
    assert_eq!(reads(&third, &user).await, [403, 403]);

    let max_age = shared::store::epochs::EPOCH_MAX_AGE;
    let wait = (max_age + Duration::from_millis(200)).saturating_sub(ended.elapsed());
    tokio::time::sleep(wait).await;
    assert_eq!(reads(&app, &user).await, [403, 403]);
    refused_like_a_forged_token(&app, &user).await;
    assert_eq!(reads(&app, &fresh).await, [200, 200]);
}

/// Every answer of a function carries `Cache-Control: no-store`: data, lists, the change
/// feed, exports, pictures, and the errors of protected routes.
#[tokio::test]
async fn every_authenticated_answer_is_no_store() {
    let (app, user) = spawn_app_and_user().await;
    let id = app.add_id(&user, "5.00", 4, "2026-01-01").await;
    let png = crate::helpers::png();
    let r = app.put_picture(&user, user.id, "image/png", png).await;
    assert_eq!(r.status(), 204);
    let anonymous = TestUser {
        id: user.id,
        token: String::new(),
    };
    let (profile, picture) = (
        format!("/users/{}", user.id),
        format!("/users/{}/picture", user.id),
    );
    let transaction = format!("/api/transactions/{id}");
    let cases = [
        (&user, Method::GET, "/users/me", 200),
        (&user, Method::GET, profile.as_str(), 200),
        (&user, Method::GET, picture.as_str(), 200),
        (&user, Method::GET, "/api/export?format=json", 200),
        (&user, Method::GET, "/api/export?format=csv", 200),
        (&user, Method::GET, "/api/sync", 200),
        (&user, Method::GET, "/api/transactions", 200),
        (&user, Method::GET, transaction.as_str(), 200),
        (&user, Method::GET, "/api/wallet", 200),
        (&user, Method::GET, "/api/transactions/999999", 404),
        (&user, Method::PATCH, "/api/wallet", 405),
        (&anonymous, Method::GET, "/users/me", 403),
        (&anonymous, Method::GET, "/api/transactions", 403),
    ];
    for (who, method, path, status) in cases {
        let r = app.call(method.clone(), path, Some(who), None).await;
        assert_eq!(r.status(), status, "{method} {path}");
        let cache = r
            .headers()
            .get("cache-control")
            .map(|v| v.to_str().unwrap());
        assert_eq!(cache, Some("no-store"), "{method} {path}");
    }
}
