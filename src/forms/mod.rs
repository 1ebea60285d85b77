//! The form catalogue, pure: every form is declared once, in the table below
//! (code, details type, name, how its amount comes about, default limits), with its details
//! struct and what it checks and computes in `details.rs`. Adding a form is a line here, a
//! struct with its `Form` impl, and its tests; requests, settings, reference lists and reports
//! all read the catalogue.

mod catalogue;
mod details;
mod evaluate;
#[cfg(test)]
pub mod tests;

pub use crate::entities::codes::FormType;
use catalogue::catalogue;
pub use catalogue::{AmountSource, Form, Reference};
pub use details::*;
pub use evaluate::*;

// F2 and F9 are Derived (docs/decisions-requests.md): the receipts' items and the invoice say
// what is owed, so the server sums them rather than trusting a second number.
catalogue! {
    F1: F1Details, "Placement stipend", Entered, limits(2_500, 60, None, Some(200), None);
    F2: F2Details, "Expense reimbursement", Derived, limits(1_000, 60, None, None, None);
    F3: F3Details, "Travel and mileage", Rate, limits(1_500, 60, Some(500), None, None);
    F4: F4Details, "Professional development", Entered, limits(2_000, 60, None, Some(80), None);
    F5: F5Details, "Seminar attendance", Entered, limits(500, 60, None, Some(16), None);
    F6: F6Details, "Leadership activity", Entered, limits(1_000, 60, None, Some(40), None);
    F7: F7Details, "Director mentor stipend", Entered, limits(3_000, 60, None, None, None);
    F8: F8Details, "Institute attendance", Entered, limits(1_500, 60, None, None, None);
    F9: F9Details, "Vendor payment", Derived, limits(10_000, 90, None, None, None);
    F10: F10Details, "Release time / substitute", Rate, limits(1_500, 60, None, Some(40), None);
    F11: F11Details, "Lodging", Rate, limits(2_000, 60, None, None, Some(10));
    F12: F12Details, "Meals", Rate, limits(500, 60, None, None, None);
    F13: F13Details, "Tuition and course fees", Entered, limits(3_000, 90, None, None, None);
    F14: F14Details, "Completion bonus", Entered, limits(1_000, 90, None, None, None);
}
