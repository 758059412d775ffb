//! The pages a mailed link opens (`functions/auth/src/pages.rs`): the headers that keep
//! them private, and that opening one spends nothing, so the link a mail scanner fetched
//! first still works when its owner presses the button.

use lambda_http::request::LambdaRequest;
use lambda_http::{Adapter, Context, LambdaEvent, Service};
use reqwest::Method;
use serde_json::{json, Value};

use crate::accounts::{link_token, registered};
use crate::helpers::{fresh_state, spawn_app, TestApp, PASSWORD};

const NEW_PASSWORD: &str = "a page-set passphrase 2026";

/// GETs a page as a browser (or a scanner) would, checks its headers and gives its body.
async fn open(app: &TestApp, page: &str, token: &str) -> String {
    let r = app
        .client
        .get(app.url(&format!("{page}?token={token}")))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200, "GET {page}");
    let header = |name: &str| {
        r.headers()
            .get(name)
            .unwrap_or_else(|| panic!("GET {page}: no {name}"))
            .to_str()
            .unwrap()
            .to_owned()
    };
    assert_eq!(header("content-type"), "text/html; charset=utf-8");
    assert_eq!(header("cache-control"), "no-store");
    assert_eq!(header("referrer-policy"), "no-referrer");
    assert_eq!(header("x-content-type-options"), "nosniff");
    let csp = header("content-security-policy");
    let directives: Vec<&str> = csp.split(';').map(str::trim).collect();
    for wanted in [
        "default-src 'none'",
        "connect-src 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
    ] {
        assert!(
            directives.contains(&wanted),
            "{page}: {wanted} not in {csp}"
        );
    }
    // Its script and style run under this response's nonce, and nothing else may.
    let nonce = csp
        .split("script-src 'nonce-")
        .nth(1)
        .and_then(|rest| rest.split('\'').next())
        .unwrap_or_else(|| panic!("{page}: no script nonce in {csp}"));
    assert!(
        directives.contains(&format!("style-src 'nonce-{nonce}'").as_str()),
        "{csp}"
    );
    let body = r.text().await.unwrap();
    assert_eq!(
        body.matches(&format!("nonce=\"{nonce}\"")).count(),
        2,
        "{body}"
    );
    body
}

async fn post(app: &TestApp, path: &str, body: Value) -> reqwest::Response {
    app.call(Method::POST, path, None, Some(&body)).await
}

#[tokio::test]
async fn the_pages_are_private_and_opening_their_links_spends_nothing() {
    let app = spawn_app().await;
    let (email, _) = registered(&app, "pages").await;

    // Verification: opened twice (a scanner, then the person), and the link still works.
    let token = link_token(&email, "verify-email", 1).await;
    for _ in 0..2 {
        let body = open(&app, "/verify-email", &token).await;
        assert!(body.contains("Confirm my address"), "{body}");
    }
    let login = app.login_json(&email, PASSWORD).await;
    assert_eq!(
        login["user"]["emailVerified"], false,
        "the GET verified the address"
    );
    let r = post(&app, "/auth/verify-email", json!({"token": token})).await;
    assert!(
        r.status().is_success(),
        "verify after the GETs: {}",
        r.status()
    );

    // Reset: the same, and the password is the one set after the GETs.
    let r = post(&app, "/auth/password-reset", json!({"email": email})).await;
    assert_eq!(r.status(), 202);
    let token = link_token(&email, "reset-password", 2).await;
    for _ in 0..2 {
        let body = open(&app, "/reset-password", &token).await;
        assert!(body.contains("autocomplete=\"new-password\""), "{body}");
    }
    assert_eq!(app.login(&email, PASSWORD).await.status(), 200);
    let confirm =
        json!({"token": token, "password": NEW_PASSWORD, "confirmPassword": NEW_PASSWORD});
    let r = post(&app, "/auth/password-reset/confirm", confirm).await;
    assert!(
        r.status().is_success(),
        "reset after the GETs: {}",
        r.status()
    );
    assert_eq!(app.login(&email, NEW_PASSWORD).await.status(), 200);
}

/// In AWS the auth function serves the page (the template routes `GET /reset-password` to
/// it): an API Gateway HTTP API event through its Lambda adapter answers the HTML.
#[tokio::test]
async fn an_api_gateway_event_gets_the_reset_page_from_the_auth_function() {
    let state = fresh_state().await;
    let http = json!({"method": "GET", "path": "/reset-password", "protocol": "HTTP/1.1",
        "sourceIp": "198.51.100.20", "userAgent": "Mozilla/5.0"});
    let event = json!({
        "version": "2.0", "routeKey": "GET /reset-password", "rawPath": "/reset-password",
        "rawQueryString": "token=abc", "queryStringParameters": {"token": "abc"},
        "headers": {"accept": "text/html", "host": "abc123.execute-api.eu-west-1.amazonaws.com"},
        "requestContext": {"accountId": "123456789012", "apiId": "abc123",
            "domainName": "abc123.execute-api.eu-west-1.amazonaws.com", "domainPrefix": "abc123",
            "http": http, "requestId": "pages", "routeKey": "GET /reset-password",
            "stage": "$default", "time": "02/Dec/2026:10:00:00 +0000", "timeEpoch": 1796205600000_u64},
        "isBase64Encoded": false
    });
    let payload: LambdaRequest = serde_json::from_value(event).unwrap();
    let router = shared::http::router(auth_fn::api(), state);
    let mut adapter = Adapter::from(shared::http::with_fallback(router));
    let response = adapter
        .call(LambdaEvent::new(payload, Context::default()))
        .await
        .expect("infallible");
    let response = serde_json::to_value(&response).unwrap();
    assert_eq!(response["statusCode"], 200, "{response}");
    let headers = &response["headers"];
    assert_eq!(
        headers["content-type"], "text/html; charset=utf-8",
        "{response}"
    );
    assert_eq!(headers["cache-control"], "no-store");
    assert_eq!(headers["referrer-policy"], "no-referrer");
    let csp = headers["content-security-policy"]
        .as_str()
        .unwrap_or_default();
    assert!(csp.starts_with("default-src 'none'"), "{csp}");
    let body = response["body"].as_str().unwrap_or_default();
    assert!(body.contains("Choose a new password"), "{response}");
}
