//! Mentor program reimbursements: every approved request (Approved, ReadyForProcessing,
//! Processed) with payee, college, amounts, fund, account and code; dated by approval.

use sea_orm::{
    sea_query::{Expr, ExprTrait, Order, Query},
    DatabaseConnection, DbBackend,
};

use super::{
    catalogue::ReportInfo,
    export::{Cell, Column, Kind, Row},
    fields::DbRow,
    query::{self, a, col, get, lookup, name_column, named, order, Filters, SqlReport},
    runner::{Kept, RowReport},
};
use crate::{
    auth::{scope::Scope, Permission},
    error::ApiResult,
    payment_requests::workflow::CHARGED,
};

pub struct Reimbursements;

impl RowReport for Reimbursements {
    const INFO: ReportInfo = ReportInfo {
        key: "mentor-program-reimbursements",
        title: "Mentor program reimbursements",
        description: "Every approved request with its payee, college, amounts, fund, account and approval code.",
        route: "/reports/mentor-program-reimbursements",
        path: "/reports/mentor-program-reimbursements",
        permission: Permission::ReportReadReimbursement,
        filters: &["MentorProgramId", "FiscalYearId", "StartDate", "EndDate"],
        sortable: &["requestId", "formType", "payee", "submittedOn", "approvedAt", "requestedAmount", "approvedAmount", "formStatus"],
        default_sort: ("approvedAt", false),
        totals: &["requestedAmount", "approvedAmount"],
    };

    fn columns() -> Vec<Column> {
        vec![
            Column::new("requestId", "Request", Kind::Text),
            Column::labelled("formType", "Form", crate::forms::FormType::LABELLED),
            Column::new("payee", "Payee", Kind::Text),
            Column::new("payeeEmail", "Payee e-mail", Kind::Text),
            Column::new("college", "College", Kind::Text),
            Column::new("submittedOn", "Submitted on", Kind::Date),
            Column::new("approvedAt", "Approved on", Kind::Timestamp),
            Column::new("requestedAmount", "Requested", Kind::Money),
            Column::new("approvedAmount", "Approved", Kind::Money),
            Column::new("fund", "Fund", Kind::Text),
            Column::new("expenseAccount", "Expense account", Kind::Text),
            Column::new("approvalCode", "Approval code", Kind::Text),
            Column::labelled("formStatus", "Status", crate::entities::codes::Status::LABELLED),
        ]
    }

    fn query(
        f: &Filters,
        scope: &Scope,
        (key, descending): (&str, bool),
        backend: DbBackend,
    ) -> SqlReport {
        let mut base = Query::select();
        base.from_as(a("payment_requests"), a("pr"));
        let lookups = vec![
            lookup("participants", "pa", col("pr", "participant_id")),
            lookup("participations", "pn", col("pr", "participation_id")),
        ];
        query::charged_in_window(&mut base, "pr", f, backend, key == "approvedAt");
        query::scoped(&mut base, scope, col("pr", "mentor_program_id"));
        if let Some(p) = f.program {
            base.and_where(col("pr", "mentor_program_id").eq(p));
        }
        if let Some(y) = f.fiscal_year {
            base.and_where(col("pr", "fiscal_year_id").eq(y));
        }
        let sort = match key {
            "requestId" => col("pr", "id"),
            "formType" => col("pr", "form_type"),
            "payee" => col("pa", "full_name"),
            "submittedOn" => col("pr", "submitted_on"),
            "requestedAmount" => col("pr", "requested_cents"),
            "approvedAmount" => col("pr", "approved_cents"),
            "formStatus" => col("pr", "status"),
            _ => col("pr", "approved_at"),
        };
        SqlReport {
            base,
            lookups,
            select: vec![
                (col("pr", "id"), "id"),
                (col("pr", "form_type"), "form_type"),
                (col("pa", "full_name"), "payee"),
                (col("pa", "email"), "payee_email"),
                (col("pr", "submitted_on"), "submitted_on"),
                (col("pr", "approved_at"), "approved_at"),
                (col("pr", "requested_cents"), "requested_cents"),
                (col("pr", "approved_cents"), "approved_cents"),
                (col("pr", "status"), "status"),
            ],
            named: std::iter::once(named(
                "college",
                "colleges",
                col("pn", "college_id"),
                name_column,
            ))
            .chain(query::charged_names("pr"))
            .collect(),
            order: vec![
                (sort, order(descending)),
                (col("pr", "id"), if descending { Order::Desc } else { Order::Asc }),
            ],
            sums: query::amount_sums("pr"),
            year: Some(col("pr", "fiscal_year_id")),
        }
    }

    /// Without dates, the kept per program × status totals (migration 000031), or per
    /// program × fiscal year × status for one year (000120), answer the count and sums: a
    /// few rows instead of every approved request.
    async fn kept_totals(
        db: &DatabaseConnection,
        f: &Filters,
        scope: &Scope,
    ) -> ApiResult<Option<Kept>> {
        if f.from.is_some() || f.until.is_some() {
            return Ok(None);
        }
        // Per year: the sums are given only when the rows are of one year.
        let mut q = Query::select();
        q.from(a("payment_request_year_totals"));
        if let Some(y) = f.fiscal_year {
            q.and_where(Expr::col(a("fiscal_year_id")).eq(y));
        }
        q.expr_as(query::kept_years("request_count"), a("years"))
            .expr_as(query::sum_i64(Expr::col(a("request_count"))), a("n"))
            .expr_as(query::sum_i64(Expr::col(a("requested_cents"))), a("requested"))
            .expr_as(query::sum_i64(Expr::col(a("approved_cents"))), a("approved"))
            .and_where(Expr::col(a("status")).is_in(CHARGED.map(|s| s.as_str())));
        query::scoped(&mut q, scope, Expr::col(a("mentor_program_id")));
        if let Some(p) = f.program {
            q.and_where(Expr::col(a("mentor_program_id")).eq(p));
        }
        query::kept_amounts(db, &q).await
    }

    fn row(r: &DbRow) -> ApiResult<Row> {
        let form: String = get(r, "form_type")?;
        Ok(vec![
            Cell::request(&form, get::<i32>(r, "id")?),
            Cell::Text(form),
            Cell::text(get::<Option<String>>(r, "payee")?),
            Cell::text(get::<Option<String>>(r, "payee_email")?),
            Cell::text(get::<Option<String>>(r, "college")?),
            Cell::date(get(r, "submitted_on")?),
            Cell::timestamp(get(r, "approved_at")?),
            Cell::Money(get(r, "requested_cents")?),
            Cell::money(get(r, "approved_cents")?),
            Cell::text(get::<Option<String>>(r, "fund")?),
            Cell::text(get::<Option<String>>(r, "expense_account")?),
            Cell::text(get::<Option<String>>(r, "approval_code")?),
            Cell::Text(get(r, "status")?),
        ])
    }
}
