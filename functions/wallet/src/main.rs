//! Lambda entry point of the wallet function.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    pf_http::lambda::serve(wallet_fn::api()).await
}
