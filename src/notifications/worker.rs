//! The outbox worker: claims due mails, renders them, hands them to the relay and records how
//! each attempt ended. One per server; several servers on one PostgreSQL database share the
//! outbox safely (claims skip each other's rows). It also queues the daily digests once their
//! hour has come.

use std::time::{Duration, Instant};

use sea_orm::DatabaseConnection;

use super::{
    commands,
    events::Event,
    mails,
    outbox::{self, Outcome},
};
use crate::{
    entities::outbox_mail as om,
    mail::{Mailer, Outgoing},
    state::AppState,
};

/// Mails claimed at once; each claim is a short write.
const BATCH: u64 = 50;
/// How long a claim holds: longer than any relay conversation (lettre times out at 60 s).
const LEASE: Duration = Duration::from_secs(300);
/// Mails of a claim handed to the relay at once, over its pooled connections: one at a
/// time, each mail's round trips and the write recording it added up (about 19 a second).
const SENDING_AT_ONCE: usize = 8;
/// How often an idle worker looks for due mail.
const IDLE: Duration = Duration::from_secs(1);
/// How often it looks whether a daily digest is due: two small reads.
const DIGEST_CHECK: Duration = Duration::from_secs(10);

pub fn spawn(state: AppState) {
    actix_web::rt::spawn(async move {
        let retry = Duration::from_secs(state.config.mail_retry_seconds);
        let public_url = state.config.public_url();
        let mut digests_checked: Option<Instant> = None;
        loop {
            if digests_checked.is_none_or(|at| at.elapsed() >= DIGEST_CHECK) {
                digests_checked = Some(Instant::now());
                if let Err(e) = commands::send_daily_digests(&state.db, crate::clock::now()).await {
                    tracing::warn!(error = %e, "outbox: could not queue the daily digests");
                }
            }
            match drain(&state.db, &state.mailer, &public_url, retry).await {
                Ok(0) => tokio::time::sleep(IDLE).await,
                Ok(_) => {}
                Err(e) => {
                    tracing::warn!(error = %e, "outbox: could not claim mail");
                    tokio::time::sleep(IDLE).await;
                }
            }
        }
    });
}

/// One claim's worth: sends what is due and returns how many mails it handled.
pub async fn drain(
    db: &DatabaseConnection,
    mailer: &Mailer,
    public_url: &str,
    retry: Duration,
) -> Result<usize, sea_orm::DbErr> {
    use futures_util::{stream, StreamExt, TryStreamExt};
    let claimed = outbox::claim(db, BATCH, LEASE).await?;
    stream::iter(&claimed)
        .map(|mail| async move {
            let outcome = attempt(mailer, public_url, retry, mail).await;
            if let Outcome::Failed { error } | Outcome::Retry { error, .. } = &outcome {
                tracing::warn!(id = mail.id, to = %mail.recipient, %error, "outbox: mail not sent");
            }
            outbox::settle(db, mail, outcome).await
        })
        .buffer_unordered(SENDING_AT_ONCE)
        .try_collect::<()>()
        .await?;
    Ok(claimed.len())
}

async fn attempt(mailer: &Mailer, public_url: &str, retry: Duration, mail: &om::Model) -> Outcome {
    let event: Event = match serde_json::from_str(&mail.event) {
        Ok(e) => e,
        Err(e) => return Outcome::Failed { error: format!("unreadable event: {e}") },
    };
    let (text, html) = mails::render(&event, public_url);
    let host = public_url.split("://").nth(1).unwrap_or("mentorpay").split(['/', ':']).next();
    let outgoing = Outgoing {
        to: mail.recipient.clone(),
        subject: mail.subject.clone(),
        text,
        html,
        message_id: format!("<outbox-{}@{}>", mail.id, host.unwrap_or("mentorpay")),
    };
    match mailer.deliver(&outgoing).await {
        Ok(by) => Outcome::Sent { by },
        Err(e) if e.permanent => Outcome::Failed { error: e.reason },
        Err(e) if mail.attempts >= outbox::MAX_ATTEMPTS => Outcome::Failed {
            error: format!("gave up after {} attempts: {}", mail.attempts, e.reason),
        },
        Err(e) => Outcome::Retry {
            error: e.reason,
            retry_at: crate::clock::now()
                + chrono::Duration::from_std(outbox::backoff(retry, mail.attempts))
                    .unwrap_or(chrono::Duration::hours(1)),
        },
    }
}
