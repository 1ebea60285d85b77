//! Where the demo and the seeds sit in time: relative to the day they are made (the server's
//! clock), so a demo made in any year shows that year's work. The demo office's fiscal years
//! run from 1 July to 30 June.

use chrono::{DateTime, Datelike, Duration, Months, NaiveDate, Utc};

/// The first day of the fiscal year that holds `day`.
pub fn fiscal_year_start(day: NaiveDate) -> NaiveDate {
    let year = if day.month() >= 7 { day.year() } else { day.year() - 1 };
    NaiveDate::from_ymd_opt(year, 7, 1).expect("1 July exists")
}

/// The previous and the current fiscal year of `today`: (name, first day, last day).
pub fn two_years(today: NaiveDate) -> [(String, NaiveDate, NaiveDate); 2] {
    let current = fiscal_year_start(today);
    [prior(current), current].map(|start| {
        let end = start.checked_add_months(Months::new(12)).expect("in range") - Duration::days(1);
        (format!("FY {}-{:02}", start.year(), (start.year() + 1) % 100), start, end)
    })
}

fn prior(start: NaiveDate) -> NaiveDate {
    start.checked_sub_months(Months::new(12)).expect("in range")
}

/// The seeds' "now": noon a month before `today`, so the newest seeded work is a few weeks
/// old, as in an office that has been working all along.
pub fn seeded_until(today: NaiveDate) -> DateTime<Utc> {
    (today - Duration::days(30)).and_hms_opt(12, 0, 0).expect("valid time").and_utc()
}

/// The first day seeded work may fall on: the previous fiscal year's first day.
pub fn seeded_from(today: NaiveDate) -> NaiveDate {
    prior(fiscal_year_start(today))
}

/// The demo office pays monthly, two months behind: the last day of the month three
/// months before `today`'s (30 September on any day of December).
pub fn paid_until(today: NaiveDate) -> NaiveDate {
    let first = today.with_day(1).expect("day 1 exists");
    first.checked_sub_months(Months::new(2)).expect("in range") - Duration::days(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap()
    }

    #[test]
    fn years_follow_the_day() {
        let [prev, now] = two_years(day(2026, 12, 1));
        assert_eq!(prev, ("FY 2025-26".into(), day(2025, 7, 1), day(2026, 6, 30)));
        assert_eq!(now, ("FY 2026-27".into(), day(2026, 7, 1), day(2027, 6, 30)));
        assert_eq!(two_years(day(2027, 6, 30))[1].0, "FY 2026-27");
        assert_eq!(two_years(day(2027, 7, 1))[1].0, "FY 2027-28");
        assert_eq!(two_years(day(2099, 8, 1))[1].0, "FY 2099-00");
        assert_eq!(two_years(day(2028, 2, 29))[0].1, day(2026, 7, 1));
    }

    #[test]
    fn the_seeds_and_the_payments_sit_behind_the_day() {
        assert_eq!(seeded_until(day(2026, 12, 1)).to_rfc3339(), "2026-11-01T12:00:00+00:00");
        assert_eq!(seeded_from(day(2026, 12, 1)), day(2025, 7, 1));
        assert_eq!(paid_until(day(2026, 12, 1)), day(2026, 9, 30));
        assert_eq!(paid_until(day(2026, 12, 31)), day(2026, 9, 30));
        assert_eq!(paid_until(day(2028, 2, 29)), day(2027, 11, 30));
    }
}
