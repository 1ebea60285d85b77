//! The server's clock: every "now" and "today" the product reads comes from here.
//!
//! Tests need the calendar to be a fact they state (a leap day, a fiscal year's last day, a
//! submission window's edge) and not the day the suite happens to run. `MENTORPAY_CLOCK`
//! (an RFC 3339 instant, or a date meaning 12:00 UTC that day) starts this clock at that
//! instant, and it runs on from there. Only debug builds, the ones `cargo test` and the
//! browser tests run, honour it; a release build refuses to start while it is set
//! (`refuse_in_release`), so a production server always runs on the real time.

use std::sync::OnceLock;

use chrono::{DateTime, Duration, NaiveDate, NaiveTime, Utc};

pub const VARIABLE: &str = "MENTORPAY_CLOCK";

/// The current instant on the server's clock.
pub fn now() -> DateTime<Utc> {
    Utc::now() + offset()
}

/// Today's date (UTC) on the server's clock.
pub fn today() -> NaiveDate {
    now().date_naive()
}

/// Today's date in the time zone `zone` (an IANA name; an unknown one reads as UTC, and
/// only checked names are ever saved).
pub fn today_in(zone: &str) -> NaiveDate {
    let zone: chrono_tz::Tz = zone.parse().unwrap_or(chrono_tz::Tz::UTC);
    now().with_timezone(&zone).date_naive()
}

/// Whether the clock was set through `MENTORPAY_CLOCK`.
pub fn is_set() -> bool {
    offset() != Duration::zero()
}

fn offset() -> Duration {
    static OFFSET: OnceLock<Duration> = OnceLock::new();
    *OFFSET.get_or_init(|| {
        if !cfg!(debug_assertions) {
            return Duration::zero();
        }
        match std::env::var(VARIABLE) {
            Ok(text) => match parse(&text) {
                Some(start) => start - Utc::now(),
                None => panic!("{VARIABLE}={text:?} is neither an RFC 3339 instant nor a date"),
            },
            Err(_) => Duration::zero(),
        }
    })
}

/// `2028-02-29T08:30:00Z` as it says; `2028-02-29` as 12:00 UTC that day.
pub fn parse(text: &str) -> Option<DateTime<Utc>> {
    let text = text.trim();
    if let Ok(instant) = DateTime::parse_from_rfc3339(text) {
        return Some(instant.with_timezone(&Utc));
    }
    let day = NaiveDate::parse_from_str(text, "%Y-%m-%d").ok()?;
    Some(day.and_time(NaiveTime::from_hms_opt(12, 0, 0)?).and_utc())
}

/// A release build never runs on a shifted clock: it stops at start rather than ignore the
/// variable silently, so an operator who copied a test's environment learns at once.
pub fn refuse_in_release() -> anyhow::Result<()> {
    if !cfg!(debug_assertions) && std::env::var_os(VARIABLE).is_some() {
        anyhow::bail!(
            "{VARIABLE} is set: it moves the clock of test builds only; unset it to start this release build"
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_date_means_noon_utc_and_an_instant_is_kept() {
        assert_eq!(parse("2028-02-29").unwrap().to_rfc3339(), "2028-02-29T12:00:00+00:00");
        assert_eq!(
            parse("2031-03-15T23:30:00-08:00").unwrap().to_rfc3339(),
            "2031-03-16T07:30:00+00:00"
        );
        assert_eq!(parse("2027-02-29"), None);
        assert_eq!(parse("next tuesday"), None);
    }
}
