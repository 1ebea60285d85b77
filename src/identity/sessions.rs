//! The sign-ins a person can see and end (one per refresh-token family), and an
//! administrator's "end all sessions" of a user. An ended sign-in's access tokens are
//! refused from the next call on (`auth::caller` checks the family on every call).

use actix_web::{web, HttpRequest, HttpResponse};

use super::{dto::SessionDto, factor_commands as commands, store};
use crate::{
    auth::{session_of, CurrentUser},
    error::{ApiResult, ProblemBody},
    state::AppState,
};

#[utoipa::path(get, path = "/api/v1/identity/me/sessions", tag = "identity", security(("bearer" = [])),
    responses((status = 200, description = "The caller's live sign-ins, most recently used first", body = Vec<SessionDto>),
        (status = 401, body = ProblemBody)))]
pub async fn my_sessions(
    state: web::Data<AppState>,
    req: HttpRequest,
    me: CurrentUser,
) -> ApiResult<web::Json<Vec<SessionDto>>> {
    let current = session_of(&req, &state.keys);
    let mut sessions = store::live_sessions(&state.db, me.id(), crate::clock::now()).await?;
    for s in &mut sessions {
        s.current = current.as_deref() == Some(s.id.as_str());
    }
    Ok(web::Json(sessions))
}

#[utoipa::path(delete, path = "/api/v1/identity/me/sessions/{id}", tag = "identity", security(("bearer" = [])),
    params(("id" = String, Path, description = "A session id from the list")),
    responses((status = 204, description = "Ended; its access tokens are refused from now on"),
        (status = 401, body = ProblemBody), (status = 404, body = ProblemBody)))]
pub async fn end_my_session(
    state: web::Data<AppState>,
    me: CurrentUser,
    id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    commands::end_own_session(&state.db, &me, &id).await?;
    Ok(HttpResponse::NoContent().finish())
}

#[utoipa::path(post, path = "/api/v1/identity/me/sessions/end-others", tag = "identity", security(("bearer" = [])),
    responses((status = 204, description = "Every other sign-in of the caller ended"), (status = 401, body = ProblemBody)))]
pub async fn end_my_other_sessions(
    state: web::Data<AppState>,
    req: HttpRequest,
    me: CurrentUser,
) -> ApiResult<HttpResponse> {
    let current = session_of(&req, &state.keys);
    commands::end_other_sessions(&state.db, &me, current.as_deref()).await?;
    Ok(HttpResponse::NoContent().finish())
}

#[utoipa::path(delete, path = "/api/v1/identity/users/{id}/sessions", tag = "identity", security(("bearer" = [])),
    responses((status = 204, description = "Every sign-in of the user ended"),
        (status = 401, body = ProblemBody), (status = 403, body = ProblemBody), (status = 404, body = ProblemBody)))]
pub async fn end_user_sessions(
    state: web::Data<AppState>,
    me: CurrentUser,
    id: web::Path<i32>,
) -> ApiResult<HttpResponse> {
    commands::end_all_sessions(&state.db, &me, id.into_inner()).await?;
    Ok(HttpResponse::NoContent().finish())
}
