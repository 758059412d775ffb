//! Lambda entry point of the wallet function.

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), lambda_http::Error> {
    pf_http::lambda::serve(wallet_fn::api()).await
}
