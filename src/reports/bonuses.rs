//! Historical bonuses: the fiscal years with completion bonuses (F14, by the bonus's own
//! `details.fiscalYearId`), and each year's bonuses as a file.

use actix_web::{web, HttpResponse};
use sea_orm::{
    sea_query::{Expr, ExprTrait, Order, Query, SelectStatement},
    ConnectionTrait, DbBackend,
};
use serde::Serialize;
use utoipa::ToSchema;

use super::{
    catalogue::ReportInfo,
    export::{self, Cell, Column, Format, Kind},
    query::{self, a, col, get, lookup, name_column, named, ReportQuery, SqlReport},
};
use crate::{
    auth::{
        scope::{scope_of, Scope},
        CurrentUser, Permission,
    },
    error::{ApiResult, ProblemBody},
    forms::{Details, FormType},
    money::Money,
    payment_requests::workflow::{Status, CHARGED},
    state::AppState,
    web::Query as Q,
};

pub const INFO: ReportInfo = ReportInfo {
    key: "historical-bonuses",
    title: "Historical bonuses",
    description: "Completion bonuses per fiscal year, and each year's bonuses as a file.",
    route: "/reports/historical-bonuses",
    path: "/reports/bonuses/list",
    permission: Permission::ReportReadHistoricalBonuses,
    filters: &[],
    sortable: &[],
    default_sort: ("payee", false),
    totals: &["approvedAmount"],
};

/// The bonus's fiscal year, from its details.
fn bonus_year(backend: DbBackend) -> Expr {
    Expr::cust(match backend {
        DbBackend::Postgres => "(pr.details::jsonb->>'fiscalYearId')::integer",
        _ => "CAST(json_extract(pr.details, '$.fiscalYearId') AS INTEGER)",
    })
}

/// Live, submitted-at-least F14 requests in scope.
fn bonuses(scope: &Scope) -> SelectStatement {
    let mut q = Query::select();
    q.from_as(a("payment_requests"), a("pr"))
        .and_where(col("pr", "form_type").eq(FormType::F14))
        .and_where(col("pr", "deleted_at").is_null())
        .and_where(col("pr", "status").ne(Status::Draft));
    query::scoped(&mut q, scope, col("pr", "mentor_program_id"));
    q
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BonusYear {
    pub fiscal_year_id: i32,
    pub fiscal_year: String,
    /// Live F14 requests past Draft.
    pub bonuses: i64,
    /// Those whose approval is charged now.
    pub approved: i64,
    pub approved_sum: Money,
}

#[utoipa::path(get, path = "/api/v1/reports/bonuses/list", tag = "reports", security(("bearer" = [])),
    responses((status = 200, body = Vec<BonusYear>, description = "Fiscal years with bonuses, newest first"),
        (status = 401, body = ProblemBody), (status = 403, body = ProblemBody)))]
pub async fn list(
    state: web::Data<AppState>,
    me: CurrentUser,
) -> ApiResult<web::Json<Vec<BonusYear>>> {
    let scope = scope_of(&state.db, &me).await?;
    let charged: Vec<String> = CHARGED.iter().map(|s| format!("'{}'", s.as_str())).collect();
    let is_charged = format!("pr.status IN ({})", charged.join(", "));
    let mut q = bonuses(&scope);
    let year = bonus_year(state.db.get_database_backend());
    q.expr_as(year.clone(), a("year"))
        .expr_as(Expr::cust("COUNT(*)"), a("n"))
        .expr_as(Expr::cust(format!("CAST(COALESCE(SUM(CASE WHEN {is_charged} THEN 1 ELSE 0 END), 0) AS BIGINT)")), a("approved"))
        .expr_as(Expr::cust(format!("CAST(COALESCE(SUM(CASE WHEN {is_charged} THEN pr.approved_cents ELSE 0 END), 0) AS BIGINT)")), a("approved_sum"))
        .add_group_by([year]);
    let rows = state.db.query_all(&q).await?;
    let years = crate::settings::store::fiscal_years(&state.db).await?;
    let mut out = Vec::new();
    for r in rows {
        let Some(id) = get::<Option<i32>>(&r, "year")? else { continue };
        let name =
            years.iter().find(|y| y.id == id).map_or_else(|| format!("#{id}"), |y| y.name.clone());
        out.push((
            years.iter().find(|y| y.id == id).map(|y| y.start_date),
            BonusYear {
                fiscal_year_id: id,
                fiscal_year: name,
                bonuses: get(&r, "n")?,
                approved: get(&r, "approved")?,
                approved_sum: Money(get(&r, "approved_sum")?),
            },
        ));
    }
    out.sort_by(|x, y| y.0.cmp(&x.0).then_with(|| y.1.fiscal_year_id.cmp(&x.1.fiscal_year_id)));
    Ok(web::Json(out.into_iter().map(|(_, b)| b).collect()))
}

pub fn columns() -> Vec<Column> {
    vec![
        Column::new("requestId", "Request", Kind::Text),
        Column::new("payee", "Payee", Kind::Text),
        Column::new("mentorProgram", "Program", Kind::Text),
        Column::new("bonusType", "Bonus type", Kind::Text),
        Column::new("reason", "Reason", Kind::Text),
        Column::new("approvedAmount", "Approved", Kind::Money),
        Column::labelled("formStatus", "Status", crate::entities::codes::Status::LABELLED),
        Column::new("approvedAt", "Approved on", Kind::Timestamp),
    ]
}

#[utoipa::path(get, path = "/api/v1/reports/bonuses/{fiscalYearId}/{reportFormat}/retrieve", tag = "reports", security(("bearer" = [])),
    params(("fiscalYearId" = i32, Path), ("reportFormat" = String, Path, description = "Csv, Xlsx or Pdf", pattern = "^(Csv|Xlsx|Pdf)$"),
        ("MinutesOffset" = Option<i32>, Query, description = "getTimezoneOffset() of the browser", minimum = -840, maximum = 840)),
    responses((status = 200, description = "The year's bonuses as a file, streamed"),
        (status = 400, body = ProblemBody), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody), (status = 404, body = ProblemBody)))]
pub async fn retrieve(
    state: web::Data<AppState>,
    me: CurrentUser,
    path: web::Path<(i32, String)>,
    Q(q): Q<ReportQuery>,
) -> ApiResult<HttpResponse> {
    let (year_id, format) = path.into_inner();
    let format = Format::require("reportFormat", Some(&format))?;
    let year = crate::settings::store::get_fiscal_year(&state.db, year_id).await?;
    let filters = ReportQuery {
        fiscalyearid: Some(year_id),
        minutesoffset: q.minutesoffset,
        ..Default::default()
    }
    .filters()?;
    let scope = scope_of(&state.db, &me).await?;
    let mut base = bonuses(&scope);
    base.and_where(bonus_year(state.db.get_database_backend()).eq(year_id));
    let lookups = vec![lookup("participants", "pa", col("pr", "participant_id"))];
    let report = SqlReport {
        base,
        lookups,
        select: vec![
            (col("pr", "id"), "id"),
            (col("pa", "full_name"), "payee"),
            (col("pr", "details"), "details"),
            (col("pr", "approved_cents"), "approved_cents"),
            (col("pr", "status"), "status"),
            (col("pr", "approved_at"), "approved_at"),
        ],
        named: vec![named(
            "program",
            "mentor_programs",
            col("pr", "mentor_program_id"),
            name_column,
        )],
        order: vec![(col("pa", "sort_name"), Order::Asc), (col("pr", "id"), Order::Asc)],
        sums: vec![("approvedAmount", col("pr", "approved_cents"))],
        year: None,
    };
    let columns = columns();
    let totals = report.file_totals(&state.db, format, &columns).await?;
    let stem = format!(
        "historical-bonuses-{}",
        year.name.split_whitespace().collect::<Vec<_>>().join("-").replace('/', "-")
    );
    let meta =
        query::meta(&state.db, &me, stem, format!("Bonuses {}", year.name), &filters).await?;
    let rows = report.stream(&state.db, |r| {
        let (kind, reason) =
            match Details::from_stored(FormType::F14, &get::<String>(r, "details")?)? {
                Details::F14(d) => {
                    (Cell::Text(format!("{:?}", d.bonus_type)), Cell::Text(d.reason))
                }
                _ => (Cell::Empty, Cell::Empty),
            };
        Ok(vec![
            Cell::Request(FormType::F14.as_str(), get::<i32>(r, "id")?.into()),
            Cell::text(get::<Option<String>>(r, "payee")?),
            Cell::text(get::<Option<String>>(r, "program")?),
            kind,
            reason,
            Cell::money(get(r, "approved_cents")?),
            Cell::Text(get(r, "status")?),
            Cell::timestamp(get(r, "approved_at")?),
        ])
    });
    Ok(export::respond(format, meta, columns, rows, totals))
}
