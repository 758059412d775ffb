//! Lambda entry point of the categories function (seeds the global categories when a
//! fresh deployment has none).

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), lambda_http::Error> {
    pf_http::lambda::serve_with_global_categories(categories_fn::api()).await
}
