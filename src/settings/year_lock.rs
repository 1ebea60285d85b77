//! The one rule of a closed fiscal year: while its books are closed nothing more is charged
//! to it. Every command that could charge a year gathers the year it would charge and asks
//! here; reading, reports, exports and paying out what was already approved never ask.

use chrono::{DateTime, NaiveDate, Utc};

use crate::{entities::fiscal_year, error::ApiError};

/// The ways of charging a fiscal year.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Charge {
    CreateRequest,
    EditRequest,
    SubmitRequest,
    ApproveRequest,
    /// Taking an approval back changes what the year has spent.
    MoveBackRequest,
    EditBudgetLine,
    EditBudget,
    CopyBudget,
}

impl Charge {
    fn what(self) -> &'static str {
        match self {
            Charge::CreateRequest => "no request can be created in it",
            Charge::EditRequest => "its requests cannot be edited",
            Charge::SubmitRequest => "no request can be submitted to it",
            Charge::ApproveRequest => "no request can be approved in it",
            Charge::MoveBackRequest => "its approvals cannot be moved back",
            Charge::EditBudgetLine | Charge::EditBudget => "its budget cannot be changed",
            Charge::CopyBudget => "no budget can be copied into it",
        }
    }
}

/// What the rule needs to know of a year.
#[derive(Debug, Clone, Copy)]
pub struct YearFacts<'a> {
    pub name: &'a str,
    pub closed_at: Option<DateTime<Utc>>,
}

impl<'a> From<&'a fiscal_year::Model> for YearFacts<'a> {
    fn from(y: &'a fiscal_year::Model) -> Self {
        YearFacts { name: &y.name, closed_at: y.closed_at }
    }
}

/// Why the closed year `name` refuses `charge`, in words: the 409's detail, and the error the
/// approval check reports before anyone clicks.
pub fn refusal(charge: Charge, name: &str) -> String {
    format!("The fiscal year {name} is closed: {}. Reopen it first.", charge.what())
}

/// A 409 naming the year when `charge` would charge a closed year; no year (none covers the
/// day yet) is not this rule's concern.
pub fn check_open(charge: Charge, year: Option<YearFacts<'_>>) -> Result<(), ApiError> {
    match year {
        Some(YearFacts { name, closed_at: Some(_) }) => {
            Err(ApiError::Conflict(refusal(charge, name)))
        }
        _ => Ok(()),
    }
}

/// What a closed year means for the requests charged to it, in words, for their pages.
pub fn request_notice(name: &str) -> String {
    format!(
        "The fiscal year {name} is closed, so this request cannot be edited, submitted, approved or moved back until an administrator reopens the year. It can still be sent back, moved to Draft, made ready for processing and paid."
    )
}

/// The year among `years` a request charges (the pure twin of the request store's
/// `charged_year`, for lists that judge many rows against the years read once): the one it
/// names, else the one `day` (its submission, or today) falls in.
pub fn year_of(
    years: &[fiscal_year::Model],
    fiscal_year_id: Option<i32>,
    day: NaiveDate,
) -> Option<&fiscal_year::Model> {
    match fiscal_year_id {
        Some(id) => years.iter().find(|y| y.id == id),
        None => years.iter().find(|y| y.start_date <= day && day <= y.end_date),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: [Charge; 8] = [
        Charge::CreateRequest,
        Charge::EditRequest,
        Charge::SubmitRequest,
        Charge::ApproveRequest,
        Charge::MoveBackRequest,
        Charge::EditBudgetLine,
        Charge::EditBudget,
        Charge::CopyBudget,
    ];

    #[test]
    fn an_open_year_or_no_year_takes_every_charge() {
        let open = YearFacts { name: "FY 2025-26", closed_at: None };
        for charge in ALL {
            assert!(check_open(charge, Some(open)).is_ok(), "{charge:?}");
            assert!(check_open(charge, None).is_ok(), "{charge:?}");
        }
    }

    fn year(id: i32, start: NaiveDate, days: u64) -> fiscal_year::Model {
        fiscal_year::Model {
            id,
            name: format!("FY {id}"),
            start_date: start,
            end_date: start + chrono::Days::new(days),
            created_at: Utc::now(),
            closed_at: None,
            closed_by: None,
            close_reason: None,
        }
    }

    #[test]
    fn a_request_charges_the_year_it_names_else_the_one_its_day_falls_in() {
        let start = NaiveDate::from_ymd_opt(2020, 7, 1).unwrap();
        let years = [year(1, start, 364), year(2, start + chrono::Days::new(365), 364)];
        let in_second = start + chrono::Days::new(400);
        assert_eq!(year_of(&years, Some(1), in_second).map(|y| y.id), Some(1));
        assert_eq!(year_of(&years, None, in_second).map(|y| y.id), Some(2));
        assert_eq!(year_of(&years, None, start).map(|y| y.id), Some(1));
        assert!(year_of(&years, None, start - chrono::Days::new(1)).is_none());
        assert!(year_of(&years, Some(9), start).is_none());
    }

    #[test]
    fn a_closed_year_refuses_every_charge_naming_the_year() {
        let closed = YearFacts { name: "FY 2025-26", closed_at: Some(Utc::now()) };
        for charge in ALL {
            match check_open(charge, Some(closed)) {
                Err(ApiError::Conflict(detail)) => {
                    assert!(detail.contains("FY 2025-26 is closed"), "{detail}");
                    assert!(detail.contains(charge.what()), "{detail}");
                }
                other => panic!("{charge:?}: {other:?}"),
            }
        }
    }
}
