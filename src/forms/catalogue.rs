//! How the catalogue's table becomes code: the form type enum, its names, amount sources,
//! served rules and default limits, and the typed `details` enum with its dispatch, all from
//! one line per form and each details struct's `Shape`.

use chrono::NaiveDate;

use super::{Limits, Rates};
use crate::{error::Checks, money::Money};

/// What each form's `details` say about themselves.
pub trait Form {
    /// Trims the texts, checks the details against the form's limits (every problem into `e`),
    /// fills the server-set fields (rates applied, F11 nights) and returns the amount where the
    /// form computes it (`None`: the requester enters it).
    fn check(&mut self, e: &mut Checks, rates: &Rates, limits: &Limits) -> Option<Money>;

    /// First and last day of the activity the request pays for (duplicate detection and the
    /// submission window); `None` for forms without activity dates.
    fn activity_dates(&self) -> Option<(NaiveDate, NaiveDate)>;

    /// The placement end date the request list filters and sorts on (forms tied to a placement).
    fn placement_end_date(&self) -> Option<NaiveDate> {
        None
    }
}

/// `catalogue! { F1: F1Details, "Placement stipend", limits(2_500, 60, None, Some(200), None); … }`:
/// code, details type, name, and default limits (maximum in dollars, submission window in
/// days, miles per trip, hours, nights; `None`: the form has no such quantity).
macro_rules! catalogue {
    ($($form:ident: $details:ident, $name:literal, limits($dollars:expr, $window:expr, $miles:expr, $hours:expr, $nights:expr);)+) => {
        impl FormType {
            /// The form's name (settings' limits and the reference list of payment request types read it).
            pub const fn name(self) -> &'static str {
                match self {
                    $(FormType::$form => $name,)+
                }
            }

            /// The form as charts, reports and files name it: code and name
            /// ("F2 Expense reimbursement"), the one label beside the code's use in paths.
            pub const fn label(self) -> &'static str {
                match self {
                    $(FormType::$form => concat!(stringify!($form), " ", $name),)+
                }
            }

            /// Every form code with its label (report columns of form codes).
            pub const LABELLED: &'static [(&'static str, &'static str)] =
                &[$((stringify!($form), concat!(stringify!($form), " ", $name)),)+];

            /// How the requested amount comes about on this form.
            pub const fn amount_source(self) -> AmountSource {
                self.amount_rule().source()
            }

            /// The rule the server computes the requested amount with.
            pub const fn amount_rule(self) -> AmountRule {
                match self {
                    $(FormType::$form => <$details as $crate::forms::shape::Shape>::AMOUNT,)+
                }
            }

            /// What the UI needs to know about the form (`GET /payment-requests/types`).
            pub fn rules(self) -> FormRules {
                match self {
                    $(FormType::$form => $crate::forms::shape::rules_of::<$details>(self.details_schema()),)+
                }
            }

            /// The OpenAPI schema of the form's `details` (reports read their columns from it).
            pub fn details_schema(self) -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                match self {
                    $(FormType::$form => <$details as utoipa::PartialSchema>::schema(),)+
                }
            }

            /// The limits a new installation starts with (settings keep the ones in force).
            pub const fn default_limits(self) -> Limits {
                match self {
                    $(FormType::$form => Limits {
                        max_amount: crate::money::Money($dollars * 100),
                        submission_window_days: $window,
                        max_miles_per_trip: $miles,
                        max_hours: $hours,
                        max_nights: $nights,
                    },)+
                }
            }
        }

        /// The typed `details` of a request; which variant is decided by the form type in the path.
        #[derive(Debug, Clone, PartialEq, serde::Serialize, utoipa::ToSchema)]
        #[serde(untagged)]
        pub enum Details {
            $($form($details),)+
        }

        impl Details {
            /// Reads `details` as the form's type; a 400 names the failing field (`details.trips[0].miles`).
            pub fn parse(form: FormType, value: &serde_json::Value) -> Result<Details, crate::error::ApiError> {
                if !value.is_object() {
                    return Err(crate::error::ApiError::bad_field("details", "must be an object"));
                }
                Ok(match form {
                    $(FormType::$form => Details::$form(crate::web::from_value(value, "details")?),)+
                })
            }

            /// Reads details stored by this server (they passed every check on the way in),
            /// straight from their text: a report reads thousands.
            pub fn from_stored(form: FormType, text: &str) -> Result<Details, crate::error::ApiError> {
                let bad = |e: serde_json::Error| crate::error::ApiError::Internal(format!("stored details: {e}"));
                Ok(match form {
                    $(FormType::$form => Details::$form(serde_json::from_str(text).map_err(bad)?),)+
                })
            }

            pub fn form_type(&self) -> FormType {
                match self {
                    $(Details::$form(_) => FormType::$form,)+
                }
            }

            fn form(&self) -> &dyn Form {
                match self {
                    $(Details::$form(d) => d,)+
                }
            }

            fn form_mut(&mut self) -> &mut dyn Form {
                match self {
                    $(Details::$form(d) => d,)+
                }
            }

            /// Reference ids the details point at, as (field in `details`, list, id).
            pub fn references(&self) -> Vec<(&'static str, Reference, i32)> {
                match self {
                    $(Details::$form(d) => $crate::forms::shape::references_of(d),)+
                }
            }

            /// Ids of the receipts the details list (none on forms without receipts).
            pub fn file_ids(&self) -> &[String] {
                match self {
                    $(Details::$form(d) => $crate::forms::shape::file_ids_of(d),)+
                }
            }
        }
    };
}
pub(super) use catalogue;
