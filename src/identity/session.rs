//! Signing in and out, token refresh, and password links (the calls that need no
//! access token).

use actix_web::{web, HttpRequest, HttpResponse};
use serde::Serialize;
use utoipa::ToSchema;

use super::{
    commands::{self, SignIn},
    dto::*,
    factor_commands,
    rules::{judge_refresh, RefreshVerdict},
    sso, store,
};
use crate::{
    auth::{client_address, load_principal, password},
    entities::user,
    error::{normalize_email, ApiError, ApiResult, ProblemBody},
    settings,
    state::AppState,
    web::Json,
};

const BAD_CREDENTIALS: &str = "The e-mail or password is incorrect.";
const PASSWORD_SIGN_IN_LISTED: &str =
    "Sign in with the agency button: this account does not sign in with a MentorPay password.";
const BAD_LINK: &str = "This link is invalid or has expired. Ask for a new one.";

#[derive(Debug, Serialize, ToSchema)]
pub struct Done {
    pub message: String,
}

fn done(message: &str) -> web::Json<Done> {
    web::Json(Done { message: message.to_owned() })
}

fn user_details(principal: &crate::auth::CurrentUser) -> UserDetails {
    UserDetails {
        first_name: principal.user.first_name.clone(),
        last_name: principal.user.last_name.clone(),
        email: principal.user.email.clone(),
        roles: principal.roles.clone(),
        permissions: principal.permission_codes(),
    }
}

#[utoipa::path(post, path = "/api/v1/identity/login", tag = "identity", request_body = LoginRequest,
    responses(
        (status = 200, description = "The tokens; or, for an account with a second factor (or whose role needs one), the step that remains", body = LoginAnswer),
        (status = 400, body = ProblemBody), (status = 401, body = ProblemBody),
        (status = 403, description = "Coordinator sign-in is blocked, the directory refused the person, or this account signs in with the agency button", body = ProblemBody),
        (status = 429, description = "Too many attempts; see Retry-After", body = ProblemBody),
        (status = 503, description = "The LDAP directory does not answer", body = ProblemBody)))]
pub async fn login(
    state: web::Data<AppState>,
    req: HttpRequest,
    Json(body): Json<LoginRequest>,
) -> ApiResult<web::Json<LoginAnswer>> {
    let email = normalize_email(&body.email)
        .ok_or_else(|| ApiError::bad_field("email", "must be a valid e-mail address"))?;
    if body.password.is_empty() {
        return Err(ApiError::bad_field("password", "is required"));
    }
    let ip = client_address(&req, &state.config);
    state.login_throttle.check(&ip, &email)?;
    match sso::ldap_login(&state, &email, &body.password, &ip).await? {
        sso::DirectoryLogin::NotHeld => {}
        // The directory's own factor counts: no second step here.
        sso::DirectoryLogin::SignedIn(user) => {
            let signed_in =
                commands::sign_in(&state.db, &state.keys, user, &origin(&req, ip)).await?;
            return Ok(web::Json(LoginAnswer::SignedIn(login_body(&state, signed_in, None))));
        }
        sso::DirectoryLogin::Refused(answer) => return Err(answer),
    }
    if !sso::password_allowed(&state.db, &email).await? {
        commands::sign_in_refused(&state.db, &email, None, ip).await?;
        return Err(ApiError::Forbidden(PASSWORD_SIGN_IN_LISTED.into()));
    }

    let found = store::find_user_by_email(&state.db, &email).await?.filter(|u| u.is_active);
    let hash = found.as_ref().and_then(|u| u.password_hash.clone());
    let verified = password::verify(body.password, hash).await;
    if let Some(user) = &found {
        // A blocked Coordinator gets the block's answer whatever password it sends, so the
        // answer never confirms a password (docs/decisions-identity.md).
        settings::store::ensure_may_sign_in(
            &state.db,
            &load_principal(&state.db, user.clone()).await?.roles,
        )
        .await?;
    }
    let user = match found {
        Some(user) if verified => user,
        _ => {
            commands::sign_in_refused(&state.db, &email, found.map(|u| u.id), ip).await?;
            return Err(ApiError::Unauthorized(BAD_CREDENTIALS.into()));
        }
    };

    let origin = origin(&req, ip);
    if let Some(step) = factor_commands::second_step(&state.db, &user, &origin).await? {
        return Ok(web::Json(step));
    }
    let signed_in = commands::sign_in(&state.db, &state.keys, user, &origin).await?;
    Ok(web::Json(LoginAnswer::SignedIn(login_body(&state, signed_in, None))))
}

/// Where the call came from, as the sessions list keeps it.
pub fn origin(req: &HttpRequest, ip: String) -> store::Origin {
    let agent = req.headers().get(actix_web::http::header::USER_AGENT);
    store::Origin::new(ip, agent.and_then(|v| v.to_str().ok()))
}

/// The answer of a finished sign-in, by password or through the directory: its tokens and
/// who signed in.
pub fn login_body(
    state: &AppState,
    signed_in: SignIn,
    recovery_codes: Option<Vec<String>>,
) -> LoginResponse {
    let SignIn { principal, family, refresh_token, access_ttl } = signed_in;
    let access = state.keys.issue_access_for(
        principal.id(),
        &principal.user.email,
        &family,
        crate::clock::now().timestamp(),
        access_ttl,
    );
    LoginResponse {
        token: access.clone(),
        access_token: access,
        refresh_token,
        user_details: user_details(&principal),
        recovery_codes,
    }
}

#[utoipa::path(post, path = "/api/v1/identity/refresh", tag = "identity", request_body = RefreshRequest,
    responses((status = 200, body = RefreshResponse), (status = 400, body = ProblemBody),
        (status = 401, description = "Unknown, expired, revoked or reused refresh token", body = ProblemBody),
        (status = 403, description = "Coordinator sign-in is blocked", body = ProblemBody)))]
pub async fn refresh(
    state: web::Data<AppState>,
    req: HttpRequest,
    Json(body): Json<RefreshRequest>,
) -> ApiResult<web::Json<RefreshResponse>> {
    let refused = || ApiError::Unauthorized("The session has ended. Please sign in again.".into());
    let claims = state.keys.verify_signature_only(&body.token).ok_or_else(refused)?;
    let token = store::find_refresh(&state.db, &body.refresh_token).await?.ok_or_else(refused)?;
    if claims.sub != token.user_id.to_string() {
        return Err(refused());
    }
    // A blocked Coordinator hears the block's message, also for the sign-in the block ended.
    if let Ok(owner) = store::get_user(&state.db, token.user_id).await {
        let roles = load_principal(&state.db, owner).await?.roles;
        settings::store::ensure_may_sign_in(&state.db, &roles).await?;
    }
    let now = crate::clock::now();
    match judge_refresh(&token, now) {
        RefreshVerdict::Refused => return Err(refused()),
        RefreshVerdict::Reused => {
            let ip = client_address(&req, &state.config);
            commands::end_session(&state.db, &token, "refresh-token-reused", Some(ip)).await?;
            return Err(refused());
        }
        RefreshVerdict::Rotate => {}
    }

    let origin = origin(&req, client_address(&req, &state.config));
    let (user, next, access_ttl) =
        commands::rotate_refresh(&state.db, &state.keys, &token, &origin, refused).await?;

    let access = state.keys.issue_access_for(
        user.id,
        &user.email,
        &token.family_id,
        now.timestamp(),
        access_ttl,
    );
    Ok(web::Json(RefreshResponse { token: access, refresh_token: next }))
}

#[utoipa::path(post, path = "/api/v1/identity/logout", tag = "identity", request_body = LogoutRequest,
    responses((status = 204, description = "The sign-in's refresh tokens are revoked")))]
pub async fn logout(
    state: web::Data<AppState>,
    req: HttpRequest,
    Json(body): Json<LogoutRequest>,
) -> ApiResult<HttpResponse> {
    if let Some(token) = store::find_refresh(&state.db, &body.refresh_token).await? {
        let ip = client_address(&req, &state.config);
        commands::end_session(&state.db, &token, "signed-out", Some(ip)).await?;
    }
    Ok(HttpResponse::NoContent().finish())
}

/// How long after its arrival a reset-password request is answered: well above what issuing
/// a link and queueing its mail takes on a busy server.
pub const RESET_ANSWER_TIME: std::time::Duration = std::time::Duration::from_millis(300);

pub use crate::mail::set_password_link;

#[utoipa::path(post, path = "/api/v1/identity/user/reset-password", tag = "identity", request_body = ResetPasswordRequest,
    responses((status = 200, description = "Always, whether or not the account exists", body = Done),
        (status = 400, body = ProblemBody), (status = 429, body = ProblemBody)))]
pub async fn reset_password(
    state: web::Data<AppState>,
    req: HttpRequest,
    Json(body): Json<ResetPasswordRequest>,
) -> ApiResult<web::Json<Done>> {
    let email = normalize_email(&body.email)
        .ok_or_else(|| ApiError::bad_field("email", "must be a valid e-mail address"))?;
    let ip = client_address(&req, &state.config);
    state.login_throttle.check(&ip, &format!("reset:{email}"))?;
    // Answered at a fixed time after arrival, so how long it takes never tells whether the
    // account exists (issuing and mailing a link takes measurably longer than nothing).
    let answer_at = tokio::time::Instant::now() + RESET_ANSWER_TIME;
    let may_reset = sso::password_allowed(&state.db, &email).await?;
    if let Some(user) =
        store::find_user_by_email(&state.db, &email).await?.filter(|u| u.is_active && may_reset)
    {
        let token = commands::request_reset(&state.db, &user, ip).await?;
        let link = set_password_link(&state.config.public_url(), &user.email, &token);
        let valid_for = super::rules::validity_words(store::password_token_ttl(store::RESET));
        state.mailer.send(
            &user.email,
            "MentorPay: set your password",
            format!("Someone asked to reset the MentorPay password of {}.\n\nChoose a new password here (valid for {valid_for}, once):\n{link}\n\nIf it was not you, ignore this message.\n", user.email),
        );
    }
    tokio::time::sleep_until(answer_at).await;
    Ok(done("If an account exists for this e-mail, a link to set a new password has been sent."))
}

async fn user_and_live_token(
    state: &AppState,
    email: &str,
    token: &str,
) -> ApiResult<(user::Model, crate::entities::password_token::Model)> {
    let invalid = || ApiError::rule("token", BAD_LINK);
    let email = normalize_email(email).ok_or_else(invalid)?;
    let user = store::find_user_by_email(&state.db, &email)
        .await?
        .filter(|u| u.is_active)
        .ok_or_else(invalid)?;
    let live = store::find_live_password_token(&state.db, user.id, token, crate::clock::now())
        .await?
        .ok_or_else(invalid)?;
    Ok((user, live))
}

#[utoipa::path(post, path = "/api/v1/identity/reset-token/validate", tag = "identity", request_body = ValidateResetTokenRequest,
    responses((status = 200, body = Done), (status = 400, description = "Invalid, used or expired link", body = ProblemBody)))]
pub async fn validate_reset_token(
    state: web::Data<AppState>,
    Json(body): Json<ValidateResetTokenRequest>,
) -> ApiResult<web::Json<Done>> {
    user_and_live_token(&state, &body.email, &body.token).await?;
    Ok(done("The link is valid."))
}

#[utoipa::path(post, path = "/api/v1/identity/user/set-password", tag = "identity", request_body = SetPasswordRequest,
    responses((status = 200, body = Done), (status = 400, description = "Weak password or invalid link", body = ProblemBody)))]
pub async fn set_password(
    state: web::Data<AppState>,
    req: HttpRequest,
    Json(body): Json<SetPasswordRequest>,
) -> ApiResult<web::Json<Done>> {
    password::check_policy("password", &body.password)?;
    let (user, token) = user_and_live_token(&state, &body.email, &body.token).await?;
    let hash = password::hash(body.password).await?;
    let user_id = user.id;
    let ip = client_address(&req, &state.config);
    if !commands::set_password(&state.db, user, token.id, hash, ip).await? {
        return Err(ApiError::rule("token", BAD_LINK));
    }
    tracing::info!(target: "audit", user_id, "password set");
    Ok(done("Your password has been set. You can sign in now."))
}
