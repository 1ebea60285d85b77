//! Outgoing e-mail: SMTP when configured, otherwise the message goes to the log
//! (the only way an office without a relay gets a set-password link).

use lettre::{
    message::Mailbox, transport::smtp::authentication::Credentials, AsyncSmtpTransport,
    AsyncTransport, Message, Tokio1Executor,
};

use crate::config::{Config, SmtpSecurity};

/// A message as handed to the transport.
#[derive(Debug, Clone)]
pub struct Mail {
    pub to: String,
    pub subject: String,
    pub body: String,
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

impl Mailer {
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
