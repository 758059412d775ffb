//! Lambda entry point of the sync function.

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), lambda_http::Error> {
    pf_http::lambda::serve(sync_fn::api()).await
}
