//! The pages a mailed link opens when `APP_URL` is the API's own origin (`make run`, a
//! deployment without a frontend): `GET /reset-password?token=…` and
//! `GET /verify-email?token=…`. Each is one small HTML document with its style and script
//! inline under a per-response nonce; the script reads the token from the address and
//! calls the JSON endpoint (`POST /auth/password-reset/confirm`, `POST /auth/verify-email`)
//! only when the person submits. The GET itself reads nothing and spends nothing, so a
//! mail scanner that fetches the link leaves it usable.
//!
//! They are browser pages, not API operations: outside the OpenAPI document, like the
//! Swagger UI (`PATHS` lists them for the template and docs checks).

use std::sync::LazyLock;

use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use base64::Engine;
use utoipa_axum::router::OpenApiRouter;

use pf_http::AppState;

/// The password-reset page (the path of the link `POST /auth/password-reset` mails).
pub const RESET_PATH: &str = "/reset-password";
/// The e-mail verification page (the path of the link mailed at registration).
pub const VERIFY_PATH: &str = "/verify-email";
/// Every page route, `GET` each.
pub const PATHS: [&str; 2] = [RESET_PATH, VERIFY_PATH];

const LAYOUT: &str = include_str!("pages/layout.html");
const STYLE: &str = include_str!("pages/style.css");
const COMMON: &str = include_str!("pages/common.js");
const NONCE: &str = "{{nonce}}";

/// Adds the pages to the auth function's routes (undocumented: see the module).
pub fn mount(routes: OpenApiRouter<AppState>) -> OpenApiRouter<AppState> {
    routes
        .route(RESET_PATH, get(|| async { page(&RESET) }))
        .route(VERIFY_PATH, get(|| async { page(&VERIFY) }))
}

static RESET: LazyLock<String> = LazyLock::new(|| {
    document(
        "Choose a new password",
        include_str!("pages/reset.html"),
        include_str!("pages/reset.js"),
    )
});

static VERIFY: LazyLock<String> = LazyLock::new(|| {
    document(
        "Confirm your e-mail address",
        include_str!("pages/verify.html"),
        include_str!("pages/verify.js"),
    )
});

/// The page with everything but its nonce filled in.
fn document(title: &str, body: &str, script: &str) -> String {
    LAYOUT
        .replace("{{title}}", title)
        .replace("{{style}}", STYLE)
        .replace("{{body}}", body)
        .replace("{{script}}", &format!("{COMMON}\n{script}"))
}

/// The page under a fresh nonce, with headers that keep it private: nothing but its own
/// inline style and script runs, it calls and posts only to this origin, no frame holds
/// it, no cache keeps it and no Referer carries its token away.
fn page(document: &str) -> Response {
    let nonce = base64::engine::general_purpose::STANDARD.encode(rand::random::<[u8; 16]>());
    let csp = format!(
        "default-src 'none'; script-src 'nonce-{nonce}'; style-src 'nonce-{nonce}'; \
         connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
    );
    let mut response = document.replace(NONCE, &nonce).into_response();
    let headers = response.headers_mut();
    let fixed = [
        (header::CONTENT_TYPE, "text/html; charset=utf-8"),
        (header::CACHE_CONTROL, "no-store"),
        (header::REFERRER_POLICY, "no-referrer"),
        (header::X_FRAME_OPTIONS, "DENY"),
    ];
    for (name, value) in fixed {
        headers.insert(name, HeaderValue::from_static(value));
    }
    if let Ok(value) = HeaderValue::from_str(&csp) {
        headers.insert(header::CONTENT_SECURITY_POLICY, value);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_page_is_whole_and_runs_only_under_its_nonce() {
        for doc in [&*RESET, &*VERIFY] {
            // Only the nonce is left to fill; no asset comes from elsewhere.
            assert!(!doc.contains("{{title}}") && !doc.contains("{{body}}"));
            assert_eq!(doc.matches("<script").count(), 1, "one inline script");
            assert_eq!(doc.matches("<style").count(), 1, "one inline style");
            assert_eq!(doc.matches(NONCE).count(), 2, "the script and the style");
            for outside in ["src=", "href=", "http:", "https:", "style=\"", "url("] {
                assert!(!doc.contains(outside), "{outside} in a page");
            }
            // No inline event handler attribute (` onclick=`): the policy would block it.
            let handler = doc.split(" on").skip(1).any(|rest| {
                let name: String = rest.chars().take_while(char::is_ascii_lowercase).collect();
                !name.is_empty() && rest[name.len()..].starts_with('=')
            });
            assert!(!handler, "an inline event handler");
        }
    }

    #[test]
    fn every_response_has_a_nonce_of_its_own() {
        let csp = |r: Response| r.headers()[header::CONTENT_SECURITY_POLICY].clone();
        assert_ne!(csp(page(&RESET)), csp(page(&RESET)));
    }
}
