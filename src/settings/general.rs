//! General settings: organisation, support address, rates, token lifetimes. One row,
//! versioned: a change based on a stale version is a 409.

use actix_web::web;
use sea_orm::EntityTrait;
use serde_json::json;

use super::{dto::*, rules, store};
use crate::{
    activity,
    auth::CurrentUser,
    entities::general_setting::{self},
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
        (status = 403, body = ProblemBody), (status = 404, body = ProblemBody), (status = 409, description = "Stale version", body = ProblemBody)))]
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
    let txn = crate::db::write(&state.db).await?;
    let before = general_setting::Entity::find_by_id(id)
        .one(&txn)
        .await?
        .ok_or_else(|| ApiError::not_found("The general settings"))?;
    // One conditional update: of two saves based on the same version exactly one wins.
    let updated = store::save_general(&txn, id, body.version, &v).await?;
    if !updated {
        return Err(ApiError::Conflict(format!(
            "The general settings were changed by someone else (version {} is current, the change was based on {}). Reload and try again.",
            before.version, body.version
        )));
    }
    let after = store::general(&txn).await?;
    activity::note(
        &txn,
        "setting",
        id,
        "general-updated",
        me.id(),
        json!({
            "before": store::general_dto(before, &state.keys),
            "after": store::general_dto(after.clone(), &state.keys),
        }),
    )
    .await?;
    txn.commit().await?;
    Ok(web::Json(store::general_dto(after, &state.keys)))
}
