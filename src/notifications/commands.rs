//! The actions of this area, each owning its transaction, and the one call other areas' commands
//! make inside theirs when a request moves.

use std::collections::{BTreeSet, HashMap};

use sea_orm::{
    sea_query::Expr, ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, QueryFilter,
};
use serde_json::json;

use super::{
    digest,
    events::{Audience, Event, Happened},
    facts::{facts, payees, CHUNK},
    outbox,
    recipients::{self, Candidate, Recipient},
};
use crate::{
    activity,
    auth::CurrentUser,
    entities::{
        codes::{NotificationMode, Status},
        payment_request as pr, user,
    },
    error::ApiResult,
    settings::store,
};

/// Sets how the signed-in user hears of work.
pub async fn set_mode(
    db: &DatabaseConnection,
    me: &CurrentUser,
    mode: NotificationMode,
) -> ApiResult<NotificationMode> {
    let txn = crate::db::write(db).await?;
    user::Entity::update_many()
        .col_expr(user::Column::NotificationMode, Expr::value(mode))
        .filter(user::Column::Id.eq(me.id()))
        .exec(&txn)
        .await?;
    let (before, after) = (me.user.notification_mode, mode);
    activity::note_change(
        &txn,
        ("user", me.id()),
        "notification-mode-changed",
        &me.into(),
        (&json!({"notificationMode": before}), &json!({"notificationMode": after})),
        json!({"before": before, "after": after}),
    )
    .await?;
    txn.commit().await?;
    Ok(mode)
}

/// Which approvers of a request's program may take its current approval step: the
/// payment requests' rule, handed in by the command that moves the request.
pub type MayTake<'a> = &'a (dyn Fn(&Candidate) -> bool + Sync);

/// Queues the mails a move of request `id` from `from` to `to` by `actor` causes, in the
/// transaction `txn` of that move (after its update, so the request reads as moved).
/// Approvers hear only when `may_take` says the step now current is theirs.
pub async fn request_moved(
    txn: &impl ConnectionTrait,
    actor: &CurrentUser,
    id: i32,
    (from, to): (Option<Status>, Status),
    reason: Option<&str>,
    may_take: MayTake<'_>,
) -> ApiResult<()> {
    let Some(happened) = Happened::of_move(from, to) else { return Ok(()) };
    tell(txn, actor, &[id], happened, reason, may_take).await
}

/// The same for many requests moved at once (a batch, a vendor payment): a few reads for the
/// whole set, then the mails. Nobody hears of their own action; users who chose a digest or
/// nothing get no mail now.
pub async fn requests_moved(
    txn: &impl ConnectionTrait,
    actor: &CurrentUser,
    ids: &[i32],
    from: Option<Status>,
    to: Status,
    reason: Option<&str>,
) -> ApiResult<()> {
    let Some(happened) = Happened::of_move(from, to) else { return Ok(()) };
    tell(txn, actor, ids, happened, reason, &|_| true).await
}

/// Queues the mails of a step of request `id`'s approval taken by `actor`, the next one now
/// current: its approvers hear, in the transaction of the step.
pub async fn step_reached(
    txn: &impl ConnectionTrait,
    actor: &CurrentUser,
    id: i32,
    may_take: MayTake<'_>,
) -> ApiResult<()> {
    tell(txn, actor, &[id], Happened::StepApproved, None, may_take).await
}

async fn tell(
    txn: &impl ConnectionTrait,
    actor: &CurrentUser,
    ids: &[i32],
    happened: Happened,
    reason: Option<&str>,
    may_take: MayTake<'_>,
) -> ApiResult<()> {
    let mut requests = Vec::with_capacity(ids.len());
    for chunk in ids.chunks(CHUNK) {
        requests.extend(
            pr::Entity::find().filter(pr::Column::Id.is_in(chunk.to_vec())).all(txn).await?,
        );
    }
    let mut mails = Vec::new();
    let creators = match happened.audience() {
        Audience::Creator => {
            let ids: BTreeSet<i32> = requests.iter().filter_map(|r| r.created_by).collect();
            recipients::users(txn, &ids).await?
        }
        Audience::Approvers => HashMap::new(),
    };
    let payees = payees(txn, requests.iter().map(|r| r.participant_id).collect()).await?;
    let actor_name = format!("{} {}", actor.user.first_name, actor.user.last_name);
    for r in &requests {
        let people: Vec<Recipient> = match happened.audience() {
            Audience::Approvers => {
                let able: Vec<Recipient> = recipients::candidates(txn, r.mentor_program_id)
                    .await?
                    .into_iter()
                    .filter(|c| may_take(c))
                    .map(|c| Recipient::from(c.user))
                    .collect();
                recipients::with_stand_ins(txn, able).await?
            }
            Audience::Creator => {
                r.created_by.and_then(|c| creators.get(&c).cloned()).into_iter().collect()
            }
        };
        let told: Vec<_> = people
            .into_iter()
            .filter(|p| p.id != actor.id() && p.mode == NotificationMode::Instant)
            .collect();
        if told.is_empty() {
            continue;
        }
        let event = Event::RequestMoved {
            happened,
            request: facts(r, payees.get(&r.participant_id).cloned().unwrap_or_default()),
            actor: actor_name.clone(),
            reason: reason.map(str::to_owned),
        };
        for person in told {
            mails.push((person.email, event.clone()));
        }
    }
    outbox::enqueue_many(txn, &mails).await
}

/// Queues the daily digest of every user on `daily` who has not had today's, once the day's
/// digest hour has come (`now` in the office's time zone). Each user is marked served in the
/// transaction that queues their mail, by an update that only the first server to reach them
/// gets through: several servers, a restart or a second call the same day send nothing more.
/// Returns how many users were served (some get no mail: nothing waited for them).
pub async fn send_daily_digests(
    db: &DatabaseConnection,
    now: chrono::DateTime<chrono::Utc>,
) -> ApiResult<usize> {
    let Some(day) = digest::due_day_by(&store::general(db).await?, now) else { return Ok(0) };
    // A look first, without a lock: most of the day nobody is due.
    if digest::not_served(day).one(db).await?.is_none() {
        return Ok(0);
    }
    let txn = crate::db::write(db).await?;
    let mut served = Vec::new();
    for u in digest::not_served(day).all(&txn).await? {
        let claimed = user::Entity::update_many()
            .col_expr(user::Column::DigestSentOn, Expr::value(day))
            .filter(user::Column::Id.eq(u.id))
            .filter(digest::not_served_on(day))
            .exec(&txn)
            .await?;
        if claimed.rows_affected == 1 {
            served.push(u);
        }
    }
    outbox::enqueue_many(&txn, &digest::digests(&txn, &served).await?).await?;
    txn.commit().await?;
    Ok(served.len())
}
