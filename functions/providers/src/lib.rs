//! Provider endpoints (`/api/providers`): the caller's own providers, unique by name.

use axum::Router;
use shared::http::named::{self, NamedApi};
use shared::http::{finish, AppState};
use shared::store::named::Kind;

/// Every (method, path) this function serves, in API Gateway syntax; template.yaml and
/// the OpenAPI document are checked against it.
pub const ROUTES: &[(&str, &str)] = &[
    ("GET", "/api/providers"),
    ("POST", "/api/providers"),
    ("GET", "/api/providers/{id}"),
    ("PUT", "/api/providers/{id}"),
    ("DELETE", "/api/providers/{id}"),
];

static API: NamedApi = NamedApi {
    kind: Kind::Provider,
    path: "/api/providers",
    field: "providerName",
    noun: "provider",
};

pub fn router(state: AppState) -> Router {
    finish(named::router(&API), state)
}
