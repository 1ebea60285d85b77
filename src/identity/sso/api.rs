//! The single sign-on calls: the login page's question, the trip to the provider and back,
//! the exchange of the one-time code for a sign-in, and the settings screen's two calls.

use actix_web::{http::header, web, HttpRequest, HttpResponse};

use super::{commands, dto::*, oidc, rules::Refusal, settings, tickets};
use crate::{
    auth::{client_address, CurrentUser},
    error::{ApiError, ApiResult, ProblemBody},
    identity::{commands as sessions, dto::LoginResponse, session::login_body, store},
    state::AppState,
    web::{Json, Query},
};

fn to_login(state: &AppState, fragment: &[(&str, &str)]) -> HttpResponse {
    let fragment = serde_html_form::to_string(fragment).unwrap_or_default();
    HttpResponse::Found()
        .insert_header((
            header::LOCATION,
            format!("{}/login#{fragment}", state.config.public_url()),
        ))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .finish()
}

fn refused(state: &AppState, refusal: &Refusal) -> HttpResponse {
    to_login(state, &[("ssoError", &refusal.words())])
}

#[utoipa::path(get, path = "/api/v1/identity/sso", tag = "identity",
    responses((status = 200, description = "Whether the login page offers the agency's sign-in", body = SsoStatus)))]
pub async fn status(state: web::Data<AppState>) -> web::Json<SsoStatus> {
    web::Json(SsoStatus {
        enabled: oidc::enabled(&state.config.sso),
        label: state.config.sso.oidc_label.clone(),
    })
}

#[utoipa::path(get, path = "/api/v1/identity/sso/login", tag = "identity", params(LoginQuery),
    responses((status = 302, description = "To the provider; or back to the login page with `#ssoError=` in words"),
        (status = 404, description = "Single sign-on is not configured", body = ProblemBody)))]
pub async fn login(
    state: web::Data<AppState>,
    req: HttpRequest,
    Query(query): Query<LoginQuery>,
) -> ApiResult<HttpResponse> {
    if !oidc::enabled(&state.config.sso) {
        return Err(ApiError::NotFound("Single sign-on is not configured.".into()));
    }
    // A GET that writes (the ticket): cached callers are checked again after it.
    let _writing = state.callers.writing();
    let next = tickets::local_path(query.next.as_deref());
    match oidc::start(&state, next).await? {
        Ok(url) => Ok(HttpResponse::Found()
            .insert_header((header::LOCATION, url))
            .insert_header((header::CACHE_CONTROL, "no-store"))
            .finish()),
        Err(refusal) => {
            let ip = client_address(&req, &state.config);
            commands::deny(&state.db, &refusal, None, None, &ip).await?;
            Ok(refused(&state, &refusal))
        }
    }
}

#[utoipa::path(get, path = "/api/v1/identity/sso/callback", tag = "identity", params(CallbackQuery),
    responses((status = 302, description = "To the login page: `#sso=<one-time code>&next=<path>`, or `#ssoError=<words>`"),
        (status = 404, description = "Single sign-on is not configured", body = ProblemBody)))]
pub async fn callback(
    state: web::Data<AppState>,
    req: HttpRequest,
    Query(query): Query<CallbackQuery>,
) -> ApiResult<HttpResponse> {
    if !oidc::enabled(&state.config.sso) {
        return Err(ApiError::NotFound("Single sign-on is not configured.".into()));
    }
    // A GET that writes (tickets, accounts, roles): cached callers are checked again after it.
    let _writing = state.callers.writing();
    let ip = client_address(&req, &state.config);
    let (app, from): (&AppState, &str) = (&state, &ip);
    let deny = move |refusal: Refusal| async move {
        commands::deny(&app.db, &refusal, None, None, from).await?;
        Ok::<_, ApiError>(refused(app, &refusal))
    };
    let Some(state_value) = query.state.as_deref().filter(|s| !s.is_empty()) else {
        return deny(Refusal::State).await;
    };
    let (code, provider_error) = match (query.code.as_deref(), query.error.as_deref()) {
        (Some(code), None) if !code.is_empty() => (code, None),
        (_, error) => ("", Some(error.unwrap_or("no code").to_owned())),
    };
    if let Some(error) = provider_error {
        // The state is spent either way, so the same answer cannot be replayed.
        let known = tickets::take(&state.db, tickets::STATE, state_value, crate::clock::now())
            .await?
            .is_some();
        tracing::info!(error = %error.chars().take(64).collect::<String>(), "the provider ended the sign-in");
        return deny(if known { Refusal::Provider } else { Refusal::State }).await;
    }
    let finished = match oidc::finish(&state, code, state_value).await? {
        Ok(finished) => finished,
        Err(refusal) => return deny(refusal).await,
    };
    let user = match commands::admit(&state, finished.person, &ip).await? {
        Ok(user) => user,
        Err(refusal) => return Ok(refused(&state, &refusal)),
    };
    let next = finished.next_path.clone().unwrap_or_else(|| "/".into());
    let code = tickets::issue_handoff(&state.db, user.id, finished.next_path).await?;
    Ok(to_login(&state, &[("sso", &code), ("next", &next)]))
}

#[utoipa::path(post, path = "/api/v1/identity/sso/exchange", tag = "identity", request_body = ExchangeRequest,
    responses((status = 200, description = "The same body as `POST /identity/login`", body = LoginResponse),
        (status = 400, body = ProblemBody),
        (status = 401, description = "Unknown, used or expired code", body = ProblemBody),
        (status = 403, description = "Coordinator sign-in is blocked", body = ProblemBody)))]
pub async fn exchange(
    state: web::Data<AppState>,
    req: HttpRequest,
    Json(body): Json<ExchangeRequest>,
) -> ApiResult<web::Json<LoginResponse>> {
    let refused = || {
        ApiError::Unauthorized(
            "This sign-in link is invalid or has expired. Please sign in again.".into(),
        )
    };
    let carried = tickets::take(&state.db, tickets::HANDOFF, &body.code, crate::clock::now())
        .await?
        .ok_or_else(refused)?;
    let user_id = carried.user_id.ok_or_else(refused)?;
    let user = store::get_user(&state.db, user_id)
        .await
        .ok()
        .filter(|u| u.is_active)
        .ok_or_else(refused)?;
    let ip = client_address(&req, &state.config);
    let origin = crate::identity::session::origin(&req, ip);
    let signed_in = sessions::sign_in(&state.db, &state.keys, user, &origin).await?;
    Ok(web::Json(login_body(&state, signed_in, None)))
}

#[utoipa::path(get, path = "/api/v1/system-settings/sso", tag = "settings", security(("bearer" = [])),
    responses((status = 200, body = SsoSettings), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody)))]
pub async fn get_settings(
    state: web::Data<AppState>,
    _me: CurrentUser,
) -> ApiResult<web::Json<SsoSettings>> {
    Ok(web::Json(settings::load(&state.db).await?))
}

#[utoipa::path(put, path = "/api/v1/system-settings/sso", tag = "settings", security(("bearer" = [])), request_body = SsoSettings,
    responses((status = 200, description = "The settings as saved", body = SsoSettings),
        (status = 400, body = ProblemBody), (status = 401, body = ProblemBody),
        (status = 403, description = "No setting:edit, or a role above the editor's own", body = ProblemBody),
        (status = 422, description = "An unknown role, or no listed account", body = ProblemBody)))]
pub async fn put_settings(
    state: web::Data<AppState>,
    me: CurrentUser,
    Json(body): Json<SsoSettings>,
) -> ApiResult<web::Json<SsoSettings>> {
    let next = settings::check(&body)?;
    Ok(web::Json(settings::save(&state.db, &me, next).await?))
}
