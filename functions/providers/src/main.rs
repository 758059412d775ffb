//! Lambda entry point of the providers function.

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), lambda_http::Error> {
    pf_http::lambda::serve(providers_fn::api()).await
}
