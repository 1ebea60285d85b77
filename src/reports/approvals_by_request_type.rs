//! Approvals by request type: per form (all fourteen), requests submitted in range,
//! approvals charged in range, their sum and average, and the average days from the
//! first submission to the approval's local day.

use std::collections::HashMap;

use sea_orm::{
    sea_query::{Expr, ExprTrait, SelectStatement},
    ConnectionTrait, DatabaseConnection, DbBackend,
};

use super::{
    catalogue::ReportInfo,
    export::{Cell, Column, Kind, Record, Row},
    kept,
    query::{self, a, average_cents, col, get, Filters},
    runner::{sum_column, GroupedReport},
};
use crate::{
    auth::{scope::Scope, Permission},
    error::ApiResult,
    forms::FormType,
};

pub struct ApprovalsByRequestType;

/// Whole days from `submitted_on` to the local calendar day of `approved_at`.
fn days_to_approval(backend: DbBackend, minutes_offset: i32) -> String {
    match backend {
        DbBackend::Postgres => format!("(((pr.approved_at AT TIME ZONE 'UTC') - INTERVAL '{minutes_offset} minutes')::date - pr.submitted_on)"),
        _ => format!("(julianday(date(pr.approved_at, '{} minutes')) - julianday(pr.submitted_on))", -minutes_offset),
    }
}

fn narrowed(q: &mut SelectStatement, f: &Filters, scope: &Scope) {
    query::scoped(q, scope, col("pr", "mentor_program_id"));
    if let Some(p) = f.program {
        q.and_where(col("pr", "mentor_program_id").eq(p));
    }
    if let Some(y) = f.fiscal_year {
        q.and_where(col("pr", "fiscal_year_id").eq(y));
    }
}

#[derive(Default)]
struct Acc {
    submitted: i64,
    approved: i64,
    sum: i64,
    days: f64,
    with_days: i64,
}

/// Grouping the requests themselves (a zone off the whole hour).
async fn grouped(
    db: &DatabaseConnection,
    f: &Filters,
    scope: &Scope,
) -> ApiResult<HashMap<String, Acc>> {
    let mut acc: HashMap<String, Acc> = HashMap::new();
    let by_form = || query::grouped_by("payment_requests", "pr", &[("form_type", "form_type")]);
    let mut submitted = by_form();
    submitted
        .expr_as(Expr::cust("COUNT(*)"), a("n"))
        .and_where(col("pr", "deleted_at").is_null())
        .and_where(col("pr", "submitted_on").is_not_null());
    narrowed(&mut submitted, f, scope);
    query::on_days(&mut submitted, f, col("pr", "submitted_on"));
    for r in db.query_all(&submitted).await? {
        let a = acc.entry(get(&r, "form_type")?).or_default();
        a.submitted += get::<i64>(&r, "n")?;
    }

    let days = days_to_approval(db.get_database_backend(), f.minutes_offset);
    let mut approved = by_form();
    approved
        .expr_as(Expr::cust("COUNT(*)"), a("n"))
        .expr_as(query::sum_i64(col("pr", "approved_cents")), a("approved"))
        // DOUBLE PRECISION: a REAL on SQLite, float8 on PostgreSQL.
        .expr_as(
            Expr::cust(format!("CAST(COALESCE(SUM({days}), 0) AS DOUBLE PRECISION)")),
            a("days"),
        )
        .expr_as(Expr::cust(format!("COUNT({days})")), a("with_days"));
    query::charged_in_window(&mut approved, "pr", f, db.get_database_backend(), false);
    narrowed(&mut approved, f, scope);
    for r in db.query_all(&approved).await? {
        let a = acc.entry(get(&r, "form_type")?).or_default();
        a.approved += get::<i64>(&r, "n")?;
        a.sum += get::<i64>(&r, "approved")?;
        a.days += get::<f64>(&r, "days")?;
        a.with_days += get::<i64>(&r, "with_days")?;
    }

    Ok(acc)
}

/// The report's rows as grouping the requests gives them, whatever the zone: what the kept
/// figures are checked against (tests); no route reaches it.
pub async fn grouped_rows(
    db: &DatabaseConnection,
    f: &Filters,
    scope: &Scope,
) -> ApiResult<Vec<(Row, Record)>> {
    Ok(rows_of(grouped(db, f, scope).await?))
}

/// One row per form, in the catalogue's order, from its figures.
fn rows_of(mut acc: HashMap<String, Acc>) -> Vec<(Row, Record)> {
    FormType::ALL
        .into_iter()
        .map(|form| {
            let a = acc.remove(form.as_str()).unwrap_or_default();
            let row = vec![
                Cell::Text(form.as_str().to_owned()),
                Cell::Text(form.name().to_owned()),
                Cell::Int(a.submitted),
                Cell::Int(a.approved),
                Cell::Money(a.sum),
                Cell::money(average_cents(a.sum, a.approved)),
                Cell::number((a.with_days > 0).then(|| a.days / a.with_days as f64)),
            ];
            (row, Record::default())
        })
        .collect()
}

impl GroupedReport for ApprovalsByRequestType {
    const INFO: ReportInfo = ReportInfo {
        key: "approvals-by-request-type",
        title: "Approvals by request type",
        description: "Per form type: submitted and approved requests, approved sum, average and days to approval.",
        route: "/reports/approvals-by-request-type",
        path: "/reports/approvals-by-request-type",
        permission: Permission::ReportReadApprovalsByRequestType,
        filters: &["MentorProgramId", "FiscalYearId", "StartDate", "EndDate"],
        sortable: &["formType", "formName", "submitted", "approved", "approvedSum", "averageApproved", "averageDays"],
        default_sort: ("formType", false),
        totals: &["submitted", "approved", "approvedSum", "averageApproved", "averageDays"],
    };

    fn columns() -> Vec<Column> {
        vec![
            Column::labelled("formType", "Form", crate::forms::FormType::LABELLED),
            Column::new("formName", "Form name", Kind::Text),
            Column::new("submitted", "Submitted", Kind::Int),
            Column::new("approved", "Approved", Kind::Int),
            Column::new("approvedSum", "Approved amount", Kind::Money),
            Column::new("averageApproved", "Average approved", Kind::Money),
            Column::new("averageDays", "Avg. days to approval", Kind::Number),
        ]
    }

    async fn rows(
        db: &DatabaseConnection,
        f: &Filters,
        scope: &Scope,
    ) -> ApiResult<Vec<(Row, Record)>> {
        let acc: HashMap<String, Acc> = if kept::usable(f) {
            kept::by_form(db, f, scope)
                .await?
                .into_iter()
                .map(|t| {
                    (
                        t.form,
                        Acc {
                            submitted: t.submitted,
                            approved: t.approved,
                            sum: t.cents,
                            days: t.days as f64,
                            with_days: t.with_days,
                        },
                    )
                })
                .collect()
        } else {
            grouped(db, f, scope).await?
        };
        Ok(rows_of(acc))
    }

    fn totals(rows: &[Row]) -> Option<Row> {
        let approved = sum_column(rows, 3);
        let sum = sum_column(rows, 4);
        // The mean over every approval: each row's mean weighted by its approvals.
        let (days, n) = rows.iter().fold((0.0, 0i64), |(d, n), r| match (&r[3], &r[6]) {
            (Cell::Int(k), Cell::Number(avg)) => (d + avg * *k as f64, n + k),
            _ => (d, n),
        });
        Some(vec![
            Cell::Empty,
            Cell::Empty,
            Cell::Int(sum_column(rows, 2)),
            Cell::Int(approved),
            Cell::Money(sum),
            Cell::money(average_cents(sum, approved)),
            Cell::number((n > 0).then(|| days / n as f64)),
        ])
    }
}
