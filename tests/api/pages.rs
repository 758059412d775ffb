//! The pages a mailed link opens (`functions/auth/src/pages.rs`): the headers that keep
//! them private, and that opening one spends nothing, so the link a mail scanner fetched
//! first still works when its owner presses the button.

use reqwest::Method;
use serde_json::{json, Value};

use crate::accounts::{link_token, registered};
use crate::helpers::{spawn_app, TestApp, PASSWORD};

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
