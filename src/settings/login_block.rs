//! Blocking coordinator sign-in (e.g. at fiscal year end). The check itself is
//! `store::ensure_may_sign_in`, called by identity on sign-in and refresh.

use actix_web::web;

use super::{commands, dto::*, rules, store};
use crate::{
    auth::CurrentUser,
    error::{ApiResult, ProblemBody},
    state::AppState,
    web::Json,
};

#[utoipa::path(get, path = "/api/v1/system-settings/block-coordinator-login", tag = "settings", security(("bearer" = [])),
    responses((status = 200, body = LoginBlockDto), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody)))]
pub async fn get_block(
    state: web::Data<AppState>,
    _me: CurrentUser,
) -> ApiResult<web::Json<LoginBlockDto>> {
    Ok(web::Json(store::login_block_dto(store::login_block(&state.db).await?)))
}

#[utoipa::path(post, path = "/api/v1/system-settings/block-coordinator-login", tag = "settings", security(("bearer" = [])), request_body = LoginBlockDto,
    responses((status = 200, description = "The block as saved; Coordinators are refused from their next sign-in or refresh", body = LoginBlockDto),
        (status = 400, description = "Message missing while blocked", body = ProblemBody), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody)))]
pub async fn set_block(
    state: web::Data<AppState>,
    me: CurrentUser,
    Json(body): Json<LoginBlockDto>,
) -> ApiResult<web::Json<LoginBlockDto>> {
    let message = rules::check_block(body.is_blocked, body.message.as_deref())?;
    let after = commands::set_login_block(&state.db, &me, body.is_blocked, message).await?;
    Ok(web::Json(store::login_block_dto(after)))
}
