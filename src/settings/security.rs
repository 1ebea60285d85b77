//! The security settings: which roles must sign in with a second factor.

use actix_web::web;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::security_policy;
use crate::{
    auth::CurrentUser,
    error::{ApiResult, ProblemBody},
    state::AppState,
    web::Json,
};

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SecuritySettingsDto {
    /// Role names whose password sign-ins must also pass a second factor (and enrol one
    /// first when they hold none).
    pub mfa_required_roles: Vec<String>,
}

#[utoipa::path(get, path = "/api/v1/system-settings/security", tag = "settings", security(("bearer" = [])),
    responses((status = 200, body = SecuritySettingsDto), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody)))]
pub async fn get_security(
    state: web::Data<AppState>,
    _me: CurrentUser,
) -> ApiResult<web::Json<SecuritySettingsDto>> {
    let mfa_required_roles = security_policy::required_role_names(&state.db).await?;
    Ok(web::Json(SecuritySettingsDto { mfa_required_roles }))
}

#[utoipa::path(put, path = "/api/v1/system-settings/security", tag = "settings", security(("bearer" = [])), request_body = SecuritySettingsDto,
    responses((status = 200, body = SecuritySettingsDto), (status = 400, body = ProblemBody), (status = 401, body = ProblemBody),
        (status = 403, body = ProblemBody), (status = 422, description = "Unknown role", body = ProblemBody)))]
pub async fn put_security(
    state: web::Data<AppState>,
    me: CurrentUser,
    Json(body): Json<SecuritySettingsDto>,
) -> ApiResult<web::Json<SecuritySettingsDto>> {
    let mfa_required_roles =
        security_policy::set_required_roles(&state.db, &me, &body.mfa_required_roles).await?;
    Ok(web::Json(SecuritySettingsDto { mfa_required_roles }))
}
