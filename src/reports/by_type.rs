//! All payment requests of one form type (`/reports/payment-requests/{type}/{format}/retrieve`):
//! the common columns, then every `details` field of that form as its own column.

use actix_web::{web, HttpResponse};
use sea_orm::sea_query::{ExprTrait, Order, Query};

use super::{
    catalogue::ReportInfo,
    details::{self, ReferenceNames},
    export::{self, Cell, Column, Format, Kind, Row},
    fields::DbRow,
    query::{self, a, col, get, lookup, name_column, named, ReportQuery, SqlReport},
};
use crate::{
    auth::{scope::scope_of, CurrentUser, Permission},
    error::{ApiError, ApiResult, ProblemBody},
    forms::FormType,
    state::AppState,
    web::Query as Q,
};

pub const INFO: ReportInfo = ReportInfo {
    key: "all-payments-requests",
    title: "All payment requests by form",
    description: "Every request of a chosen form type with all of its details, as a file.",
    route: "/reports/all-payments-requests",
    path: "/reports/payment-requests/{paymentRequestType}/{reportFormat}/retrieve",
    permission: Permission::ReportReadPaymentRequestsByType,
    filters: &[],
    sortable: &[],
    default_sort: ("requestId", false),
    totals: &["requestedAmount", "approvedAmount"],
};

/// The columns every form shares.
pub fn common_columns() -> Vec<Column> {
    vec![
        Column::new("requestId", "Request", Kind::Text),
        Column::labelled("formStatus", "Status", crate::entities::codes::Status::LABELLED),
        Column::new("payee", "Payee", Kind::Text),
        Column::new("payeeEmail", "Payee e-mail", Kind::Text),
        Column::new("mentorProgram", "Program", Kind::Text),
        Column::new("description", "Description", Kind::Text),
        Column::new("requestedAmount", "Requested", Kind::Money),
        Column::new("approvedAmount", "Approved", Kind::Money),
        Column::new("submittedOn", "Submitted on", Kind::Date),
        Column::new("approvedAt", "Approved on", Kind::Timestamp),
        Column::new("fund", "Fund", Kind::Text),
        Column::new("expenseAccount", "Expense account", Kind::Text),
        Column::new("approvalCode", "Approval code", Kind::Text),
        Column::new("createdAt", "Created", Kind::Timestamp),
        Column::new("updatedAt", "Updated", Kind::Timestamp),
    ]
}

fn common_cells(form: FormType, r: &DbRow) -> ApiResult<Row> {
    let text = |k: &str| get::<Option<String>>(r, k).map(Cell::text);
    Ok(vec![
        Cell::Request(form.as_str(), get::<i32>(r, "id")?.into()),
        text("status")?,
        text("payee")?,
        text("payee_email")?,
        text("program")?,
        text("description")?,
        Cell::Money(get(r, "requested_cents")?),
        Cell::money(get(r, "approved_cents")?),
        Cell::date(get(r, "submitted_on")?),
        Cell::timestamp(get(r, "approved_at")?),
        text("fund")?,
        text("expense_account")?,
        text("approval_code")?,
        Cell::timestamp(get(r, "created_at")?),
        Cell::timestamp(get(r, "updated_at")?),
    ])
}

#[utoipa::path(get, path = "/api/v1/reports/payment-requests/{paymentRequestType}/{reportFormat}/retrieve", tag = "reports", security(("bearer" = [])),
    params(("paymentRequestType" = String, Path, description = "F1..F14 (another value is a 404)"), ("reportFormat" = String, Path, description = "Csv, Xlsx or Pdf", pattern = "^(Csv|Xlsx|Pdf)$"),
        ("MinutesOffset" = Option<i32>, Query, description = "getTimezoneOffset() of the browser", minimum = -840, maximum = 840)),
    responses((status = 200, description = "The file (CSV, XLSX or PDF), streamed"),
        (status = 400, body = ProblemBody), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody), (status = 404, body = ProblemBody)))]
pub async fn retrieve(
    state: web::Data<AppState>,
    me: CurrentUser,
    path: web::Path<(String, String)>,
    Q(q): Q<ReportQuery>,
) -> ApiResult<HttpResponse> {
    let (form, format) = path.into_inner();
    let form = FormType::parse(&form).ok_or_else(|| ApiError::not_found("The form type"))?;
    let format = Format::require("reportFormat", Some(&format))?;
    let filters = ReportQuery { minutesoffset: q.minutesoffset, ..Default::default() }.filters()?;
    let scope = scope_of(&state.db, &me).await?;

    let mut base = Query::select();
    base.from_as(a("payment_requests"), a("pr"));
    let lookups = vec![lookup("participants", "pa", col("pr", "participant_id"))];
    base.and_where(col("pr", "deleted_at").is_null())
        .and_where(col("pr", "form_type").eq(form.as_str()));
    query::scoped(&mut base, &scope, col("pr", "mentor_program_id"));
    let report = SqlReport {
        base,
        lookups,
        select: vec![
            (col("pr", "id"), "id"),
            (col("pr", "status"), "status"),
            (col("pa", "full_name"), "payee"),
            (col("pa", "email"), "payee_email"),
            (col("pr", "description"), "description"),
            (col("pr", "requested_cents"), "requested_cents"),
            (col("pr", "approved_cents"), "approved_cents"),
            (col("pr", "submitted_on"), "submitted_on"),
            (col("pr", "approved_at"), "approved_at"),
            (col("pr", "created_at"), "created_at"),
            (col("pr", "updated_at"), "updated_at"),
            (col("pr", "details"), "details"),
        ],
        named: std::iter::once(named(
            "program",
            "mentor_programs",
            col("pr", "mentor_program_id"),
            name_column,
        ))
        .chain(query::charged_names("pr"))
        .collect(),
        order: vec![(col("pr", "id"), Order::Asc)],
        sums: query::amount_sums("pr"),
        year: Some(col("pr", "fiscal_year_id")),
    };
    let mut columns = common_columns();
    columns.extend(details::columns(form));
    let totals = report.file_totals(&state.db, format, &columns).await?;
    let mut meta = query::meta(
        &state.db,
        &me,
        format!("payment-requests-{}", form.as_str()),
        format!("{} requests", form.label()),
        &filters,
    )
    .await?;
    meta.filters.push(("Form".into(), form.label().to_owned()));
    let names = ReferenceNames::load(&state.db, details::has_receipts(form)).await?;
    let fields = details::fields(form);
    let rows = report.stream(&state.db, move |r| {
        let mut row = common_cells(form, r)?;
        row.extend(details::cells(form, &get::<String>(r, "details")?, &fields, &names)?);
        Ok(row)
    });
    Ok(export::respond(format, meta, columns, rows, totals))
}
