//! Mail after the answer in AWS: the auth function hands each mail to itself by an
//! asynchronous invocation (`InvocationType::Event`, the payload [`Mail::event`]), which
//! Lambda queues and runs as a separate invocation that sends it (retried twice on
//! failure, `EventInvokeConfig` in `template.yaml`). A task spawned in the request's
//! invocation would not do: the runtime asks for the next event as soon as the handler
//! answers, and the sandbox stays frozen until one arrives, so the send would wait for
//! the next request (or never run). Handing over is one Lambda API call, alike for every
//! mail, well within the reset's 600 ms floor; the mail server's time is no longer in the
//! answer. The invocation is `pf_http::invoke::SelfInvoke`'s, which the imports
//! function takes too.

use pf_http::mail::{Mail, Mailer};
use serde_json::Value;

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
