//! The payment request details list as a file (`/reports/payment-requests-details/retrieve`):
//! the rows and order of `GET /payment-requests`, through that list's own filter and sort
//! (payment_requests::store::list), every page at once.

use actix_web::{web, HttpResponse};
use sea_orm::sea_query::{Expr, ExprTrait, Query};

use super::{
    export::{self, Cell, Column, Kind, Row},
    fields::DbRow,
    query::{self, a, col, get, lookup, name_column, named, ReportQuery, SqlReport},
};
use crate::{
    auth::{scope::scope_of, CurrentUser},
    entities::payment_request as pr,
    error::{ApiResult, ProblemBody},
    payment_requests::{dto::ListQuery, store::list as store},
    state::AppState,
    web::Query as Q,
};

const TABLE: &str = "payment_requests";

pub fn columns() -> Vec<Column> {
    vec![
        Column::new("requestId", "Request", Kind::Text),
        Column::labelled("formType", "Form", crate::forms::FormType::LABELLED),
        Column::new("payee", "Payee", Kind::Text),
        Column::new("mentorProgram", "Program", Kind::Text),
        Column::labelled("formStatus", "Status", crate::entities::codes::Status::LABELLED),
        Column::new("requestedAmount", "Requested", Kind::Money),
        Column::new("approvedAmount", "Approved", Kind::Money),
        Column::new("approvedAt", "Approved at", Kind::Timestamp),
        Column::new("submittedOn", "Submitted on", Kind::Date),
        Column::new("placementEndDate", "Placement end", Kind::Date),
        Column::new("description", "Description", Kind::Text),
    ]
}

fn row(r: &DbRow) -> ApiResult<Row> {
    let text = |k: &str| get::<Option<String>>(r, k).map(Cell::text);
    let form: String = get(r, "form_type")?;
    Ok(vec![
        Cell::request(&form, get::<i32>(r, "id")?),
        Cell::Text(form),
        text("payee")?,
        text("program")?,
        text("status")?,
        Cell::Money(get(r, "requested_cents")?),
        Cell::money(get(r, "approved_cents")?),
        Cell::timestamp(get(r, "approved_at")?),
        Cell::date(get(r, "submitted_on")?),
        Cell::date(get(r, "placement_end_date")?),
        text("description")?,
    ])
}

#[utoipa::path(get, path = "/api/v1/reports/payment-requests-details/retrieve", tag = "reports", security(("bearer" = [])),
    params(ListQuery, ("ReportFormat" = String, Query, description = "Csv, Xlsx or Pdf", pattern = "^(Csv|Xlsx|Pdf)$"),
        ("MinutesOffset" = Option<i32>, Query, minimum = -840, maximum = 840)),
    responses((status = 200, description = "The file (CSV, XLSX or PDF), streamed"),
        (status = 400, body = ProblemBody), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody),
        (status = 422, body = ProblemBody, description = "ApprovedEnd before ApprovedStart")))]
pub async fn retrieve(
    state: web::Data<AppState>,
    me: CurrentUser,
    Q(list): Q<ListQuery>,
    Q(q): Q<ReportQuery>,
) -> ApiResult<HttpResponse> {
    let format = q.format()?;
    let filters = ReportQuery {
        minutesoffset: q.minutesoffset,
        mentorprogramid: list.mentorprogramid,
        ..Default::default()
    }
    .filters()?;
    let (statuses, forms) = store::parse_list_filters(&list)?;
    let scope = scope_of(&state.db, &me).await?;
    scope.require_filter(list.mentorprogramid)?;
    let filter = store::ListFilter {
        query: &list,
        scope: &scope,
        statuses: &statuses,
        forms: &forms,
        waiting_for: None,
    };

    let mut base = Query::select();
    base.from(a(TABLE));
    let lookups = vec![lookup("participants", "pa", col(TABLE, "participant_id"))];
    // The ids first, from the filter's index alone, then their rows in id order: the rows
    // of a page of the table are read together (one B-tree search, one mapped page, for
    // neighbours) and the newest-first order needs no sort.
    base.and_where(
        Expr::col((pr::Entity, pr::Column::Id)).in_subquery(store::matching_ids(&filter)),
    );
    let report = SqlReport {
        base,
        lookups,
        select: vec![
            (col(TABLE, "id"), "id"),
            (col(TABLE, "form_type"), "form_type"),
            (col("pa", "full_name"), "payee"),
            (col(TABLE, "status"), "status"),
            (col(TABLE, "requested_cents"), "requested_cents"),
            (col(TABLE, "approved_cents"), "approved_cents"),
            (col(TABLE, "approved_at"), "approved_at"),
            (col(TABLE, "submitted_on"), "submitted_on"),
            (col(TABLE, "placement_end_date"), "placement_end_date"),
            (col(TABLE, "description"), "description"),
        ],
        named: vec![named(
            "program",
            "mentor_programs",
            col(TABLE, "mentor_program_id"),
            name_column,
        )],
        order: store::list_order(&list)
            .into_iter()
            .map(|(c, o)| (Expr::col((pr::Entity, c)), o))
            .collect(),
        sums: query::amount_sums(TABLE),
        year: Some(col(TABLE, "fiscal_year_id")),
    };
    let columns = columns();
    let totals = report.file_totals(&state.db, format, &columns).await?;
    let mut meta = query::meta(
        &state.db,
        &me,
        "payment-requests-details",
        "Payment request details",
        &filters,
    )
    .await?;
    if !statuses.is_empty() {
        meta.filters.push((
            "Status".into(),
            statuses.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", "),
        ));
    }
    if !forms.is_empty() {
        meta.filters
            .push(("Form".into(), forms.iter().map(|f| f.label()).collect::<Vec<_>>().join(", ")));
    }
    for (label, day) in [
        ("Approved from", list.approvedstart),
        ("Approved until", list.approvedend),
        ("Placement ending by", list.placementenddate),
    ] {
        if let Some(d) = day {
            meta.filters.push((label.into(), crate::text::day(d)));
        }
    }
    let rows = report.stream(&state.db, row);
    Ok(export::respond(format, meta, columns, rows, totals))
}
