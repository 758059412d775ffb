//! Lambda entry point of the users function.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    // Its mails (an e-mail change's) tell nothing to a stranger: sent within the request,
    // as a task spawned there would be frozen with the sandbox after the answer.
    shared::mail::set_outbox(Box::new(shared::mail::Inline));
    shared::lambda::serve(users_fn::api()).await
}
