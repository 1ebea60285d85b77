//! Handlers: the signed-in user's notification mode, and the outbox for the office's IT.

use actix_web::web;

use super::{commands, dto::*, outbox};
use crate::{
    auth::CurrentUser,
    error::{ApiResult, ProblemBody},
    state::AppState,
    web::{Json, PageQuery, Query},
};

#[utoipa::path(get, path = "/api/v1/identity/me/notifications", tag = "identity", security(("bearer" = [])),
    responses((status = 200, body = NotificationSettings), (status = 401, body = ProblemBody)))]
pub async fn get_mine(me: CurrentUser) -> ApiResult<web::Json<NotificationSettings>> {
    Ok(web::Json(NotificationSettings { mode: me.user.notification_mode }))
}

#[utoipa::path(put, path = "/api/v1/identity/me/notifications", tag = "identity", security(("bearer" = [])),
    request_body = NotificationSettings,
    responses((status = 200, body = NotificationSettings), (status = 400, body = ProblemBody), (status = 401, body = ProblemBody)))]
pub async fn put_mine(
    state: web::Data<AppState>,
    me: CurrentUser,
    Json(body): Json<NotificationSettings>,
) -> ApiResult<web::Json<NotificationSettings>> {
    let mode = commands::set_mode(&state.db, &me, body.mode).await?;
    Ok(web::Json(NotificationSettings { mode }))
}

#[utoipa::path(get, path = "/api/v1/system-settings/outbox", tag = "settings", security(("bearer" = [])), params(OutboxQuery),
    responses((status = 200, body = OutboxPage), (status = 400, body = ProblemBody), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody)))]
pub async fn list_outbox(
    state: web::Data<AppState>,
    _me: CurrentUser,
    Query(q): Query<OutboxQuery>,
) -> ApiResult<web::Json<OutboxPage>> {
    let paging = PageQuery { page: q.page, size: q.size }.paging()?;
    let page = outbox::page(&state.db, q.status, paging).await?;
    let waiting = outbox::waiting(&state.db).await?;
    Ok(web::Json(OutboxPage {
        items: page.items.into_iter().map(OutboxMail::from).collect(),
        page: page.page,
        size: page.size,
        total_count: page.total_count,
        waiting,
    }))
}
