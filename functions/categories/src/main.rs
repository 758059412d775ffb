//! Lambda entry point of the categories function.
//!
//! It also makes sure the global categories exist, so that a fresh deployment needs no
//! manual seeding step: at cold start, when the `GLOBAL` partition holds no category, it
//! writes them (`Store::seed_global_categories`: conditional puts, so concurrent cold
//! starts are harmless and categories an admin edited are kept). Should that fail, the
//! error is logged and each following request tries again before it is served.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use shared::store::keys::GLOBAL_PK;
use shared::store::{Store, StoreError};

/// Seeds the global categories when there are none; true once they exist.
async fn ensure_global_categories(store: &Store) -> bool {
    let result = async {
        if store.list_categories_in(GLOBAL_PK).await?.is_empty() {
            let now = shared::domain::time::now_local_date_time();
            store.seed_global_categories(&now).await?;
            tracing::info!("seeded the global categories");
        }
        Ok::<_, StoreError>(())
    }
    .await;
    match result {
        Ok(()) => true,
        Err(error) => {
            tracing::error!(
                ?error,
                "could not seed the global categories; retrying with the next request"
            );
            false
        }
    }
}

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::lambda::init_tracing();
    let state = shared::lambda::state_from_env().await?;
    let store = state.store.clone();
    let seeded = Arc::new(AtomicBool::new(ensure_global_categories(&store).await));
    let router = categories_fn::router(state).layer(axum::middleware::from_fn(
        move |request: axum::extract::Request, next: axum::middleware::Next| {
            let (seeded, store) = (seeded.clone(), store.clone());
            async move {
                if !seeded.load(Ordering::Relaxed) && ensure_global_categories(&store).await {
                    seeded.store(true, Ordering::Relaxed);
                }
                next.run(request).await
            }
        },
    ));
    shared::lambda::run(router).await
}
