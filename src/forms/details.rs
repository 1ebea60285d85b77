//! Each form's typed `details`, what it is (its `Shape`: amount rule, reference fields,
//! receipts) and what it checks and computes (its `Form` impl), beside its struct. Errors are
//! keyed like `details.trips[2].miles`.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{
    shape::{ReceiptField, RefField, Shape, MAX_FILES},
    AmountQuantity, AmountRate, AmountRule, Form, Limits, Rates, Reference, Rounding,
};
use crate::{
    error::Checks,
    money::{Hundredths, Money},
};

pub const MAX_TEXT_CHARS: usize = 200;
pub const MAX_DESCRIPTION_CHARS: usize = 2000;
pub const MAX_LINES: usize = 100;

/// An amount past the money ceiling: refused by the maximum check, never wrapped.
const OVERFLOW: Money = Money(i64::MAX);

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

/// The first and last of some dates.
fn span(dates: impl Iterator<Item = NaiveDate>) -> Option<(NaiveDate, NaiveDate)> {
    dates.fold(None, |acc, d| match acc {
        None => Some((d, d)),
        Some((a, b)) => Some((a.min(d), b.max(d))),
    })
}

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

impl Shape for F1Details {
    const AMOUNT: AmountRule = AmountRule::Entered;
    const REFERENCES: &'static [RefField<Self>] =
        &[RefField { field: "collegeId", list: Reference::College, id: |d| Some(d.college_id) }];
}

impl Form for F1Details {
    fn check(&mut self, e: &mut Checks, _: &Rates, limits: &Limits) -> Option<Money> {
        trim(&mut self.mentee_name);
        trim(&mut self.course_code);
        e.text("details.menteeName", &self.mentee_name, MAX_TEXT_CHARS);
        e.text("details.courseCode", &self.course_code, MAX_TEXT_CHARS);
        e.order(
            "details.placementStartDate",
            self.placement_start_date,
            "details.placementEndDate",
            self.placement_end_date,
        );
        e.hours("details.hours", self.hours, limits);
        None
    }

    fn activity_dates(&self) -> Option<(NaiveDate, NaiveDate)> {
        Some((self.placement_start_date, self.placement_end_date))
    }

    fn placement_end_date(&self) -> Option<NaiveDate> {
        Some(self.placement_end_date)
    }
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

// The receipts' items say what is owed, so the server sums them rather than trusting a
// second number.
impl Shape for F2Details {
    const AMOUNT: AmountRule = AmountRule::Sum { rows: "items", column: "amount" };
    const RECEIPTS: Option<ReceiptField<Self>> =
        Some(ReceiptField { field: "fileIds", ids: |d| &d.file_ids });
}

impl Form for F2Details {
    fn check(&mut self, e: &mut Checks, _: &Rates, _: &Limits) -> Option<Money> {
        self.items.iter_mut().for_each(|i| trim(&mut i.description));
        e.lines("details.items", self.items.len());
        for (i, item) in self.items.iter().enumerate() {
            e.text(&format!("details.items[{i}].description"), &item.description, MAX_TEXT_CHARS);
            e.positive_money(&format!("details.items[{i}].amount"), item.amount);
        }
        if self.file_ids.len() > MAX_FILES {
            e.add("details.fileIds", format!("may hold at most {MAX_FILES} files"));
        }
        let mut seen = std::collections::BTreeSet::new();
        for (i, id) in self.file_ids.iter().enumerate() {
            if !seen.insert(id) {
                e.add(format!("details.fileIds[{i}]"), "is listed twice");
            }
        }
        Some(sum(self.items.iter().map(|i| Some(i.amount))).unwrap_or(OVERFLOW))
    }

    fn activity_dates(&self) -> Option<(NaiveDate, NaiveDate)> {
        span(self.items.iter().map(|i| i.date))
    }
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

impl Shape for F3Details {
    const AMOUNT: AmountRule = AmountRule::Product {
        quantity: AmountQuantity::SumOfRows { rows: "trips", column: "miles" },
        rate: AmountRate::Setting { setting: "mileageRate", unit: "mile" },
        rounding: Rounding::HalfAwayFromZero,
    };
    const REFERENCES: &'static [RefField<Self>] = &[
        RefField {
            field: "travelPurposeId",
            list: Reference::TravelPurpose,
            id: |d| Some(d.travel_purpose_id),
        },
        RefField {
            field: "transitTypeId",
            list: Reference::TransitType,
            id: |d| Some(d.transit_type_id),
        },
    ];
}

impl Form for F3Details {
    fn check(&mut self, e: &mut Checks, rates: &Rates, limits: &Limits) -> Option<Money> {
        e.lines("details.trips", self.trips.len());
        for (i, trip) in self.trips.iter_mut().enumerate() {
            trim(&mut trip.from);
            trim(&mut trip.to);
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
        self.mileage_rate = Some(rates.mileage);
        let miles: i64 = self.trips.iter().map(|t| t.miles.0.max(0)).sum();
        Some(rates.mileage.times_hundredths(miles).unwrap_or(OVERFLOW))
    }

    fn activity_dates(&self) -> Option<(NaiveDate, NaiveDate)> {
        span(self.trips.iter().map(|t| t.date))
    }
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

impl Shape for F4Details {
    const AMOUNT: AmountRule = AmountRule::Entered;
    const REFERENCES: &'static [RefField<Self>] = &[
        RefField {
            field: "trainingTypeId",
            list: Reference::TrainingType,
            id: |d| Some(d.training_type_id),
        },
        RefField { field: "institutionId", list: Reference::Institution, id: |d| d.institution_id },
    ];
}

impl Form for F4Details {
    fn check(&mut self, e: &mut Checks, _: &Rates, limits: &Limits) -> Option<Money> {
        trim(&mut self.title);
        e.text("details.title", &self.title, MAX_TEXT_CHARS);
        e.order("details.startDate", self.start_date, "details.endDate", self.end_date);
        e.hours("details.hours", self.hours, limits);
        if self.fee.cents() < 0 {
            e.add("details.fee", "must not be negative");
        }
        None
    }

    fn activity_dates(&self) -> Option<(NaiveDate, NaiveDate)> {
        Some((self.start_date, self.end_date))
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct F5Details {
    #[serde(deserialize_with = "crate::web::date")]
    pub seminar_date: NaiveDate,
    pub topic: String,
    pub hours: Hundredths,
}

impl Shape for F5Details {
    const AMOUNT: AmountRule = AmountRule::Entered;
}

impl Form for F5Details {
    fn check(&mut self, e: &mut Checks, _: &Rates, limits: &Limits) -> Option<Money> {
        trim(&mut self.topic);
        e.text("details.topic", &self.topic, MAX_TEXT_CHARS);
        e.hours("details.hours", self.hours, limits);
        None
    }

    fn activity_dates(&self) -> Option<(NaiveDate, NaiveDate)> {
        Some((self.seminar_date, self.seminar_date))
    }
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

impl Shape for F6Details {
    const AMOUNT: AmountRule = AmountRule::Entered;
}

impl Form for F6Details {
    fn check(&mut self, e: &mut Checks, _: &Rates, limits: &Limits) -> Option<Money> {
        e.hours("details.hours", self.hours, limits);
        None
    }

    fn activity_dates(&self) -> Option<(NaiveDate, NaiveDate)> {
        Some((self.date, self.date))
    }
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

impl Shape for F7Details {
    const AMOUNT: AmountRule = AmountRule::Entered;
}

impl Form for F7Details {
    fn check(&mut self, e: &mut Checks, _: &Rates, _: &Limits) -> Option<Money> {
        trim(&mut self.protege_name);
        trim(&mut self.site_name);
        e.text("details.protegeName", &self.protege_name, MAX_TEXT_CHARS);
        e.text("details.siteName", &self.site_name, MAX_TEXT_CHARS);
        e.order("details.startDate", self.start_date, "details.endDate", self.end_date);
        e.order(
            "details.startDate",
            self.start_date,
            "details.placementEndDate",
            self.placement_end_date,
        );
        None
    }

    fn activity_dates(&self) -> Option<(NaiveDate, NaiveDate)> {
        Some((self.start_date, self.end_date))
    }

    fn placement_end_date(&self) -> Option<NaiveDate> {
        Some(self.placement_end_date)
    }
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

impl Shape for F8Details {
    const AMOUNT: AmountRule = AmountRule::Entered;
}

impl Form for F8Details {
    fn check(&mut self, e: &mut Checks, _: &Rates, _: &Limits) -> Option<Money> {
        trim(&mut self.institute);
        e.text("details.institute", &self.institute, MAX_TEXT_CHARS);
        e.order("details.startDate", self.start_date, "details.endDate", self.end_date);
        None
    }

    fn activity_dates(&self) -> Option<(NaiveDate, NaiveDate)> {
        Some((self.start_date, self.end_date))
    }
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

// The invoice says what is owed, so the server takes its amount rather than a second number.
impl Shape for F9Details {
    const AMOUNT: AmountRule = AmountRule::Field { field: "amount" };
}

impl Form for F9Details {
    fn check(&mut self, e: &mut Checks, _: &Rates, _: &Limits) -> Option<Money> {
        trim(&mut self.vendor_name);
        trim(&mut self.vendor_address);
        trim(&mut self.invoice_number);
        e.text("details.vendorName", &self.vendor_name, MAX_TEXT_CHARS);
        e.text("details.vendorAddress", &self.vendor_address, MAX_TEXT_CHARS);
        e.text("details.invoiceNumber", &self.invoice_number, MAX_TEXT_CHARS);
        e.positive_money("details.amount", self.amount);
        Some(self.amount)
    }

    fn activity_dates(&self) -> Option<(NaiveDate, NaiveDate)> {
        Some((self.invoice_date, self.invoice_date))
    }
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

impl Shape for F10Details {
    const AMOUNT: AmountRule = AmountRule::Product {
        quantity: AmountQuantity::Field { field: "hours" },
        rate: AmountRate::Field { field: "hourlyRate" },
        rounding: Rounding::HalfAwayFromZero,
    };
    const REFERENCES: &'static [RefField<Self>] = &[RefField {
        field: "jobCategoryId",
        list: Reference::JobCategory,
        id: |d| Some(d.job_category_id),
    }];
}

impl Form for F10Details {
    fn check(&mut self, e: &mut Checks, _: &Rates, limits: &Limits) -> Option<Money> {
        e.hours("details.hours", self.hours, limits);
        e.positive_money("details.hourlyRate", self.hourly_rate);
        Some(self.hourly_rate.times_hundredths(self.hours.0).unwrap_or(OVERFLOW))
    }

    fn activity_dates(&self) -> Option<(NaiveDate, NaiveDate)> {
        Some((self.date, self.date))
    }
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

impl Shape for F11Details {
    const AMOUNT: AmountRule = AmountRule::Product {
        quantity: AmountQuantity::DaysBetween { from: "checkIn", to: "checkOut" },
        rate: AmountRate::Field { field: "nightlyRate" },
        rounding: Rounding::HalfAwayFromZero,
    };
}

impl Form for F11Details {
    fn check(&mut self, e: &mut Checks, _: &Rates, limits: &Limits) -> Option<Money> {
        trim(&mut self.city);
        e.text("details.city", &self.city, MAX_TEXT_CHARS);
        e.positive_money("details.nightlyRate", self.nightly_rate);
        let nights = (self.check_out - self.check_in).num_days();
        if nights < 1 {
            e.add("details.checkOut", "must be after details.checkIn");
        } else if self.nights.is_some_and(|n| i64::from(n) != nights) {
            e.add("details.nights", format!("must be {nights} (checkOut − checkIn)"));
        } else if let Some(max) = limits.max_nights.filter(|m| nights > i64::from(*m)) {
            e.add("details.nights", format!("must be at most {max} nights"));
        }
        let nights = nights.clamp(0, i64::from(i32::MAX));
        self.nights = Some(nights as i32);
        Some(self.nightly_rate.times_hundredths(nights * 100).unwrap_or(OVERFLOW))
    }

    fn activity_dates(&self) -> Option<(NaiveDate, NaiveDate)> {
        Some((self.check_in, self.check_out))
    }
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

impl Shape for F12Details {
    const AMOUNT: AmountRule = AmountRule::Meals { rows: "days", setting: "mealRates" };
}

impl Form for F12Details {
    fn check(&mut self, e: &mut Checks, rates: &Rates, _: &Limits) -> Option<Money> {
        e.lines("details.days", self.days.len());
        let mut seen = std::collections::BTreeSet::new();
        for (i, day) in self.days.iter().enumerate() {
            if !(day.breakfast || day.lunch || day.dinner) {
                e.add(format!("details.days[{i}]"), "claims no meal");
            }
            if !seen.insert(day.date) {
                e.add(format!("details.days[{i}].date"), "is listed twice");
            }
        }
        self.meal_rates = Some(rates.meals);
        let r = rates.meals;
        sum(self.days.iter().flat_map(|day| {
            [(day.breakfast, r.breakfast), (day.lunch, r.lunch), (day.dinner, r.dinner)]
                .into_iter()
                .filter(|(claimed, _)| *claimed)
                .map(|(_, rate)| Some(rate))
        }))
        .or(Some(OVERFLOW))
    }

    fn activity_dates(&self) -> Option<(NaiveDate, NaiveDate)> {
        span(self.days.iter().map(|x| x.date))
    }
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

impl Shape for F13Details {
    const AMOUNT: AmountRule = AmountRule::Entered;
    const REFERENCES: &'static [RefField<Self>] = &[
        RefField { field: "collegeId", list: Reference::College, id: |d| Some(d.college_id) },
        RefField {
            field: "institutionId",
            list: Reference::Institution,
            id: |d| Some(d.institution_id),
        },
    ];
}

impl Form for F13Details {
    fn check(&mut self, e: &mut Checks, _: &Rates, _: &Limits) -> Option<Money> {
        trim(&mut self.course_code);
        trim(&mut self.term);
        e.text("details.courseCode", &self.course_code, MAX_TEXT_CHARS);
        e.text("details.term", &self.term, MAX_TEXT_CHARS);
        if self.units.0 <= 0 {
            e.add("details.units", "must be more than 0");
        }
        None
    }

    /// Course fees have no activity dates.
    fn activity_dates(&self) -> Option<(NaiveDate, NaiveDate)> {
        None
    }
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

impl Shape for F14Details {
    const AMOUNT: AmountRule = AmountRule::Entered;
    const REFERENCES: &'static [RefField<Self>] = &[RefField {
        field: "fiscalYearId",
        list: Reference::FiscalYear,
        id: |d| Some(d.fiscal_year_id),
    }];
}

impl Form for F14Details {
    fn check(&mut self, e: &mut Checks, _: &Rates, _: &Limits) -> Option<Money> {
        trim(&mut self.reason);
        e.text("details.reason", &self.reason, MAX_TEXT_CHARS);
        None
    }

    /// A bonus has no activity dates.
    fn activity_dates(&self) -> Option<(NaiveDate, NaiveDate)> {
        None
    }
}
