//! Lambda entry point of the users function.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::lambda::serve(users_fn::api()).await
}
