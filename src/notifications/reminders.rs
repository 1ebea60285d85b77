//! When a waiting approval step reminds its approvers and when it is escalated to every
//! Administrator: pure rules over whole days in the office's time zone.

use chrono::{DateTime, NaiveDate, Utc};
use chrono_tz::Tz;

/// Whole days a step that became current at `began` has waited on the office's `today`.
pub fn days_waiting(began: DateTime<Utc>, zone: Tz, today: NaiveDate) -> i64 {
    (today - began.with_timezone(&zone).date_naive()).num_days()
}

/// The office's limits, in whole days (general settings).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub reminder_days: i64,
    pub escalation_days: i64,
}

impl Limits {
    pub fn of(settings: &crate::entities::general_setting::Model) -> Self {
        Limits {
            reminder_days: settings.reminder_days.into(),
            escalation_days: settings.escalation_days.into(),
        }
    }

    /// A step waiting longer than the reminder limit is overdue: its approvers hear of it
    /// again each day (by mail, or in their digest).
    pub fn overdue(self, days: i64) -> bool {
        days > self.reminder_days
    }

    /// The first day a step that began on `began` is past the escalation limit.
    pub fn escalation_day(self, began: NaiveDate) -> NaiveDate {
        began + chrono::Duration::days(self.escalation_days + 1)
    }
}

/// What a pass on `today` owes a waiting step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Owed {
    pub remind: bool,
    pub escalate: bool,
}

impl Owed {
    pub fn any(self) -> bool {
        self.remind || self.escalate
    }
}

/// A step that has waited `days` is reminded once a day while overdue (not again on a day it
/// was reminded, `reminded_on`), and escalated once past the escalation limit.
pub fn owed(
    limits: Limits,
    days: i64,
    today: NaiveDate,
    reminded_on: Option<NaiveDate>,
    escalated_on: Option<NaiveDate>,
) -> Owed {
    Owed {
        remind: limits.overdue(days) && reminded_on.is_none_or(|d| d < today),
        escalate: days > limits.escalation_days && escalated_on.is_none(),
    }
}

/// Whether a digest reader on the office's `today`, whose last digest was `last_digest`,
/// hears of the escalation of a step that began on `began`: once, in the first digest on or
/// after the escalation day.
pub fn escalated_since(
    limits: Limits,
    began: NaiveDate,
    last_digest: Option<NaiveDate>,
    today: NaiveDate,
) -> bool {
    let day = limits.escalation_day(began);
    day <= today && last_digest.is_none_or(|last| last < day)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn day(d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 3, d).unwrap()
    }

    const LIMITS: Limits = Limits { reminder_days: 3, escalation_days: 7 };

    #[test]
    fn whole_days_are_counted_on_the_offices_calendar() {
        let chicago: Tz = "America/Chicago".parse().unwrap();
        // 03:00 UTC on the 2nd is still the 1st in Chicago: two days by the 3rd.
        let began = Utc.with_ymd_and_hms(2026, 3, 2, 3, 0, 0).unwrap();
        assert_eq!(days_waiting(began, chicago, day(3)), 2);
        assert_eq!(days_waiting(began, Tz::UTC, day(3)), 1);
        assert_eq!(days_waiting(began, Tz::UTC, day(2)), 0);
    }

    #[test]
    fn what_a_pass_owes_a_step() {
        let none = Owed::default();
        let remind = Owed { remind: true, escalate: false };
        let both = Owed { remind: true, escalate: true };
        let escalate = Owed { remind: false, escalate: true };
        // (days waited, reminded on, escalated on) -> owed, on day 20
        let cases = [
            (0, None, None, none),
            (3, None, None, none), // not longer than 3 days yet
            (4, None, None, remind),
            (4, Some(day(20)), None, none),   // reminded today already
            (5, Some(day(19)), None, remind), // reminded yesterday: again today
            (7, Some(day(19)), None, remind),
            (8, Some(day(19)), None, both), // past 7 days: escalated too
            (8, Some(day(20)), None, escalate),
            (9, Some(day(19)), Some(day(19)), remind), // escalated once only
            (9, Some(day(20)), Some(day(19)), none),
        ];
        for (days, reminded, escalated, want) in cases {
            assert_eq!(
                owed(LIMITS, days, day(20), reminded, escalated),
                want,
                "{days} {reminded:?} {escalated:?}"
            );
        }
        assert!(!none.any() && remind.any() && escalate.any());
    }

    #[test]
    fn a_digest_carries_an_escalation_once_from_its_day_on() {
        // Began on the 1st, escalation limit 7 days: escalated from the 9th on.
        assert_eq!(LIMITS.escalation_day(day(1)), day(9));
        assert!(!escalated_since(LIMITS, day(1), Some(day(7)), day(8)));
        assert!(escalated_since(LIMITS, day(1), Some(day(8)), day(9)));
        // A reader who skipped days (a weekend without digests) still hears of it once.
        assert!(escalated_since(LIMITS, day(1), Some(day(6)), day(11)));
        assert!(!escalated_since(LIMITS, day(1), Some(day(9)), day(10)));
        assert!(escalated_since(LIMITS, day(1), None, day(12)));
    }
}
