//! The daily digest: when a day's digest is due (a pure rule over the clock and the office's
//! hour and time zone), and what waits for each user who chose one.

use std::collections::{BTreeSet, HashMap};

use chrono::{DateTime, NaiveDate, Timelike, Utc};
use chrono_tz::Tz;
use sea_orm::{ColumnTrait, Condition, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder};

use super::{
    events::{Event, Waiting},
    facts,
    recipients::{self, Candidate, Recipient, StandIns, StepRule},
    reminders::{self, Limits},
};
use crate::{
    entities::{
        codes::{NotificationMode, Status},
        general_setting, payment_request as pr, user,
    },
    error::ApiResult,
};

/// The local day whose digest is due at `now`: from the digest hour on, that day; before it,
/// none. A server that was down at the hour sends the day's digest when it comes back that
/// day; users already served that day are skipped by their `digest_sent_on`.
pub fn due_day(now: DateTime<Utc>, zone: Tz, hour: u32) -> Option<NaiveDate> {
    let local = now.with_timezone(&zone);
    (local.hour() >= hour).then(|| local.date_naive())
}

/// The day due under the saved settings; an unknown zone (only ever saved checked) reads as UTC.
pub fn due_day_by(settings: &general_setting::Model, now: DateTime<Utc>) -> Option<NaiveDate> {
    let zone = settings.time_zone.parse().unwrap_or(Tz::UTC);
    due_day(now, zone, settings.digest_hour.clamp(0, 23) as u32)
}

/// Active users on the daily digest who have not had `day`'s yet, by id.
pub fn not_served(day: NaiveDate) -> sea_orm::Select<user::Entity> {
    user::Entity::find()
        .filter(user::Column::IsActive.eq(true))
        .filter(not_served_on(day))
        .order_by_asc(user::Column::Id)
}

/// On the daily digest and not served `day` (nor a later day, as a changed time zone may make
/// it look).
pub fn not_served_on(day: NaiveDate) -> Condition {
    Condition::all().add(user::Column::NotificationMode.eq(NotificationMode::Daily)).add(
        Condition::any()
            .add(user::Column::DigestSentOn.is_null())
            .add(user::Column::DigestSentOn.lt(day)),
    )
}

/// The digests of `users` (as read before they were marked served, so each carries the day
/// of her last digest) for the office's `day`, read now: for each, the submitted requests
/// whose current step she may take (herself or for someone she stands in for, by `rule`),
/// those among them waiting too long, an Administrator's escalations since her last digest,
/// and her own requests sent back. Users for whom nothing waits get none.
pub async fn digests(
    db: &impl ConnectionTrait,
    users: &[user::Model],
    rule: StepRule,
    settings: &general_setting::Model,
    day: NaiveDate,
) -> ApiResult<Vec<(String, Event)>> {
    let wanted: BTreeSet<i32> = users.iter().map(|u| u.id).collect();
    let live = |status: Status| {
        pr::Entity::find()
            .filter(pr::Column::Status.eq(status))
            .filter(pr::Column::DeletedAt.is_null())
            .order_by_asc(pr::Column::Id)
    };
    let submitted = live(Status::Submitted).all(db).await?;
    let sent_back = live(Status::RevisionRequested)
        .filter(pr::Column::CreatedBy.is_in(wanted.iter().copied()))
        .all(db)
        .await?;
    let chains = facts::chains(db, &submitted.iter().map(|r| r.id).collect::<Vec<_>>()).await?;
    let stand_ins = StandIns::on(db, day).await?;
    let mut candidates: HashMap<i32, Vec<Candidate>> = HashMap::new();
    let payees =
        facts::payees(db, submitted.iter().chain(&sent_back).map(|r| r.participant_id).collect())
            .await?;
    let facts =
        |r: &pr::Model| facts::facts(r, payees.get(&r.participant_id).cloned().unwrap_or_default());
    let zone: Tz = settings.time_zone.parse().unwrap_or(Tz::UTC);
    let limits = Limits::of(settings);
    // Per request: who among `users` may take its current step, and how long it has waited.
    let mut takers: HashMap<i32, BTreeSet<i32>> = HashMap::new();
    let mut waited: HashMap<i32, (Waiting, NaiveDate)> = HashMap::new();
    for r in &submitted {
        let chain = chains.get(&r.id).map(Vec::as_slice).unwrap_or_default();
        if let std::collections::hash_map::Entry::Vacant(e) = candidates.entry(r.mentor_program_id)
        {
            e.insert(recipients::candidates(db, r.mentor_program_id).await?);
        }
        let able: Vec<Recipient> = candidates[&r.mentor_program_id]
            .iter()
            .filter(|c| rule(r, chain, c))
            .map(|c| Recipient::from(c.user.clone()))
            .collect();
        let ids = stand_ins.apply(able).into_iter().map(|p| p.id).filter(|id| wanted.contains(id));
        takers.insert(r.id, ids.collect());
        if let Some((step, began)) = facts::current(chain).and_then(|s| Some((s, s.began_at?))) {
            let days = reminders::days_waiting(began, zone, day);
            let began_day = began.with_timezone(&zone).date_naive();
            waited.insert(
                r.id,
                (Waiting { request: facts(r), step: step.name.clone(), days }, began_day),
            );
        }
    }
    let administrators: BTreeSet<i32> =
        recipients::administrators(db).await?.into_iter().map(|a| a.id).collect();
    let mut mails = Vec::new();
    for u in users {
        let mine_to_take: Vec<&pr::Model> = submitted
            .iter()
            .filter(|r| takers.get(&r.id).is_some_and(|t| t.contains(&u.id)))
            .collect();
        let overdue: Vec<Waiting> = mine_to_take
            .iter()
            .filter_map(|r| waited.get(&r.id))
            .filter(|(w, _)| limits.overdue(w.days))
            .map(|(w, _)| w.clone())
            .collect();
        let escalated: Vec<Waiting> = if administrators.contains(&u.id) {
            submitted
                .iter()
                .filter_map(|r| waited.get(&r.id))
                .filter(|(_, began)| {
                    reminders::escalated_since(limits, *began, u.digest_sent_on, day)
                })
                .map(|(w, _)| w.clone())
                .collect()
        } else {
            Vec::new()
        };
        let to_approve: Vec<_> = mine_to_take.into_iter().map(facts).collect();
        let mine: Vec<_> =
            sent_back.iter().filter(|r| r.created_by == Some(u.id)).map(facts).collect();
        if to_approve.is_empty() && mine.is_empty() && escalated.is_empty() {
            continue;
        }
        mails.push((
            u.email.clone(),
            Event::Digest { to_approve, sent_back: mine, overdue, escalated },
        ));
    }
    Ok(mails)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn at(y: i32, m: u32, d: u32, h: u32, min: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(y, m, d, h, min, 0).unwrap()
    }

    fn day(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap()
    }

    #[test]
    fn due_from_the_local_hour_on_that_local_day() {
        let chicago: Tz = "America/Chicago".parse().unwrap();
        // 13:59 UTC is 07:59 in Chicago in winter: not yet; 14:00 is 08:00: due.
        assert_eq!(due_day(at(2026, 1, 15, 13, 59), chicago, 8), None);
        assert_eq!(due_day(at(2026, 1, 15, 14, 0), chicago, 8), Some(day(2026, 1, 15)));
        // In summer (daylight time) the same local hour is an hour earlier in UTC.
        assert_eq!(due_day(at(2026, 7, 15, 13, 0), chicago, 8), Some(day(2026, 7, 15)));
        // 03:00 UTC on the 16th is still the 15th in Chicago.
        assert_eq!(due_day(at(2026, 1, 16, 3, 0), chicago, 8), Some(day(2026, 1, 15)));
        // Past local midnight a new day starts, not due before its hour.
        assert_eq!(due_day(at(2026, 1, 16, 6, 30), chicago, 8), None);
    }

    #[test]
    fn hour_zero_is_due_all_day_and_hour_23_only_in_the_last_hour() {
        assert_eq!(due_day(at(2026, 3, 1, 0, 0), Tz::UTC, 0), Some(day(2026, 3, 1)));
        assert_eq!(due_day(at(2026, 3, 1, 22, 59), Tz::UTC, 23), None);
        assert_eq!(due_day(at(2026, 3, 1, 23, 0), Tz::UTC, 23), Some(day(2026, 3, 1)));
    }

    #[test]
    fn a_spring_forward_gap_at_the_digest_hour_still_gives_that_days_digest() {
        // 2026-03-08: Chicago skips 02:00-03:00; at 03:00 local (08:00 UTC) hour 2 has passed.
        let chicago: Tz = "America/Chicago".parse().unwrap();
        assert_eq!(due_day(at(2026, 3, 8, 7, 59), chicago, 2), None);
        assert_eq!(due_day(at(2026, 3, 8, 8, 0), chicago, 2), Some(day(2026, 3, 8)));
    }
}
