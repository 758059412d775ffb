//! Lambda entry point of the rules function.

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), lambda_http::Error> {
    pf_http::lambda::serve(rules_fn::api()).await
}
