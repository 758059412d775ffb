//! Interactive documentation: Swagger UI at `DOC_PATH` (assets vendored in the binary,
//! nothing downloaded) and the OpenAPI document at `/api-docs/openapi.json`.
//!
//! Only this function links the Swagger UI assets. The document is the committed
//! `openapi/openapi.json`, which a test keeps identical to what the code generates.

use std::sync::Arc;

use axum::extract::Path;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use axum::Router;
use utoipa_swagger_ui::Config;

/// Where the OpenAPI document is served.
pub const DOCUMENT_URL: &str = "/api-docs/openapi.json";

/// The document, embedded at build time.
pub const DOCUMENT: &str = include_str!("../../../openapi/openapi.json");

/// Operation order in the UI: `method` (by HTTP method, the spec's setting) or `alpha` (by path).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sort {
    Method,
    Alpha,
}

impl Sort {
    /// Reads `SORT`; anything other than `alpha` keeps the spec's `method`.
    pub fn parse(value: &str) -> Self {
        if value.eq_ignore_ascii_case("alpha") {
            Sort::Alpha
        } else {
            Sort::Method
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            Sort::Method => "method",
            Sort::Alpha => "alpha",
        }
    }
}

/// Swagger UI's start-up script. utoipa-swagger-ui's `Config` has no operations sorter,
/// so this one file is ours; every other asset comes from the vendored distribution.
fn initializer(sort: Sort) -> String {
    format!(
        r##"window.onload = function () {{
  window.ui = SwaggerUIBundle({{
    url: "{DOCUMENT_URL}",
    dom_id: "#swagger-ui",
    deepLinking: true,
    operationsSorter: "{sort}",
    tagsSorter: "alpha",
    persistAuthorization: true,
    displayRequestDuration: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: "StandaloneLayout"
  }});
}};
"##,
        sort = sort.as_str()
    )
}

/// Serves the UI under `doc_path` (e.g. `/swagger-ui`) and the document.
pub fn router(doc_path: &str, sort: Sort) -> Router {
    let doc_path = doc_path.trim_end_matches('/').to_owned();
    let init = Arc::new(initializer(sort));
    let config = Arc::new(Config::new([DOCUMENT_URL]));
    let index = format!("{doc_path}/");
    Router::new()
        .route(DOCUMENT_URL, get(document))
        .route(
            &doc_path,
            get(move || async move { Redirect::permanent(&index) }),
        )
        .route(
            &format!("{doc_path}/"),
            get({
                let (init, config) = (init.clone(), config.clone());
                move || asset(String::new(), init, config)
            }),
        )
        .route(
            &format!("{doc_path}/{{*file}}"),
            get(move |Path(file): Path<String>| asset(file, init, config)),
        )
}

async fn document() -> Response {
    ([(header::CONTENT_TYPE, "application/json")], DOCUMENT).into_response()
}

async fn asset(file: String, init: Arc<String>, config: Arc<Config<'static>>) -> Response {
    if file == "swagger-initializer.js" {
        return (
            [(header::CONTENT_TYPE, "application/javascript")],
            init.as_str().to_owned(),
        )
            .into_response();
    }
    match utoipa_swagger_ui::serve(&file, config) {
        Ok(Some(f)) => {
            let mut response = f.bytes.into_owned().into_response();
            if let Ok(v) = HeaderValue::from_str(&f.content_type) {
                response.headers_mut().insert(header::CONTENT_TYPE, v);
            }
            if f.gzpipped {
                response
                    .headers_mut()
                    .insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
            }
            response
        }
        Ok(None) => StatusCode::NOT_FOUND.into_response(),
        Err(e) => {
            tracing::error!(error = %e, "serving a Swagger UI asset");
            StatusCode::INTERNAL_SERVER_ERROR.into_response()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_document_is_json_with_paths() {
        let doc: serde_json::Value = serde_json::from_str(DOCUMENT).unwrap();
        assert!(doc["paths"].as_object().is_some_and(|p| !p.is_empty()));
    }

    #[test]
    fn sort_defaults_to_method() {
        assert_eq!(Sort::parse("method"), Sort::Method);
        assert_eq!(Sort::parse("ALPHA"), Sort::Alpha);
        assert_eq!(Sort::parse("other"), Sort::Method);
        assert!(initializer(Sort::Method).contains(r#"operationsSorter: "method""#));
    }
}
