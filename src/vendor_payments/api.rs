//! Vendor payment handlers: thin — permission, scope, the checked range, then the
//! queries, or the generation command (one transaction).

use actix_web::{web, HttpResponse};
use chrono::NaiveDate;
use sea_orm::ConnectionTrait;

use super::{
    commands,
    dto::*,
    export,
    queries::{self, Selection},
    rules::Range,
};
use crate::{
    auth::{scope::scope_of, CurrentUser},
    error::{ApiError, ApiResult, ProblemBody},
    state::AppState,
    web::{Json, PageQuery, Query},
};

/// The checked selection of a preview, an export or a generation. `names` are the
/// caller's field names (query or body) for FiscalYearId, StartDate, EndDate, MinutesOffset;
/// missing dates default to the fiscal year's bounds.
async fn selection(
    db: &impl ConnectionTrait,
    me: &CurrentUser,
    (year, start, end, offset): (i32, Option<NaiveDate>, Option<NaiveDate>, Option<i32>),
    names: [&str; 4],
) -> ApiResult<Selection> {
    let fy = crate::settings::store::fiscal_year(db, year)
        .await?
        .ok_or_else(|| unknown_year(names[0]))?;
    let range = Range::new(
        start.unwrap_or(fy.start_date),
        end.unwrap_or(fy.end_date),
        offset.unwrap_or(0),
        [names[1], names[2], names[3]],
    )?;
    Ok(Selection { fiscal_year_id: fy.id, range, scope: scope_of(db, me).await? })
}

const QUERY_NAMES: [&str; 4] = ["FiscalYearId", "StartDate", "EndDate", "MinutesOffset"];
const BODY_NAMES: [&str; 4] = ["fiscalYearId", "startDate", "endDate", "minutesOffset"];

/// A well-formed id naming no fiscal year breaks a rule against stored data: 422.
fn unknown_year(field: &str) -> ApiError {
    ApiError::rule(field, "is not a known fiscal year")
}

#[utoipa::path(get, path = "/api/v1/reports/vendor-payments", tag = "reports", security(("bearer" = [])), params(PreviewQuery),
    responses((status = 200, description = "The ready requests a generation would pay now", body = PreviewPage), (status = 400, body = ProblemBody),
        (status = 401, body = ProblemBody), (status = 403, body = ProblemBody),
        (status = 422, body = ProblemBody, description = "An unknown fiscal year, or an end before the start")))]
pub async fn preview(
    state: web::Data<AppState>,
    me: CurrentUser,
    Query(q): Query<PreviewQuery>,
) -> ApiResult<web::Json<PreviewPage>> {
    let paging = q.paging()?;
    let sel = selection(
        &state.db,
        &me,
        (q.fiscalyearid, q.startdate, q.enddate, q.minutesoffset),
        QUERY_NAMES,
    )
    .await?;
    let totals = queries::preview_totals(&state.db, &sel).await?;
    let items = queries::preview_chunk(&state.db, &sel, paging.offset(), paging.size).await?;
    let payee_changes = queries::payee_changes(&state.db, &sel).await?;
    let outside_range = queries::outside_totals(&state.db, &sel).await?;
    Ok(web::Json(PreviewPage {
        items,
        payee_changes,
        outside_range,
        page: paging.page,
        size: paging.size,
        total_count: totals.count as u64,
        totals,
    }))
}

#[utoipa::path(post, path = "/api/v1/reports/vendor-payments", tag = "reports", security(("bearer" = [])), request_body = GenerateBody,
    responses((status = 201, description = "The new history entry; its requests are Processed", body = HistoryEntry), (status = 400, body = ProblemBody),
        (status = 401, body = ProblemBody), (status = 403, body = ProblemBody),
        (status = 409, body = ProblemBody, description = "The preview changed since it was seen (expectedCount/expectedTotal), or a request was taken meanwhile; nothing written"),
        (status = 422, body = ProblemBody, description = "Nothing to pay in the range, an unknown fiscal year, or an end before the start")))]
pub async fn generate(
    state: web::Data<AppState>,
    me: CurrentUser,
    Json(body): Json<GenerateBody>,
) -> ApiResult<HttpResponse> {
    if body.expected_count < 0 {
        return Err(ApiError::bad_field("expectedCount", "must be 0 or more"));
    }
    let parts =
        (body.fiscal_year_id, Some(body.start_date), Some(body.end_date), body.minutes_offset);
    let sel = selection(&state.db, &me, parts, BODY_NAMES).await?;
    let created =
        commands::generate(&state.db, &me, &sel, (body.expected_count, body.expected_total))
            .await?;
    let entry = queries::entry(&state.db, &sel.scope, created.id).await?;
    Ok(HttpResponse::Created().json(entry))
}

#[utoipa::path(get, path = "/api/v1/reports/vendor-payments/ready", tag = "reports", security(("bearer" = [])),
    responses((status = 200, description = "Per fiscal year with requests ready for processing (in the caller's scope), the earliest year first: how many wait, their sum, and their first and last approval", body = Vec<ReadyYear>),
        (status = 401, body = ProblemBody), (status = 403, body = ProblemBody)))]
pub async fn ready(
    state: web::Data<AppState>,
    me: CurrentUser,
) -> ApiResult<web::Json<Vec<ReadyYear>>> {
    let scope = scope_of(&state.db, &me).await?;
    Ok(web::Json(queries::ready_by_year(&state.db, &scope).await?))
}

#[utoipa::path(get, path = "/api/v1/reports/vendor-payments/history", tag = "reports", security(("bearer" = [])), params(PageQuery),
    responses((status = 200, description = "Generated reports, newest first, with what was paid per fiscal year over all of them", body = HistoryPage),
        (status = 400, body = ProblemBody), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody)))]
pub async fn history(
    state: web::Data<AppState>,
    me: CurrentUser,
    Query(q): Query<PageQuery>,
) -> ApiResult<web::Json<HistoryPage>> {
    let paging = q.paging()?;
    let scope = scope_of(&state.db, &me).await?;
    let (items, total_count, totals) = queries::history(&state.db, &scope, paging).await?;
    Ok(web::Json(HistoryPage { items, page: paging.page, size: paging.size, total_count, totals }))
}

#[utoipa::path(get, path = "/api/v1/reports/vendor-payments/history/{id}", tag = "reports", security(("bearer" = [])),
    params(("id" = i32, Path), PageQuery),
    responses((status = 200, description = "The entry and a page of its frozen rows", body = HistoryDetails), (status = 400, body = ProblemBody),
        (status = 401, body = ProblemBody), (status = 403, body = ProblemBody), (status = 404, body = ProblemBody)))]
pub async fn history_details(
    state: web::Data<AppState>,
    me: CurrentUser,
    id: web::Path<i32>,
    Query(q): Query<PageQuery>,
) -> ApiResult<web::Json<HistoryDetails>> {
    let paging = q.paging()?;
    let scope = scope_of(&state.db, &me).await?;
    let entry = queries::entry(&state.db, &scope, *id).await?;
    let items =
        queries::frozen_rows(&state.db, &scope, entry.id, paging.offset(), paging.size).await?;
    let totals = RowTotals { count: entry.row_count, amount: entry.total_amount };
    Ok(web::Json(HistoryDetails {
        items,
        page: paging.page,
        size: paging.size,
        total_count: entry.row_count as u64,
        totals,
        entry,
    }))
}

#[utoipa::path(get, path = "/api/v1/reports/vendor-payments/retrieve", tag = "reports", security(("bearer" = [])), params(PreviewRetrieveQuery),
    responses((status = 200, description = "The preview as a file (streamed)", content_type = "application/octet-stream"),
        (status = 400, body = ProblemBody), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody),
        (status = 422, body = ProblemBody, description = "An unknown fiscal year, or an end before the start")))]
pub async fn preview_retrieve(
    state: web::Data<AppState>,
    me: CurrentUser,
    Query(q): Query<PreviewRetrieveQuery>,
) -> ApiResult<HttpResponse> {
    let (format, offset) = export::format_and_offset(q.reportformat.as_deref(), q.minutesoffset)?;
    let sel = selection(
        &state.db,
        &me,
        (q.fiscalyearid, q.startdate, q.enddate, Some(offset)),
        QUERY_NAMES,
    )
    .await?;
    let totals = queries::preview_totals(&state.db, &sel).await?;
    let year = crate::settings::store::fiscal_year(&state.db, sel.fiscal_year_id)
        .await?
        .map(|y| y.name)
        .unwrap_or_default();
    let filters = vec![
        ("Fiscal year".to_owned(), year),
        ("Approved between".to_owned(), format!("{} – {}", sel.range.start, sel.range.end)),
    ];
    let meta = export::meta(
        &me,
        "vendor-payments".into(),
        "Vendor payments (preview)".into(),
        filters,
        offset,
    );
    let rows = export::preview_rows(state.db.clone(), &sel);
    Ok(crate::reports::export::respond(
        format,
        meta,
        export::columns(),
        rows,
        Some(export::totals(totals.amount)),
    ))
}

#[utoipa::path(get, path = "/api/v1/reports/vendor-payments/history/{id}/retrieve", tag = "reports", security(("bearer" = [])),
    params(("id" = i32, Path), HistoryRetrieveQuery),
    responses((status = 200, description = "The entry's frozen rows as a file (streamed); the same bytes in CSV whatever happened to the requests since",
            content_type = "application/octet-stream"),
        (status = 400, body = ProblemBody), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody), (status = 404, body = ProblemBody)))]
pub async fn history_retrieve(
    state: web::Data<AppState>,
    me: CurrentUser,
    id: web::Path<i32>,
    Query(q): Query<HistoryRetrieveQuery>,
) -> ApiResult<HttpResponse> {
    let (format, offset) = export::format_and_offset(q.reportformat.as_deref(), q.minutesoffset)?;
    let scope = scope_of(&state.db, &me).await?;
    let entry = queries::entry(&state.db, &scope, *id).await?;
    let filters = vec![
        (
            "Fiscal year".to_owned(),
            entry.fiscal_year_name.clone().unwrap_or_else(|| entry.fiscal_year_id.to_string()),
        ),
        ("Approved between".to_owned(), format!("{} – {}", entry.start_date, entry.end_date)),
        ("Generated by".to_owned(), entry.created_by_name.clone()),
    ];
    let meta = export::meta(
        &me,
        format!("vendor-payment-report-{}", entry.id),
        format!("Vendor payment report #{}", entry.id),
        filters,
        offset,
    );
    let rows = export::frozen_rows(state.db.clone(), &scope, entry.id);
    Ok(crate::reports::export::respond(
        format,
        meta,
        export::columns(),
        rows,
        Some(export::totals(entry.total_amount)),
    ))
}
