//! Lambda entry point of the users function.

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), lambda_http::Error> {
    // Its mails (an e-mail change's) tell nothing to a stranger: sent within the request,
    // as a task spawned there would be frozen with the sandbox after the answer.
    pf_http::mail::set_outbox(Box::new(pf_http::mail::Inline));
    pf_http::lambda::serve(users_fn::api()).await
}
