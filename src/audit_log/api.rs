//! Handlers of the audit trail: parse, call one query, render.

use actix_web::{web, HttpResponse};

use super::{dto::*, export, queries, words};
use crate::reports::query::ReportQuery;
use crate::{
    audit,
    auth::CurrentUser,
    error::{ApiResult, ProblemBody},
    state::AppState,
    web::{PageQuery, Query},
};

#[utoipa::path(get, path = "/api/v1/audit-log", tag = "audit", security(("bearer" = [])), params(AuditQuery),
    responses((status = 200, body = AuditPage), (status = 400, body = ProblemBody), (status = 401, body = ProblemBody),
        (status = 403, description = "Without audit:read", body = ProblemBody), (status = 422, description = "To before From", body = ProblemBody)))]
pub async fn list(
    state: web::Data<AppState>,
    _me: CurrentUser,
    Query(q): Query<AuditQuery>,
) -> ApiResult<web::Json<AuditPage>> {
    let q = q.checked()?;
    let paging = PageQuery { page: q.page, size: q.size }.paging()?;
    let (items, count) = queries::page(&state.db, &q, paging).await?;
    let parents = queries::parents(&state.db, &items).await?;
    let names = words::names(&state.db, &items).await?;
    Ok(web::Json(AuditPage {
        items: items.into_iter().map(|e| AuditEntry::shown(e, &parents, &names)).collect(),
        page: paging.page,
        size: paging.size,
        total_count: count.total,
        total_count_is_exact: count.exact,
    }))
}

#[utoipa::path(get, path = "/api/v1/audit-log/verify", tag = "audit", security(("bearer" = [])),
    responses((status = 200, body = AuditVerdict), (status = 401, body = ProblemBody),
        (status = 403, description = "Without audit:read", body = ProblemBody)))]
pub async fn verify(
    state: web::Data<AppState>,
    _me: CurrentUser,
) -> ApiResult<web::Json<AuditVerdict>> {
    let v = audit::verify(&state.db).await?;
    Ok(web::Json(AuditVerdict {
        entries: v.entries,
        ok: v.first_broken.is_none(),
        first_broken_id: v.first_broken,
    }))
}

#[utoipa::path(get, path = "/api/v1/audit-log/retrieve", tag = "audit", security(("bearer" = [])),
    params(AuditQuery, ("ReportFormat" = String, Query, description = "Csv, Xlsx or Pdf", pattern = "^(Csv|Xlsx|Pdf)$"),
        ("MinutesOffset" = Option<i32>, Query, description = "The browser's getTimezoneOffset(), for the times in the file", minimum = -840, maximum = 840)),
    responses((status = 200, description = "Every entry the filters select, newest first, as a CSV, XLSX or PDF file (streamed)"),
        (status = 400, body = ProblemBody), (status = 401, body = ProblemBody),
        (status = 403, description = "Without audit:read", body = ProblemBody), (status = 422, description = "To before From", body = ProblemBody),
        (status = 503, description = "Other exports are being prepared; retry after the time given", body = ProblemBody)))]
pub async fn retrieve(
    state: web::Data<AppState>,
    me: CurrentUser,
    Query(q): Query<AuditQuery>,
    Query(file): Query<ReportQuery>,
) -> ApiResult<HttpResponse> {
    let q = q.checked()?;
    let format = file.format()?;
    let minutes_offset = file.filters()?.minutes_offset;
    export::file(&state.db, &me, &q, format, minutes_offset).await
}
