//! Form validation limits: the settings calls (payment requests read the limits in force
//! through `store::for_form`).

use actix_web::web;

use super::{commands, dto::*, rules, store};
use crate::{
    auth::CurrentUser,
    error::{ApiResult, ProblemBody},
    state::AppState,
    web::Json,
};

#[utoipa::path(get, path = "/api/v1/system-settings/form-validation-limits", tag = "settings", security(("bearer" = [])),
    responses((status = 200, description = "F1 to F14, in order", body = Vec<FormLimitDto>), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody)))]
pub async fn get_limits(
    state: web::Data<AppState>,
    _me: CurrentUser,
) -> ApiResult<web::Json<Vec<FormLimitDto>>> {
    Ok(web::Json(store::limits(&state.db).await?.into_iter().map(store::limit_dto).collect()))
}

#[utoipa::path(put, path = "/api/v1/system-settings/form-validation-limits", tag = "settings", security(("bearer" = [])),
    request_body(content = Vec<FormLimitDto>, description = "Every form type F1 to F14 exactly once"),
    responses((status = 200, body = Vec<FormLimitDto>), (status = 400, body = ProblemBody), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody)))]
pub async fn put_limits(
    state: web::Data<AppState>,
    me: CurrentUser,
    Json(body): Json<Vec<FormLimitDto>>,
) -> ApiResult<web::Json<Vec<FormLimitDto>>> {
    let values = rules::check_limits(&body)?;
    Ok(web::Json(commands::replace_limits(&state.db, &me, &values).await?))
}
