//! The one rule of a closed fiscal year: while its books are closed nothing more is charged
//! to it. Every command that could charge a year gathers the year it would charge and asks
//! here; reading, reports, exports and paying out what was already approved never ask.

use chrono::{DateTime, Utc};

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

/// A 409 naming the year when `charge` would charge a closed year; no year (none covers the
/// day yet) is not this rule's concern.
pub fn check_open(charge: Charge, year: Option<YearFacts<'_>>) -> Result<(), ApiError> {
    match year {
        Some(YearFacts { name, closed_at: Some(_) }) => Err(ApiError::Conflict(format!(
            "The fiscal year {name} is closed: {}. Reopen it first.",
            charge.what()
        ))),
        _ => Ok(()),
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
