//! What a form is before any request exists, and what the catalogue serves about it
//! (`GET /payment-requests/types`) so the UI reads the server's rules instead of repeating them:
//! how the amount comes about, which reference lists the details pick from, and the receipts a
//! form takes. Each details struct states its `Shape` once (in `details.rs`); the checks read it
//! and `rules_of` serves it.

use serde::Serialize;
use utoipa::{
    openapi::{schema::Schema, RefOr},
    ToSchema,
};

/// Receipts one request may hold.
pub const MAX_FILES: usize = 20;
/// The largest receipt, in bytes.
pub const MAX_RECEIPT_BYTES: i64 = 10 * 1024 * 1024;
/// The media types a receipt may have.
pub const ALLOWED_RECEIPT_TYPES: [&str; 4] =
    ["application/pdf", "image/png", "image/jpeg", "image/heic"];

/// How the requested amount comes about on a form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
pub enum AmountSource {
    /// The requester types `requestedAmount`.
    Entered,
    /// Quantity × a rate (settings or the form's own rate).
    Rate,
    /// Sum of the form's own amounts (F2 items, F9 invoice).
    Derived,
}

/// Reference lists a form's details point into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reference {
    College,
    TravelPurpose,
    TransitType,
    TrainingType,
    Institution,
    JobCategory,
    FiscalYear,
}

impl Reference {
    /// The table of the list.
    pub const fn table(self) -> &'static str {
        match self {
            Reference::College => "colleges",
            Reference::TravelPurpose => "travel_purposes",
            Reference::TransitType => "transit_types",
            Reference::TrainingType => "training_types",
            Reference::Institution => "institutions",
            Reference::JobCategory => "job_categories",
            Reference::FiscalYear => "fiscal_years",
        }
    }

    pub const ALL: [Reference; 7] = [
        Reference::College,
        Reference::TravelPurpose,
        Reference::TransitType,
        Reference::TrainingType,
        Reference::Institution,
        Reference::JobCategory,
        Reference::FiscalYear,
    ];
}

/// On the wire a list is named by its table (`colleges`, `fiscal_years`).
impl serde::Serialize for Reference {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.table())
    }
}

impl utoipa::PartialSchema for Reference {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        crate::web::string_enum(Reference::ALL.map(Reference::table))
    }
}

impl utoipa::ToSchema for Reference {}

/// A details field that picks from a reference list, and how to read its id.
pub struct RefField<D> {
    /// The field's name in `details`.
    pub field: &'static str,
    pub list: Reference,
    /// `None`: an optional field left empty.
    pub id: fn(&D) -> Option<i32>,
}

/// Where a form that takes receipts keeps their ids.
pub struct ReceiptField<D> {
    /// The field's name in `details`.
    pub field: &'static str,
    pub ids: fn(&D) -> &[String],
}

/// What a form is before any request exists. The checks read these lines, and the catalogue
/// serves them to the UI (`FormType::rules`), so neither keeps a copy.
pub trait Shape: Sized + 'static {
    /// How the requested amount comes about.
    const AMOUNT: AmountRule;
    /// The fields that pick from a reference list.
    const REFERENCES: &'static [RefField<Self>] = &[];
    /// The receipts' ids, on a form that takes receipts.
    const RECEIPTS: Option<ReceiptField<Self>> = None;
}

pub fn references_of<D: Shape>(d: &D) -> Vec<(&'static str, Reference, i32)> {
    D::REFERENCES.iter().filter_map(|r| (r.id)(d).map(|id| (r.field, r.list, id))).collect()
}

pub fn file_ids_of<D: Shape>(d: &D) -> &[String] {
    match D::RECEIPTS {
        Some(receipts) => (receipts.ids)(d),
        None => &[],
    }
}

/// How the server arrives at a form's requested amount. Money is in dollars with cents,
/// quantities in hundredths (12.5 miles, 7.25 hours).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(tag = "rule", rename_all = "camelCase")]
pub enum AmountRule {
    /// The requester types `requestedAmount`.
    Entered,
    /// The sum of one money column over the rows (`items[].amount`).
    Sum { rows: &'static str, column: &'static str },
    /// One money field of the details (an invoice's `amount`).
    Field { field: &'static str },
    /// A quantity times a rate, rounded once, to the cent.
    Product { quantity: AmountQuantity, rate: AmountRate, rounding: Rounding },
    /// Each row's claimed meals at the meal rates in force (`setting` of
    /// `GET /payment-requests/rates`): a row claims a meal when its boolean column of that
    /// meal's name (`breakfast`, `lunch`, `dinner`) is true.
    Meals { rows: &'static str, setting: &'static str },
}

impl AmountRule {
    pub const fn source(self) -> AmountSource {
        match self {
            AmountRule::Entered => AmountSource::Entered,
            AmountRule::Sum { .. } | AmountRule::Field { .. } => AmountSource::Derived,
            AmountRule::Product { .. } | AmountRule::Meals { .. } => AmountSource::Rate,
        }
    }
}

/// The quantity of a product.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum AmountQuantity {
    /// One number field (`hours`).
    Field { field: &'static str },
    /// One number column summed over the rows (`trips[].miles`); a value below zero counts as
    /// zero (it is refused anyway).
    SumOfRows { rows: &'static str, column: &'static str },
    /// Whole days from one date field to another (`checkIn` to `checkOut`: the nights).
    DaysBetween { from: &'static str, to: &'static str },
}

/// The rate of a product.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum AmountRate {
    /// A money field of the details (`hourlyRate`).
    Field { field: &'static str },
    /// A rate from general settings, as `GET /payment-requests/rates` names it (`mileageRate`),
    /// per one `unit` of the quantity. Saving applies the rate in force and records it.
    Setting { setting: &'static str, unit: &'static str },
}

/// How a product is rounded to the cent (`Money::times_hundredths`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum Rounding {
    /// 0.5 cent goes to 1 cent, −0.5 cent to −1 cent.
    HalfAwayFromZero,
}

/// A field of `details` that picks from a reference list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReferenceField {
    /// The field holding the id.
    pub field: &'static str,
    pub list: Reference,
    /// The field may be left empty (null); every other reference is required.
    pub optional: bool,
}

/// The receipts a form takes: uploaded first, then listed by id in `field`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReceiptRules {
    /// The field of `details` holding the uploaded files' ids.
    pub field: &'static str,
    /// Files one request may hold.
    pub max_files: usize,
    /// The largest file, in bytes.
    pub max_bytes: i64,
    /// The media types taken (the server also checks the file's first bytes).
    pub content_types: Vec<&'static str>,
}

/// What a payment request form asks and how the server treats it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FormRules {
    /// `Entered`: the requester types `requestedAmount`. Otherwise the server computes it
    /// (`Rate`: a quantity at a rate; `Derived`: the form's own amounts) and ignores one sent.
    pub amount_source: AmountSource,
    /// The rule the server computes the amount with (`entered` where it does not).
    pub amount: AmountRule,
    /// The fields of `details` that pick from a reference list (a fiscal year included).
    pub references: Vec<ReferenceField>,
    /// The receipts the form takes; null on forms that take none.
    pub receipts: Option<ReceiptRules>,
}

/// The rules of the form whose details are `D`, with `schema` its details schema (which says
/// which fields are required).
pub fn rules_of<D: Shape>(schema: RefOr<Schema>) -> FormRules {
    let required = match schema {
        RefOr::T(Schema::Object(object)) => object.required,
        _ => Vec::new(),
    };
    FormRules {
        amount_source: D::AMOUNT.source(),
        amount: D::AMOUNT,
        references: D::REFERENCES
            .iter()
            .map(|r| ReferenceField {
                field: r.field,
                list: r.list,
                optional: !required.iter().any(|f| f == r.field),
            })
            .collect(),
        receipts: D::RECEIPTS.as_ref().map(|r| ReceiptRules {
            field: r.field,
            max_files: MAX_FILES,
            max_bytes: MAX_RECEIPT_BYTES,
            content_types: ALLOWED_RECEIPT_TYPES.to_vec(),
        }),
    }
}
