//! The passkey calls: the caller's own passkeys (register, list, rename, remove) and the
//! second step of a sign-in with one. Parse, call `passkey_commands`, render.

use actix_web::{web, HttpRequest, HttpResponse};
use serde::{de::DeserializeOwned, Serialize};

use super::{
    dto::*,
    passkey_commands as commands,
    passkey_rules::check_name,
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

fn name(value: &str) -> ApiResult<String> {
    check_name(value).map_err(|why| ApiError::bad_field("name", why))
}

/// The browser's credential, read from its JSON form. The document can only say "any JSON"
/// of it (WebAuthn's own shape), so one that is not a credential is a 422 naming it.
fn credential<T: DeserializeOwned>(value: serde_json::Value) -> ApiResult<T> {
    serde_json::from_value(value)
        .map_err(|_| ApiError::rule("credential", "is not a WebAuthn credential"))
}

fn options<T: Serialize>(value: &T) -> ApiResult<web::Json<PasskeyOptions>> {
    let mut json = serde_json::to_value(value)
        .map_err(|_| ApiError::Internal("passkeys: options could not be written".into()))?;
    Ok(web::Json(PasskeyOptions { public_key: json["publicKey"].take() }))
}

#[utoipa::path(get, path = "/api/v1/identity/me/passkeys", tag = "identity", security(("bearer" = [])),
    responses((status = 200, description = "The caller's passkeys, oldest first", body = Vec<PasskeyDto>),
        (status = 401, body = ProblemBody)))]
pub async fn my_passkeys(
    state: web::Data<AppState>,
    me: CurrentUser,
) -> ApiResult<web::Json<Vec<PasskeyDto>>> {
    Ok(web::Json(commands::list(&state.db, &me).await?))
}

#[utoipa::path(post, path = "/api/v1/identity/me/passkeys/register/start", tag = "identity", security(("bearer" = [])),
    responses((status = 200, description = "Options for navigator.credentials.create; finish within five minutes", body = PasskeyOptions),
        (status = 401, body = ProblemBody)))]
pub async fn start_registration(
    state: web::Data<AppState>,
    me: CurrentUser,
) -> ApiResult<web::Json<PasskeyOptions>> {
    let wa = commands::relying_party(&state.config)?;
    options(&commands::start_registration(&state.db, &wa, &me).await?)
}

#[utoipa::path(post, path = "/api/v1/identity/me/passkeys/register/finish", tag = "identity", security(("bearer" = [])), request_body = PasskeyRegisterRequest,
    responses((status = 201, description = "Kept; the caller's other sign-ins end", body = PasskeyRegistered),
        (status = 400, description = "No name, or no credential", body = ProblemBody), (status = 401, body = ProblemBody),
        (status = 409, description = "This credential is registered already", body = ProblemBody),
        (status = 422, description = "Not a WebAuthn credential, not verified, or no registration open", body = ProblemBody)))]
pub async fn finish_registration(
    state: web::Data<AppState>,
    req: HttpRequest,
    me: CurrentUser,
    Json(body): Json<PasskeyRegisterRequest>,
) -> ApiResult<HttpResponse> {
    let name = name(&body.name)?;
    let credential = credential(body.credential)?;
    let wa = commands::relying_party(&state.config)?;
    let session = session_of(&req, &state.keys);
    let (passkey, recovery_codes) =
        commands::finish_registration(&state.db, &wa, &me, &name, &credential, session.as_deref())
            .await?;
    Ok(HttpResponse::Created().json(PasskeyRegistered { passkey, recovery_codes }))
}

#[utoipa::path(put, path = "/api/v1/identity/me/passkeys/{id}", tag = "identity", security(("bearer" = [])), request_body = PasskeyRenameRequest,
    params(("id" = i32, Path, description = "A passkey id from the list")),
    responses((status = 200, body = PasskeyDto), (status = 400, body = ProblemBody), (status = 401, body = ProblemBody),
        (status = 404, body = ProblemBody)))]
pub async fn rename_passkey(
    state: web::Data<AppState>,
    me: CurrentUser,
    id: web::Path<i32>,
    Json(body): Json<PasskeyRenameRequest>,
) -> ApiResult<web::Json<PasskeyDto>> {
    let name = name(&body.name)?;
    Ok(web::Json(commands::rename(&state.db, &me, id.into_inner(), &name).await?))
}

#[utoipa::path(delete, path = "/api/v1/identity/me/passkeys/{id}", tag = "identity", security(("bearer" = [])), request_body = PasswordRequest,
    params(("id" = i32, Path, description = "A passkey id from the list")),
    responses((status = 204, description = "Removed; the caller's other sign-ins end"),
        (status = 400, body = ProblemBody), (status = 401, body = ProblemBody), (status = 404, body = ProblemBody),
        (status = 422, description = "Wrong password, or the account has none", body = ProblemBody)))]
pub async fn remove_passkey(
    state: web::Data<AppState>,
    req: HttpRequest,
    me: CurrentUser,
    id: web::Path<i32>,
    Json(body): Json<PasswordRequest>,
) -> ApiResult<HttpResponse> {
    if body.password.is_empty() {
        return Err(ApiError::bad_field("password", "is required"));
    }
    let session = session_of(&req, &state.keys);
    commands::remove(&state.db, &me, id.into_inner(), body.password, session.as_deref()).await?;
    Ok(HttpResponse::NoContent().finish())
}

#[utoipa::path(post, path = "/api/v1/identity/login/passkey/start", tag = "identity", request_body = MfaTokenRequest,
    responses((status = 200, description = "Options for navigator.credentials.get", body = PasskeyOptions),
        (status = 400, body = ProblemBody),
        (status = 401, description = "The mfaToken is unknown, used, expired or ended", body = ProblemBody),
        (status = 422, description = "The account has no passkey", body = ProblemBody)))]
pub async fn start_sign_in(
    state: web::Data<AppState>,
    Json(body): Json<MfaTokenRequest>,
) -> ApiResult<web::Json<PasskeyOptions>> {
    required("mfaToken", &body.mfa_token)?;
    let wa = commands::relying_party(&state.config)?;
    options(&commands::start_sign_in(&state.db, &wa, &body.mfa_token).await?)
}

#[utoipa::path(post, path = "/api/v1/identity/login/passkey/finish", tag = "identity", request_body = PasskeyLoginRequest,
    responses((status = 200, body = LoginResponse),
        (status = 400, description = "No mfaToken, or no credential", body = ProblemBody),
        (status = 401, description = "The assertion is wrong, replayed or not this account's (it counts as a wrong code), or the mfaToken has ended", body = ProblemBody),
        (status = 422, description = "The credential is not a WebAuthn credential (counts nothing)", body = ProblemBody),
        (status = 429, body = ProblemBody)))]
pub async fn finish_sign_in(
    state: web::Data<AppState>,
    req: HttpRequest,
    Json(body): Json<PasskeyLoginRequest>,
) -> ApiResult<web::Json<LoginResponse>> {
    required("mfaToken", &body.mfa_token)?;
    let credential = credential(body.credential)?;
    let ip = client_address(&req, &state.config);
    // The address's budget is the password's; each step counts apart (it ends itself at 5).
    state.login_throttle.check(&ip, &format!("mfa:{}", hash_token(&body.mfa_token)))?;
    let origin = origin(&req, ip);
    let wa = commands::relying_party(&state.config)?;
    let signed_in = commands::finish_sign_in(
        &state.db,
        &wa,
        &state.keys,
        &body.mfa_token,
        &credential,
        &origin,
    )
    .await?;
    Ok(web::Json(login_body(&state, signed_in, None)))
}
