//! The files of a vendor payment report (a preview, or a history entry), written by the
//! shared export layer from these columns and a stream of rows.

use sea_orm::{
    sea_query::{Expr, ExprTrait, Order, Query},
    DatabaseConnection, FromQueryResult,
};

use super::{dto::VendorPaymentRow, queries, rules};
use crate::{
    auth::{scope::Scope, CurrentUser},
    entities::vendor_payment_report_row as frozen,
    error::ApiResult,
    money::Money,
    reports::export::{Cell, Column, Format, Kind, Meta, Row, Rows},
};

/// Human headers as the files print them; keys as the views send them.
pub fn columns() -> Vec<Column> {
    vec![
        Column::new("payee", "Payee", Kind::Text),
        Column::new("payeeAddress", "Payee address", Kind::Text),
        Column::new("requestId", "Request", Kind::Text),
        Column::labelled("formType", "Form", crate::forms::FormType::LABELLED),
        Column::new("approvedAt", "Approved on", Kind::Timestamp),
        Column::new("approvalCode", "Approval code", Kind::Text),
        Column::new("fund", "Fund", Kind::Text),
        Column::new("expenseAccount", "Expense account", Kind::Text),
        Column::new("amount", "Amount", Kind::Money),
    ]
}

pub fn row(r: VendorPaymentRow) -> Row {
    vec![
        Cell::Text(r.payee),
        Cell::text(r.payee_address),
        Cell::Request(r.form_type.as_str(), r.request_id.into()),
        Cell::Text(r.form_type.as_str().to_owned()),
        Cell::Timestamp(r.approved_at),
        Cell::text(r.approval_code),
        Cell::text(r.fund),
        Cell::text(r.expense_account),
        Cell::Money(r.amount.cents()),
    ]
}

/// The totals line of XLSX and PDF (CSV has none): the amount under its column.
pub fn totals(amount: Money) -> Row {
    let mut cells = vec![Cell::Empty; 8];
    cells.push(Cell::Money(amount.cents()));
    cells
}

pub fn meta(
    me: &CurrentUser,
    file_stem: String,
    title: String,
    filters: Vec<(String, String)>,
    minutes_offset: i32,
) -> Meta {
    Meta {
        file_stem,
        title,
        filters,
        generated_by: format!("{} {}", me.user.first_name, me.user.last_name).trim().to_owned(),
        generated_at: crate::clock::now(),
        minutes_offset,
    }
}

/// The ready requests a generation would pay now, streamed.
pub fn preview_rows(db: DatabaseConnection, selection: &queries::Selection) -> Rows {
    Rows::from_query(db, queries::sources(selection), |r| {
        Ok(row(queries::Source::from_query_result(r, "")?.row().1))
    })
}

/// A history entry's frozen rows in their order, as `scope` sees them, streamed.
pub fn frozen_rows(db: DatabaseConnection, scope: &Scope, report_id: i32) -> Rows {
    let mut select = Query::select();
    select
        .columns([
            frozen::Column::Id,
            frozen::Column::ReportId,
            frozen::Column::Position,
            frozen::Column::PaymentRequestId,
            frozen::Column::MentorProgramId,
            frozen::Column::FormType,
            frozen::Column::Payee,
            frozen::Column::PayeeAddress,
            frozen::Column::ApprovedAt,
            frozen::Column::ApprovalCode,
            frozen::Column::Fund,
            frozen::Column::ExpenseAccount,
            frozen::Column::AmountCents,
        ])
        .from(frozen::Entity)
        .and_where(Expr::col(frozen::Column::ReportId).eq(report_id))
        .order_by(frozen::Column::Position, Order::Asc);
    if let Some(programs) = scope.program_ids() {
        select.and_where(Expr::col(frozen::Column::MentorProgramId).is_in(programs));
    }
    Rows::from_query(db, select, |r| Ok(row(frozen::Model::from_query_result(r, "")?.into())))
}

/// `ReportFormat` and `MinutesOffset` of an export, checked (400 naming the field).
pub fn format_and_offset(
    format: Option<&str>,
    minutes_offset: Option<i32>,
) -> ApiResult<(Format, i32)> {
    let format = Format::require("ReportFormat", format)?;
    let offset = minutes_offset.unwrap_or(0);
    if !rules::OFFSET_RANGE.contains(&offset) {
        return Err(crate::error::ApiError::bad_field(
            "MinutesOffset",
            "must be between -840 and 840 minutes",
        ));
    }
    Ok((format, offset))
}
