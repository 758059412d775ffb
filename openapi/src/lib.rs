//! The OpenAPI document of the whole API, assembled from each function's documented
//! routes (`utoipa-axum`: a route cannot exist without its documentation).
//!
//! `cargo run -p openapi` writes `openapi/openapi.json`; a test fails when that file is
//! stale, and the docs function serves it.

use std::collections::BTreeMap;

use shared::http::docs::{self, BearerAuth};
use shared::http::{AppState, FieldError, Problem};
use utoipa::openapi::path::HttpMethod;
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;

/// Where the committed document lives, relative to the workspace root.
pub const DOCUMENT_PATH: &str = "openapi/openapi.json";

/// `(name, api)` of each function crate named (`<name>_fn`): its Lambda binary's name and
/// its documented routes.
macro_rules! functions {
    ($($krate:ident)*) => {
        vec![$((stringify!($krate).trim_end_matches("_fn"), $krate::api())),*]
    };
}

/// Every function (its Lambda binary name) with its documented routes.
pub fn functions() -> Vec<(&'static str, OpenApiRouter<AppState>)> {
    functions! {
        auth_fn users_fn transactions_fn wallet_fn categories_fn tags_fn
        providers_fn sync_fn insights_fn imports_fn recurring_fn rules_fn
    }
}

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Personal finance API",
        description = "Users, one wallet each, and its transactions, categories, tags and providers; \
monthly insights and budgets. \
Money is exact decimal. Protected operations take `Authorization: Bearer <token>` from \
`POST /auth/login`; without a valid token they answer 403. Errors are \
`application/problem+json`. Lists are JSON arrays; a `Link: <...>; rel=\"next\"` header \
points to the next page.",
        license(name = "MIT", identifier = "MIT"),
    ),
    servers((url = "/", description = "The server that serves this document")),
    tags(
        (name = "auth", description = "Registration and login"),
        (name = "users", description = "Profiles, roles, pictures and account deletion"),
        (name = "transactions", description = "The caller's transactions"),
        (name = "wallet", description = "The caller's wallet and balance"),
        (name = "categories", description = "Global and own categories"),
        (name = "tags", description = "The caller's tags"),
        (name = "providers", description = "The caller's providers (payees)"),
        (name = "sync", description = "The change feed for offline clients"),
        (name = "insights", description = "Monthly totals per category and budgets"),
        (name = "imports", description = "CSV import (dry run, per-row errors, dedupe by import id) and export of everything"),
        (name = "recurring", description = "Recurring transactions (RFC 5545 rules), their occurrences, and the balance forecast"),
    ),
    components(
        schemas(Problem, FieldError),
        responses(
            docs::BadRequest, docs::Unauthorized, docs::Forbidden, docs::NotFound, docs::Conflict,
            docs::PreconditionFailed, docs::Gone, docs::MethodNotAllowed, docs::PayloadTooLarge, docs::UnsupportedMediaType,
            docs::Unprocessable, docs::TooManyRequests, docs::InternalError, docs::Unavailable
        )
    ),
    modifiers(&BearerAuth)
)]
struct Root;

/// The complete document.
pub fn document() -> utoipa::openapi::OpenApi {
    let mut root = OpenApiRouter::with_openapi(Root::openapi());
    for (_, api) in functions() {
        root = root.merge(api);
    }
    let mut doc = root.into_openapi();
    doc.info.version = env!("CARGO_PKG_VERSION").to_owned();
    name_operations(&mut doc);
    doc
}

/// Handlers are named `list`, `read`, ... in every function, so operation ids come from
/// the method and path instead: `GET /api/transactions/{id}` → `getTransactionsById`.
/// Client generators name their methods after them; they must be unique.
fn name_operations(doc: &mut utoipa::openapi::OpenApi) {
    for (path, item) in doc.paths.paths.iter_mut() {
        let mut words = String::new();
        for segment in path
            .trim_start_matches("/api")
            .split('/')
            .filter(|s| !s.is_empty())
        {
            let word = match segment.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
                // `{id}` → `ById`, `{month}` → `ByMonth`.
                Some(name) => {
                    words.push_str("By");
                    name
                }
                None => segment,
            };
            let mut chars = word.chars();
            if let Some(first) = chars.next() {
                words.push(first.to_ascii_uppercase());
                words.push_str(chars.as_str());
            }
        }
        let ops = [
            ("get", item.get.as_mut()),
            ("post", item.post.as_mut()),
            ("put", item.put.as_mut()),
            ("delete", item.delete.as_mut()),
            ("patch", item.patch.as_mut()),
        ];
        for (method, op) in ops {
            if let Some(op) = op {
                op.operation_id = Some(format!("{method}{words}"));
            }
        }
    }
}

/// The document as committed: pretty JSON with a final newline.
pub fn document_json() -> String {
    let mut text = serde_json::to_string_pretty(&document()).unwrap_or_default();
    text.push('\n');
    text
}

fn method_name(m: &HttpMethod) -> &'static str {
    match m {
        HttpMethod::Get => "GET",
        HttpMethod::Post => "POST",
        HttpMethod::Put => "PUT",
        HttpMethod::Delete => "DELETE",
        HttpMethod::Patch => "PATCH",
        HttpMethod::Head => "HEAD",
        HttpMethod::Options => "OPTIONS",
        HttpMethod::Trace => "TRACE",
    }
}

/// (method, path) pairs of one function, sorted.
pub fn routes_of(api: OpenApiRouter<AppState>) -> Vec<(String, String)> {
    let doc = api.into_openapi();
    let mut routes = Vec::new();
    for (path, item) in doc.paths.paths {
        let ops = [
            (HttpMethod::Get, item.get.is_some()),
            (HttpMethod::Post, item.post.is_some()),
            (HttpMethod::Put, item.put.is_some()),
            (HttpMethod::Delete, item.delete.is_some()),
            (HttpMethod::Patch, item.patch.is_some()),
            (HttpMethod::Head, item.head.is_some()),
            (HttpMethod::Options, item.options.is_some()),
            (HttpMethod::Trace, item.trace.is_some()),
        ];
        for (m, present) in ops {
            if present {
                routes.push((method_name(&m).to_owned(), path.clone()));
            }
        }
    }
    routes.sort();
    routes
}

/// Every function's routes: `{"auth": [["POST", "/auth/login"], ...], ...}`.
pub fn routes_by_function() -> BTreeMap<&'static str, Vec<(String, String)>> {
    functions()
        .into_iter()
        .map(|(name, api)| (name, routes_of(api)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_document_is_up_to_date() {
        let committed =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/openapi.json"))
                .unwrap_or_default();
        assert!(
            committed == document_json(),
            "openapi/openapi.json is stale: run `cargo run -p openapi` and commit the result"
        );
    }

    #[test]
    fn every_protected_operation_declares_bearer_auth_a_403_and_outages() {
        let doc = serde_json::to_value(document()).unwrap();
        let mut checked = 0;
        for (path, item) in doc["paths"].as_object().unwrap() {
            for (method, op) in item.as_object().unwrap() {
                let signed_in = ["/auth/logout-all", "/auth/verify-email/resend"];
                let public = path.starts_with("/auth/") && !signed_in.contains(&path.as_str());
                assert_eq!(op.get("security").is_some(), !public, "{method} {path}");
                if !public {
                    assert!(
                        op["responses"].get("403").is_some(),
                        "{method} {path} lacks 403"
                    );
                }
                // Any operation reads storage, which can be out of reach or throttled.
                for status in ["500", "503"] {
                    let response = op["responses"].get(status);
                    assert!(response.is_some(), "{method} {path} lacks {status}");
                }
                checked += 1;
            }
        }
        assert!(checked >= 34, "only {checked} operations");
        let unavailable = &doc["components"]["responses"]["Unavailable"];
        assert!(unavailable["headers"].get("Retry-After").is_some());
    }

    #[test]
    fn operation_ids_are_unique() {
        let doc = serde_json::to_value(document()).unwrap();
        let mut ids: Vec<String> = doc["paths"]
            .as_object()
            .unwrap()
            .values()
            .flat_map(|item| {
                item.as_object()
                    .unwrap()
                    .values()
                    .map(|op| op["operationId"].as_str().unwrap().to_owned())
            })
            .collect();
        let n = ids.len();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), n);
        assert!(ids.contains(&"getTransactionsById".to_owned()));
    }

    /// The names of the component schemas `value` refers to, and those they refer to.
    fn referred(value: &serde_json::Value, schemas: &serde_json::Value, out: &mut Vec<String>) {
        match value {
            serde_json::Value::Object(map) => {
                for (key, v) in map {
                    match (key.as_str(), v.as_str()) {
                        ("$ref", Some(r)) => {
                            let name = r.rsplit('/').next().unwrap_or(r).to_owned();
                            if !out.contains(&name) {
                                out.push(name.clone());
                                referred(&schemas[name.as_str()], schemas, out);
                            }
                        }
                        _ => referred(v, schemas, out),
                    }
                }
            }
            serde_json::Value::Array(items) => items.iter().for_each(|v| referred(v, schemas, out)),
            _ => {}
        }
    }

    fn is_nullable(property: &serde_json::Value) -> bool {
        let typed_null = |t: &serde_json::Value| {
            t == "null"
                || t.as_array()
                    .is_some_and(|ts| ts.iter().any(|t| t == "null"))
        };
        typed_null(&property["type"])
            || ["oneOf", "anyOf"].iter().any(|k| {
                property[*k]
                    .as_array()
                    .is_some_and(|alts| alts.iter().any(|a| typed_null(&a["type"])))
            })
    }

    /// A member an answer always sends, maybe as `null`, is required and nullable (a
    /// generated client types it `T | null`); one the server omits when absent
    /// (`skip_serializing_if`) is optional and never `null`. So in every schema of an
    /// answer a nullable member is required.
    #[test]
    fn nullable_response_members_are_required() {
        let doc = serde_json::to_value(document()).unwrap();
        let schemas = &doc["components"]["schemas"];
        let (mut answers, mut requests) = (Vec::new(), Vec::new());
        referred(&doc["components"]["responses"], schemas, &mut answers);
        for item in doc["paths"].as_object().unwrap().values() {
            for op in item.as_object().unwrap().values() {
                referred(&op["responses"], schemas, &mut answers);
                referred(&op["requestBody"], schemas, &mut requests);
                referred(&op["parameters"], schemas, &mut requests);
            }
        }
        let (mut wrong, mut shared) = (Vec::new(), Vec::new());
        for name in &answers {
            let schema = &schemas[name.as_str()];
            let Some(properties) = schema["properties"].as_object() else {
                continue;
            };
            let required = schema["required"].as_array().cloned().unwrap_or_default();
            for (member, property) in properties {
                if is_nullable(property) && !required.contains(&member.as_str().into()) {
                    // A request schema too: `null` is a request's way to clear.
                    let list = if requests.contains(name) {
                        &mut shared
                    } else {
                        &mut wrong
                    };
                    list.push(format!("{name}.{member}"));
                }
            }
        }
        assert!(
            wrong.is_empty(),
            "nullable but not required in answers: {wrong:?}"
        );
        // Rule actions: a request may send `null`, an answer omits an absent action.
        let expected = [
            "RuleActions.categoryId",
            "RuleActions.note",
            "RuleActions.providerId",
        ];
        assert_eq!(shared, expected, "shared request and answer schemas");
        assert!(answers.len() >= 40, "only {} answer schemas", answers.len());
    }

    /// The batch reads each operation on its own: one with an unknown member is its own
    /// `400` result inside a `200`, so the document must not call operations closed.
    #[test]
    fn the_batch_operation_schema_is_open_as_the_batch_reads_it() {
        let doc = serde_json::to_value(document()).unwrap();
        let operation = &doc["components"]["schemas"]["Operation"];
        assert!(operation["properties"].get("op").is_some());
        assert_ne!(operation["additionalProperties"], false);
        let batch = &doc["components"]["schemas"]["BatchRequest"];
        assert_eq!(
            batch["additionalProperties"], false,
            "the envelope stays closed"
        );
    }

    #[test]
    fn no_route_is_served_twice() {
        let mut all: Vec<(String, String)> = routes_by_function().into_values().flatten().collect();
        let n = all.len();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), n);
    }
}
