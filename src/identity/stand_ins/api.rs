//! The handlers of time away: a person's own (`/identity/me/out-of-office`) and, for editors
//! of users, anyone's (`/identity/users/{id}/out-of-office`).

use actix_web::{web, HttpResponse};

use super::{
    commands,
    dto::{CandidatesQuery, OutOfOfficeDto, OutOfOfficeRequest},
};
use crate::{
    auth::CurrentUser,
    error::{ApiError, ApiResult, ProblemBody},
    settings::dto::UserRefDto,
    state::AppState,
    web::{Json, Query},
};

async fn show(state: &AppState, owner: i32) -> ApiResult<web::Json<OutOfOfficeDto>> {
    commands::current(&state.db, owner)
        .await?
        .map(web::Json)
        .ok_or_else(|| ApiError::not_found("Time away"))
}

#[utoipa::path(get, path = "/api/v1/identity/me/out-of-office", tag = "identity", security(("bearer" = [])),
    responses((status = 200, description = "The caller's time away, unless it has ended", body = OutOfOfficeDto),
        (status = 401, body = ProblemBody), (status = 404, description = "None set", body = ProblemBody)))]
pub async fn get_mine(
    state: web::Data<AppState>,
    me: CurrentUser,
) -> ApiResult<web::Json<OutOfOfficeDto>> {
    show(&state, me.id()).await
}

#[utoipa::path(put, path = "/api/v1/identity/me/out-of-office", tag = "identity", security(("bearer" = [])),
    request_body = OutOfOfficeRequest,
    responses((status = 200, body = OutOfOfficeDto), (status = 400, body = ProblemBody), (status = 401, body = ProblemBody),
        (status = 422, description = "The stand-in or the days cannot be taken (field named)", body = ProblemBody)))]
pub async fn put_mine(
    state: web::Data<AppState>,
    me: CurrentUser,
    Json(body): Json<OutOfOfficeRequest>,
) -> ApiResult<web::Json<OutOfOfficeDto>> {
    Ok(web::Json(commands::set(&state.db, &me, me.id(), &body).await?))
}

#[utoipa::path(delete, path = "/api/v1/identity/me/out-of-office", tag = "identity", security(("bearer" = [])),
    responses((status = 204, description = "Back in the office"), (status = 401, body = ProblemBody),
        (status = 404, description = "None set", body = ProblemBody)))]
pub async fn delete_mine(state: web::Data<AppState>, me: CurrentUser) -> ApiResult<HttpResponse> {
    commands::clear(&state.db, &me, me.id()).await?;
    Ok(HttpResponse::NoContent().finish())
}

#[utoipa::path(get, path = "/api/v1/identity/users/{id}/out-of-office", tag = "identity", security(("bearer" = [])),
    params(("id" = i32, Path, minimum = 1, description = "User id")),
    responses((status = 200, description = "The user's time away, unless it has ended", body = OutOfOfficeDto),
        (status = 401, body = ProblemBody), (status = 403, body = ProblemBody), (status = 404, body = ProblemBody)))]
pub async fn get_users(
    state: web::Data<AppState>,
    _me: CurrentUser,
    id: web::Path<i32>,
) -> ApiResult<web::Json<OutOfOfficeDto>> {
    show(&state, id.into_inner()).await
}

#[utoipa::path(put, path = "/api/v1/identity/users/{id}/out-of-office", tag = "identity", security(("bearer" = [])),
    request_body = OutOfOfficeRequest, params(("id" = i32, Path, minimum = 1, description = "User id")),
    responses((status = 200, body = OutOfOfficeDto), (status = 400, body = ProblemBody), (status = 401, body = ProblemBody),
        (status = 403, body = ProblemBody), (status = 404, body = ProblemBody),
        (status = 422, description = "The stand-in or the days cannot be taken (field named)", body = ProblemBody)))]
pub async fn put_users(
    state: web::Data<AppState>,
    me: CurrentUser,
    id: web::Path<i32>,
    Json(body): Json<OutOfOfficeRequest>,
) -> ApiResult<web::Json<OutOfOfficeDto>> {
    Ok(web::Json(commands::set(&state.db, &me, id.into_inner(), &body).await?))
}

#[utoipa::path(delete, path = "/api/v1/identity/users/{id}/out-of-office", tag = "identity", security(("bearer" = [])),
    params(("id" = i32, Path, minimum = 1, description = "User id")),
    responses((status = 204, description = "Back in the office"), (status = 401, body = ProblemBody),
        (status = 403, body = ProblemBody), (status = 404, body = ProblemBody)))]
pub async fn delete_users(
    state: web::Data<AppState>,
    me: CurrentUser,
    id: web::Path<i32>,
) -> ApiResult<HttpResponse> {
    commands::clear(&state.db, &me, id.into_inner()).await?;
    Ok(HttpResponse::NoContent().finish())
}

#[utoipa::path(get, path = "/api/v1/identity/users/stand-in-candidates", tag = "identity", security(("bearer" = [])),
    params(CandidatesQuery),
    responses((status = 200, description = "Up to 20 active users who approve, by name", body = Vec<UserRefDto>),
        (status = 400, body = ProblemBody), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody)))]
pub async fn candidates(
    state: web::Data<AppState>,
    me: CurrentUser,
    Query(q): Query<CandidatesQuery>,
) -> ApiResult<web::Json<Vec<UserRefDto>>> {
    let search = q.search.unwrap_or_default();
    if search.chars().count() > 100 {
        return Err(ApiError::bad_field("Search", "must be at most 100 characters"));
    }
    Ok(web::Json(commands::candidates(&state.db, &me, &search).await?))
}
