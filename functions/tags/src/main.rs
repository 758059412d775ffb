//! Lambda entry point of the tags function.

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), lambda_http::Error> {
    pf_http::lambda::serve(tags_fn::api()).await
}
