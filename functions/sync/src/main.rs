//! Lambda entry point of the sync function.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::lambda::serve(sync_fn::api()).await
}
