//! The daily digest: when a day's digest is due (a pure rule over the clock and the office's
//! hour and time zone), and what waits for each user who chose one.

use std::collections::{BTreeSet, HashMap};

use chrono::{DateTime, NaiveDate, Timelike, Utc};
use chrono_tz::Tz;
use sea_orm::{ColumnTrait, Condition, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder};

use super::{events::Event, facts, recipients};
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

/// The digests of `users`, read now: for each, the submitted requests of the programs they
/// approve in and their own requests sent back. Users for whom nothing waits get none.
pub async fn digests(
    db: &impl ConnectionTrait,
    users: &[user::Model],
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
    let programs: BTreeSet<i32> = submitted.iter().map(|r| r.mentor_program_id).collect();
    let mut approves_in: HashMap<i32, BTreeSet<i32>> = HashMap::new();
    for program in programs {
        for person in recipients::approvers(db, program).await? {
            if wanted.contains(&person.id) {
                approves_in.entry(person.id).or_default().insert(program);
            }
        }
    }
    let payees =
        facts::payees(db, submitted.iter().chain(&sent_back).map(|r| r.participant_id).collect())
            .await?;
    let facts =
        |r: &pr::Model| facts::facts(r, payees.get(&r.participant_id).cloned().unwrap_or_default());
    let mut mails = Vec::new();
    for u in users {
        let programs = approves_in.get(&u.id);
        let to_approve: Vec<_> = submitted
            .iter()
            .filter(|r| programs.is_some_and(|p| p.contains(&r.mentor_program_id)))
            .map(facts)
            .collect();
        let mine: Vec<_> =
            sent_back.iter().filter(|r| r.created_by == Some(u.id)).map(facts).collect();
        if to_approve.is_empty() && mine.is_empty() {
            continue;
        }
        mails.push((u.email.clone(), Event::Digest { to_approve, sent_back: mine }));
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
