//! The actions of this area, each owning its transaction, and the one call other areas' commands
//! make inside theirs when a request moves.

use std::collections::{BTreeSet, HashMap};

use sea_orm::{
    sea_query::Expr, ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, QueryFilter,
};
use serde_json::json;

use super::{
    events::{Audience, Event, Happened, RequestFacts},
    outbox,
    recipients::{self, Recipient},
};
use crate::{
    activity,
    auth::CurrentUser,
    entities::{
        codes::{NotificationMode, Status},
        participant, payment_request as pr, user,
    },
    error::ApiResult,
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
    activity::note(
        &txn,
        "user",
        me.id(),
        "notification-mode-changed",
        me.id(),
        json!({"before": me.user.notification_mode, "after": mode}),
    )
    .await?;
    txn.commit().await?;
    Ok(mode)
}

/// Queues the mails a move of request `id` from `from` to `to` by `actor` causes, in the
/// transaction `txn` of that move (after its update, so the request reads as moved).
pub async fn request_moved(
    txn: &impl ConnectionTrait,
    actor: &CurrentUser,
    id: i32,
    from: Option<Status>,
    to: Status,
    reason: Option<&str>,
) -> ApiResult<()> {
    requests_moved(txn, actor, &[id], from, to, reason).await
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
    let mut requests = Vec::with_capacity(ids.len());
    for chunk in ids.chunks(CHUNK) {
        requests.extend(
            pr::Entity::find().filter(pr::Column::Id.is_in(chunk.to_vec())).all(txn).await?,
        );
    }
    let mut mails = Vec::new();
    let mut approvers: HashMap<i32, Vec<Recipient>> = HashMap::new();
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
            Audience::Approvers => match approvers.get(&r.mentor_program_id) {
                Some(p) => p.clone(),
                None => {
                    let p = recipients::approvers(txn, r.mentor_program_id).await?;
                    approvers.insert(r.mentor_program_id, p.clone());
                    p
                }
            },
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

/// Rows read per statement (bound parameters stay well under SQLite's limit).
const CHUNK: usize = 500;

/// The request as a mail names it: form, payee, and the approved amount once there is one.
pub fn facts(r: &pr::Model, payee: String) -> RequestFacts {
    RequestFacts {
        id: r.id,
        form: r.form_type,
        payee,
        amount_cents: r.approved_cents.unwrap_or(r.requested_cents),
    }
}

/// Payees' names by participant id.
pub async fn payees(
    db: &impl ConnectionTrait,
    ids: BTreeSet<i32>,
) -> ApiResult<HashMap<i32, String>> {
    let ids: Vec<i32> = ids.into_iter().collect();
    let mut names = HashMap::new();
    for chunk in ids.chunks(CHUNK) {
        for p in participant::Entity::find()
            .filter(participant::Column::Id.is_in(chunk.to_vec()))
            .all(db)
            .await?
        {
            names.insert(p.id, format!("{} {}", p.first_name, p.last_name));
        }
    }
    Ok(names)
}
