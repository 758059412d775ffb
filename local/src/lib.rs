//! The whole API in one router, as API Gateway presents it: every function's routes on
//! one port. Used by the local server and by the API tests.

use axum::Router;
use shared::http::{with_fallback, AppState};

/// Each function (its Lambda binary name) with the routes it serves.
pub const FUNCTIONS: &[(&str, &[(&str, &str)])] = &[
    ("auth", auth_fn::ROUTES),
    ("users", users_fn::ROUTES),
    ("transactions", transactions_fn::ROUTES),
    ("wallet", wallet_fn::ROUTES),
    ("categories", categories_fn::ROUTES),
    ("tags", tags_fn::ROUTES),
    ("providers", providers_fn::ROUTES),
];

pub fn app(state: AppState) -> Router {
    let merged = Router::new()
        .merge(auth_fn::router(state.clone()))
        .merge(users_fn::router(state.clone()))
        .merge(transactions_fn::router(state.clone()))
        .merge(wallet_fn::router(state.clone()))
        .merge(categories_fn::router(state.clone()))
        .merge(tags_fn::router(state.clone()))
        .merge(providers_fn::router(state));
    with_fallback(merged)
}
