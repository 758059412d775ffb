//! The whole API in one router, as API Gateway presents it: every function's routes on
//! one port, plus the docs. Used by the local server and by the API tests.

use axum::Router;
use shared::http::{finish, with_fallback, AppState};

pub fn app(state: AppState) -> Router {
    let doc_path = state.config.doc_path.clone();
    let sort = docs_fn::Sort::parse(&state.config.sort);
    let mut merged = Router::new();
    for (_, api) in openapi::functions() {
        merged = merged.merge(finish(api.split_for_parts().0, state.clone()));
    }
    with_fallback(merged.merge(docs_fn::router(&doc_path, sort)))
}
