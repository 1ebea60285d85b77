//! The fourteen forms (DESIGN §4), pure: their typed `details`, the requested amount the
//! server computes where a form has a rate, and the field-level checks against the form
//! validation limits. Errors are keyed like `details.trips[2].miles`.

use chrono::NaiveDate;
use serde::{de::DeserializeOwned, Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    error::{ApiError, Checks, FieldErrors},
    money::{Hundredths, Money},
};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
pub enum FormType {
    F1,
    F2,
    F3,
    F4,
    F5,
    F6,
    F7,
    F8,
    F9,
    F10,
    F11,
    F12,
    F13,
    F14,
}

impl FormType {
    pub const ALL: [FormType; 14] = [
        FormType::F1,
        FormType::F2,
        FormType::F3,
        FormType::F4,
        FormType::F5,
        FormType::F6,
        FormType::F7,
        FormType::F8,
        FormType::F9,
        FormType::F10,
        FormType::F11,
        FormType::F12,
        FormType::F13,
        FormType::F14,
    ];

    pub const fn as_str(self) -> &'static str {
        match self {
            FormType::F1 => "F1",
            FormType::F2 => "F2",
            FormType::F3 => "F3",
            FormType::F4 => "F4",
            FormType::F5 => "F5",
            FormType::F6 => "F6",
            FormType::F7 => "F7",
            FormType::F8 => "F8",
            FormType::F9 => "F9",
            FormType::F10 => "F10",
            FormType::F11 => "F11",
            FormType::F12 => "F12",
            FormType::F13 => "F13",
            FormType::F14 => "F14",
        }
    }

    /// `F3` or `f3`.
    pub fn parse(text: &str) -> Option<FormType> {
        FormType::ALL.into_iter().find(|f| f.as_str().eq_ignore_ascii_case(text.trim()))
    }

    /// The form's name: the one list of names (settings' limits and the reference list of
    /// payment request types read it from here).
    pub const fn name(self) -> &'static str {
        match self {
            FormType::F1 => "Placement stipend",
            FormType::F2 => "Expense reimbursement",
            FormType::F3 => "Travel and mileage",
            FormType::F4 => "Professional development",
            FormType::F5 => "Seminar attendance",
            FormType::F6 => "Leadership activity",
            FormType::F7 => "Director mentor stipend",
            FormType::F8 => "Institute attendance",
            FormType::F9 => "Vendor payment",
            FormType::F10 => "Release time / substitute",
            FormType::F11 => "Lodging",
            FormType::F12 => "Meals",
            FormType::F13 => "Tuition and course fees",
            FormType::F14 => "Completion bonus",
        }
    }

    /// How the requested amount comes about on this form.
    pub fn amount_source(self) -> AmountSource {
        match self {
            FormType::F3 | FormType::F10 | FormType::F11 | FormType::F12 => AmountSource::Rate,
            // Decided (docs/decisions-requests.md): the receipts' items and the invoice say
            // what is owed, so the server sums them rather than trusting a second number.
            FormType::F2 | FormType::F9 => AmountSource::Derived,
            _ => AmountSource::Entered,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AmountSource {
    /// The requester types `requestedAmount`.
    Entered,
    /// Quantity × a rate (settings or the form's own rate).
    Rate,
    /// Sum of the form's own amounts (F2 items, F9 invoice).
    Derived,
}

// ---- details, one struct per form ----

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct F1Details {
    pub college_id: i32,
    pub mentee_name: String,
    pub course_code: String,
    #[serde(deserialize_with = "crate::web::date")]
    pub placement_start_date: NaiveDate,
    #[serde(deserialize_with = "crate::web::date")]
    pub placement_end_date: NaiveDate,
    pub hours: Hundredths,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ExpenseItem {
    #[serde(deserialize_with = "crate::web::date")]
    pub date: NaiveDate,
    pub description: String,
    pub amount: Money,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct F2Details {
    pub items: Vec<ExpenseItem>,
    /// Ids of uploaded receipts (POST /fileupload/generate-upload-urls).
    #[serde(default)]
    pub file_ids: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Trip {
    #[serde(deserialize_with = "crate::web::date")]
    pub date: NaiveDate,
    pub from: String,
    pub to: String,
    pub miles: Hundredths,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct F3Details {
    pub travel_purpose_id: i32,
    pub transit_type_id: i32,
    pub trips: Vec<Trip>,
    /// Mileage rate applied (from general settings; read-only: the server overwrites it).
    #[serde(default)]
    pub mileage_rate: Option<Money>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct F4Details {
    pub training_type_id: i32,
    /// Optional: training is often given outside any institution (a county office, online).
    #[serde(default)]
    pub institution_id: Option<i32>,
    pub title: String,
    #[serde(deserialize_with = "crate::web::date")]
    pub start_date: NaiveDate,
    #[serde(deserialize_with = "crate::web::date")]
    pub end_date: NaiveDate,
    pub hours: Hundredths,
    pub fee: Money,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct F5Details {
    #[serde(deserialize_with = "crate::web::date")]
    pub seminar_date: NaiveDate,
    pub topic: String,
    pub hours: Hundredths,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub enum LeadershipActivity {
    Workshop,
    Presentation,
    Committee,
    Conference,
    Other,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct F6Details {
    pub activity_type: LeadershipActivity,
    #[serde(deserialize_with = "crate::web::date")]
    pub date: NaiveDate,
    pub hours: Hundredths,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct F7Details {
    pub protege_name: String,
    pub site_name: String,
    #[serde(deserialize_with = "crate::web::date")]
    pub start_date: NaiveDate,
    #[serde(deserialize_with = "crate::web::date")]
    pub end_date: NaiveDate,
    #[serde(deserialize_with = "crate::web::date")]
    pub placement_end_date: NaiveDate,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct F8Details {
    pub institute: String,
    #[serde(deserialize_with = "crate::web::date")]
    pub start_date: NaiveDate,
    #[serde(deserialize_with = "crate::web::date")]
    pub end_date: NaiveDate,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct F9Details {
    pub vendor_name: String,
    pub vendor_address: String,
    pub invoice_number: String,
    #[serde(deserialize_with = "crate::web::date")]
    pub invoice_date: NaiveDate,
    pub amount: Money,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct F10Details {
    pub job_category_id: i32,
    #[serde(deserialize_with = "crate::web::date")]
    pub date: NaiveDate,
    pub hours: Hundredths,
    pub hourly_rate: Money,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct F11Details {
    /// checkOut − checkIn; the server fills it in, and refuses a different number.
    #[serde(default)]
    pub nights: Option<i32>,
    pub nightly_rate: Money,
    pub city: String,
    #[serde(deserialize_with = "crate::web::date")]
    pub check_in: NaiveDate,
    #[serde(deserialize_with = "crate::web::date")]
    pub check_out: NaiveDate,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MealDay {
    #[serde(deserialize_with = "crate::web::date")]
    pub date: NaiveDate,
    #[serde(default)]
    pub breakfast: bool,
    #[serde(default)]
    pub lunch: bool,
    #[serde(default)]
    pub dinner: bool,
}

/// Per-meal rates applied (from general settings; read-only, set by the server).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MealRates {
    pub breakfast: Money,
    pub lunch: Money,
    pub dinner: Money,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct F12Details {
    pub days: Vec<MealDay>,
    /// Read-only: the server overwrites it.
    #[serde(default)]
    pub meal_rates: Option<MealRates>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct F13Details {
    pub college_id: i32,
    pub institution_id: i32,
    pub course_code: String,
    pub units: Hundredths,
    /// e.g. "Fall 2025".
    pub term: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub enum BonusType {
    Completion,
    Retention,
    Leadership,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct F14Details {
    pub bonus_type: BonusType,
    pub fiscal_year_id: i32,
    pub reason: String,
}

/// The typed `details` of a request; which variant is decided by the form type in the path.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[serde(untagged)]
pub enum Details {
    F1(F1Details),
    F2(F2Details),
    F3(F3Details),
    F4(F4Details),
    F5(F5Details),
    F6(F6Details),
    F7(F7Details),
    F8(F8Details),
    F9(F9Details),
    F10(F10Details),
    F11(F11Details),
    F12(F12Details),
    F13(F13Details),
    F14(F14Details),
}

fn typed<T: DeserializeOwned>(value: &serde_json::Value) -> Result<T, ApiError> {
    let text = value.to_string();
    let de = &mut serde_json::Deserializer::from_str(&text);
    serde_path_to_error::deserialize(de).map_err(|err| {
        let path = err.path().to_string();
        let message = err.into_inner().to_string();
        let message = message.rsplit_once(" at line ").map_or(message.as_str(), |(m, _)| m).to_owned();
        let base = if path == "." { "details".to_owned() } else { format!("details.{path}") };
        match message.strip_prefix("missing field `").and_then(|m| m.strip_suffix('`')) {
            Some(field) => ApiError::bad_field(&format!("{base}.{field}"), "is required"),
            None => ApiError::bad_field(&base, plain_words(&message)),
        }
    })
}

/// serde's wording ("invalid type: null, expected i32") in words a clerk understands; the
/// field name travels beside it. Messages of our own types (money, hours) pass unchanged.
pub fn plain_words(message: &str) -> String {
    let Some(rest) = message.strip_prefix("invalid type: ") else {
        if let Some(rest) = message.strip_prefix("unknown variant `") {
            let choices = rest.split_once("expected ").map_or("", |(_, c)| c).replace('`', "");
            let choices = choices.strip_prefix("one of ").unwrap_or(&choices);
            return format!("must be one of {}", choices.replace(" or ", ", "));
        }
        if message.starts_with("input contains invalid characters") || message.starts_with("premature end of input") || message.starts_with("input is out of range") {
            return "must be a date (YYYY-MM-DD)".into();
        }
        return message.to_owned();
    };
    if rest.starts_with("null") {
        return "is required".into();
    }
    let expected = rest.split_once("expected ").map_or("", |(_, e)| e);
    if expected.starts_with('i') || expected.starts_with('u') || expected.contains("integer") {
        "must be a whole number".into()
    } else if expected.contains("string") || expected.contains("date") {
        "must be text".into()
    } else if expected.contains("bool") {
        "must be yes or no (true or false)".into()
    } else if expected.contains("sequence") {
        "must be a list".into()
    } else {
        format!("has the wrong kind of value ({expected})")
    }
}

impl Details {
    /// Reads `details` as the form's type; a 400 names the failing field (`details.trips[0].miles`).
    pub fn parse(form: FormType, value: &serde_json::Value) -> Result<Details, ApiError> {
        if !value.is_object() {
            return Err(ApiError::bad_field("details", "must be an object"));
        }
        Ok(match form {
            FormType::F1 => Details::F1(typed(value)?),
            FormType::F2 => Details::F2(typed(value)?),
            FormType::F3 => Details::F3(typed(value)?),
            FormType::F4 => Details::F4(typed(value)?),
            FormType::F5 => Details::F5(typed(value)?),
            FormType::F6 => Details::F6(typed(value)?),
            FormType::F7 => Details::F7(typed(value)?),
            FormType::F8 => Details::F8(typed(value)?),
            FormType::F9 => Details::F9(typed(value)?),
            FormType::F10 => Details::F10(typed(value)?),
            FormType::F11 => Details::F11(typed(value)?),
            FormType::F12 => Details::F12(typed(value)?),
            FormType::F13 => Details::F13(typed(value)?),
            FormType::F14 => Details::F14(typed(value)?),
        })
    }

    /// Reads details stored by this server (they passed every check on the way in).
    pub fn from_stored(form: FormType, text: &str) -> Result<Details, ApiError> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| ApiError::Internal(format!("stored details: {e}")))?;
        Details::parse(form, &value).map_err(|e| ApiError::Internal(format!("stored details: {e}")))
    }

    pub fn form_type(&self) -> FormType {
        match self {
            Details::F1(_) => FormType::F1,
            Details::F2(_) => FormType::F2,
            Details::F3(_) => FormType::F3,
            Details::F4(_) => FormType::F4,
            Details::F5(_) => FormType::F5,
            Details::F6(_) => FormType::F6,
            Details::F7(_) => FormType::F7,
            Details::F8(_) => FormType::F8,
            Details::F9(_) => FormType::F9,
            Details::F10(_) => FormType::F10,
            Details::F11(_) => FormType::F11,
            Details::F12(_) => FormType::F12,
            Details::F13(_) => FormType::F13,
            Details::F14(_) => FormType::F14,
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("details serialize")
    }

    /// The placement end date the request list filters and sorts on (forms tied to a placement).
    pub fn placement_end_date(&self) -> Option<NaiveDate> {
        match self {
            Details::F1(d) => Some(d.placement_end_date),
            Details::F7(d) => Some(d.placement_end_date),
            _ => None,
        }
    }

    /// First and last day of the activity the request pays for (duplicate detection and
    /// the submission window). `None` for forms without activity dates (F13, F14).
    pub fn activity_dates(&self) -> Option<(NaiveDate, NaiveDate)> {
        fn span(dates: impl Iterator<Item = NaiveDate>) -> Option<(NaiveDate, NaiveDate)> {
            dates.fold(None, |acc, d| match acc {
                None => Some((d, d)),
                Some((a, b)) => Some((a.min(d), b.max(d))),
            })
        }
        match self {
            Details::F1(d) => Some((d.placement_start_date, d.placement_end_date)),
            Details::F2(d) => span(d.items.iter().map(|i| i.date)),
            Details::F3(d) => span(d.trips.iter().map(|t| t.date)),
            Details::F4(d) => Some((d.start_date, d.end_date)),
            Details::F5(d) => Some((d.seminar_date, d.seminar_date)),
            Details::F6(d) => Some((d.date, d.date)),
            Details::F7(d) => Some((d.start_date, d.end_date)),
            Details::F8(d) => Some((d.start_date, d.end_date)),
            Details::F9(d) => Some((d.invoice_date, d.invoice_date)),
            Details::F10(d) => Some((d.date, d.date)),
            Details::F11(d) => Some((d.check_in, d.check_out)),
            Details::F12(d) => span(d.days.iter().map(|x| x.date)),
            Details::F13(_) | Details::F14(_) => None,
        }
    }

    /// Receipt ids (F2 only).
    pub fn file_ids(&self) -> &[String] {
        match self {
            Details::F2(d) => &d.file_ids,
            _ => &[],
        }
    }

    /// Reference ids the details point at, as (field, list, id), for the handler to check.
    pub fn references(&self) -> Vec<(&'static str, Reference, i32)> {
        use Reference::*;
        match self {
            Details::F1(d) => vec![("details.collegeId", College, d.college_id)],
            Details::F3(d) => vec![
                ("details.travelPurposeId", TravelPurpose, d.travel_purpose_id),
                ("details.transitTypeId", TransitType, d.transit_type_id),
            ],
            Details::F4(d) => {
                let mut refs = vec![("details.trainingTypeId", TrainingType, d.training_type_id)];
                refs.extend(d.institution_id.map(|id| ("details.institutionId", Institution, id)));
                refs
            }
            Details::F10(d) => vec![("details.jobCategoryId", JobCategory, d.job_category_id)],
            Details::F13(d) => vec![
                ("details.collegeId", College, d.college_id),
                ("details.institutionId", Institution, d.institution_id),
            ],
            Details::F14(d) => vec![("details.fiscalYearId", FiscalYear, d.fiscal_year_id)],
            _ => vec![],
        }
    }
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

// ---- limits, rates, evaluation ----

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

pub const MAX_TEXT_CHARS: usize = 200;
pub const MAX_DESCRIPTION_CHARS: usize = 2000;
pub const MAX_LINES: usize = 100;
pub const MAX_FILES: usize = 20;

/// What the server derives from a form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Evaluated {
    pub requested_amount: Money,
    pub placement_end_date: Option<NaiveDate>,
    pub activity_dates: Option<(NaiveDate, NaiveDate)>,
}

/// The checks only forms make, on the one field-error builder.
trait FormChecks {
    fn positive_money(&mut self, field: &str, value: Money);
    fn hours(&mut self, field: &str, value: Hundredths, limits: &Limits);
    fn order(&mut self, start_field: &str, start: NaiveDate, end_field: &str, end: NaiveDate);
    fn lines(&mut self, field: &str, count: usize);
}

impl FormChecks for Checks {
    fn positive_money(&mut self, field: &str, value: Money) {
        if value.cents() <= 0 {
            self.add(field, "must be more than 0");
        }
    }

    fn hours(&mut self, field: &str, value: Hundredths, limits: &Limits) {
        if value.0 <= 0 {
            self.add(field, "must be more than 0");
        } else if let Some(max) = limits.max_hours {
            if value.0 > i64::from(max) * 100 {
                self.add(field, format!("must be at most {max} hours"));
            }
        }
    }

    fn order(&mut self, start_field: &str, start: NaiveDate, end_field: &str, end: NaiveDate) {
        if end < start {
            self.add(end_field, format!("must not be before {start_field}"));
        }
    }

    fn lines(&mut self, field: &str, count: usize) {
        if count == 0 {
            self.add(field, "needs at least one line");
        } else if count > MAX_LINES {
            self.add(field, format!("may hold at most {MAX_LINES} lines"));
        }
    }
}

/// Trims free text in place so what is stored is what was checked.
fn trim(s: &mut String) {
    let t = s.trim();
    if t.len() != s.len() {
        *s = t.to_owned();
    }
}

fn sum(mut amounts: impl Iterator<Item = Option<Money>>) -> Option<Money> {
    amounts.try_fold(Money::ZERO, |acc, m| acc.checked_add(m?))
}

/// Checks a form against its limits and computes its requested amount. `entered` is the
/// `requestedAmount` the caller sent; it counts only on forms whose amount is entered
/// (elsewhere the server's number wins, and the one sent is ignored). Fills the server-set
/// fields of `details` (rates applied, F11 nights). All problems are returned at once.
pub fn evaluate(details: &mut Details, entered: Option<Money>, rates: &Rates, limits: &Limits) -> Result<Evaluated, FieldErrors> {
    let mut e = Checks::default();
    let overflow = || Money(i64::MAX);
    let computed: Option<Money> = match details {
        Details::F1(d) => {
            e.text("details.menteeName", &d.mentee_name, MAX_TEXT_CHARS);
            e.text("details.courseCode", &d.course_code, MAX_TEXT_CHARS);
            e.order("details.placementStartDate", d.placement_start_date, "details.placementEndDate", d.placement_end_date);
            e.hours("details.hours", d.hours, limits);
            None
        }
        Details::F2(d) => {
            e.lines("details.items", d.items.len());
            for (i, item) in d.items.iter().enumerate() {
                e.text(&format!("details.items[{i}].description"), &item.description, MAX_TEXT_CHARS);
                e.positive_money(&format!("details.items[{i}].amount"), item.amount);
            }
            if d.file_ids.len() > MAX_FILES {
                e.add("details.fileIds", format!("may hold at most {MAX_FILES} files"));
            }
            let mut seen = std::collections::BTreeSet::new();
            for (i, id) in d.file_ids.iter().enumerate() {
                if !seen.insert(id) {
                    e.add(format!("details.fileIds[{i}]"), "is listed twice");
                }
            }
            Some(sum(d.items.iter().map(|i| Some(i.amount))).unwrap_or_else(overflow))
        }
        Details::F3(d) => {
            e.lines("details.trips", d.trips.len());
            for (i, trip) in d.trips.iter().enumerate() {
                e.text(&format!("details.trips[{i}].from"), &trip.from, MAX_TEXT_CHARS);
                e.text(&format!("details.trips[{i}].to"), &trip.to, MAX_TEXT_CHARS);
                let field = format!("details.trips[{i}].miles");
                if trip.miles.0 <= 0 {
                    e.add(field, "must be more than 0");
                } else if let Some(max) = limits.max_miles_per_trip {
                    if trip.miles.0 > i64::from(max) * 100 {
                        e.add(field, format!("must be at most {max} miles"));
                    }
                }
            }
            d.mileage_rate = Some(rates.mileage);
            let miles: i64 = d.trips.iter().map(|t| t.miles.0.max(0)).sum();
            Some(rates.mileage.times_hundredths(miles).unwrap_or_else(overflow))
        }
        Details::F4(d) => {
            e.text("details.title", &d.title, MAX_TEXT_CHARS);
            e.order("details.startDate", d.start_date, "details.endDate", d.end_date);
            e.hours("details.hours", d.hours, limits);
            if d.fee.cents() < 0 {
                e.add("details.fee", "must not be negative");
            }
            None
        }
        Details::F5(d) => {
            e.text("details.topic", &d.topic, MAX_TEXT_CHARS);
            e.hours("details.hours", d.hours, limits);
            None
        }
        Details::F6(d) => {
            e.hours("details.hours", d.hours, limits);
            None
        }
        Details::F7(d) => {
            e.text("details.protegeName", &d.protege_name, MAX_TEXT_CHARS);
            e.text("details.siteName", &d.site_name, MAX_TEXT_CHARS);
            e.order("details.startDate", d.start_date, "details.endDate", d.end_date);
            e.order("details.startDate", d.start_date, "details.placementEndDate", d.placement_end_date);
            None
        }
        Details::F8(d) => {
            e.text("details.institute", &d.institute, MAX_TEXT_CHARS);
            e.order("details.startDate", d.start_date, "details.endDate", d.end_date);
            None
        }
        Details::F9(d) => {
            e.text("details.vendorName", &d.vendor_name, MAX_TEXT_CHARS);
            e.text("details.vendorAddress", &d.vendor_address, MAX_TEXT_CHARS);
            e.text("details.invoiceNumber", &d.invoice_number, MAX_TEXT_CHARS);
            e.positive_money("details.amount", d.amount);
            Some(d.amount)
        }
        Details::F10(d) => {
            e.hours("details.hours", d.hours, limits);
            e.positive_money("details.hourlyRate", d.hourly_rate);
            Some(d.hourly_rate.times_hundredths(d.hours.0).unwrap_or_else(overflow))
        }
        Details::F11(d) => {
            e.text("details.city", &d.city, MAX_TEXT_CHARS);
            e.positive_money("details.nightlyRate", d.nightly_rate);
            let nights = (d.check_out - d.check_in).num_days();
            if nights < 1 {
                e.add("details.checkOut", "must be after details.checkIn");
            } else if d.nights.is_some_and(|n| i64::from(n) != nights) {
                e.add("details.nights", format!("must be {nights} (checkOut − checkIn)"));
            } else if let Some(max) = limits.max_nights.filter(|m| nights > i64::from(*m)) {
                e.add("details.nights", format!("must be at most {max} nights"));
            }
            let nights = nights.clamp(0, i64::from(i32::MAX));
            d.nights = Some(nights as i32);
            Some(d.nightly_rate.times_hundredths(nights * 100).unwrap_or_else(overflow))
        }
        Details::F12(d) => {
            e.lines("details.days", d.days.len());
            let mut seen = std::collections::BTreeSet::new();
            for (i, day) in d.days.iter().enumerate() {
                if !(day.breakfast || day.lunch || day.dinner) {
                    e.add(format!("details.days[{i}]"), "claims no meal");
                }
                if !seen.insert(day.date) {
                    e.add(format!("details.days[{i}].date"), "is listed twice");
                }
            }
            d.meal_rates = Some(rates.meals);
            let r = rates.meals;
            sum(d.days.iter().flat_map(|day| {
                [(day.breakfast, r.breakfast), (day.lunch, r.lunch), (day.dinner, r.dinner)]
                    .into_iter()
                    .filter(|(claimed, _)| *claimed)
                    .map(|(_, rate)| Some(rate))
            }))
            .or_else(|| Some(overflow()))
        }
        Details::F13(d) => {
            e.text("details.courseCode", &d.course_code, MAX_TEXT_CHARS);
            e.text("details.term", &d.term, MAX_TEXT_CHARS);
            if d.units.0 <= 0 {
                e.add("details.units", "must be more than 0");
            }
            None
        }
        Details::F14(d) => {
            e.text("details.reason", &d.reason, MAX_TEXT_CHARS);
            None
        }
    };
    trim_texts(details);

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
            e.add("requestedAmount", format!("must be at most {} (the form's maximum)", limits.max_amount));
        }
    }
    if e.0.is_empty() {
        Ok(Evaluated {
            requested_amount: requested,
            placement_end_date: details.placement_end_date(),
            activity_dates: details.activity_dates(),
        })
    } else {
        Err(e.0)
    }
}

fn trim_texts(details: &mut Details) {
    match details {
        Details::F1(d) => {
            trim(&mut d.mentee_name);
            trim(&mut d.course_code);
        }
        Details::F2(d) => d.items.iter_mut().for_each(|i| trim(&mut i.description)),
        Details::F3(d) => d.trips.iter_mut().for_each(|t| {
            trim(&mut t.from);
            trim(&mut t.to);
        }),
        Details::F4(d) => trim(&mut d.title),
        Details::F5(d) => trim(&mut d.topic),
        Details::F7(d) => {
            trim(&mut d.protege_name);
            trim(&mut d.site_name);
        }
        Details::F8(d) => trim(&mut d.institute),
        Details::F9(d) => {
            trim(&mut d.vendor_name);
            trim(&mut d.vendor_address);
            trim(&mut d.invoice_number);
        }
        Details::F11(d) => trim(&mut d.city),
        Details::F13(d) => {
            trim(&mut d.course_code);
            trim(&mut d.term);
        }
        Details::F14(d) => trim(&mut d.reason),
        Details::F6(_) | Details::F10(_) | Details::F12(_) => {}
    }
}

/// The request's own description: optional, bounded.
pub fn check_description(description: Option<&str>, checks: &mut Checks) -> Option<String> {
    let d = description.map(str::trim).filter(|d| !d.is_empty())?;
    Some(checks.text("description", d, MAX_DESCRIPTION_CHARS))
}

#[cfg(test)]
pub mod tests {
    use super::*;
    use serde_json::json;

    pub fn rates() -> Rates {
        Rates { mileage: Money(70), meals: MealRates { breakfast: Money(1000), lunch: Money(1500), dinner: Money(2500) } }
    }

    pub fn limits() -> Limits {
        Limits {
            max_amount: Money(500_000),
            submission_window_days: 60,
            max_miles_per_trip: Some(500),
            max_hours: Some(40),
            max_nights: Some(5),
        }
    }

    /// A valid `details` for every form, with the amount the server must compute (None = entered).
    pub fn valid(form: FormType) -> (serde_json::Value, Option<i64>) {
        match form {
            FormType::F1 => (json!({"collegeId": 1, "menteeName": "Ana", "courseCode": "CD 101", "placementStartDate": "2025-09-01", "placementEndDate": "2025-12-15", "hours": 12.5}), None),
            FormType::F2 => (json!({"items": [{"date": "2025-10-01", "description": "Books", "amount": 12.34}, {"date": "2025-10-03", "description": "Paper", "amount": 0.66}], "fileIds": []}), Some(1300)),
            FormType::F3 => (json!({"travelPurposeId": 1, "transitTypeId": 2, "trips": [{"date": "2025-10-01", "from": "Fresno", "to": "Clovis", "miles": 12.5}, {"date": "2025-10-02", "from": "Clovis", "to": "Fresno", "miles": 10}]}), Some(1575)),
            FormType::F4 => (json!({"trainingTypeId": 1, "institutionId": 1, "title": "Infant care", "startDate": "2025-10-01", "endDate": "2025-10-02", "hours": 8, "fee": 150}), None),
            FormType::F5 => (json!({"seminarDate": "2025-10-01", "topic": "Play", "hours": 3}), None),
            FormType::F6 => (json!({"activityType": "Workshop", "date": "2025-10-01", "hours": 2.25}), None),
            FormType::F7 => (json!({"protegeName": "Bo", "siteName": "Sunrise", "startDate": "2025-09-01", "endDate": "2026-05-31", "placementEndDate": "2026-06-30"}), None),
            FormType::F8 => (json!({"institute": "Summer Institute", "startDate": "2025-07-01", "endDate": "2025-07-03"}), None),
            FormType::F9 => (json!({"vendorName": "Acme", "vendorAddress": "1 Main St", "invoiceNumber": "INV-7", "invoiceDate": "2025-10-01", "amount": 420.5}), Some(42050)),
            FormType::F10 => (json!({"jobCategoryId": 1, "date": "2025-10-01", "hours": 7.5, "hourlyRate": 22.4}), Some(16800)),
            FormType::F11 => (json!({"nightlyRate": 129.99, "city": "Sacramento", "checkIn": "2025-10-01", "checkOut": "2025-10-03"}), Some(25998)),
            FormType::F12 => (json!({"days": [{"date": "2025-10-01", "breakfast": true, "lunch": true, "dinner": false}, {"date": "2025-10-02", "dinner": true}]}), Some(5000)),
            FormType::F13 => (json!({"collegeId": 1, "institutionId": 1, "courseCode": "ECE 1", "units": 3, "term": "Fall 2025"}), None),
            FormType::F14 => (json!({"bonusType": "Completion", "fiscalYearId": 1, "reason": "Completed the year"}), None),
        }
    }

    fn run(form: FormType, value: serde_json::Value, entered: Option<Money>) -> Result<Evaluated, FieldErrors> {
        let mut d = Details::parse(form, &value).expect("parses");
        evaluate(&mut d, entered, &rates(), &limits())
    }

    fn field_err(form: FormType, value: serde_json::Value, entered: Option<Money>, field: &str) {
        let errs = run(form, value.clone(), entered).expect_err(&format!("{form:?} {value}"));
        assert!(errs.contains_key(field), "{form:?}: want {field}, got {errs:?}");
    }

    fn with(form: FormType, path: &[&str], new: serde_json::Value) -> serde_json::Value {
        let (mut v, _) = valid(form);
        let mut cur = &mut v;
        for (i, p) in path.iter().enumerate() {
            let next = if let Ok(idx) = p.parse::<usize>() { &mut cur[idx] } else { &mut cur[*p] };
            if i == path.len() - 1 {
                *next = new.clone();
                break;
            }
            cur = next;
        }
        v
    }

    #[test]
    fn form_types_round_trip_and_are_fourteen() {
        for f in FormType::ALL {
            assert_eq!(FormType::parse(f.as_str()), Some(f));
            assert_eq!(FormType::parse(&f.as_str().to_lowercase()), Some(f));
            assert_eq!(serde_json::to_value(f).unwrap(), json!(f.as_str()));
            assert!(!f.name().is_empty());
        }
        assert_eq!(FormType::parse("F15"), None);
        assert_eq!(FormType::parse("F0"), None);
    }

    #[test]
    fn every_form_valid_with_its_amount() {
        for form in FormType::ALL {
            let (value, computed) = valid(form);
            let entered = Money(12_345);
            let got = run(form, value, Some(entered)).unwrap_or_else(|e| panic!("{form:?}: {e:?}"));
            match computed {
                Some(cents) => {
                    assert_eq!(got.requested_amount, Money(cents), "{form:?}");
                    assert_ne!(form.amount_source(), AmountSource::Entered);
                }
                None => {
                    assert_eq!(got.requested_amount, entered, "{form:?}");
                    assert_eq!(form.amount_source(), AmountSource::Entered);
                }
            }
        }
    }

    #[test]
    fn entered_forms_need_a_positive_amount_computed_forms_ignore_it() {
        for form in FormType::ALL {
            let (value, computed) = valid(form);
            match computed {
                None => {
                    field_err(form, value.clone(), None, "requestedAmount");
                    field_err(form, value.clone(), Some(Money(0)), "requestedAmount");
                    field_err(form, value, Some(Money(-5)), "requestedAmount");
                }
                Some(cents) => {
                    assert_eq!(run(form, value.clone(), Some(Money(1))).unwrap().requested_amount.cents(), cents);
                    assert!(run(form, value, None).is_ok());
                }
            }
        }
    }

    #[test]
    fn above_max_amount_is_named_on_every_form() {
        for form in FormType::ALL {
            let (value, _) = valid(form);
            let mut d = Details::parse(form, &value).unwrap();
            let tight = Limits { max_amount: Money(1), ..limits() };
            let errs = evaluate(&mut d, Some(Money(2)), &rates(), &tight).unwrap_err();
            assert!(errs.contains_key("requestedAmount"), "{form:?} {errs:?}");
            // Exactly at the maximum is allowed.
            let mut d = Details::parse(form, &value).unwrap();
            let at = evaluate(&mut d, Some(Money(2)), &rates(), &Limits::none()).unwrap().requested_amount;
            let mut d = Details::parse(form, &value).unwrap();
            assert!(evaluate(&mut d, Some(at), &rates(), &Limits { max_amount: at, ..limits() }).is_ok(), "{form:?}");
        }
    }

    #[test]
    fn wrong_types_unknown_fields_and_enum_values_are_400_naming_the_field() {
        let cases: &[(FormType, &[&str], serde_json::Value, &str)] = &[
            (FormType::F1, &["hours"], json!("ten"), "details.hours"),
            (FormType::F1, &["placementEndDate"], json!("2025-13-01"), "details.placementEndDate"),
            (FormType::F1, &["collegeId"], json!(1.5), "details.collegeId"),
            (FormType::F2, &["items", "0", "amount"], json!(1.234), "details.items[0].amount"),
            (FormType::F3, &["trips", "1", "miles"], json!("far"), "details.trips[1].miles"),
            (FormType::F6, &["activityType"], json!("Party"), "details.activityType"),
            (FormType::F9, &["amount"], json!("420.50"), "details.amount"),
            (FormType::F12, &["days", "0", "lunch"], json!("yes"), "details.days[0].lunch"),
            (FormType::F14, &["bonusType"], json!("Huge"), "details.bonusType"),
        ];
        for (form, path, value, field) in cases {
            let body = with(*form, path, value.clone());
            match Details::parse(*form, &body) {
                Err(ApiError::BadRequest { errors, .. }) => assert!(errors.contains_key(*field), "{form:?} {field}: {errors:?}"),
                other => panic!("{form:?} {field}: {other:?}"),
            }
        }
        // missing and unknown fields
        let (mut v, _) = valid(FormType::F5);
        v.as_object_mut().unwrap().remove("topic");
        assert!(matches!(Details::parse(FormType::F5, &v), Err(ApiError::BadRequest { errors, .. }) if errors.contains_key("details.topic")));
        let (mut v, _) = valid(FormType::F5);
        v["color"] = json!("red");
        assert!(matches!(Details::parse(FormType::F5, &v), Err(ApiError::BadRequest { .. })));
        assert!(matches!(Details::parse(FormType::F5, &json!([1])), Err(ApiError::BadRequest { errors, .. }) if errors.contains_key("details")));
        // details of another form do not pass as this one
        let (f9, _) = valid(FormType::F9);
        assert!(Details::parse(FormType::F10, &f9).is_err());
    }

    #[test]
    fn limits_are_named_per_field() {
        field_err(FormType::F3, with(FormType::F3, &["trips", "1", "miles"], json!(500.01)), None, "details.trips[1].miles");
        assert!(run(FormType::F3, with(FormType::F3, &["trips", "1", "miles"], json!(500)), None).is_ok());
        field_err(FormType::F3, with(FormType::F3, &["trips", "0", "miles"], json!(0)), None, "details.trips[0].miles");
        for form in [FormType::F1, FormType::F4, FormType::F5, FormType::F6, FormType::F10] {
            field_err(form, with(form, &["hours"], json!(40.01)), Some(Money(100)), "details.hours");
            field_err(form, with(form, &["hours"], json!(0)), Some(Money(100)), "details.hours");
            assert!(run(form, with(form, &["hours"], json!(40)), Some(Money(100))).is_ok(), "{form:?}");
        }
        field_err(FormType::F11, with(FormType::F11, &["checkOut"], json!("2025-10-07")), None, "details.nights");
        assert!(run(FormType::F11, with(FormType::F11, &["checkOut"], json!("2025-10-06")), None).is_ok());
    }

    #[test]
    fn without_limits_nothing_but_sanity_is_checked() {
        let mut d = Details::parse(FormType::F3, &with(FormType::F3, &["trips", "0", "miles"], json!(9999))).unwrap();
        assert!(evaluate(&mut d, None, &rates(), &Limits::none()).is_ok());
    }

    #[test]
    fn date_order() {
        field_err(FormType::F1, with(FormType::F1, &["placementEndDate"], json!("2025-08-31")), Some(Money(1)), "details.placementEndDate");
        field_err(FormType::F4, with(FormType::F4, &["endDate"], json!("2025-09-30")), Some(Money(1)), "details.endDate");
        field_err(FormType::F7, with(FormType::F7, &["endDate"], json!("2025-08-01")), Some(Money(1)), "details.endDate");
        field_err(FormType::F7, with(FormType::F7, &["placementEndDate"], json!("2025-08-01")), Some(Money(1)), "details.placementEndDate");
        field_err(FormType::F8, with(FormType::F8, &["endDate"], json!("2025-06-30")), Some(Money(1)), "details.endDate");
        field_err(FormType::F11, with(FormType::F11, &["checkOut"], json!("2025-10-01")), None, "details.checkOut");
        // same-day spans are fine where a day is a unit
        assert!(run(FormType::F8, with(FormType::F8, &["endDate"], json!("2025-07-01")), Some(Money(1))).is_ok());
    }

    #[test]
    fn required_texts_and_lines() {
        field_err(FormType::F1, with(FormType::F1, &["menteeName"], json!("  ")), Some(Money(1)), "details.menteeName");
        field_err(FormType::F9, with(FormType::F9, &["vendorName"], json!("x".repeat(201))), None, "details.vendorName");
        field_err(FormType::F2, with(FormType::F2, &["items"], json!([])), None, "details.items");
        field_err(FormType::F2, with(FormType::F2, &["items", "1", "description"], json!("")), None, "details.items[1].description");
        field_err(FormType::F2, with(FormType::F2, &["items", "1", "amount"], json!(0)), None, "details.items[1].amount");
        field_err(FormType::F2, with(FormType::F2, &["fileIds"], json!(["a", "a"])), None, "details.fileIds[1]");
        field_err(FormType::F3, with(FormType::F3, &["trips"], json!([])), None, "details.trips");
        field_err(FormType::F3, with(FormType::F3, &["trips", "0", "to"], json!("")), None, "details.trips[0].to");
        field_err(FormType::F4, with(FormType::F4, &["fee"], json!(-1)), Some(Money(1)), "details.fee");
        field_err(FormType::F9, with(FormType::F9, &["amount"], json!(0)), None, "details.amount");
        field_err(FormType::F10, with(FormType::F10, &["hourlyRate"], json!(0)), None, "details.hourlyRate");
        field_err(FormType::F11, with(FormType::F11, &["nightlyRate"], json!(0)), None, "details.nightlyRate");
        field_err(FormType::F11, with(FormType::F11, &["city"], json!("")), None, "details.city");
        field_err(FormType::F12, with(FormType::F12, &["days"], json!([])), None, "details.days");
        field_err(FormType::F12, with(FormType::F12, &["days", "1", "dinner"], json!(false)), None, "details.days[1]");
        field_err(FormType::F12, with(FormType::F12, &["days", "1", "date"], json!("2025-10-01")), None, "details.days[1].date");
        field_err(FormType::F13, with(FormType::F13, &["units"], json!(0)), Some(Money(1)), "details.units");
        field_err(FormType::F13, with(FormType::F13, &["term"], json!("")), Some(Money(1)), "details.term");
        field_err(FormType::F14, with(FormType::F14, &["reason"], json!("")), Some(Money(1)), "details.reason");
        field_err(FormType::F5, with(FormType::F5, &["topic"], json!("")), Some(Money(1)), "details.topic");
        field_err(FormType::F7, with(FormType::F7, &["siteName"], json!("")), Some(Money(1)), "details.siteName");
        field_err(FormType::F8, with(FormType::F8, &["institute"], json!("")), Some(Money(1)), "details.institute");
        let mut many = Vec::new();
        for _ in 0..=MAX_LINES {
            many.push(json!({"date": "2025-10-01", "description": "x", "amount": 1}));
        }
        field_err(FormType::F2, with(FormType::F2, &["items"], json!(many)), None, "details.items");
    }

    #[test]
    fn f11_nights_are_computed_and_a_wrong_count_refused() {
        let mut d = Details::parse(FormType::F11, &valid(FormType::F11).0).unwrap();
        evaluate(&mut d, None, &rates(), &limits()).unwrap();
        assert!(matches!(&d, Details::F11(x) if x.nights == Some(2)));
        field_err(FormType::F11, with(FormType::F11, &["nights"], json!(3)), None, "details.nights");
        assert!(run(FormType::F11, with(FormType::F11, &["nights"], json!(2)), None).is_ok());
    }

    #[test]
    fn rates_are_recorded_in_details_and_read_back() {
        for form in [FormType::F3, FormType::F12] {
            let mut d = Details::parse(form, &valid(form).0).unwrap();
            evaluate(&mut d, None, &rates(), &limits()).unwrap();
            let stored = d.to_json();
            assert!(stored.contains("mileageRate") || stored.contains("mealRates"), "{stored}");
            assert_eq!(Details::from_stored(form, &stored).unwrap(), d);
        }
        // A caller cannot set the rate.
        let mut v = valid(FormType::F3).0;
        v["mileageRate"] = json!(5);
        let mut d = Details::parse(FormType::F3, &v).unwrap();
        assert_eq!(evaluate(&mut d, None, &rates(), &limits()).unwrap().requested_amount, Money(1575));
    }

    #[test]
    fn mileage_rounds_to_the_cent() {
        let r = Rates { mileage: Money(67), ..rates() };
        let mut d = Details::parse(FormType::F3, &with(FormType::F3, &["trips"], json!([{"date": "2025-10-01", "from": "a", "to": "b", "miles": 0.33}]))).unwrap();
        assert_eq!(evaluate(&mut d, None, &r, &limits()).unwrap().requested_amount, Money(22));
    }

    #[test]
    fn texts_are_trimmed() {
        let mut d = Details::parse(FormType::F9, &with(FormType::F9, &["vendorName"], json!("  Acme  "))).unwrap();
        evaluate(&mut d, None, &rates(), &limits()).unwrap();
        assert!(matches!(&d, Details::F9(x) if x.vendor_name == "Acme"));
    }

    #[test]
    fn placement_and_activity_dates() {
        let date = |s: &str| NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap();
        for form in FormType::ALL {
            let got = run(form, valid(form).0, Some(Money(1))).unwrap();
            match form {
                FormType::F1 => assert_eq!(got.placement_end_date, Some(date("2025-12-15"))),
                FormType::F7 => assert_eq!(got.placement_end_date, Some(date("2026-06-30"))),
                _ => assert_eq!(got.placement_end_date, None, "{form:?}"),
            }
            match form {
                FormType::F13 | FormType::F14 => assert_eq!(got.activity_dates, None),
                _ => {
                    let (a, b) = got.activity_dates.unwrap_or_else(|| panic!("{form:?}"));
                    assert!(a <= b);
                }
            }
        }
        let got = run(FormType::F3, valid(FormType::F3).0, None).unwrap();
        assert_eq!(got.activity_dates, Some((date("2025-10-01"), date("2025-10-02"))));
    }

    #[test]
    fn references_name_their_fields() {
        for form in FormType::ALL {
            let d = Details::parse(form, &valid(form).0).unwrap();
            for (field, _, id) in d.references() {
                assert!(field.starts_with("details."));
                assert_eq!(id, 1.max(id));
            }
            assert_eq!(d.form_type(), form);
        }
        let d = Details::parse(FormType::F3, &valid(FormType::F3).0).unwrap();
        assert_eq!(d.references().len(), 2);
    }

    #[test]
    fn f4_institution_is_optional_and_null_reads_as_missing() {
        let d = Details::parse(FormType::F4, &with(FormType::F4, &["institutionId"], serde_json::Value::Null)).unwrap();
        assert_eq!(d.references().len(), 1, "only the training type is checked");
        let mut v = valid(FormType::F4).0;
        v.as_object_mut().unwrap().remove("institutionId");
        assert!(Details::parse(FormType::F4, &v).is_ok());
        // A required id sent as null is "required", in words.
        match Details::parse(FormType::F4, &with(FormType::F4, &["trainingTypeId"], serde_json::Value::Null)) {
            Err(ApiError::BadRequest { errors, .. }) => assert_eq!(errors["details.trainingTypeId"], ["is required"]),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn serde_messages_become_plain_words() {
        assert_eq!(plain_words("invalid type: null, expected i32"), "is required");
        assert_eq!(plain_words("invalid type: string \"x\", expected i32"), "must be a whole number");
        assert_eq!(plain_words("invalid type: integer `5`, expected a string"), "must be text");
        assert_eq!(plain_words("invalid type: string \"yes\", expected a boolean"), "must be yes or no (true or false)");
        assert_eq!(plain_words("unknown variant `Party`, expected one of `Workshop`, `Other`"), "must be one of Workshop, Other");
        assert_eq!(plain_words("input contains invalid characters"), "must be a date (YYYY-MM-DD)");
        assert_eq!(plain_words("must have at most two decimals"), "must have at most two decimals");
    }

    #[test]
    fn description_is_optional_and_bounded() {
        let mut errs = Checks::default();
        assert_eq!(check_description(Some("  hi "), &mut errs), Some("hi".into()));
        assert_eq!(check_description(Some("   "), &mut errs), None);
        assert_eq!(check_description(None, &mut errs), None);
        assert!(errs.is_empty());
        check_description(Some(&"x".repeat(MAX_DESCRIPTION_CHARS + 1)), &mut errs);
        assert!(errs.0.contains_key("description"));
    }

    #[test]
    fn huge_quantities_do_not_overflow() {
        let mut d = Details::parse(FormType::F10, &with(FormType::F10, &["hourlyRate"], json!(10000000000i64))).unwrap();
        // 7.5 hours × 10 billion is above the money ceiling: refused, not wrapped.
        assert!(evaluate(&mut d, None, &rates(), &Limits::none()).is_err());
    }
}
