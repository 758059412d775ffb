//! The whole API in one router, as API Gateway presents it: every function's routes on
//! one port. Used by the local server and by the API tests.

use axum::Router;
use shared::http::{with_fallback, AppState};

pub fn app(state: AppState) -> Router {
    let merged = Router::new()
        .merge(auth_fn::router(state.clone()))
        .merge(transactions_fn::router(state.clone()))
        .merge(categories_fn::router(state.clone()))
        .merge(wallet_fn::router(state));
    with_fallback(merged)
}
