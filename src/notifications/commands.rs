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
    facts::{self, facts, payees, CHUNK},
    outbox,
    recipients::{self, Candidate, Recipient, StandIns, StepRule},
    reminders::{self, Limits},
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
    let stand_ins = match happened.audience() {
        Audience::Approvers => {
            Some(StandIns::on(txn, crate::auth::stand_in::office_today(txn).await?).await?)
        }
        Audience::Creator => None,
    };
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
                match &stand_ins {
                    Some(s) => s.apply(able),
                    None => able,
                }
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
    rule: StepRule,
) -> ApiResult<usize> {
    let settings = store::general(db).await?;
    let Some(day) = digest::due_day_by(&settings, now) else { return Ok(0) };
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
    outbox::enqueue_many(&txn, &digest::digests(&txn, &served, rule, &settings, day).await?)
        .await?;
    txn.commit().await?;
    Ok(served.len())
}

/// What one reminder pass did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Reminded {
    /// Steps whose approvers were reminded.
    pub reminded: usize,
    /// Steps escalated to the Administrators.
    pub escalated: usize,
    /// Mails queued (digest readers hear in their digest, others not at all).
    pub mails: usize,
}

/// One pass of reminders at `now`: every current step of a submitted request waiting longer
/// than the office's `reminderDays` reminds whoever may take it (by `rule`, through stand-ins)
/// once that day, and one waiting longer than `escalationDays` is escalated to every
/// Administrator once. Each step's day is claimed by a conditional update in the
/// transaction that queues its mails and notes it on the request, so two passes the same day
/// (two servers, a cron run beside the server, a restart) send nothing twice.
pub async fn send_reminders(
    db: &DatabaseConnection,
    now: chrono::DateTime<chrono::Utc>,
    rule: StepRule,
) -> ApiResult<Reminded> {
    use crate::entities::request_step as step;
    use sea_orm::{QuerySelect, QueryTrait};
    let settings = store::general(db).await?;
    let zone: chrono_tz::Tz = settings.time_zone.parse().unwrap_or(chrono_tz::Tz::UTC);
    let today = now.with_timezone(&zone).date_naive();
    let limits = Limits::of(&settings);
    let submitted = pr::Entity::find()
        .select_only()
        .column(pr::Column::Id)
        .filter(pr::Column::Status.eq(Status::Submitted))
        .filter(pr::Column::DeletedAt.is_null())
        .into_query();
    let owed: Vec<(step::Model, reminders::Owed)> = step::Entity::find()
        .filter(step::Column::State.eq(facts::CURRENT))
        .filter(step::Column::PaymentRequestId.in_subquery(submitted))
        .all(db)
        .await?
        .into_iter()
        .filter_map(|s| {
            let days = reminders::days_waiting(s.began_at?, zone, today);
            let owed = reminders::owed(limits, days, today, s.reminded_on, s.escalated_on);
            owed.any().then_some((s, owed))
        })
        .collect();
    let mut done = Reminded::default();
    if owed.is_empty() {
        return Ok(done);
    }
    let stand_ins = StandIns::on(db, today).await?;
    let administrators = recipients::administrators(db).await?;
    for (s, owed) in owed {
        let txn = crate::db::write(db).await?;
        let claim = |column: step::Column, unclaimed: sea_orm::Condition| {
            step::Entity::update_many()
                .col_expr(column, Expr::value(today))
                .filter(step::Column::Id.eq(s.id))
                .filter(step::Column::State.eq(facts::CURRENT))
                .filter(unclaimed)
        };
        let remind = owed.remind
            && claim(
                step::Column::RemindedOn,
                sea_orm::Condition::any()
                    .add(step::Column::RemindedOn.is_null())
                    .add(step::Column::RemindedOn.lt(today)),
            )
            .exec(&txn)
            .await?
            .rows_affected
                == 1;
        let escalate = owed.escalate
            && claim(
                step::Column::EscalatedOn,
                sea_orm::Condition::all().add(step::Column::EscalatedOn.is_null()),
            )
            .exec(&txn)
            .await?
            .rows_affected
                == 1;
        let Some(r) = pr::Entity::find_by_id(s.payment_request_id).one(&txn).await? else {
            continue;
        };
        if !(remind || escalate) || r.status != Status::Submitted || r.deleted_at.is_some() {
            continue;
        }
        let chain = facts::chains(&txn, &[r.id]).await?.remove(&r.id).unwrap_or_default();
        let payee = payees(&txn, BTreeSet::from([r.participant_id])).await?;
        let days = reminders::days_waiting(s.began_at.unwrap_or(now), zone, today);
        let waiting = super::events::Waiting {
            request: facts(&r, payee.get(&r.participant_id).cloned().unwrap_or_default()),
            step: s.name.clone(),
            days,
        };
        let mut mails = Vec::new();
        let instant = |people: Vec<Recipient>| {
            people.into_iter().filter(|p| p.mode == NotificationMode::Instant).map(|p| p.email)
        };
        let system = crate::audit::Actor::system();
        let step_data =
            json!({"index": s.step_index, "name": s.name, "role": s.role, "days": days});
        if remind {
            let able: Vec<Recipient> = recipients::candidates(&txn, r.mentor_program_id)
                .await?
                .into_iter()
                .filter(|c| rule(&r, &chain, c))
                .map(|c| Recipient::from(c.user))
                .collect();
            let told: Vec<String> = instant(stand_ins.apply(able)).collect();
            let event = Event::StepWaiting { waiting: waiting.clone(), escalation: false };
            mails.extend(told.iter().map(|to| (to.clone(), event.clone())));
            let data = json!({"step": step_data, "mailed": told.len()});
            activity::note(&txn, pr::ENTITY_TYPE, r.id, "approval-reminded", &system, data).await?;
            done.reminded += 1;
        }
        if escalate {
            let told: Vec<String> = instant(administrators.clone()).collect();
            let event = Event::StepWaiting { waiting, escalation: true };
            mails.extend(told.iter().map(|to| (to.clone(), event.clone())));
            let data = json!({"step": step_data, "mailed": told.len()});
            activity::note(&txn, pr::ENTITY_TYPE, r.id, "approval-escalated", &system, data)
                .await?;
            done.escalated += 1;
        }
        done.mails += mails.len();
        outbox::enqueue_many(&txn, &mails).await?;
        txn.commit().await?;
    }
    Ok(done)
}
