//! The outbox worker: claims due mails, renders them, hands them to the relay and records how
//! each attempt ended. One per server; several servers on one PostgreSQL database share the
//! outbox safely (claims skip each other's rows). It also queues the daily digests once their
//! hour has come, and runs the reminders of waiting approval steps every hour.

use std::time::{Duration, Instant};

use sea_orm::DatabaseConnection;

use super::{
    commands,
    events::Event,
    mails,
    outbox::{self, Outcome},
    recipients::StepRule,
};
use crate::{
    drain::Stop,
    entities::outbox_mail as om,
    mail::{Mailer, Outgoing},
    state::AppState,
};

/// Mails claimed at once; each claim is a short write.
const BATCH: u64 = 50;
/// How long a claim holds. A worker that dies mid-send leaves its mails to be taken again when
/// it lapses; one alive gives up on an attempt at four fifths of it (`deadline`), so a mail is
/// never held by two claims at once.
const LEASE: Duration = Duration::from_secs(300);
/// Debug builds read the lease from this variable (seconds), so a test of a crashed sender
/// waits seconds, not minutes; a release build always holds `LEASE`.
pub const LEASE_VARIABLE: &str = "MENTORPAY_MAIL_LEASE_SECONDS";
/// Mails of a claim handed to the relay at once, over its pooled connections: one at a
/// time, each mail's round trips and the write recording it added up (about 19 a second).
const SENDING_AT_ONCE: usize = 8;
/// How often an idle worker looks for due mail.
const IDLE: Duration = Duration::from_secs(1);
/// How often it looks whether a daily digest is due: two small reads.
const DIGEST_CHECK: Duration = Duration::from_secs(10);
/// How often it runs a reminder pass (the first one at start): a pass on a day already
/// served sends nothing, so a restart costs a read.
const REMINDERS: Duration = Duration::from_secs(3600);

/// Starts the worker; `rule` says who may take a request's current approval step. It ends
/// at its next pause once `stop` is asked for.
pub fn spawn(state: AppState, rule: StepRule, stop: Stop) -> tokio::task::JoinHandle<()> {
    actix_web::rt::spawn(async move {
        let retry = Duration::from_secs(state.config.mail_retry_seconds);
        let lease = lease();
        let public_url = state.config.public_url();
        let mut digests_checked: Option<Instant> = None;
        let mut reminded: Option<Instant> = None;
        while !stop.requested() {
            if digests_checked.is_none_or(|at| at.elapsed() >= DIGEST_CHECK) {
                digests_checked = Some(Instant::now());
                if let Err(e) =
                    commands::send_daily_digests(&state.db, crate::clock::now(), rule).await
                {
                    tracing::warn!(error = %e, "outbox: could not queue the daily digests");
                }
            }
            if reminded.is_none_or(|at| at.elapsed() >= REMINDERS) {
                reminded = Some(Instant::now());
                match commands::send_reminders(&state.db, crate::clock::now(), rule).await {
                    Ok(done) if done.reminded + done.escalated > 0 => tracing::info!(
                        reminded = done.reminded,
                        escalated = done.escalated,
                        mails = done.mails,
                        "reminders of waiting approval steps queued"
                    ),
                    Ok(_) => {}
                    Err(e) => tracing::warn!(error = %e, "outbox: could not run the reminders"),
                }
            }
            match drain(&state.db, &state.mailer, &public_url, retry, lease).await {
                Ok(0) => {
                    stop.pause(IDLE).await;
                }
                Ok(_) => {}
                Err(e) => {
                    tracing::warn!(error = %e, "outbox: could not claim mail");
                    stop.pause(IDLE).await;
                }
            }
        }
    })
}

/// The lease of this process's claims: `LEASE`, or in a debug build the test's
/// `LEASE_VARIABLE` (at least 2 s).
fn lease() -> Duration {
    if !cfg!(debug_assertions) {
        return LEASE;
    }
    match std::env::var(LEASE_VARIABLE).ok().and_then(|v| v.parse::<u64>().ok()) {
        Some(seconds) => Duration::from_secs(seconds.max(2)),
        None => LEASE,
    }
}

/// When a worker stops waiting for the relay on a claim made at `claimed` for `lease`: well
/// before the claim lapses, so no other worker takes the mail while this one may still send it.
fn deadline(claimed: tokio::time::Instant, lease: Duration) -> tokio::time::Instant {
    claimed + lease.mul_f64(0.8)
}

/// One claim's worth: sends what is due and returns how many mails it handled. Each mail is
/// settled as soon as the relay answered, so an accepted mail is marked sent at once.
pub async fn drain(
    db: &DatabaseConnection,
    mailer: &Mailer,
    public_url: &str,
    retry: Duration,
    lease: Duration,
) -> Result<usize, sea_orm::DbErr> {
    use futures_util::{stream, StreamExt, TryStreamExt};
    let claimed_at = tokio::time::Instant::now();
    let claimed = outbox::claim(db, BATCH, lease).await?;
    let give_up = deadline(claimed_at, lease);
    stream::iter(&claimed)
        .map(|mail| async move {
            let outcome =
                match tokio::time::timeout_at(give_up, attempt(mailer, public_url, retry, mail))
                    .await
                {
                    Ok(outcome) => outcome,
                    Err(_) => Outcome::Retry {
                        error: "the relay did not answer in time".into(),
                        retry_at: crate::clock::now()
                            + chrono::Duration::from_std(retry).unwrap_or_default(),
                    },
                };
            if let Outcome::Failed { error } | Outcome::Retry { error, .. } = &outcome {
                tracing::warn!(id = mail.id, to = %mail.recipient, %error, "outbox: mail not sent");
            }
            if !outbox::settle(db, mail, outcome).await? {
                tracing::warn!(id = mail.id, "outbox: the claim lapsed before the attempt ended");
            }
            Ok::<(), sea_orm::DbErr>(())
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
