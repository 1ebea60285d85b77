//! Blocking coordinator sign-in (e.g. at fiscal year end). The check itself is
//! `store::ensure_may_sign_in`, called by identity on sign-in and refresh.

use actix_web::web;
use serde_json::json;

use super::{dto::*, rules, store};
use crate::{
    activity,
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
    let txn = crate::db::write(&state.db).await?;
    let before = store::login_block(&txn).await?;
    store::save_login_block(&txn, body.is_blocked, message).await?;
    let after = store::login_block(&txn).await?;
    activity::record(
        &txn,
        activity::Entry {
            entity_type: "setting",
            entity_id: store::SINGLE_ROW_ID,
            action: if after.is_blocked {
                "coordinator-login-blocked"
            } else {
                "coordinator-login-unblocked"
            },
            actor_user_id: Some(me.id()),
            from_status: Some(if before.is_blocked { "Blocked" } else { "Open" }.into()),
            to_status: Some(if after.is_blocked { "Blocked" } else { "Open" }.into()),
            data: Some(json!({"message": after.message})),
            ..Default::default()
        },
    )
    .await?;
    txn.commit().await?;
    tracing::info!(target: "audit", user_id = me.id(), blocked = after.is_blocked, "coordinator sign-in block changed");
    Ok(web::Json(store::login_block_dto(after)))
}
