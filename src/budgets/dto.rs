//! Wire shapes of the budget calls, camelCase; amounts are `Money`.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::{
    entities::codes::Status,
    money::{Hundredths, Money},
    settings::dto::FiscalYearDto,
};

/// A fiscal year's budget in the list, with its totals.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BudgetSummaryDto {
    pub fiscal_year_id: i32,
    pub name: String,
    pub start_date: NaiveDate,
    pub end_date: NaiveDate,
    /// The sum of the year's lines.
    #[schema(value_type = crate::money::MoneySum)]
    pub budgeted: Money,
    /// Approved payment requests charged to the year's lines.
    #[schema(value_type = crate::money::MoneySum)]
    pub approved: Money,
    /// `budgeted - approved`; negative when overspent.
    #[schema(value_type = crate::money::MoneySum)]
    pub remaining: Money,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BudgetLineDto {
    pub id: i32,
    pub mentor_program_id: i32,
    pub fund_id: i32,
    pub expense_account_id: i32,
    pub budgeted: Money,
    /// The approved requests charged to the line.
    #[schema(value_type = crate::money::MoneySum)]
    pub approved: Money,
    #[schema(value_type = crate::money::MoneySum)]
    pub remaining: Money,
    /// Send it back on `PUT /budgets/{id}` to be warned of concurrent changes (409).
    pub version: i32,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BudgetDetailDto {
    pub fiscal_year: FiscalYearDto,
    pub lines: Vec<BudgetLineDto>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UpdateLineRequest {
    /// The line's new budgeted amount, not negative.
    #[schema(value_type = crate::money::NonNegativeMoney)]
    pub amount: Money,
    /// Optional: the version the change is based on; a stale one is a 409.
    #[serde(default)]
    pub version: Option<i32>,
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BulkLine {
    pub mentor_program_id: i32,
    pub fund_id: i32,
    pub expense_account_id: i32,
    #[schema(value_type = crate::money::NonNegativeMoney)]
    pub amount: Money,
}

/// Lines to create or change (matched on program × fund × expense account); lines not
/// listed stay as they are.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BulkUpdateRequest {
    pub fiscal_year_id: i32,
    pub lines: Vec<BulkLine>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "lowercase")]
#[into_params(parameter_in = Query)]
pub struct BudgetsQuery {
    /// Part of the fiscal year's name, any case.
    pub query: Option<String>,
}

/// Copies every line of the source year into an empty year.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CopyBudgetRequest {
    /// Percent added to every amount (negative lowers it; 0 copies the amounts as they are),
    /// at most two decimals, from -100 to 1000. Each line is rounded to the cent, half away from zero.
    #[schema(value_type = f64, minimum = -100, maximum = 1000, multiple_of = 0.01, example = 3.5)]
    pub percent_change: Hundredths,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CopyBudgetResult {
    /// Lines created in the target year.
    pub created: usize,
    /// Their sum.
    #[schema(value_type = crate::money::MoneySum)]
    pub total: Money,
}

/// GET /budgets/{id}/close-preview: what is still open in a fiscal year, before it is closed.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ClosePreviewDto {
    pub fiscal_year_id: i32,
    pub name: String,
    pub closed: bool,
    /// Requests charged to the year and not yet paid, in the caller's scope, per status in
    /// workflow order (only the statuses that hold some).
    pub open: Vec<OpenInYear>,
    /// Their sum: 0 when closing leaves nothing waiting.
    pub open_count: i64,
    /// What closing does, in one sentence.
    pub summary: String,
}

/// The requests of one status still open in a year, and what closing does to them.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OpenInYear {
    pub form_status: Status,
    /// The status in words.
    pub label: String,
    pub count: i64,
    pub after_close: String,
}
