//! The form catalogue, pure: every form is declared once, in the table below
//! (code, details type, name, default limits), with its details struct, its `Shape` (amount
//! rule, reference fields, receipts) and what it checks and computes in `details.rs`. Adding a
//! form is a line here, a struct with its `Shape` and `Form` impls, and its tests; requests,
//! settings, reference lists, reports and the UI (through `GET /payment-requests/types`) all
//! read the catalogue.

mod catalogue;
mod details;
mod evaluate;
mod shape;
#[cfg(test)]
pub mod tests;

pub use crate::entities::codes::FormType;
use catalogue::catalogue;
pub use catalogue::Form;
pub use details::*;
pub use evaluate::*;
pub use shape::{
    AmountQuantity, AmountRate, AmountRule, AmountSource, FormRules, ReceiptRules, Reference,
    ReferenceField, Rounding, ALLOWED_RECEIPT_TYPES, MAX_FILES, MAX_RECEIPT_BYTES,
};

catalogue! {
    F1: F1Details, "Placement stipend", limits(2_500, 60, None, Some(200), None);
    F2: F2Details, "Expense reimbursement", limits(1_000, 60, None, None, None);
    F3: F3Details, "Travel and mileage", limits(1_500, 60, Some(500), None, None);
    F4: F4Details, "Professional development", limits(2_000, 60, None, Some(80), None);
    F5: F5Details, "Seminar attendance", limits(500, 60, None, Some(16), None);
    F6: F6Details, "Leadership activity", limits(1_000, 60, None, Some(40), None);
    F7: F7Details, "Director mentor stipend", limits(3_000, 60, None, None, None);
    F8: F8Details, "Institute attendance", limits(1_500, 60, None, None, None);
    F9: F9Details, "Vendor payment", limits(10_000, 90, None, None, None);
    F10: F10Details, "Release time / substitute", limits(1_500, 60, None, Some(40), None);
    F11: F11Details, "Lodging", limits(2_000, 60, None, None, Some(10));
    F12: F12Details, "Meals", limits(500, 60, None, None, None);
    F13: F13Details, "Tuition and course fees", limits(3_000, 90, None, None, None);
    F14: F14Details, "Completion bonus", limits(1_000, 90, None, None, None);
}
