//! Every transaction endpoint refuses missing and forged tokens with 403.

use base64::Engine;
use jsonwebtoken::{encode, Algorithm, EncodingKey, Header};
use reqwest::Method;
use serde_json::{json, Value};

use crate::helpers::{assert_problem, spawn_app_and_user, TestApp, SECRET};

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
