//! The rules of time away and stand-ins, without a database: whether a window and its
//! stand-in may be saved.
//!
//! The one shape the rules keep in place is "no chains, no circles": a stand-in is never away
//! herself while she stands in. That is checked from both ends, when a person names her
//! stand-in and when a stand-in sets her own time away, so whoever takes a step on someone's
//! behalf is always at work.

use chrono::NaiveDate;

use crate::error::{ApiResult, Checks};

/// A first and a last day, both included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    pub from: NaiveDate,
    pub to: NaiveDate,
}

impl Window {
    pub fn overlaps(&self, other: &Window) -> bool {
        self.from <= other.to && other.from <= self.to
    }
}

/// What the rules need to know of the colleague named as stand-in.
#[derive(Debug, Clone)]
pub struct Candidate {
    pub id: i32,
    pub name: String,
    pub is_active: bool,
    /// Holds `request:approve` through one of her roles.
    pub may_approve: bool,
    /// Her own time away, if any.
    pub away: Option<Window>,
}

/// Someone whose stand-in the person saving is, with that window.
#[derive(Debug, Clone)]
pub struct Standing {
    pub for_name: String,
    pub window: Window,
}

/// Whether `owner` may be away in `window` with `stand_in` standing in, `today` being the
/// office's day. `stands_in_for` lists the windows in which the owner herself stands in for
/// others. Every problem is named by its field at once (422: all are rules against stored data
/// or between fields).
pub fn check_window(
    owner: i32,
    window: Window,
    today: NaiveDate,
    stand_in: Option<&Candidate>,
    stands_in_for: &[Standing],
) -> ApiResult<()> {
    let mut checks = Checks::default();
    if window.to < window.from {
        checks.add("to", "must not be before the first day");
    } else if window.to < today {
        checks.add("to", "has already passed: the time away would have ended");
    }
    match stand_in {
        None => checks.add("standInUserId", "is not a user"),
        Some(c) if c.id == owner => checks.add("standInUserId", "must be someone else"),
        Some(c) if !c.is_active => {
            checks.add("standInUserId", format!("{} is deactivated", c.name))
        }
        Some(c) if !c.may_approve => checks.add(
            "standInUserId",
            format!("{} does not approve requests (no request:approve)", c.name),
        ),
        Some(c) => {
            if let Some(away) = c.away.filter(|a| a.overlaps(&window)) {
                checks.add(
                    "standInUserId",
                    format!("{} is away herself from {} to {}", c.name, away.from, away.to),
                );
            }
        }
    }
    if let Some(s) = stands_in_for.iter().find(|s| s.window.overlaps(&window)) {
        checks.add(
            "from",
            format!(
                "you stand in for {} from {} to {}: ask for another stand-in first",
                s.for_name, s.window.from, s.window.to
            ),
        );
    }
    checks.finish_rules()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ApiError;

    fn d(m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(2031, m, day).unwrap()
    }

    fn w(from: NaiveDate, to: NaiveDate) -> Window {
        Window { from, to }
    }

    fn colleague() -> Candidate {
        Candidate { id: 2, name: "Ana Ruiz".into(), is_active: true, may_approve: true, away: None }
    }

    fn fields(r: ApiResult<()>) -> Vec<String> {
        match r {
            Ok(()) => vec![],
            Err(ApiError::Unprocessable { errors, .. }) => errors.into_keys().collect(),
            Err(other) => panic!("not a 422: {other:?}"),
        }
    }

    #[test]
    fn windows_and_stand_ins() {
        let today = d(3, 10);
        let away = |from, to| Candidate { away: Some(w(from, to)), ..colleague() };
        let standing = vec![Standing { for_name: "Bo Chen".into(), window: w(d(4, 1), d(4, 5)) }];
        type Case<'a> = (&'a str, Window, Option<Candidate>, &'a [Standing], Vec<&'a str>);
        let cases: Vec<Case> = vec![
            ("a window from today on", w(today, d(3, 20)), Some(colleague()), &[], vec![]),
            ("one day", w(d(3, 12), d(3, 12)), Some(colleague()), &[], vec![]),
            ("begun already, still running", w(d(3, 1), today), Some(colleague()), &[], vec![]),
            ("ended", w(d(3, 1), d(3, 9)), Some(colleague()), &[], vec!["to"]),
            ("backwards", w(d(3, 20), d(3, 12)), Some(colleague()), &[], vec!["to"]),
            ("nobody", w(today, d(3, 20)), None, &[], vec!["standInUserId"]),
            (
                "oneself",
                w(today, d(3, 20)),
                Some(Candidate { id: 1, ..colleague() }),
                &[],
                vec!["standInUserId"],
            ),
            (
                "deactivated",
                w(today, d(3, 20)),
                Some(Candidate { is_active: false, ..colleague() }),
                &[],
                vec!["standInUserId"],
            ),
            (
                "no approving",
                w(today, d(3, 20)),
                Some(Candidate { may_approve: false, ..colleague() }),
                &[],
                vec!["standInUserId"],
            ),
            (
                "away herself, overlapping",
                w(today, d(3, 20)),
                Some(away(d(3, 20), d(3, 25))),
                &[],
                vec!["standInUserId"],
            ),
            (
                "away herself, later",
                w(today, d(3, 20)),
                Some(away(d(3, 21), d(3, 25))),
                &[],
                vec![],
            ),
            (
                "standing in then herself",
                w(d(4, 5), d(4, 9)),
                Some(colleague()),
                &standing,
                vec!["from"],
            ),
            ("standing in another time", w(d(4, 6), d(4, 9)), Some(colleague()), &standing, vec![]),
            ("every problem at once", w(d(3, 5), d(3, 1)), None, &[], vec!["standInUserId", "to"]),
        ];
        for (name, window, candidate, standing, want) in cases {
            let mut got = fields(check_window(1, window, today, candidate.as_ref(), standing));
            got.sort();
            assert_eq!(got, want, "{name}");
        }
    }
}
