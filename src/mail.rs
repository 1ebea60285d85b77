//! Outgoing e-mail: SMTP when configured, otherwise the message goes to the log
//! (the only way an office without a relay gets a set-password link).

use lettre::{
    message::{header::MessageId, Mailbox, MultiPart},
    transport::smtp::authentication::Credentials,
    AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor,
};

use crate::config::{Config, SmtpSecurity};

/// A message as handed to the transport.
#[derive(Debug, Clone)]
pub struct Mail {
    pub to: String,
    pub subject: String,
    pub body: String,
}

/// A rendered outbox mail.
#[derive(Debug, Clone)]
pub struct Outgoing {
    pub to: String,
    pub subject: String,
    pub text: String,
    pub html: String,
    /// `<…@…>`, the same at every attempt, so a receiving system can drop a repeat.
    pub message_id: String,
}

/// Why a mail did not go: `permanent` when the relay refused it for good (5xx).
#[derive(Debug, Clone)]
pub struct Undelivered {
    pub permanent: bool,
    pub reason: String,
}

#[derive(Clone)]
pub enum Mailer {
    Smtp {
        transport: AsyncSmtpTransport<Tokio1Executor>,
        from: Mailbox,
    },
    Log,
    /// Keeps messages in memory: for tests, which read the links they carry.
    Capture(std::sync::Arc<std::sync::Mutex<Vec<Mail>>>),
}

/// The address of the page where the holder of a one-time link chooses a password.
pub fn set_password_link(public_url: &str, email: &str, token: &str) -> String {
    let query =
        serde_html_form::to_string([("email", email), ("token", token)]).unwrap_or_default();
    format!("{}/set-password?{query}", public_url.trim_end_matches('/'))
}

impl Mailer {
    /// Whether mail leaves the server (a relay, or the tests' capture); without one, a mail
    /// only reaches the server's log.
    pub fn has_relay(&self) -> bool {
        !matches!(self, Self::Log)
    }

    pub fn from_config(config: &Config) -> anyhow::Result<Self> {
        let Some(host) = &config.smtp_host else { return Ok(Self::Log) };
        let builder = match config.smtp_security {
            SmtpSecurity::Starttls => AsyncSmtpTransport::<Tokio1Executor>::starttls_relay(host)?,
            SmtpSecurity::Tls => AsyncSmtpTransport::<Tokio1Executor>::relay(host)?,
            SmtpSecurity::None => AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(host),
        };
        let mut builder = builder.port(config.smtp_port);
        if let (Some(user), Some(pass)) = (&config.smtp_username, &config.smtp_password) {
            builder = builder.credentials(Credentials::new(user.clone(), pass.clone()));
        }
        Ok(Self::Smtp { transport: builder.build(), from: config.smtp_from.parse()? })
    }

    /// Sends one outbox mail and waits for the relay's answer (the outbox worker's call): the
    /// transport that took it (`smtp` or `log`), or why not and whether trying again may help.
    pub async fn deliver(&self, mail: &Outgoing) -> Result<&'static str, Undelivered> {
        match self {
            Self::Capture(outbox) => {
                outbox.lock().expect("outbox lock").push(Mail {
                    to: mail.to.clone(),
                    subject: mail.subject.clone(),
                    body: mail.text.clone(),
                });
                Ok("smtp")
            }
            Self::Log => {
                tracing::info!(
                    to = %mail.to,
                    subject = %mail.subject,
                    "no SMTP relay configured; e-mail follows\n{}",
                    mail.text
                );
                Ok("log")
            }
            Self::Smtp { transport, from } => {
                let refused = |e: String| Undelivered { permanent: true, reason: e };
                let to = mail.to.parse::<Mailbox>().map_err(|e| refused(e.to_string()))?;
                let message = Message::builder()
                    .from(from.clone())
                    .to(to)
                    .subject(&mail.subject)
                    .header(MessageId::from(mail.message_id.clone()))
                    .multipart(MultiPart::alternative_plain_html(
                        mail.text.clone(),
                        mail.html.clone(),
                    ))
                    .map_err(|e| refused(e.to_string()))?;
                match transport.send(message).await {
                    Ok(_) => Ok("smtp"),
                    Err(e) => {
                        Err(Undelivered { permanent: e.is_permanent(), reason: e.to_string() })
                    }
                }
            }
        }
    }

    /// Sends in the background: a slow relay must not slow down (or reveal through
    /// timing) the call that triggered the message.
    pub fn send(&self, to: &str, subject: &str, body: String) {
        match self {
            Self::Capture(outbox) => {
                let mail = Mail { to: to.to_owned(), subject: subject.to_owned(), body };
                outbox.lock().expect("outbox lock").push(mail);
            }
            Self::Log => {
                tracing::info!(to, subject, "no SMTP relay configured; e-mail follows\n{body}");
            }
            Self::Smtp { transport, from } => {
                let message = to.parse::<Mailbox>().map_err(|e| e.to_string()).and_then(|to| {
                    Message::builder()
                        .from(from.clone())
                        .to(to)
                        .subject(subject)
                        .body(body)
                        .map_err(|e| e.to_string())
                });
                let transport = transport.clone();
                let to = to.to_owned();
                tokio::spawn(async move {
                    let result = match message {
                        Ok(message) => {
                            transport.send(message).await.map(|_| ()).map_err(|e| e.to_string())
                        }
                        Err(e) => Err(e),
                    };
                    if let Err(error) = result {
                        tracing::warn!(%to, %error, "e-mail could not be sent");
                    }
                });
            }
        }
    }
}
