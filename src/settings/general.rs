//! General settings: organisation, support address, rates, token lifetimes, the office's
//! time zone and date format. One row, versioned: a change based on a stale version is a 409.

use actix_web::web;

use super::{commands, dto::*, rules, store};
use crate::{
    auth::CurrentUser,
    error::{ApiError, ApiResult, ProblemBody},
    state::AppState,
    web::Json,
};

#[utoipa::path(get, path = "/api/v1/system-settings/general", tag = "settings", security(("bearer" = [])),
    responses((status = 200, body = GeneralSettingsDto), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody)))]
pub async fn get_general(
    state: web::Data<AppState>,
    _me: CurrentUser,
) -> ApiResult<web::Json<GeneralSettingsDto>> {
    Ok(web::Json(store::general_dto(store::general(&state.db).await?, &state.keys)))
}

#[utoipa::path(put, path = "/api/v1/system-settings/general/{id}", tag = "settings", security(("bearer" = [])), request_body = GeneralSettingsRequest,
    params(("id" = i32, Path, description = "The id GET returned")),
    responses((status = 200, body = GeneralSettingsDto), (status = 400, body = ProblemBody), (status = 401, body = ProblemBody),
        (status = 403, body = ProblemBody), (status = 404, body = ProblemBody), (status = 409, description = "Stale version", body = ProblemBody),
        (status = 422, description = "A rule broken: an unknown time zone or date format, escalation not after the reminders", body = ProblemBody)))]
pub async fn update_general(
    state: web::Data<AppState>,
    me: CurrentUser,
    id: web::Path<i32>,
    Json(body): Json<GeneralSettingsRequest>,
) -> ApiResult<web::Json<GeneralSettingsDto>> {
    let id = id.into_inner();
    if body.id.is_some_and(|b| b != id) {
        return Err(ApiError::rule("id", "must match the id in the address"));
    }
    let v = rules::check_general(&body)?;
    let after =
        commands::update_general(&state.db, &state.keys, &me, (id, body.version), &v).await?;
    Ok(web::Json(store::general_dto(after, &state.keys)))
}
