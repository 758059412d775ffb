//! Lambda entry point of the insights function.

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), lambda_http::Error> {
    pf_http::lambda::serve(insights_fn::api()).await
}
