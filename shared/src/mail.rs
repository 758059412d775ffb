//! Outgoing mail: one small port, two adapters. SMTP (`lettre`) serves local use (the
//! `maildev` catcher that `make run` starts) and any SMTP provider; Amazon SES v2 serves
//! deployments (`MAIL_TRANSPORT=ses`, the sender a verified identity). Without either,
//! mail is switched off: sending logs a warning and reports failure, so callers that must
//! not depend on mail (registration, reset requests) carry on, and nothing pretends a mail
//! went out.

use lettre::message::{header::ContentType, Mailbox};
use lettre::transport::smtp::client::{Tls, TlsParameters};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use crate::config::{Config, MailTransport};

/// One plain-text message.
#[derive(Debug, Clone)]
pub struct Mail {
    pub to: String,
    pub subject: String,
    pub body: String,
}

/// Where mail goes.
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
                let sdk = crate::store::sdk_defaults().load().await;
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
                    .map_err(|e| crate::lambda::aws_error("SES SendEmail", e))?;
                Ok(())
            }
        }
    }
}
