//! Vendor payment rules, pure: the local-day range read as UTC instants, how an approval
//! code is printed, and whether the preview the user saw still holds. Who a row pays is
//! the request's own rule (payment_requests::payee).

use crate::{error::ApiError, money::Money};
use chrono::{DateTime, Duration, NaiveDate, NaiveTime, Utc};

/// `new Date().getTimezoneOffset()`, bounded as every report bounds it (docs/reports-api.md).
pub const OFFSET_RANGE: std::ops::RangeInclusive<i32> = -840..=840;

/// Inclusive local calendar days `start..=end` on the approval date, in a browser whose
/// offset is `minutes_offset` (UTC minus local, minutes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Range {
    pub start: NaiveDate,
    pub end: NaiveDate,
    pub minutes_offset: i32,
}

impl Range {
    /// Checks the parts, naming the field: an offset out of its documented range is a 400,
    /// an end before the start (one field against another, or against the fiscal year's
    /// bounds a missing date defaults to) a 422 (docs/api.md). Names are the query's
    /// (`StartDate`) or the body's (`startDate`), as the caller sent them.
    pub fn new(
        start: NaiveDate,
        end: NaiveDate,
        minutes_offset: i32,
        names: [&str; 3],
    ) -> Result<Range, ApiError> {
        if !OFFSET_RANGE.contains(&minutes_offset) {
            return Err(ApiError::bad_field(names[2], "must be between -840 and 840 minutes"));
        }
        if end < start {
            return Err(ApiError::rule(names[1], format!("must not be before {}", names[0])));
        }
        Ok(Range { start, end, minutes_offset })
    }

    /// The UTC instants `[from, until)` the local days cover.
    pub fn bounds(&self) -> (DateTime<Utc>, DateTime<Utc>) {
        let local_midnight = |d: NaiveDate| {
            d.and_time(NaiveTime::MIN).and_utc() + Duration::minutes(self.minutes_offset as i64)
        };
        let after_end = self.end.succ_opt().unwrap_or(self.end);
        (local_midnight(self.start), local_midnight(after_end))
    }
}

/// An approval code as every report prints it: "<code> <name>", or whichever it has.
pub fn approval_code_label(code: Option<&str>, name: Option<&str>) -> Option<String> {
    match (code.map(str::trim).filter(|c| !c.is_empty()), name) {
        (c, Some(n)) => Some(crate::text::coded(c, n)),
        (Some(c), None) => Some(c.to_owned()),
        (None, None) => None,
    }
}

/// What the user saw against what would be paid now: a difference is a 409 (nothing is
/// written); nothing to pay at all is a 422.
pub fn confirm(expected: (i64, Money), found: (i64, Money)) -> Result<(), ApiError> {
    if expected != found {
        return Err(ApiError::Conflict(format!(
            "The preview changed since you saw it: {} requests totalling ${} are ready now (you saw {} totalling ${}). Review it again.",
            found.0, found.1, expected.0, expected.1
        )));
    }
    if found.0 == 0 {
        return Err(ApiError::rule(
            "endDate",
            "No request is ready for processing in this range: there is nothing to pay.",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(s: &str) -> NaiveDate {
        s.parse().unwrap()
    }

    #[test]
    fn local_days_become_utc_instants() {
        let r = Range::new(
            day("2026-10-01"),
            day("2026-10-31"),
            480,
            ["StartDate", "EndDate", "MinutesOffset"],
        )
        .unwrap();
        let (from, until) = r.bounds();
        assert_eq!(from.to_rfc3339(), "2026-10-01T08:00:00+00:00");
        assert_eq!(until.to_rfc3339(), "2026-11-01T08:00:00+00:00");
        let utc = Range::new(day("2026-10-01"), day("2026-10-01"), 0, ["a", "b", "c"]).unwrap();
        assert_eq!(utc.bounds().1 - utc.bounds().0, Duration::days(1));
    }

    #[test]
    fn bad_ranges_name_the_field() {
        match Range::new(
            day("2026-10-02"),
            day("2026-10-01"),
            0,
            ["startDate", "endDate", "minutesOffset"],
        ) {
            Err(ApiError::Unprocessable { errors, .. }) => assert!(errors.contains_key("endDate")),
            other => panic!("{other:?}"),
        }
        match Range::new(
            day("2026-10-01"),
            day("2026-10-01"),
            2000,
            ["StartDate", "EndDate", "MinutesOffset"],
        ) {
            Err(ApiError::BadRequest { errors, .. }) => {
                assert!(errors.contains_key("MinutesOffset"))
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn approval_codes_join_code_and_name() {
        assert_eq!(
            approval_code_label(Some("ER-STD"), Some("Expense reimbursement")),
            Some("ER-STD Expense reimbursement".into())
        );
        assert_eq!(approval_code_label(Some(" "), Some("Standard")), Some("Standard".into()));
        assert_eq!(approval_code_label(None, None), None);
    }

    #[test]
    fn a_changed_preview_is_a_conflict_and_an_empty_one_unprocessable() {
        assert!(confirm((2, Money(300)), (2, Money(300))).is_ok());
        assert!(matches!(confirm((2, Money(300)), (3, Money(300))), Err(ApiError::Conflict(_))));
        assert!(matches!(confirm((2, Money(300)), (2, Money(301))), Err(ApiError::Conflict(_))));
        assert!(matches!(confirm((2, Money(300)), (0, Money(0))), Err(ApiError::Conflict(_))));
        assert!(matches!(
            confirm((0, Money(0)), (0, Money(0))),
            Err(ApiError::Unprocessable { .. })
        ));
    }
}
