//! The commands of the second factor and of the sessions a person sees: the step between
//! the password and the code, enrolment and removal of a factor, and ending sign-ins. Each
//! owns its transaction and writes its audit entry there; a wrong code is recorded (and
//! counted against its challenge) in a transaction of its own that commits before the 401.

use sea_orm::{ConnectionTrait, DatabaseConnection};
use serde_json::json;

use super::{
    commands::{self, SignIn},
    dto::{LoginAnswer, MfaEnrollmentRequired, MfaRequired, MfaStatusDto, TotpEnrolment},
    factor_store::{self as factors, Factors},
    rules,
    second_factor::{self as rule, CodeVerdict, ENROLL, MAX_FAILURES, VERIFY},
    store::{self, Origin},
};
use crate::{
    audit::{self, Actor},
    auth::{load_principal, permissions::ADMINISTRATOR, tokens::TokenKeys, CurrentUser},
    entities::{mfa_challenge, user},
    error::{ApiError, ApiResult},
    settings,
};

pub const STEP_ENDED: &str = "This sign-in step has ended. Please sign in again.";
pub const WRONG_CODE: &str = "The code is incorrect.";
const TOO_MANY: &str = "Too many incorrect codes. Please sign in again.";

/// The second factor offered at the second step.
pub enum Answer {
    Totp(String),
    Recovery(String),
}

impl Answer {
    fn method(&self) -> &'static str {
        match self {
            Answer::Totp(_) => "totp",
            Answer::Recovery(_) => "recovery",
        }
    }
}

fn note(user_id: i32, action: &str) -> audit::Change {
    audit::Change::new("user", user_id, action)
}

/// What a correct password leads to when the account holds a factor, or its role needs one
/// it lacks: a challenge (`None`: the sign-in completes as before).
pub async fn second_step(
    db: &DatabaseConnection,
    u: &user::Model,
    origin: &Origin,
) -> ApiResult<Option<LoginAnswer>> {
    let held = factors::factors(db, u.id).await?;
    let purpose = if held.any() {
        VERIFY
    } else {
        let required = settings::security_policy::required_role_names(db).await?;
        if required.is_empty() {
            return Ok(None);
        }
        let roles = load_principal(db, u.clone()).await?.roles;
        if !rule::must_enrol(&roles, &required, false) {
            return Ok(None);
        }
        ENROLL
    };
    let now = crate::clock::now();
    let txn = crate::db::write(db).await?;
    let mfa_token = factors::issue_challenge(&txn, u.id, purpose, now).await?;
    let action =
        if purpose == VERIFY { "sign-in-second-step" } else { "sign-in-enrolment-required" };
    audit::record(&txn, &Actor::user(u, Some(origin.ip.clone())), note(u.id, action)).await?;
    txn.commit().await?;
    Ok(Some(if purpose == VERIFY {
        let methods = rule::methods(held.totp, held.passkeys, held.recovery_left);
        LoginAnswer::SecondStep(MfaRequired {
            mfa_required: true,
            mfa_token,
            methods: methods.into_iter().map(String::from).collect(),
        })
    } else {
        LoginAnswer::EnrolFirst(MfaEnrollmentRequired { mfa_enrollment_required: true, mfa_token })
    }))
}

/// The open challenge behind `token` for `purpose`, and its user (still active): 401 else.
pub(super) async fn open_challenge(
    txn: &impl ConnectionTrait,
    token: &str,
    purpose: &str,
) -> ApiResult<(mfa_challenge::Model, user::Model)> {
    let ended = || ApiError::Unauthorized(STEP_ENDED.into());
    let c = factors::find_challenge(txn, token)
        .await?
        .filter(|c| rule::challenge_open(c, purpose, crate::clock::now()))
        .ok_or_else(ended)?;
    let u = store::get_user(txn, c.user_id).await.ok().filter(|u| u.is_active).ok_or_else(ended)?;
    Ok((c, u))
}

/// A wrong code at a challenge: counted, recorded, committed (nothing else was written in
/// `txn`); the 401 to answer.
pub(super) async fn refuse_code(
    txn: sea_orm::DatabaseTransaction,
    c: &mfa_challenge::Model,
    u: &user::Model,
    method: &str,
    origin: &Origin,
) -> ApiResult<ApiError> {
    let now = crate::clock::now();
    factors::fail_challenge(&txn, c, now).await?;
    let last = c.failures + 1 >= MAX_FAILURES;
    let change = note(u.id, "mfa-code-failed").after(json!({"method": method, "ended": last}));
    audit::record(&txn, &Actor::user(u, Some(origin.ip.clone())), change).await?;
    txn.commit().await?;
    Ok(ApiError::Unauthorized(if last { TOO_MANY } else { WRONG_CODE }.into()))
}

/// Whether `code` is a TOTP code of `user_id` not used before; records its step if so.
async fn take_totp(
    txn: &impl ConnectionTrait,
    user_id: i32,
    code: &str,
    pending_too: bool,
) -> ApiResult<bool> {
    let now = crate::clock::now();
    let Some(t) = factors::totp_of(txn, user_id).await? else { return Ok(false) };
    if t.confirmed_at.is_none() && !pending_too {
        return Ok(false);
    }
    match rule::check_code(&t.secret, code, now.timestamp(), t.last_step) {
        CodeVerdict::Accepted(step) => factors::accept_step(txn, user_id, step, now).await,
        CodeVerdict::Refused => Ok(false),
    }
}

/// The second step of a sign-in: a TOTP code or a recovery code. A wrong one is a 401 and
/// counts against the challenge (the fifth ends it).
pub async fn finish_sign_in(
    db: &DatabaseConnection,
    keys: &TokenKeys,
    token: &str,
    answer: Answer,
    origin: &Origin,
) -> ApiResult<SignIn> {
    let now = crate::clock::now();
    let txn = crate::db::write(db).await?;
    let (c, u) = open_challenge(&txn, token, VERIFY).await?;
    let good = match &answer {
        Answer::Totp(code) => take_totp(&txn, u.id, code, false).await?,
        Answer::Recovery(code) => factors::spend_recovery_code(&txn, u.id, code, now).await?,
    };
    if !good {
        return Err(refuse_code(txn, &c, &u, answer.method(), origin).await?);
    }
    if !factors::spend_challenge(&txn, &c, now).await? {
        return Err(ApiError::Unauthorized(STEP_ENDED.into()));
    }
    if let Answer::Recovery(_) = answer {
        let left = factors::factors(&txn, u.id).await?.recovery_left;
        let change = note(u.id, "recovery-code-used").after(json!({"recoveryCodesLeft": left}));
        audit::record(&txn, &Actor::user(&u, Some(origin.ip.clone())), change).await?;
    }
    let signed_in = commands::sign_in_within(&txn, keys, u, origin).await?;
    txn.commit().await?;
    Ok(signed_in)
}

fn enrolment(secret: String, account: &str) -> ApiResult<TotpEnrolment> {
    let broken = || ApiError::Internal("the enrolment QR code could not be drawn".into());
    let otpauth_uri = rule::otpauth_uri(&secret, account).ok_or_else(broken)?;
    let qr_svg = rule::qr_svg(&otpauth_uri).ok_or_else(broken)?;
    Ok(TotpEnrolment { secret, otpauth_uri, qr_svg })
}

/// A new pending secret for the account behind an enrolment challenge.
pub async fn start_enrolment_at_sign_in(
    db: &DatabaseConnection,
    token: &str,
) -> ApiResult<TotpEnrolment> {
    let txn = crate::db::write(db).await?;
    let (_, u) = open_challenge(&txn, token, ENROLL).await?;
    let secret = rule::new_secret();
    factors::put_pending_totp(&txn, u.id, &secret, crate::clock::now()).await?;
    txn.commit().await?;
    enrolment(secret, &u.email)
}

/// The first code of the secret enrolled at sign-in: the factor holds, the sign-in
/// completes, and its recovery codes come with it.
pub async fn confirm_enrolment_at_sign_in(
    db: &DatabaseConnection,
    keys: &TokenKeys,
    token: &str,
    code: &str,
    origin: &Origin,
) -> ApiResult<(SignIn, Vec<String>)> {
    let now = crate::clock::now();
    let txn = crate::db::write(db).await?;
    let (c, u) = open_challenge(&txn, token, ENROLL).await?;
    if !take_totp(&txn, u.id, code, true).await? {
        return Err(refuse_code(txn, &c, &u, "totp", origin).await?);
    }
    if !factors::spend_challenge(&txn, &c, now).await? {
        return Err(ApiError::Unauthorized(STEP_ENDED.into()));
    }
    let codes = factors::replace_recovery_codes(&txn, u.id, now).await?;
    let actor = Actor::user(&u, Some(origin.ip.clone()));
    audit::record(&txn, &actor, note(u.id, "mfa-totp-enrolled")).await?;
    let signed_in = commands::sign_in_within(&txn, keys, u, origin).await?;
    txn.commit().await?;
    Ok((signed_in, codes))
}

// ---- the caller's own factor ----

pub async fn status(db: &DatabaseConnection, me: &CurrentUser) -> ApiResult<MfaStatusDto> {
    let Factors { totp, passkeys, recovery_left } = factors::factors(db, me.id()).await?;
    let required = settings::security_policy::required_role_names(db).await?;
    Ok(MfaStatusDto {
        totp,
        passkeys,
        recovery_codes_left: recovery_left,
        required: rule::must_enrol(&me.roles, &required, false),
    })
}

/// A new pending secret for the caller; 409 while one is confirmed (remove it first).
pub async fn start_totp(db: &DatabaseConnection, me: &CurrentUser) -> ApiResult<TotpEnrolment> {
    let txn = crate::db::write(db).await?;
    if factors::confirmed_totp(&txn, me.id()).await?.is_some() {
        return Err(ApiError::Conflict(
            "An authenticator app is already set up; remove it before setting up another.".into(),
        ));
    }
    let secret = rule::new_secret();
    factors::put_pending_totp(&txn, me.id(), &secret, crate::clock::now()).await?;
    txn.commit().await?;
    enrolment(secret, &me.user.email)
}

/// A wrong code of the caller's own: recorded (nothing else was written in `txn`), then a
/// 422 naming `code`.
async fn refuse_own_code(
    txn: sea_orm::DatabaseTransaction,
    me: &CurrentUser,
) -> ApiResult<ApiError> {
    let change = note(me.id(), "mfa-code-failed").after(json!({"method": "totp"}));
    audit::record(&txn, &me.into(), change).await?;
    txn.commit().await?;
    Ok(ApiError::rule("code", WRONG_CODE))
}

/// The pending secret confirmed by its first code: the factor holds, the caller's other
/// sign-ins end, and ten recovery codes are returned (to show once).
pub async fn confirm_totp(
    db: &DatabaseConnection,
    me: &CurrentUser,
    code: &str,
    session: Option<&str>,
) -> ApiResult<Vec<String>> {
    let now = crate::clock::now();
    let txn = crate::db::write(db).await?;
    match factors::totp_of(&txn, me.id()).await? {
        None => return Err(ApiError::rule("code", "Start setting up an authenticator app first.")),
        Some(t) if t.confirmed_at.is_some() => {
            return Err(ApiError::Conflict("The authenticator app is already set up.".into()))
        }
        Some(_) => {}
    }
    if !take_totp(&txn, me.id(), code, true).await? {
        return Err(refuse_own_code(txn, me).await?);
    }
    let codes = factors::replace_recovery_codes(&txn, me.id(), now).await?;
    store::end_other_sessions(&txn, me.id(), session, now).await?;
    audit::record(&txn, &me.into(), note(me.id(), "mfa-totp-enrolled")).await?;
    txn.commit().await?;
    Ok(codes)
}

/// Removes the caller's authenticator app, proven by one of its codes; her other sign-ins
/// end, and the recovery codes go with the last factor.
pub async fn remove_totp(
    db: &DatabaseConnection,
    me: &CurrentUser,
    code: &str,
    session: Option<&str>,
) -> ApiResult<()> {
    let now = crate::clock::now();
    let txn = crate::db::write(db).await?;
    if factors::confirmed_totp(&txn, me.id()).await?.is_none() {
        return Err(ApiError::not_found("The authenticator app"));
    }
    if !take_totp(&txn, me.id(), code, false).await? {
        return Err(refuse_own_code(txn, me).await?);
    }
    factors::delete_totp(&txn, me.id()).await?;
    if !factors::factors(&txn, me.id()).await?.any() {
        factors::delete_recovery_codes(&txn, me.id()).await?;
    }
    store::end_other_sessions(&txn, me.id(), session, now).await?;
    audit::record(&txn, &me.into(), note(me.id(), "mfa-totp-removed")).await?;
    txn.commit().await?;
    Ok(())
}

// ---- sessions ----

/// Ends one of the caller's own sign-ins (404 unless it is hers and live).
pub async fn end_own_session(db: &DatabaseConnection, me: &CurrentUser, id: &str) -> ApiResult<()> {
    let txn = crate::db::write(db).await?;
    if !store::end_session_of(&txn, me.id(), id, crate::clock::now()).await? {
        return Err(ApiError::not_found("The session"));
    }
    audit::record(&txn, &me.into(), note(me.id(), "session-ended")).await?;
    txn.commit().await?;
    Ok(())
}

/// Ends every sign-in of the caller but this one.
pub async fn end_other_sessions(
    db: &DatabaseConnection,
    me: &CurrentUser,
    session: Option<&str>,
) -> ApiResult<()> {
    let txn = crate::db::write(db).await?;
    store::end_other_sessions(&txn, me.id(), session, crate::clock::now()).await?;
    audit::record(&txn, &me.into(), note(me.id(), "other-sessions-ended")).await?;
    txn.commit().await?;
    Ok(())
}

// ---- an administrator's help ----

/// The user `id`, if the caller may act on her account's security (the ceiling: only an
/// Administrator on an Administrator's).
async fn account_for(
    txn: &impl ConnectionTrait,
    me: &CurrentUser,
    id: i32,
) -> ApiResult<user::Model> {
    let target = store::get_user(txn, id).await?;
    let is_admin = store::first_role(txn, id).await?.as_deref() == Some(ADMINISTRATOR);
    rules::check_security_help(&commands::granter(me), is_admin)?;
    Ok(target)
}

/// Removes a lost factor of user `id` (authenticator app, passkeys, recovery codes); her
/// sign-ins end. Nothing held: nothing changes.
pub async fn remove_factors(db: &DatabaseConnection, me: &CurrentUser, id: i32) -> ApiResult<()> {
    let now = crate::clock::now();
    let txn = crate::db::write(db).await?;
    let target = account_for(&txn, me, id).await?;
    let held = factors::factors(&txn, target.id).await?;
    if held.any() || factors::totp_of(&txn, target.id).await?.is_some() {
        factors::delete_totp(&txn, target.id).await?;
        super::passkey_store::delete_all(&txn, target.id).await?;
        factors::delete_recovery_codes(&txn, target.id).await?;
        store::revoke_all_refresh(&txn, target.id, now).await?;
        let change = note(target.id, "mfa-removed")
            .before(json!({"totp": held.totp, "passkeys": held.passkeys}));
        audit::record(&txn, &me.into(), change).await?;
    }
    txn.commit().await?;
    Ok(())
}

/// Ends every sign-in of user `id`.
pub async fn end_all_sessions(db: &DatabaseConnection, me: &CurrentUser, id: i32) -> ApiResult<()> {
    let txn = crate::db::write(db).await?;
    let target = account_for(&txn, me, id).await?;
    store::revoke_all_refresh(&txn, target.id, crate::clock::now()).await?;
    audit::record(&txn, &me.into(), note(target.id, "sessions-ended")).await?;
    txn.commit().await?;
    Ok(())
}
