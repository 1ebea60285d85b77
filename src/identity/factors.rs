//! The second factor's calls: the second step of a sign-in (a code or a recovery code), the
//! enrolment a role's policy asks for at sign-in, the caller's own authenticator app, and an
//! administrator's removal of a lost factor.

use actix_web::{web, HttpRequest, HttpResponse};

use super::{
    dto::*,
    factor_commands::{self as commands, Answer},
    session::{login_body, origin},
};
use crate::{
    auth::{client_address, session_of, tokens::hash_token, CurrentUser},
    error::{ApiError, ApiResult, ProblemBody},
    state::AppState,
    web::Json,
};

fn required(field: &str, value: &str) -> ApiResult<()> {
    if value.trim().is_empty() {
        return Err(ApiError::bad_field(field, "is required"));
    }
    Ok(())
}

#[utoipa::path(post, path = "/api/v1/identity/login/mfa", tag = "identity", request_body = MfaLoginRequest,
    responses((status = 200, body = LoginResponse),
        (status = 400, description = "Neither or both of code and recoveryCode", body = ProblemBody),
        (status = 401, description = "Wrong code, or the mfaToken is unknown, used, expired or ended by 5 wrong codes", body = ProblemBody),
        (status = 429, body = ProblemBody)))]
pub async fn login_mfa(
    state: web::Data<AppState>,
    req: HttpRequest,
    Json(body): Json<MfaLoginRequest>,
) -> ApiResult<web::Json<LoginResponse>> {
    required("mfaToken", &body.mfa_token)?;
    let answer = match (body.code, body.recovery_code) {
        (Some(code), None) => Answer::Totp(code),
        (None, Some(code)) => Answer::Recovery(code),
        _ => return Err(ApiError::rule("code", "give either code or recoveryCode")),
    };
    let ip = client_address(&req, &state.config);
    // The address's budget is the password's; each step counts apart (it ends itself at 5).
    state.login_throttle.check(&ip, &format!("mfa:{}", hash_token(&body.mfa_token)))?;
    let origin = origin(&req, ip);
    let signed_in =
        commands::finish_sign_in(&state.db, &state.keys, &body.mfa_token, answer, &origin).await?;
    Ok(web::Json(login_body(&state, signed_in, None)))
}

#[utoipa::path(post, path = "/api/v1/identity/login/enroll/totp", tag = "identity", request_body = MfaTokenRequest,
    responses((status = 200, body = TotpEnrolment), (status = 400, body = ProblemBody),
        (status = 401, description = "The mfaToken is not an open enrolment step", body = ProblemBody)))]
pub async fn enroll_totp_at_login(
    state: web::Data<AppState>,
    Json(body): Json<MfaTokenRequest>,
) -> ApiResult<web::Json<TotpEnrolment>> {
    required("mfaToken", &body.mfa_token)?;
    Ok(web::Json(commands::start_enrolment_at_sign_in(&state.db, &body.mfa_token).await?))
}

#[utoipa::path(post, path = "/api/v1/identity/login/enroll/totp/confirm", tag = "identity", request_body = MfaEnrollConfirmRequest,
    responses((status = 200, description = "Signed in; recoveryCodes shown this once", body = LoginResponse),
        (status = 400, body = ProblemBody),
        (status = 401, description = "Wrong code, or the mfaToken is not an open enrolment step", body = ProblemBody),
        (status = 429, body = ProblemBody)))]
pub async fn confirm_totp_at_login(
    state: web::Data<AppState>,
    req: HttpRequest,
    Json(body): Json<MfaEnrollConfirmRequest>,
) -> ApiResult<web::Json<LoginResponse>> {
    required("mfaToken", &body.mfa_token)?;
    required("code", &body.code)?;
    let ip = client_address(&req, &state.config);
    // The address's budget is the password's; each step counts apart (it ends itself at 5).
    state.login_throttle.check(&ip, &format!("mfa:{}", hash_token(&body.mfa_token)))?;
    let origin = origin(&req, ip);
    let (signed_in, codes) = commands::confirm_enrolment_at_sign_in(
        &state.db,
        &state.keys,
        &body.mfa_token,
        &body.code,
        &origin,
    )
    .await?;
    Ok(web::Json(login_body(&state, signed_in, Some(codes))))
}

#[utoipa::path(get, path = "/api/v1/identity/me/mfa", tag = "identity", security(("bearer" = [])),
    responses((status = 200, body = MfaStatusDto), (status = 401, body = ProblemBody)))]
pub async fn my_factors(
    state: web::Data<AppState>,
    me: CurrentUser,
) -> ApiResult<web::Json<MfaStatusDto>> {
    Ok(web::Json(commands::status(&state.db, &me).await?))
}

#[utoipa::path(post, path = "/api/v1/identity/me/mfa/totp", tag = "identity", security(("bearer" = [])),
    responses((status = 200, description = "A new secret, pending until confirmed by a code", body = TotpEnrolment),
        (status = 401, body = ProblemBody), (status = 409, description = "An authenticator app is already set up", body = ProblemBody)))]
pub async fn start_totp(
    state: web::Data<AppState>,
    me: CurrentUser,
) -> ApiResult<web::Json<TotpEnrolment>> {
    Ok(web::Json(commands::start_totp(&state.db, &me).await?))
}

#[utoipa::path(post, path = "/api/v1/identity/me/mfa/totp/confirm", tag = "identity", security(("bearer" = [])), request_body = CodeRequest,
    responses((status = 200, description = "Set up; the caller's other sign-ins end", body = RecoveryCodesDto),
        (status = 400, body = ProblemBody), (status = 401, body = ProblemBody),
        (status = 409, body = ProblemBody), (status = 422, description = "Wrong code, or nothing to confirm", body = ProblemBody)))]
pub async fn confirm_totp(
    state: web::Data<AppState>,
    req: HttpRequest,
    me: CurrentUser,
    Json(body): Json<CodeRequest>,
) -> ApiResult<web::Json<RecoveryCodesDto>> {
    required("code", &body.code)?;
    let session = session_of(&req, &state.keys);
    let recovery_codes =
        commands::confirm_totp(&state.db, &me, &body.code, session.as_deref()).await?;
    Ok(web::Json(RecoveryCodesDto { recovery_codes }))
}

#[utoipa::path(delete, path = "/api/v1/identity/me/mfa/totp", tag = "identity", security(("bearer" = [])), request_body = CodeRequest,
    responses((status = 204, description = "Removed; the caller's other sign-ins end"),
        (status = 400, body = ProblemBody), (status = 401, body = ProblemBody),
        (status = 404, description = "No authenticator app is set up", body = ProblemBody),
        (status = 422, description = "Wrong code", body = ProblemBody)))]
pub async fn remove_totp(
    state: web::Data<AppState>,
    req: HttpRequest,
    me: CurrentUser,
    Json(body): Json<CodeRequest>,
) -> ApiResult<HttpResponse> {
    required("code", &body.code)?;
    let session = session_of(&req, &state.keys);
    commands::remove_totp(&state.db, &me, &body.code, session.as_deref()).await?;
    Ok(HttpResponse::NoContent().finish())
}

#[utoipa::path(delete, path = "/api/v1/identity/users/{id}/mfa", tag = "identity", security(("bearer" = [])),
    responses((status = 204, description = "The user's factors are removed and her sign-ins end"),
        (status = 401, body = ProblemBody), (status = 403, body = ProblemBody), (status = 404, body = ProblemBody)))]
pub async fn remove_user_factors(
    state: web::Data<AppState>,
    me: CurrentUser,
    id: web::Path<i32>,
) -> ApiResult<HttpResponse> {
    commands::remove_factors(&state.db, &me, id.into_inner()).await?;
    Ok(HttpResponse::NoContent().finish())
}
