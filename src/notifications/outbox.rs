//! The outbox table: a mail is written in the transaction of the action that causes it, then
//! claimed, sent and settled by the worker (`worker.rs`).
//!
//! A claim is a lease: the row is marked `sending` until `claimed_until`, under a token that
//! only its holder knows. A worker that dies while sending (SIGKILL, a lost machine) leaves the
//! row to be claimed again once the lease lapses, by any instance. The worker records the
//! relay's acceptance as soon as it comes, and gives up on an attempt before its lease ends
//! (`worker.rs`), so a mail the relay accepted is not claimed again; the one instant left, a
//! relay that accepted just as the sender died, may repeat a mail, which then carries the same
//! Message-ID (made from its row), by which mail systems drop the duplicate.
//!
//! To the office a claimed mail still waits: `pending` in the list's filter and in the count
//! until the relay accepted it (`sent`) or refused it for good (`failed`).

use std::time::Duration;

use chrono::{DateTime, Utc};
use sea_orm::{
    sea_query::{Expr, ExprTrait, LockBehavior, LockType},
    ColumnTrait, Condition, ConnectionTrait, DatabaseBackend, DatabaseConnection, DbErr,
    EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect, Set,
};

use super::events::Event;
use crate::{
    entities::{codes::OutboxStatus, outbox_mail as om},
    error::{ApiError, ApiResult},
    web::{Page, Paging},
};

/// Adds mails (recipient, what happened), due now, inside the caller's transaction.
pub async fn enqueue_many(txn: &impl ConnectionTrait, mails: &[(String, Event)]) -> ApiResult<()> {
    let now = crate::clock::now();
    let mut rows = Vec::with_capacity(mails.len());
    for (recipient, event) in mails {
        let event_json = serde_json::to_string(event)
            .map_err(|e| ApiError::Internal(format!("outbox event: {e}")))?;
        rows.push(om::ActiveModel {
            recipient: Set(recipient.clone()),
            subject: Set(event.subject()),
            event: Set(event_json),
            status: Set(OutboxStatus::Pending),
            attempts: Set(0),
            next_attempt_at: Set(now),
            created_at: Set(now),
            ..Default::default()
        });
    }
    // Ten bound values a row: 100 rows stay well under SQLite's limit on bound parameters.
    for chunk in rows.chunks(100) {
        om::Entity::insert_many(chunk.to_vec()).exec(txn).await?;
    }
    Ok(())
}

/// Takes up to `batch` mails that are due (pending and due, or claimed by a worker whose lease
/// lapsed) for `lease`: marked sending and counted as an attempt, in one transaction.
/// PostgreSQL: rows another instance is claiming at the same moment are skipped, not waited for.
pub async fn claim(
    db: &DatabaseConnection,
    batch: u64,
    lease: Duration,
) -> Result<Vec<om::Model>, DbErr> {
    let token = uuid::Uuid::new_v4().simple().to_string();
    let now = crate::clock::now();
    // A look first, without a lock: an idle outbox costs one indexed read, not a write lock.
    if due(now).one(db).await?.is_none() {
        return Ok(Vec::new());
    }
    let txn = crate::db::write(db).await?;
    let mut rows = due(now).limit(batch);
    // The write lock already keeps claims apart; skipping locked rows keeps them apart even
    // without it, as a claim should.
    if db.get_database_backend() == DatabaseBackend::Postgres {
        rows = rows.lock_with_behavior(LockType::Update, LockBehavior::SkipLocked);
    }
    let rows = rows.all(&txn).await?;
    if rows.is_empty() {
        txn.commit().await?;
        return Ok(rows);
    }
    let until = now + chrono::Duration::from_std(lease).unwrap_or(chrono::Duration::minutes(5));
    om::Entity::update_many()
        .col_expr(om::Column::Status, Expr::value(OutboxStatus::Sending))
        .col_expr(om::Column::ClaimedUntil, Expr::value(until))
        .col_expr(om::Column::ClaimToken, Expr::value(token.clone()))
        .col_expr(om::Column::Attempts, Expr::col(om::Column::Attempts).add(1))
        .filter(om::Column::Id.is_in(rows.iter().map(|r| r.id)))
        .exec(&txn)
        .await?;
    txn.commit().await?;
    Ok(rows
        .into_iter()
        .map(|r| om::Model {
            attempts: r.attempts + 1,
            status: OutboxStatus::Sending,
            claimed_until: Some(until),
            claim_token: Some(token.clone()),
            ..r
        })
        .collect())
}

/// Mails due at `now`, oldest first: pending and due, or claimed by a worker whose lease lapsed.
fn due(now: DateTime<Utc>) -> sea_orm::Select<om::Entity> {
    om::Entity::find()
        .filter(
            Condition::any()
                .add(
                    Condition::all()
                        .add(om::Column::Status.eq(OutboxStatus::Pending))
                        .add(om::Column::NextAttemptAt.lte(now)),
                )
                .add(
                    Condition::all()
                        .add(om::Column::Status.eq(OutboxStatus::Sending))
                        .add(om::Column::ClaimedUntil.lt(now)),
                ),
        )
        .order_by_asc(om::Column::Id)
}

/// How one attempt ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Accepted by the relay, or written to the log (`by`).
    Sent { by: &'static str },
    /// The relay could not take it now: try again at `retry_at`.
    Retry { error: String, retry_at: DateTime<Utc> },
    /// Refused for good (or retried too often).
    Failed { error: String },
}

/// Records how the attempt on `mail` (as `claim` returned it) ended, if its claim is still
/// this worker's: false when another worker took the mail over meanwhile.
pub async fn settle(
    db: &impl ConnectionTrait,
    mail: &om::Model,
    outcome: Outcome,
) -> Result<bool, DbErr> {
    let update = om::Entity::update_many()
        .filter(om::Column::Id.eq(mail.id))
        .filter(om::Column::Status.eq(OutboxStatus::Sending))
        .filter(om::Column::ClaimToken.eq(mail.claim_token.clone()))
        .col_expr(om::Column::ClaimedUntil, Expr::value(Option::<DateTime<Utc>>::None))
        .col_expr(om::Column::ClaimToken, Expr::value(Option::<String>::None));
    // A settled mail keeps no secret: an invitation's link token is wiped from its event.
    let settles = !matches!(outcome, Outcome::Retry { .. });
    let update =
        match serde_json::from_str::<Event>(&mail.event).ok().and_then(|e| e.without_secret()) {
            Some(kept) if settles => update.col_expr(
                om::Column::Event,
                Expr::value(serde_json::to_string(&kept).unwrap_or_default()),
            ),
            _ => update,
        };
    let update = match outcome {
        Outcome::Sent { by } => update
            .col_expr(om::Column::Status, Expr::value(OutboxStatus::Sent))
            .col_expr(om::Column::SentAt, Expr::value(crate::clock::now()))
            .col_expr(om::Column::DeliveredBy, Expr::value(by))
            .col_expr(om::Column::LastError, Expr::value(Option::<String>::None)),
        Outcome::Retry { error, retry_at } => update
            .col_expr(om::Column::Status, Expr::value(OutboxStatus::Pending))
            .col_expr(om::Column::NextAttemptAt, Expr::value(retry_at))
            .col_expr(om::Column::LastError, Expr::value(error)),
        Outcome::Failed { error } => update
            .col_expr(om::Column::Status, Expr::value(OutboxStatus::Failed))
            .col_expr(om::Column::LastError, Expr::value(error)),
    };
    Ok(update.exec(db).await?.rows_affected == 1)
}

/// The delay before attempt `attempts + 1` after a failed one: `first`, doubling, at most an hour.
pub fn backoff(first: Duration, attempts: i32) -> Duration {
    let doublings = attempts.saturating_sub(1).clamp(0, 20) as u32;
    first.saturating_mul(2u32.saturating_pow(doublings)).min(Duration::from_secs(3600))
}

/// A mail that failed this many times is given up on (about two days of hourly retries).
pub const MAX_ATTEMPTS: i32 = 48;

/// The stored statuses a filter on `status` selects: `pending` also takes the mails being
/// sent (claimed, not yet accepted), as the count of waiting mails does.
pub fn stored_statuses(status: OutboxStatus) -> &'static [OutboxStatus] {
    match status {
        OutboxStatus::Pending => WAITING,
        OutboxStatus::Sending => &[OutboxStatus::Sending],
        OutboxStatus::Sent => &[OutboxStatus::Sent],
        OutboxStatus::Failed => &[OutboxStatus::Failed],
    }
}

/// Mails not yet accepted nor refused for good.
const WAITING: &[OutboxStatus] = &[OutboxStatus::Pending, OutboxStatus::Sending];

/// A page of the outbox, newest first, optionally of one status (`stored_statuses`).
pub async fn page(
    db: &DatabaseConnection,
    status: Option<OutboxStatus>,
    paging: Paging,
) -> ApiResult<Page<om::Model>> {
    let mut q = om::Entity::find();
    if let Some(s) = status {
        q = q.filter(om::Column::Status.is_in(stored_statuses(s).iter().copied()));
    }
    let total = q.clone().count(db).await?;
    let items =
        q.order_by_desc(om::Column::Id).offset(paging.offset()).limit(paging.size).all(db).await?;
    Ok(Page::new(items, paging, total))
}

/// How many mails wait: what the `pending` filter lists.
pub async fn waiting(db: &DatabaseConnection) -> ApiResult<u64> {
    Ok(om::Entity::find()
        .filter(om::Column::Status.is_in(WAITING.iter().copied()))
        .count(db)
        .await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_from_the_first_delay_up_to_an_hour() {
        let first = Duration::from_secs(30);
        assert_eq!(backoff(first, 1), Duration::from_secs(30));
        assert_eq!(backoff(first, 2), Duration::from_secs(60));
        assert_eq!(backoff(first, 4), Duration::from_secs(240));
        assert_eq!(backoff(first, 9), Duration::from_secs(3600));
        assert_eq!(backoff(first, 1000), Duration::from_secs(3600));
    }

    #[test]
    fn a_mail_being_sent_is_listed_as_pending_and_counted_as_waiting() {
        use OutboxStatus::*;
        for (filter, stored) in [
            (Pending, &[Pending, Sending][..]),
            (Sending, &[Sending]),
            (Sent, &[Sent]),
            (Failed, &[Failed]),
        ] {
            assert_eq!(stored_statuses(filter), stored, "{filter:?}");
        }
        assert_eq!(stored_statuses(Pending), WAITING);
    }
}
