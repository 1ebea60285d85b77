//! The office's way of writing a day in the files it hands in (the participant import): one of
//! a small closed set, kept in the general settings. ISO `YYYY-MM-DD` is read whatever the
//! setting, since spreadsheets and exports write it, and it cannot be read two ways.

use chrono::NaiveDate;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DateFormat {
    /// `MM/DD/YYYY`, as offices in the United States write it.
    #[default]
    MonthDayYear,
    /// `DD/MM/YYYY`.
    DayMonthYear,
    /// `YYYY-MM-DD` only.
    YearMonthDay,
}

impl DateFormat {
    pub const ALL: [DateFormat; 3] =
        [DateFormat::MonthDayYear, DateFormat::DayMonthYear, DateFormat::YearMonthDay];

    /// The stored and wire value, which is also how the format reads to a person.
    pub const fn code(self) -> &'static str {
        match self {
            DateFormat::MonthDayYear => "MM/DD/YYYY",
            DateFormat::DayMonthYear => "DD/MM/YYYY",
            DateFormat::YearMonthDay => "YYYY-MM-DD",
        }
    }

    /// Any case, trimmed; None for a format the office cannot choose.
    pub fn parse(raw: &str) -> Option<DateFormat> {
        Self::ALL.into_iter().find(|f| f.code().eq_ignore_ascii_case(raw.trim()))
    }

    /// The stored value; a value written by hand that is none of the set reads as the default.
    pub fn stored(raw: &str) -> DateFormat {
        Self::parse(raw).unwrap_or_default()
    }

    pub fn codes() -> String {
        Self::ALL.map(DateFormat::code).join(", ")
    }

    /// How a day is to be written, in words for a message: the format and ISO beside it.
    pub fn accepted(self) -> String {
        match self {
            DateFormat::YearMonthDay => "YYYY-MM-DD".to_owned(),
            other => format!("{} or YYYY-MM-DD", other.code()),
        }
    }

    /// `day` as the format writes it (the template's example).
    pub fn write(self, day: NaiveDate) -> String {
        day.format(match self {
            DateFormat::MonthDayYear => "%m/%d/%Y",
            DateFormat::DayMonthYear => "%d/%m/%Y",
            DateFormat::YearMonthDay => "%Y-%m-%d",
        })
        .to_string()
    }

    /// A typed day: ISO always, else the format with `/` between one- or two-digit day and
    /// month and a four-digit year (`7/1/2026`, `07/01/2026`). None for anything else,
    /// including a day the calendar does not have.
    pub fn read(self, raw: &str) -> Option<NaiveDate> {
        let raw = raw.trim();
        if let Some(day) = iso(raw) {
            return Some(day);
        }
        if self == DateFormat::YearMonthDay {
            return None;
        }
        let mut parts = raw.split('/');
        let (a, b, year) = (parts.next()?, parts.next()?, parts.next()?);
        if parts.next().is_some() || year.len() != 4 {
            return None;
        }
        let small = |t: &str| (1..=2).contains(&t.len()).then(|| digits(t)).flatten();
        let (a, b, year) = (small(a)?, small(b)?, digits(year)?);
        let (month, day) = if self == DateFormat::MonthDayYear { (a, b) } else { (b, a) };
        NaiveDate::from_ymd_opt(year as i32, month, day)
    }
}

fn digits(t: &str) -> Option<u32> {
    t.bytes().all(|b| b.is_ascii_digit()).then(|| t.parse().ok()).flatten()
}

/// `YYYY-MM-DD` exactly (chrono alone would also take a year of any length).
fn iso(raw: &str) -> Option<NaiveDate> {
    let b = raw.as_bytes();
    let shaped = b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && b.iter().enumerate().all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit());
    shaped.then(|| NaiveDate::parse_from_str(raw, "%Y-%m-%d").ok()).flatten()
}

/// The format's schema in the API document: its closed set.
impl utoipa::PartialSchema for DateFormat {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        crate::web::string_enum(Self::ALL.map(DateFormat::code))
    }
}

impl utoipa::ToSchema for DateFormat {}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(y: i32, m: u32, d: u32) -> Option<NaiveDate> {
        NaiveDate::from_ymd_opt(y, m, d)
    }

    #[test]
    fn each_format_reads_its_own_way_and_iso_always() {
        use DateFormat::*;
        for (format, raw, read) in [
            (MonthDayYear, "7/1/2026", day(2026, 7, 1)),
            (MonthDayYear, "07/01/2026", day(2026, 7, 1)),
            (MonthDayYear, " 12/31/2026 ", day(2026, 12, 31)),
            (MonthDayYear, "31/12/2026", None),
            (DayMonthYear, "7/1/2026", day(2026, 1, 7)),
            (DayMonthYear, "31/12/2026", day(2026, 12, 31)),
            (DayMonthYear, "12/31/2026", None),
            (YearMonthDay, "7/1/2026", None),
            (MonthDayYear, "2026-07-01", day(2026, 7, 1)),
            (DayMonthYear, "2026-07-01", day(2026, 7, 1)),
            (YearMonthDay, "2026-07-01", day(2026, 7, 1)),
            (MonthDayYear, "2/30/2026", None),
            (MonthDayYear, "7/1/26", None),
            (MonthDayYear, "7/1/2026/1", None),
            (MonthDayYear, "007/1/2026", None),
            (MonthDayYear, "+7/1/2026", None),
            (MonthDayYear, "7-1-2026", None),
            (MonthDayYear, "26-07-01", None),
            (MonthDayYear, "12026-07-01", None),
            (MonthDayYear, "July 1, 2026", None),
            (MonthDayYear, "", None),
        ] {
            assert_eq!(format.read(raw), read, "{} {raw:?}", format.code());
        }
    }

    #[test]
    fn codes_parse_in_any_case_and_write_a_day_as_typed() {
        assert_eq!(DateFormat::parse(" dd/mm/yyyy"), Some(DateFormat::DayMonthYear));
        assert_eq!(DateFormat::parse("M/D/YYYY"), None);
        assert_eq!(DateFormat::stored("nonsense"), DateFormat::MonthDayYear);
        assert_eq!(DateFormat::codes(), "MM/DD/YYYY, DD/MM/YYYY, YYYY-MM-DD");
        let d = day(2026, 7, 1).unwrap();
        for f in DateFormat::ALL {
            assert_eq!(f.read(&f.write(d)), Some(d), "{}", f.code());
        }
        assert_eq!(DateFormat::MonthDayYear.write(d), "07/01/2026");
        assert_eq!(DateFormat::DayMonthYear.accepted(), "DD/MM/YYYY or YYYY-MM-DD");
    }
}
