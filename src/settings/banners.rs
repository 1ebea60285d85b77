//! Notification banners: the active ones are read by every signed-in user (every page
//! shows them); the full list and its replacement need setting:read / setting:edit.

use actix_web::web;

use super::{commands, dto::*, rules, store};
use crate::{
    auth::{CurrentUser, Permission},
    error::{ApiResult, ProblemBody},
    state::AppState,
    web::{Json, Query},
};

#[utoipa::path(get, path = "/api/v1/system-settings/notification-banners", tag = "settings", security(("bearer" = [])), params(BannersQuery),
    responses((status = 200, description = "In display order", body = Vec<BannerDto>), (status = 400, body = ProblemBody),
        (status = 401, body = ProblemBody), (status = 403, description = "Full list without setting:read", body = ProblemBody)))]
pub async fn get_banners(
    state: web::Data<AppState>,
    me: CurrentUser,
    Query(q): Query<BannersQuery>,
) -> ApiResult<web::Json<Vec<BannerDto>>> {
    let active_only = q.activeonly.unwrap_or(false);
    if !active_only {
        me.require(Permission::SettingRead)?;
    }
    let now = crate::clock::now();
    let rows = store::banners(&state.db).await?;
    Ok(web::Json(
        rows.into_iter()
            .filter(|b| !active_only || rules::is_showing(b.is_active, b.starts_at, b.ends_at, now))
            .map(store::banner_dto)
            .collect(),
    ))
}

#[utoipa::path(put, path = "/api/v1/system-settings/notification-banners", tag = "settings", security(("bearer" = [])),
    request_body(content = Vec<BannerInput>, description = "The whole list, in display order: banners left out are deleted"),
    responses((status = 200, body = Vec<BannerDto>), (status = 400, body = ProblemBody), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody)))]
pub async fn put_banners(
    state: web::Data<AppState>,
    me: CurrentUser,
    Json(body): Json<Vec<BannerInput>>,
) -> ApiResult<web::Json<Vec<BannerDto>>> {
    Ok(web::Json(commands::replace_banners(&state.db, &me, &body).await?))
}
