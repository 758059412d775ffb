//! Mail after the answer in AWS: the auth function hands each mail to itself by an
//! asynchronous invocation (`InvocationType::Event`, the payload [`Mail::event`]), which
//! Lambda queues and runs as a separate invocation that sends it (retried twice on
//! failure, `EventInvokeConfig` in `template.yaml`). A task spawned in the request's
//! invocation would not do: the runtime asks for the next event as soon as the handler
//! answers, and the sandbox stays frozen until one arrives, so the send would wait for
//! the next request (or never run). Handing over is one Lambda API call, alike for every
//! mail, well within the reset's 600 ms floor; the mail server's time is no longer in the
//! answer.

use aws_sdk_lambda::primitives::Blob;
use aws_sdk_lambda::types::InvocationType;
use futures::future::BoxFuture;
use serde_json::Value;
use shared::mail::{Mail, Mailer, Outbox};

/// Invokes this function (its own name, `AWS_LAMBDA_FUNCTION_NAME`) with a mail's event.
pub struct SelfInvoke {
    client: aws_sdk_lambda::Client,
    function_name: String,
}

impl SelfInvoke {
    /// The client of the function's own region and credentials, and its name.
    pub async fn from_env() -> anyhow::Result<Self> {
        let function_name = std::env::var("AWS_LAMBDA_FUNCTION_NAME")
            .map_err(|_| anyhow::anyhow!("AWS_LAMBDA_FUNCTION_NAME is not set"))?;
        let sdk = shared::store::sdk_defaults().load().await;
        Ok(Self {
            client: aws_sdk_lambda::Client::new(&sdk),
            function_name,
        })
    }
}

impl Outbox for SelfInvoke {
    fn post<'a>(&'a self, _mailer: &'a Mailer, mail: Mail) -> BoxFuture<'a, anyhow::Result<()>> {
        Box::pin(async move {
            self.client
                .invoke()
                .function_name(&self.function_name)
                .invocation_type(InvocationType::Event)
                .payload(Blob::new(mail.event().to_string()))
                .send()
                .await
                .map_err(|e| {
                    let e = aws_sdk_lambda::error::DisplayErrorContext(e);
                    anyhow::anyhow!("invoking {}: {e}", self.function_name)
                })?;
            Ok(())
        })
    }
}

/// Whether an invocation's event is a mail to send (else it is an API Gateway request).
pub fn is_mail_event(event: &Value) -> bool {
    Mail::from_event(event).is_some()
}

/// Sends the mail an event carries; a failure fails the invocation, which Lambda retries.
pub async fn on_event(mailer: &Mailer, event: Value) -> anyhow::Result<Value> {
    let Some(mail) = Mail::from_event(&event) else {
        return Ok(Value::Null);
    };
    mailer.send(mail).await?;
    Ok(serde_json::json!({ "sent": true }))
}
