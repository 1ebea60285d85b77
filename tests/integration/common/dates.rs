//! The tests' calendar: every date a test writes is built from today on the server's clock
//! (`mentorpay::clock`, the same one the in-process server reads, so `MENTORPAY_CLOCK` moves
//! both), never from a literal that ages as the real calendar moves on.
#![allow(dead_code)]

use chrono::{Datelike, Duration, Months, NaiveDate};

/// Today on the server's clock.
pub fn today() -> NaiveDate {
    mentorpay::clock::today()
}

/// `n` days from today (negative: before).
pub fn days(n: i64) -> NaiveDate {
    today() + Duration::days(n)
}

/// A July-to-June fiscal year, as the office's usually run.
#[derive(Clone, Debug)]
pub struct Year {
    /// "FY 2026-27".
    pub name: String,
    pub start: NaiveDate,
    pub end: NaiveDate,
}

impl Year {
    /// The year `offset` years from the one holding today (0: this one, -1: the last one).
    pub fn at(offset: i32) -> Year {
        let today = today();
        let first = if today.month() >= 7 { today.year() } else { today.year() - 1 } + offset;
        let start = NaiveDate::from_ymd_opt(first, 7, 1).unwrap();
        let end = start.checked_add_months(Months::new(12)).unwrap() - Duration::days(1);
        Year { name: format!("FY {}-{:02}", first, (first + 1) % 100), start, end }
    }

    pub fn this() -> Year {
        Year::at(0)
    }

    /// The `n`th day of the year (0: its first).
    pub fn day(&self, n: i64) -> NaiveDate {
        self.start + Duration::days(n)
    }

    /// The body of `POST /system-settings/fiscal-years` for this year.
    pub fn body(&self) -> serde_json::Value {
        serde_json::json!({"name": self.name, "startDate": self.start, "endDate": self.end})
    }
}

/// A day of recent work: inside this fiscal year, not after today, and at most ten days
/// back, so no submission window has closed on it and no date lies in the future.
pub fn recent() -> NaiveDate {
    days(-10).max(Year::this().start)
}

/// `recent()` moved by `n` days, as text (`2026-11-21`), for request details.
pub fn recent_plus(n: i64) -> String {
    (recent() + Duration::days(n)).to_string()
}

/// The fiscal year the tests' template calendar calls "this year".
const TEMPLATE_YEAR: i32 = 2026;

/// A day of the tests' template calendar, in which this fiscal year is FY 2026-27, moved by
/// whole years to the fiscal year that holds today: `shifted("2026-10-01")` is 1 October of this
/// fiscal year, `shifted("2025-07-01")` the first day of the last one. Relations between a test's
/// days (order, gaps, fiscal-year edges) stay as written; their distance to today does not,
/// so a test that needs "recent" or "N days ago" says so with `recent` or `days`.
pub fn shifted(template: &str) -> String {
    shifted_day(template).to_string()
}

pub fn shifted_day(template: &str) -> NaiveDate {
    let day = NaiveDate::parse_from_str(template, "%Y-%m-%d").expect("a template date");
    let years = Year::this().start.year() - TEMPLATE_YEAR;
    let months = Months::new(12 * years.unsigned_abs());
    if years >= 0 { day.checked_add_months(months) } else { day.checked_sub_months(months) }
        .expect("in range")
}

/// A fiscal year's name of the template calendar ("FY 2026-27", "fy 2025-26", "2026-27")
/// moved like `shifted`: the name of the year holding today for "FY 2026-27".
pub fn shifted_fy(template: &str) -> String {
    let years = Year::this().start.year() - TEMPLATE_YEAR;
    let at = template.find(|c: char| c.is_ascii_digit()).expect("a year in the name");
    let first: i32 = template[at..at + 4].parse().expect("a four-digit year");
    let (prefix, rest) = (&template[..at], &template[at + 7..]);
    let first = first + years;
    format!("{prefix}{first}-{:02}{rest}", (first + 1) % 100)
}

/// The environment that gives a server process started now the clock of this one: empty on
/// the real time; after `env_clear()`, every spawned binary gets it.
pub fn clock_env() -> Vec<(&'static str, String)> {
    if mentorpay::clock::is_set() {
        vec![(mentorpay::clock::VARIABLE, mentorpay::clock::now().to_rfc3339())]
    } else {
        Vec::new()
    }
}
