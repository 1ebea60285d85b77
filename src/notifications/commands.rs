//! The actions of this area, each owning its transaction, and the one call other areas' commands
//! make inside theirs when a request moves.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use chrono::NaiveDate;

use sea_orm::{
    sea_query::Expr, ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, QueryFilter,
};
use serde_json::json;

use super::{
    digest,
    events::{Audience, Event, Happened, Waiting},
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

/// Waiting steps a pass reads at a time, by id: a long backlog is worked through in pages,
/// each its own short transaction, so neither memory nor the write lock is held for all of it.
const PASS_PAGE: u64 = 5_000;

/// The pause after a page that queued anything: writers waiting on the lock (a sign-in, a save)
/// take it in between. SQLite's busy handler retries a waiting writer every 100 ms at most.
const BETWEEN_PAGES: std::time::Duration = std::time::Duration::from_millis(150);

/// One pass of reminders at `now`: every current step of a submitted request waiting longer
/// than the office's `reminderDays` reminds whoever may take it (by `rule`, through stand-ins)
/// once that day, and one waiting longer than `escalationDays` is escalated to every
/// Administrator once. A person hears of all her steps of a page in one mail (a page holds
/// an ordinary office's whole backlog). Each step's day is claimed in the transaction that
/// queues its mails and notes it on the request, under the write lock, so two passes the same
/// day (two servers, a cron run beside the server, a restart) send nothing twice.
pub async fn send_reminders(
    db: &DatabaseConnection,
    now: chrono::DateTime<chrono::Utc>,
    rule: StepRule,
) -> ApiResult<Reminded> {
    use crate::entities::request_step as step;
    use sea_orm::{QueryOrder, QuerySelect, QueryTrait};
    let settings = store::general(db).await?;
    let zone: chrono_tz::Tz = settings.time_zone.parse().unwrap_or(chrono_tz::Tz::UTC);
    let pass = Pass {
        today: now.with_timezone(&zone).date_naive(),
        zone,
        limits: Limits::of(&settings),
        rule,
    };
    let mut people: Option<People> = None;
    let mut done = Reminded::default();
    let mut after = 0;
    loop {
        let submitted = pr::Entity::find()
            .select_only()
            .column(pr::Column::Id)
            .filter(pr::Column::Status.eq(Status::Submitted))
            .filter(pr::Column::DeletedAt.is_null())
            .into_query();
        // A look without the lock: most pages owe nothing.
        let page: Vec<Due> = step::Entity::find()
            .select_only()
            .columns([
                step::Column::Id,
                step::Column::BeganAt,
                step::Column::RemindedOn,
                step::Column::EscalatedOn,
            ])
            .filter(step::Column::State.eq(facts::CURRENT))
            .filter(step::Column::Id.gt(after))
            .filter(step::Column::PaymentRequestId.in_subquery(submitted))
            .order_by_asc(step::Column::Id)
            .limit(PASS_PAGE)
            .into_tuple()
            .all(db)
            .await?;
        let Some(&(last, ..)) = page.last() else { break };
        after = last;
        let owed: Vec<i32> =
            page.iter().filter(|d| pass.owed(d).any()).map(|&(id, ..)| id).collect();
        if !owed.is_empty() {
            let people = match &mut people {
                Some(p) => p,
                None => people.insert(People::on(db, pass.today).await?),
            };
            let page_done = remind_page(db, &pass, people, &owed).await?;
            done.reminded += page_done.reminded;
            done.escalated += page_done.escalated;
            done.mails += page_done.mails;
            if page.len() as u64 == PASS_PAGE {
                tokio::time::sleep(BETWEEN_PAGES).await;
            }
        }
        if (page.len() as u64) < PASS_PAGE {
            break;
        }
    }
    Ok(done)
}

/// A waiting step as a pass first reads it: id, began, reminded on, escalated on.
type Due = (i32, Option<chrono::DateTime<chrono::Utc>>, Option<NaiveDate>, Option<NaiveDate>);

/// What a pass knows of its day.
struct Pass {
    today: NaiveDate,
    zone: chrono_tz::Tz,
    limits: Limits,
    rule: StepRule,
}

impl Pass {
    fn owed(&self, &(_, began, reminded_on, escalated_on): &Due) -> reminders::Owed {
        let Some(began) = began else { return reminders::Owed::default() };
        let days = reminders::days_waiting(began, self.zone, self.today);
        reminders::owed(self.limits, days, self.today, reminded_on, escalated_on)
    }
}

/// Who may hear, read once a pass: stand-ins of the day, the Administrators, and the approvers
/// of each program as the pass meets it.
struct People {
    stand_ins: StandIns,
    administrators: Vec<Recipient>,
    candidates: HashMap<i32, Vec<Candidate>>,
}

impl People {
    async fn on(db: &DatabaseConnection, today: NaiveDate) -> ApiResult<Self> {
        Ok(People {
            stand_ins: StandIns::on(db, today).await?,
            administrators: recipients::administrators(db).await?,
            candidates: HashMap::new(),
        })
    }
}

/// Claims, notes and mails the steps `ids` (found owing) in one transaction: the steps read
/// again under the lock, so a step another pass claimed meanwhile is left alone.
async fn remind_page(
    db: &DatabaseConnection,
    pass: &Pass,
    people: &mut People,
    ids: &[i32],
) -> ApiResult<Reminded> {
    use crate::entities::request_step as step;
    let today = pass.today;
    let txn = crate::db::write(db).await?;
    let mut steps = Vec::new();
    for chunk in ids.chunks(CHUNK) {
        steps.extend(
            step::Entity::find()
                .filter(step::Column::Id.is_in(chunk.to_vec()))
                .filter(step::Column::State.eq(facts::CURRENT))
                .all(&txn)
                .await?,
        );
    }
    let mut requests: HashMap<i32, pr::Model> = HashMap::new();
    let request_ids: Vec<i32> = steps.iter().map(|s| s.payment_request_id).collect();
    for chunk in request_ids.chunks(CHUNK) {
        for r in pr::Entity::find()
            .filter(pr::Column::Id.is_in(chunk.to_vec()))
            .filter(pr::Column::Status.eq(Status::Submitted))
            .filter(pr::Column::DeletedAt.is_null())
            .all(&txn)
            .await?
        {
            requests.insert(r.id, r);
        }
    }
    let owed: Vec<(step::Model, reminders::Owed)> = steps
        .into_iter()
        .filter(|s| requests.contains_key(&s.payment_request_id))
        .map(|s| {
            let owed = pass.owed(&(s.id, s.began_at, s.reminded_on, s.escalated_on));
            (s, owed)
        })
        .filter(|(_, owed)| owed.any())
        .collect();
    let claim = |column: step::Column, which: fn(&reminders::Owed) -> bool| {
        let ids: Vec<i32> = owed.iter().filter(|(_, o)| which(o)).map(|(s, _)| s.id).collect();
        let txn = &txn;
        async move {
            for chunk in ids.chunks(CHUNK) {
                step::Entity::update_many()
                    .col_expr(column, Expr::value(today))
                    .filter(step::Column::Id.is_in(chunk.to_vec()))
                    .exec(txn)
                    .await?;
            }
            Ok::<_, sea_orm::DbErr>(())
        }
    };
    claim(step::Column::RemindedOn, |o| o.remind).await?;
    claim(step::Column::EscalatedOn, |o| o.escalate).await?;

    let chains = facts::chains(&txn, &request_ids).await?;
    let payees = payees(&txn, requests.values().map(|r| r.participant_id).collect()).await?;
    let mut reminded: BTreeMap<String, Vec<Waiting>> = BTreeMap::new();
    let mut escalated: BTreeMap<String, Vec<Waiting>> = BTreeMap::new();
    let mut entries = Vec::new();
    let mut done = Reminded::default();
    let instant = |people: Vec<Recipient>| -> Vec<String> {
        people
            .into_iter()
            .filter(|p| p.mode == NotificationMode::Instant)
            .map(|p| p.email)
            .collect()
    };
    for (s, owed) in &owed {
        let r = &requests[&s.payment_request_id];
        let days = reminders::days_waiting(s.began_at.unwrap_or_default(), pass.zone, today);
        let waiting = Waiting {
            request: facts(r, payees.get(&r.participant_id).cloned().unwrap_or_default()),
            step: s.name.clone(),
            days,
        };
        // In words as the audit trail shows them: "Step: 2. Finance (Finance officer)".
        let step = format!("{}. {} ({})", s.step_index + 1, s.name, s.role);
        let noted =
            |mailed: usize| json!({"step": step, "daysWaiting": days, "peopleMailed": mailed});
        if owed.remind {
            let candidates = match people.candidates.entry(r.mentor_program_id) {
                std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(recipients::candidates(&txn, r.mentor_program_id).await?)
                }
            };
            let chain = chains.get(&r.id).map(Vec::as_slice).unwrap_or_default();
            let able: Vec<Recipient> = candidates
                .iter()
                .filter(|c| (pass.rule)(r, chain, c))
                .map(|c| Recipient::from(c.user.clone()))
                .collect();
            let told = instant(people.stand_ins.apply(able));
            for to in &told {
                reminded.entry(to.clone()).or_default().push(waiting.clone());
            }
            entries.push((r.id, "approval-reminded", noted(told.len())));
            done.reminded += 1;
        }
        if owed.escalate {
            let told = instant(people.administrators.clone());
            for to in &told {
                escalated.entry(to.clone()).or_default().push(waiting.clone());
            }
            entries.push((r.id, "approval-escalated", noted(told.len())));
            done.escalated += 1;
        }
    }
    let entries = entries
        .into_iter()
        .map(|(id, action, data)| activity::Entry {
            entity_type: pr::ENTITY_TYPE,
            entity_id: id,
            action,
            data: Some(data),
            ..Default::default()
        })
        .collect();
    activity::record_many(&txn, &crate::audit::Actor::system(), entries, crate::clock::now())
        .await?;
    let mails: Vec<(String, Event)> = reminded
        .into_iter()
        .map(|(to, list)| (to, Event::steps_waiting(list, false)))
        .chain(escalated.into_iter().map(|(to, list)| (to, Event::steps_waiting(list, true))))
        .collect();
    done.mails = mails.len();
    outbox::enqueue_many(&txn, &mails).await?;
    txn.commit().await?;
    Ok(done)
}
