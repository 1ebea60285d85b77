//! All approvals: one row per approval as the activity log recorded it (the
//! `request_approvals` table a trigger fills from the log, migration 000040), so a
//! request approved, moved back to submitted and approved again is two rows, each with
//! the amounts and code of its own approval. Also the payee list its PayeeId picker uses.

use actix_web::web;
use sea_orm::{
    sea_query::{ExprTrait, Order, Query, SelectStatement},
    ConnectionTrait, DatabaseConnection, DbBackend, QueryResult,
};
use serde::Serialize;
use utoipa::ToSchema;

use super::{
    catalogue::ReportInfo,
    export::{Cell, Column, Kind, Record, Row},
    fields::DbRow,
    query::{
        self, a, col, get, join_by_id, lookup, name_column, named, order, Filters, ReportQuery,
        SqlReport,
    },
    runner::{Kept, RowReport},
};
use crate::{
    auth::{
        scope::{scope_of, Scope},
        CurrentUser, Permission,
    },
    error::{ApiResult, ProblemBody},
    state::AppState,
    web::Query as Q,
};

pub struct AllApprovals;

/// Approvals of live requests in scope. Each approval carries its request's program, form,
/// payee and status (kept by triggers, `db::derived`), so nothing here reads the requests:
/// a date window is counted and summed from the approvals' index alone.
fn approvals(scope: &Scope) -> SelectStatement {
    let mut q = Query::select();
    q.from_as(a("request_approvals"), a("ap"));
    q.and_where(col("ap", "request_live").eq(true));
    query::scoped(&mut q, scope, col("ap", "mentor_program_id"));
    q
}

impl RowReport for AllApprovals {
    const INFO: ReportInfo = ReportInfo {
        key: "all-approvals",
        title: "All approvals",
        description: "Every approval from the activity log: who approved what, when, with which code, fund and amounts.",
        route: "/reports/all-approvals",
        path: "/reports/all-approvals",
        permission: Permission::ReportReadAllApprovals,
        filters: &["PaymentRequestType", "MentorProgramId", "FiscalYearId", "StartDate", "EndDate", "ApprovalCodeId", "PayeeId"],
        sortable: &["approvedAt", "requestId", "formType", "payee", "requestedAmount", "approvedAmount", "formStatus"],
        default_sort: ("approvedAt", false),
        totals: &["requestedAmount", "approvedAmount"],
    };

    fn columns() -> Vec<Column> {
        vec![
            Column::new("approvedAt", "Approved at", Kind::Timestamp),
            Column::new("approver", "Approver", Kind::Text),
            Column::new("requestId", "Request", Kind::Text),
            Column::labelled("formType", "Form", crate::forms::FormType::LABELLED),
            Column::new("payee", "Payee", Kind::Text),
            Column::new("mentorProgram", "Program", Kind::Text),
            Column::new("approvalCode", "Approval code", Kind::Text),
            Column::new("fund", "Fund", Kind::Text),
            Column::new("expenseAccount", "Expense account", Kind::Text),
            Column::new("requestedAmount", "Requested", Kind::Money),
            Column::new("approvedAmount", "Approved", Kind::Money),
            Column::new("comment", "Comment", Kind::Text),
            Column::labelled(
                "formStatus",
                "Current status",
                crate::entities::codes::Status::LABELLED,
            ),
        ]
    }

    fn query(
        f: &Filters,
        scope: &Scope,
        (key, descending): (&str, bool),
        _: DbBackend,
    ) -> SqlReport {
        let mut base = approvals(scope);
        let lookups = vec![lookup("participants", "pa", col("ap", "participant_id"))];
        if let Some(form) = f.form {
            base.and_where(col("ap", "form_type").eq(form.as_str()));
        }
        if let Some(p) = f.program {
            base.and_where(col("ap", "mentor_program_id").eq(p));
        }
        if let Some(y) = f.fiscal_year {
            base.and_where(col("ap", "fiscal_year_id").eq(y));
        }
        if let Some(c) = f.approval_code {
            base.and_where(col("ap", "approval_code_id").eq(c));
        }
        if let Some(p) = f.payee {
            base.and_where(col("ap", "participant_id").eq(p));
        }
        query::in_window(&mut base, f, col("ap", "approved_at"));
        let sort = match key {
            "requestId" => col("ap", "payment_request_id"),
            "formType" => col("ap", "form_type"),
            "payee" => col("pa", "sort_name"),
            "requestedAmount" => col("ap", "requested_cents"),
            "approvedAmount" => col("ap", "approved_cents"),
            "formStatus" => col("ap", "request_status"),
            _ => col("ap", "approved_at"),
        };
        SqlReport {
            base,
            lookups,
            select: vec![
                (col("ap", "id"), "approval_id"),
                (col("ap", "approved_at"), "approved_at"),
                (col("ap", "payment_request_id"), "request_id"),
                (col("ap", "form_type"), "form_type"),
                (col("ap", "participant_id"), "payee_id"),
                (col("pa", "full_name"), "payee"),
                (col("ap", "requested_cents"), "requested_cents"),
                (col("ap", "approved_cents"), "approved_cents"),
                (col("ap", "comment"), "comment"),
                (col("ap", "request_status"), "status"),
            ],
            named: [
                named("approver", "users", col("ap", "approver_user_id"), |u| {
                    query::concat([
                        col(u, "first_name"),
                        sea_orm::sea_query::Expr::val(" "),
                        col(u, "last_name"),
                    ])
                }),
                named("program", "mentor_programs", col("ap", "mentor_program_id"), name_column),
            ]
            .into_iter()
            .chain(query::charged_names("ap"))
            .collect(),
            order: vec![
                (sort, order(descending)),
                (col("ap", "id"), if descending { Order::Desc } else { Order::Asc }),
            ],
            sums: query::amount_sums("ap"),
            year: Some(col("ap", "fiscal_year_id")),
        }
    }

    fn row(r: &DbRow) -> ApiResult<Row> {
        let text = |k: &str| get::<Option<String>>(r, k).map(Cell::text);
        let form: String = get(r, "form_type")?;
        Ok(vec![
            Cell::timestamp(get(r, "approved_at")?),
            text("approver")?,
            Cell::request(&form, get::<i32>(r, "request_id")?),
            Cell::Text(form),
            text("payee")?,
            text("program")?,
            text("approval_code")?,
            text("fund")?,
            text("expense_account")?,
            Cell::money(get(r, "requested_cents")?),
            Cell::money(get(r, "approved_cents")?),
            text("comment")?,
            text("status")?,
        ])
    }

    /// Without dates, a code or a payee, the kept per program × year × form totals
    /// (migration 000121) answer the count and sums: a few rows, not every approval.
    async fn kept_totals(
        db: &DatabaseConnection,
        f: &Filters,
        scope: &Scope,
    ) -> ApiResult<Option<Kept>> {
        if f.from.is_some() || f.until.is_some() || f.approval_code.is_some() || f.payee.is_some() {
            return Ok(None);
        }
        let mut q = Query::select();
        q.from_as(a("request_approval_totals"), a("t"))
            .expr_as(query::kept_years("approval_count"), a("years"))
            .expr_as(query::sum_i64(col("t", "approval_count")), a("n"))
            .expr_as(query::sum_i64(col("t", "requested_cents")), a("requested"))
            .expr_as(query::sum_i64(col("t", "approved_cents")), a("approved"));
        query::scoped(&mut q, scope, col("t", "mentor_program_id"));
        if let Some(p) = f.program {
            q.and_where(col("t", "mentor_program_id").eq(p));
        }
        if let Some(y) = f.fiscal_year {
            q.and_where(col("t", "fiscal_year_id").eq(y));
        }
        if let Some(form) = f.form {
            q.and_where(col("t", "form_type").eq(form.as_str()));
        }
        query::kept_amounts(db, &q).await
    }

    fn extra(r: &QueryResult, record: Record) -> ApiResult<Record> {
        Ok(record
            .with("approvalId", Cell::Int(get::<i32>(r, "approval_id")?.into()))
            .with("payeeId", Cell::Int(get::<i32>(r, "payee_id")?.into())))
    }
}

/// A payee of the all-approvals picker.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Payee {
    pub id: i32,
    pub full_name: String,
    /// The participant's status: the picker marks the ones not active.
    #[schema(value_type = crate::participants::rules::ParticipantStatus)]
    pub status: String,
}

#[utoipa::path(get, path = "/api/v1/reports/payee-list", tag = "reports", security(("bearer" = [])),
    params(("FiscalYearId" = Option<i32>, Query, description = "Approvals charged to this year (all years without it)")),
    responses((status = 200, body = Vec<Payee>, description = "Participants with an approval, by name"),
        (status = 400, body = ProblemBody), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody)))]
pub async fn payee_list(
    state: web::Data<AppState>,
    me: CurrentUser,
    Q(q): Q<ReportQuery>,
) -> ApiResult<web::Json<Vec<Payee>>> {
    let scope = scope_of(&state.db, &me).await?;
    let mut select = approvals(&scope);
    join_by_id(&mut select, "participants", "pa", col("ap", "participant_id"));
    if let Some(y) = q.fiscalyearid {
        select.and_where(col("ap", "fiscal_year_id").eq(y));
    }
    select
        .distinct()
        .expr_as(col("pa", "id"), a("id"))
        .expr_as(col("pa", "full_name"), a("full_name"))
        .expr_as(col("pa", "status"), a("status"))
        .expr_as(col("pa", "sort_name"), a("sort_name"))
        .order_by_expr(col("pa", "sort_name"), Order::Asc)
        .order_by_expr(col("pa", "id"), Order::Asc);
    let rows = state.db.query_all(&select).await?;
    Ok(web::Json(
        rows.iter()
            .map(|r| {
                Ok(Payee {
                    id: get(r, "id")?,
                    full_name: get(r, "full_name")?,
                    status: get(r, "status")?,
                })
            })
            .collect::<ApiResult<Vec<_>>>()?,
    ))
}
