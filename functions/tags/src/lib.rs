//! Tag endpoints (`/api/tags`): the caller's own tags, unique by name.

use axum::Router;
use shared::http::named::{self, NamedApi};
use shared::http::{finish, AppState};
use shared::store::named::Kind;

/// Every (method, path) this function serves, in API Gateway syntax; template.yaml and
/// the OpenAPI document are checked against it.
pub const ROUTES: &[(&str, &str)] = &[
    ("GET", "/api/tags"),
    ("POST", "/api/tags"),
    ("GET", "/api/tags/{id}"),
    ("PUT", "/api/tags/{id}"),
    ("DELETE", "/api/tags/{id}"),
];

static API: NamedApi = NamedApi {
    kind: Kind::Tag,
    path: "/api/tags",
    field: "tagName",
    noun: "tag",
};

pub fn router(state: AppState) -> Router {
    finish(named::router(&API), state)
}
