//! A form's details checked against its limits, and the requested amount the server computes.

use chrono::NaiveDate;

use super::{AmountSource, Details, MealRates, MAX_DESCRIPTION_CHARS};
use crate::{
    error::{Checks, FieldErrors},
    money::Money,
};

/// Form validation limits of one form type, as settings hold them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    pub max_amount: Money,
    pub submission_window_days: i32,
    pub max_miles_per_trip: Option<i32>,
    pub max_hours: Option<i32>,
    pub max_nights: Option<i32>,
}

impl Limits {
    /// No limit but the absolute money ceiling (tests, and forms without a row).
    pub fn none() -> Limits {
        Limits {
            max_amount: Money(crate::money::MAX_CENTS),
            submission_window_days: i32::MAX,
            max_miles_per_trip: None,
            max_hours: None,
            max_nights: None,
        }
    }
}

/// Rates from general settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rates {
    pub mileage: Money,
    pub meals: MealRates,
}

/// What the server derives from a form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Evaluated {
    pub requested_amount: Money,
    pub placement_end_date: Option<NaiveDate>,
    pub activity_dates: Option<(NaiveDate, NaiveDate)>,
}

/// Checks a form against its limits and computes its requested amount. `entered` is the
/// `requestedAmount` the caller sent; it counts only on forms whose amount is entered
/// (elsewhere the server's number wins, and the one sent is ignored). Fills the server-set
/// fields of `details` (rates applied, F11 nights). All problems are returned at once.
pub fn evaluate(
    details: &mut Details,
    entered: Option<Money>,
    rates: &Rates,
    limits: &Limits,
) -> Result<Evaluated, FieldErrors> {
    let mut e = Checks::default();
    let computed = details.form_mut().check(&mut e, rates, limits);
    debug_assert_eq!(
        computed.is_some(),
        details.form_type().amount_source() != AmountSource::Entered
    );
    let requested = match computed {
        Some(amount) => amount,
        None => match entered {
            Some(amount) => amount,
            None => {
                e.add("requestedAmount", "is required");
                Money::ZERO
            }
        },
    };
    if entered.is_some() || computed.is_some() {
        if requested.cents() <= 0 {
            e.add("requestedAmount", "must be more than 0");
        } else if requested > limits.max_amount {
            e.add(
                "requestedAmount",
                format!("must be at most {} (the form's maximum)", limits.max_amount),
            );
        }
    }
    if e.is_empty() {
        Ok(Evaluated {
            requested_amount: requested,
            placement_end_date: details.placement_end_date(),
            activity_dates: details.activity_dates(),
        })
    } else {
        Err(e.0)
    }
}

impl Details {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("details serialize")
    }

    pub fn placement_end_date(&self) -> Option<NaiveDate> {
        self.form().placement_end_date()
    }

    pub fn activity_dates(&self) -> Option<(NaiveDate, NaiveDate)> {
        self.form().activity_dates()
    }
}

/// The request's own description: optional, bounded.
pub fn check_description(description: Option<&str>, checks: &mut Checks) -> Option<String> {
    let d = description.map(str::trim).filter(|d| !d.is_empty())?;
    Some(checks.text("description", d, MAX_DESCRIPTION_CHARS))
}
