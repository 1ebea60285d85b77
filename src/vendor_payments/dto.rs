//! Wire shapes of the vendor payment calls, camelCase.

use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::{
    entities::vendor_payment_report as report, entities::vendor_payment_report_row as frozen,
    forms::FormType, money::Money, web::paged,
};

paged! { described
    /// GET /reports/vendor-payments: the ready requests approved in a range of a fiscal year.
    #[derive(Debug, Deserialize, IntoParams)]
    #[serde(rename_all = "lowercase")]
    #[into_params(parameter_in = Query)]
    pub struct PreviewQuery {
        /// An unknown year is a 422.
        #[param(rename = "FiscalYearId")]
        pub fiscalyearid: i32,
        /// First approval day (local), inclusive; default the fiscal year's first day.
        #[param(rename = "StartDate", value_type = Option<String>, format = Date)]
        #[serde(default, deserialize_with = "crate::web::opt_date")]
        pub startdate: Option<NaiveDate>,
        /// Last approval day (local), inclusive; default the fiscal year's last day.
        #[param(rename = "EndDate", value_type = Option<String>, format = Date)]
        #[serde(default, deserialize_with = "crate::web::opt_date")]
        pub enddate: Option<NaiveDate>,
        /// UTC minus local time in minutes (the browser's getTimezoneOffset()); default 0.
        #[param(rename = "MinutesOffset", minimum = -840, maximum = 840)]
        pub minutesoffset: Option<i32>,
    }
}

/// The `/retrieve` twin of a view: its filters plus the format.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "lowercase")]
#[into_params(parameter_in = Query)]
pub struct PreviewRetrieveQuery {
    /// An unknown year is a 422.
    #[param(rename = "FiscalYearId")]
    pub fiscalyearid: i32,
    #[param(rename = "StartDate", value_type = Option<String>, format = Date)]
    #[serde(default, deserialize_with = "crate::web::opt_date")]
    pub startdate: Option<NaiveDate>,
    #[param(rename = "EndDate", value_type = Option<String>, format = Date)]
    #[serde(default, deserialize_with = "crate::web::opt_date")]
    pub enddate: Option<NaiveDate>,
    #[param(rename = "MinutesOffset", minimum = -840, maximum = 840)]
    pub minutesoffset: Option<i32>,
    /// `Csv`, `Xlsx` or `Pdf` (any case).
    #[param(rename = "ReportFormat", value_type = crate::reports::export::Format, inline)]
    pub reportformat: Option<String>,
}

/// GET /reports/vendor-payments/history/{id}/retrieve.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "lowercase")]
#[into_params(parameter_in = Query)]
pub struct HistoryRetrieveQuery {
    /// `Csv`, `Xlsx` or `Pdf` (any case).
    #[param(rename = "ReportFormat", value_type = crate::reports::export::Format, inline)]
    pub reportformat: Option<String>,
    /// Timestamps print as local time (UTC − MinutesOffset); default 0.
    #[param(rename = "MinutesOffset", minimum = -840, maximum = 840)]
    pub minutesoffset: Option<i32>,
}

/// One payment of a vendor payment report (previewed, or frozen in a history entry).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct VendorPaymentRow {
    /// The vendor for F9, otherwise the participant paid, as approved.
    pub payee: String,
    pub payee_address: Option<String>,
    pub request_id: i32,
    #[schema(value_type = String)]
    pub form_type: FormType,
    /// The approval time (the report's date column, "Approved on").
    pub approved_at: DateTime<Utc>,
    pub approval_code: Option<String>,
    pub fund: Option<String>,
    pub expense_account: Option<String>,
    pub amount: Money,
}

impl From<frozen::Model> for VendorPaymentRow {
    fn from(r: frozen::Model) -> Self {
        VendorPaymentRow {
            payee: r.payee,
            payee_address: r.payee_address,
            request_id: r.payment_request_id,
            form_type: r.form_type,
            approved_at: r.approved_at,
            approval_code: r.approval_code,
            fund: r.fund,
            expense_account: r.expense_account,
            amount: Money(r.amount_cents),
        }
    }
}

/// Totals over every matching row, not just the page (the count travels as `totalCount`).
#[derive(Debug, Clone, Copy, Serialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct RowTotals {
    #[serde(skip)]
    pub count: i64,
    #[schema(value_type = crate::money::MoneySum)]
    pub amount: Money,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PreviewPage {
    pub items: Vec<VendorPaymentRow>,
    pub page: u64,
    pub size: u64,
    pub total_count: u64,
    pub totals: RowTotals,
    /// Requests of the whole preview (not only this page) whose payee changed since
    /// approval, oldest approval first, at most 100: they are paid as approved.
    pub payee_changes: Vec<PayeeChange>,
    /// Ready requests of the same fiscal year (in the caller's scope) approved outside the
    /// chosen days: the range leaves them out.
    pub outside_range: OutsideRange,
}

/// What a preview's range leaves out of its fiscal year's ready requests.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OutsideRange {
    pub count: i64,
    #[schema(value_type = crate::money::MoneySum)]
    pub amount: Money,
}

/// A ready request whose participant was renamed or re-addressed after approval.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PayeeChange {
    pub request_id: i32,
    #[schema(value_type = String)]
    pub form_type: FormType,
    /// The payee as approved: what the vendor payment pays.
    pub approved_payee: String,
    pub approved_address: Option<String>,
    /// The payee as the participant record names it now.
    pub payee: String,
    pub payee_address: Option<String>,
    /// What changed, in words.
    pub message: String,
}

/// POST /reports/vendor-payments: what the user previewed and confirms.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GenerateBody {
    /// An unknown year is a 422.
    pub fiscal_year_id: i32,
    #[serde(deserialize_with = "crate::web::date")]
    #[schema(value_type = String, format = Date)]
    pub start_date: NaiveDate,
    /// A day before startDate is a 422.
    #[serde(deserialize_with = "crate::web::date")]
    #[schema(value_type = String, format = Date)]
    pub end_date: NaiveDate,
    /// The preview's row count; a different count now is a 409.
    #[schema(minimum = 0)]
    pub expected_count: i64,
    /// The preview's total; a different total now is a 409.
    pub expected_total: Money,
    /// As in the preview's query; default 0.
    #[serde(default)]
    #[schema(minimum = -840, maximum = 840)]
    pub minutes_offset: Option<i32>,
}

/// A history entry (a generated report).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct HistoryEntry {
    pub id: i32,
    pub created_at: DateTime<Utc>,
    /// The user who generated it.
    pub created_by: i32,
    pub created_by_name: String,
    pub fiscal_year_id: i32,
    pub fiscal_year_name: Option<String>,
    pub start_date: NaiveDate,
    pub end_date: NaiveDate,
    pub row_count: i64,
    #[schema(value_type = crate::money::MoneySum)]
    pub total_amount: Money,
}

impl HistoryEntry {
    /// `counted`: the rows the caller may see (a Coordinator sees its programs' share).
    pub fn new(r: report::Model, fiscal_year_name: Option<String>, counted: RowTotals) -> Self {
        HistoryEntry {
            id: r.id,
            created_at: r.created_at,
            created_by: r.created_by,
            created_by_name: r.created_by_name,
            fiscal_year_id: r.fiscal_year_id,
            fiscal_year_name,
            start_date: r.start_date,
            end_date: r.end_date,
            row_count: counted.count,
            total_amount: counted.amount,
        }
    }
}

/// What was paid in one fiscal year over every entry the caller sees: money of different
/// years is never added, so the history carries one of these per year.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct HistoryTotals {
    pub fiscal_year_id: i32,
    pub fiscal_year_name: Option<String>,
    pub row_count: i64,
    #[schema(value_type = crate::money::MoneySum)]
    pub total_amount: Money,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct HistoryPage {
    pub items: Vec<HistoryEntry>,
    pub page: u64,
    pub size: u64,
    pub total_count: u64,
    /// One per fiscal year with an entry, oldest year first.
    pub totals: Vec<HistoryTotals>,
}

/// GET /reports/vendor-payments/ready: the requests waiting to be paid in one fiscal year.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReadyYear {
    pub fiscal_year_id: i32,
    pub fiscal_year_name: String,
    /// Ready for processing, in the caller's scope.
    pub count: i64,
    #[schema(value_type = crate::money::MoneySum)]
    pub amount: Money,
    /// When the first and the last of them were approved: the days a generation must span
    /// to pay them all (approval may fall after the year's own last day).
    pub first_approved_at: DateTime<Utc>,
    pub last_approved_at: DateTime<Utc>,
}

/// GET /reports/vendor-payments/history/{id}: the entry and a page of its frozen rows.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct HistoryDetails {
    pub entry: HistoryEntry,
    pub items: Vec<VendorPaymentRow>,
    pub page: u64,
    pub size: u64,
    pub total_count: u64,
    pub totals: RowTotals,
}
