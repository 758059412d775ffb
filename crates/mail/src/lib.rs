//! Outgoing mail: one small port, two adapters. SMTP (`lettre`) serves local use (the
//! `maildev` catcher that `make run` starts) and any SMTP provider; Amazon SES v2 serves
//! deployments (`MAIL_TRANSPORT=ses`, the sender a verified identity). Without either,
//! mail is switched off: sending logs a warning and reports failure, so callers that must
//! not depend on mail (registration, reset requests) carry on, and nothing pretends a mail
//! went out.

use std::sync::OnceLock;

use futures::future::BoxFuture;
use lettre::message::{header::ContentType, Mailbox};
use lettre::transport::smtp::client::{Tls, TlsParameters};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use pf_config::{Config, MailTransport};

/// One plain-text message.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Mail {
    pub to: String,
    pub subject: String,
    pub body: String,
}

impl Mail {
    /// The event a function sends itself to mail this after its answer:
    /// `{"outgoingMail": {"to", "subject", "body"}}`.
    pub fn event(&self) -> serde_json::Value {
        serde_json::json!({ "outgoingMail": self })
    }

    /// The mail an event carries, if it is such an event (an API Gateway request is not).
    pub fn from_event(event: &serde_json::Value) -> Option<Self> {
        serde_json::from_value(event.get("outgoingMail")?.clone()).ok()
    }
}

/// Where mail goes.
#[derive(Clone)]
pub enum Mailer {
    Smtp {
        transport: Box<AsyncSmtpTransport<Tokio1Executor>>,
        from: Box<Mailbox>,
    },
    Ses {
        client: aws_sdk_sesv2::Client,
        from: String,
    },
    Off,
}

impl std::fmt::Debug for Mailer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Mailer::Smtp { .. } => "Mailer::Smtp",
            Mailer::Ses { .. } => "Mailer::Ses",
            Mailer::Off => "Mailer::Off",
        })
    }
}

impl Mailer {
    /// The mailer the configuration names (see [`MailTransport`]).
    pub async fn from_config(config: &Config) -> anyhow::Result<Self> {
        Ok(match &config.mail_transport {
            MailTransport::Off => Mailer::Off,
            MailTransport::Smtp { host, port, tls } => {
                let builder = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(host)
                    .port(*port)
                    .timeout(Some(std::time::Duration::from_secs(10)));
                let builder = if *tls {
                    builder.tls(Tls::Required(TlsParameters::new(host.clone())?))
                } else {
                    builder
                };
                Mailer::Smtp {
                    transport: Box::new(builder.build()),
                    from: Box::new(config.mail_from.parse()?),
                }
            }
            MailTransport::Ses => {
                let sdk = pf_store::sdk_defaults().load().await;
                Mailer::Ses {
                    client: aws_sdk_sesv2::Client::new(&sdk),
                    from: config.mail_from.clone(),
                }
            }
        })
    }

    /// Sends one message. Errors name the transport and cause, never the message.
    pub async fn send(&self, mail: Mail) -> anyhow::Result<()> {
        match self {
            Mailer::Off => {
                tracing::warn!("mail is not configured (MAIL_TRANSPORT); a message was not sent");
                anyhow::bail!("mail is not configured")
            }
            Mailer::Smtp { transport, from } => {
                let message = Message::builder()
                    .from(Mailbox::clone(from))
                    .to(mail.to.parse()?)
                    .subject(mail.subject)
                    .header(ContentType::TEXT_PLAIN)
                    .body(mail.body)?;
                transport.send(message).await?;
                Ok(())
            }
            Mailer::Ses { client, from } => {
                use aws_sdk_sesv2::types::{Body, Content, Destination, EmailContent, Message};
                let text = |s: String| Content::builder().data(s).charset("UTF-8").build();
                let message = Message::builder()
                    .subject(text(mail.subject)?)
                    .body(Body::builder().text(text(mail.body)?).build())
                    .build();
                client
                    .send_email()
                    .from_email_address(from)
                    .destination(Destination::builder().to_addresses(mail.to).build())
                    .content(EmailContent::builder().simple(message).build())
                    .send()
                    .await
                    .map_err(|e| pf_store::aws_error("SES SendEmail", e))?;
                Ok(())
            }
        }
    }
}

/// When a mail goes out: a port with three implementations. A mail is sent after the
/// answer of the request that caused it, so that a slow mail server cannot make a known
/// address answer later than an unknown one. Locally (the local server, the tests)
/// [`Background`] sends it on a spawned task. In Lambda a spawned task does not outlive
/// the answer (the runtime asks for the next event as soon as the handler returns, and
/// the sandbox is frozen until one comes), so the auth function installs one that invokes
/// itself asynchronously with [`Mail::event`] (`functions/auth/src/mail.rs`); a function
/// whose mails reveal nothing (users: an e-mail change is the caller's own) installs
/// [`Inline`].
pub trait Outbox: Send + Sync {
    /// Hands the mail over; returns once it is handed over (or, [`Inline`], sent).
    fn post<'a>(&'a self, mailer: &'a Mailer, mail: Mail) -> BoxFuture<'a, anyhow::Result<()>>;
}

/// Sends on a task of this process; a failure is logged there.
pub struct Background;

impl Outbox for Background {
    fn post<'a>(&'a self, mailer: &'a Mailer, mail: Mail) -> BoxFuture<'a, anyhow::Result<()>> {
        let mailer = mailer.clone();
        tokio::spawn(async move {
            if let Err(e) = mailer.send(mail).await {
                tracing::warn!(error = %e, "a mail was not sent");
            }
        });
        Box::pin(async { Ok(()) })
    }
}

/// Sends within the request.
pub struct Inline;

impl Outbox for Inline {
    fn post<'a>(&'a self, mailer: &'a Mailer, mail: Mail) -> BoxFuture<'a, anyhow::Result<()>> {
        Box::pin(mailer.send(mail))
    }
}

static OUTBOX: OnceLock<Box<dyn Outbox>> = OnceLock::new();

/// Installs how mail goes out in this process (once, at start-up); [`Background`] if never.
pub fn set_outbox(outbox: Box<dyn Outbox>) {
    if OUTBOX.set(outbox).is_err() {
        tracing::warn!("the outbox was already set");
    }
}

/// How mail goes out in this process.
pub fn outbox() -> &'static dyn Outbox {
    OUTBOX.get().map_or(&Background, |o| o.as_ref())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mail_event_carries_its_mail_and_no_other_event_is_one() {
        let mail = Mail {
            to: "ann@example.com".into(),
            subject: "s".into(),
            body: "b".into(),
        };
        let back = Mail::from_event(&mail.event()).expect("a mail event");
        assert_eq!(
            (back.to, back.subject, back.body),
            (mail.to, mail.subject, mail.body)
        );
        let http = serde_json::json!({"version": "2.0", "rawPath": "/auth/login"});
        let broken = serde_json::json!({"outgoingMail": {"to": 1}});
        for other in [http, broken] {
            assert!(Mail::from_event(&other).is_none(), "{other}");
        }
    }
}
