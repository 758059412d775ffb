//! The interactive documentation is served with the API.

use reqwest::Method;
use serde_json::Value;

use crate::helpers::spawn_app;

#[tokio::test]
async fn swagger_ui_and_the_document_are_served_at_doc_path() {
    let app = spawn_app().await;
    let r = app.call(Method::GET, "/swagger-ui/", None, None).await;
    assert_eq!(r.status(), 200);
    assert!(r.text().await.unwrap().contains("swagger-ui"));
    let init = app
        .call(
            Method::GET,
            "/swagger-ui/swagger-initializer.js",
            None,
            None,
        )
        .await
        .text()
        .await
        .unwrap();
    assert!(init.contains(r#"operationsSorter: "method""#), "{init}");
    assert!(init.contains("/api-docs/openapi.json"));
    let css = app
        .call(Method::GET, "/swagger-ui/swagger-ui.css", None, None)
        .await;
    assert_eq!(css.status(), 200);
    let doc: Value = app
        .call(Method::GET, "/api-docs/openapi.json", None, None)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        doc,
        serde_json::from_str::<Value>(docs_fn::DOCUMENT).unwrap()
    );
    // Without the trailing slash, the UI redirects to its index.
    let r = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let r = r.get(app.url("/swagger-ui")).send().await.unwrap();
    assert_eq!(r.status(), 308);
}

#[tokio::test]
async fn every_documented_operation_is_routed() {
    let app = spawn_app().await;
    let mut checked = 0;
    for (function, routes) in openapi::routes_by_function() {
        for (method, path) in routes {
            let url = app.url(&path.replace("{id}", "1"));
            let r = app
                .client
                .request(method.parse().unwrap(), &url)
                .send()
                .await
                .unwrap();
            let status = r.status().as_u16();
            let body: Value = r.json().await.unwrap_or(Value::Null);
            // Unauthenticated calls reach the handler's auth check (or validation), never
            // the fallback 404 or a 405.
            assert_ne!(status, 405, "{function}: {method} {path}");
            assert!(
                body["detail"] != "no such endpoint",
                "{function}: {method} {path} is not routed"
            );
            checked += 1;
        }
    }
    // 35, then sync and batch (2), insights (4), imports (2), account recovery (4),
    // rules (7), recurring (9) and import jobs (1).
    assert_eq!(checked, 64);
}

#[tokio::test]
async fn browsers_on_allowed_origins_get_cors_headers() {
    let app = crate::helpers::spawn_app_with(|c| {
        c.cors_allowed_origins = vec!["http://localhost:5173".into()]
    })
    .await;
    let r = app
        .client
        .request(reqwest::Method::OPTIONS, app.url("/api/transactions"))
        .header("origin", "http://localhost:5173")
        .header("access-control-request-method", "POST")
        .header(
            "access-control-request-headers",
            "authorization,content-type",
        )
        .send()
        .await
        .unwrap();
    assert_eq!(
        r.headers()["access-control-allow-origin"],
        "http://localhost:5173"
    );
    let r = app
        .client
        .get(app.url("/api/transactions"))
        .header("origin", "https://evil.example")
        .send()
        .await
        .unwrap();
    assert!(r.headers().get("access-control-allow-origin").is_none());
}
