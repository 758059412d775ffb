//! Lambda entry point of the providers function.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::lambda::serve(providers_fn::api()).await
}
