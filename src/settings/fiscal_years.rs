//! Fiscal years: listed by every signed-in user (the UI's filters need them), created
//! with setting:edit.

use actix_web::{web, HttpResponse};

use super::{commands, dto::*, rules, store};
use crate::{
    auth::CurrentUser,
    error::{ApiResult, ProblemBody},
    state::AppState,
    web::Json,
};

#[utoipa::path(get, path = "/api/v1/system-settings/fiscal-years", tag = "settings", security(("bearer" = [])),
    responses((status = 200, description = "Newest first", body = Vec<FiscalYearDto>), (status = 401, body = ProblemBody)))]
pub async fn list_fiscal_years(
    state: web::Data<AppState>,
    _me: CurrentUser,
) -> ApiResult<web::Json<Vec<FiscalYearDto>>> {
    let years = store::fiscal_years(&state.db).await?;
    Ok(web::Json(store::fiscal_year_dtos(&state.db, years).await?))
}

#[utoipa::path(post, path = "/api/v1/system-settings/fiscal-years", tag = "settings", security(("bearer" = [])), request_body = FiscalYearRequest,
    responses((status = 201, body = FiscalYearDto), (status = 400, body = ProblemBody), (status = 401, body = ProblemBody),
        (status = 403, body = ProblemBody), (status = 409, description = "Name taken", body = ProblemBody),
        (status = 422, description = "Start not before end, or overlaps another year", body = ProblemBody)))]
pub async fn create_fiscal_year(
    state: web::Data<AppState>,
    me: CurrentUser,
    Json(body): Json<FiscalYearRequest>,
) -> ApiResult<HttpResponse> {
    let name = rules::check_fiscal_year_name(&body.name)?;
    let dates = (body.start_date, body.end_date);
    let created = commands::create_fiscal_year(&state.db, &me, &name, dates).await?;
    Ok(HttpResponse::Created().json(store::fiscal_year_dto(&state.db, created).await?))
}

#[utoipa::path(post, path = "/api/v1/system-settings/fiscal-years/{id}/close", tag = "settings", security(("bearer" = [])),
    request_body = FiscalYearReasonRequest, params(("id" = i32, Path, description = "Fiscal year id")),
    responses((status = 200, description = "The year, closed: nothing more is charged to it", body = FiscalYearDto),
        (status = 400, body = ProblemBody), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody),
        (status = 404, body = ProblemBody), (status = 409, description = "Already closed", body = ProblemBody)))]
pub async fn close_fiscal_year(
    state: web::Data<AppState>,
    me: CurrentUser,
    id: web::Path<i32>,
    Json(body): Json<FiscalYearReasonRequest>,
) -> ApiResult<web::Json<FiscalYearDto>> {
    close_or_reopen(&state, &me, id.into_inner(), true, &body).await
}

#[utoipa::path(post, path = "/api/v1/system-settings/fiscal-years/{id}/reopen", tag = "settings", security(("bearer" = [])),
    request_body = FiscalYearReasonRequest, params(("id" = i32, Path, description = "Fiscal year id")),
    responses((status = 200, description = "The year, open again", body = FiscalYearDto),
        (status = 400, body = ProblemBody), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody),
        (status = 404, body = ProblemBody), (status = 409, description = "Not closed", body = ProblemBody)))]
pub async fn reopen_fiscal_year(
    state: web::Data<AppState>,
    me: CurrentUser,
    id: web::Path<i32>,
    Json(body): Json<FiscalYearReasonRequest>,
) -> ApiResult<web::Json<FiscalYearDto>> {
    close_or_reopen(&state, &me, id.into_inner(), false, &body).await
}

async fn close_or_reopen(
    state: &AppState,
    me: &CurrentUser,
    id: i32,
    closing: bool,
    body: &FiscalYearReasonRequest,
) -> ApiResult<web::Json<FiscalYearDto>> {
    let reason = rules::check_year_reason(&body.reason)?;
    let year = commands::close_or_reopen_fiscal_year(&state.db, me, id, closing, reason).await?;
    Ok(web::Json(store::fiscal_year_dto(&state.db, year).await?))
}
