//! Lambda entry point of the transactions function (seeds the global categories when a
//! fresh deployment has none, so the first transaction can use them).

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), lambda_http::Error> {
    pf_http::lambda::serve_with_global_categories(transactions_fn::api()).await
}
