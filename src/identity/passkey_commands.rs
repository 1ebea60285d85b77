//! The commands of passkeys: registering one (start, finish), renaming and removing one, and
//! the second step of a sign-in with one. Each owns its transaction and writes its audit
//! entry there. No credential, challenge or ceremony state reaches a log or the trail: the
//! entries name the passkey (id, name) and, for a refusal, the kind of failure only.

use sea_orm::{ConnectionTrait, DatabaseConnection};
use serde_json::json;
use webauthn_rs::prelude::{
    CreationChallengeResponse, Passkey, PasskeyAuthentication, PasskeyRegistration,
    PublicKeyCredential, RegisterPublicKeyCredential, RequestChallengeResponse, Url, Uuid,
    Webauthn, WebauthnBuilder, WebauthnError,
};

use super::{
    commands::{self, SignIn},
    dto::PasskeyDto,
    factor_commands::{open_challenge, refuse_code},
    factor_store as factors,
    passkey_rules::{self as rule},
    passkey_store as store,
    second_factor::VERIFY,
    store::{end_other_sessions, Origin},
};
use crate::{
    audit::{self, Actor},
    auth::{password, CurrentUser},
    config::Config,
    entities::passkey,
    error::{ApiError, ApiResult},
};

const NOT_VERIFIED: &str = "The passkey could not be verified. Please try again.";
const NO_CEREMONY: &str = "Start adding a passkey first, or again: that step has ended.";
const WRONG_PASSWORD: &str = "The password is incorrect.";

fn note(user_id: i32, action: &str) -> audit::Change {
    audit::Change::new("user", user_id, action)
}

fn broken(what: &str) -> ApiError {
    ApiError::Internal(format!("passkeys: {what}"))
}

/// The relying party of this server, from its public address (`passkey_rules`).
pub fn relying_party(config: &Config) -> ApiResult<Webauthn> {
    // A browser ties a passkey to a domain name: on a bare address there is none to give.
    let rp = rule::relying_party(config.public_url.as_deref()).ok_or_else(|| {
        ApiError::Unavailable(
            "Passkeys need the server to be reached by a domain name (its --public-url); tell your IT department.".into(),
        )
    })?;
    let origin = Url::parse(&rp.origin).map_err(|_| broken("the public URL is not a URL"))?;
    WebauthnBuilder::new(&rp.id, &origin)
        .map_err(|_| broken("the relying party does not match its origin"))?
        .rp_name("MentorPay")
        .allow_any_port(rp.any_port)
        .build()
        .map_err(|_| broken("the relying party could not be built"))
}

/// The kind of a WebAuthn failure, for the trail (its variant's name, never its data).
fn failure_kind(e: &WebauthnError) -> String {
    let text = format!("{e:?}");
    text.split(['(', ' ', '{']).next().unwrap_or("").to_owned()
}

fn encode(id: &[u8]) -> String {
    use base64::{engine::general_purpose::URL_SAFE_NO_PAD, Engine};
    URL_SAFE_NO_PAD.encode(id)
}

fn to_json<T: serde::Serialize>(value: &T) -> ApiResult<String> {
    serde_json::to_string(value).map_err(|_| broken("a state could not be written"))
}

fn from_json<T: serde::de::DeserializeOwned>(text: &str) -> ApiResult<T> {
    serde_json::from_str(text).map_err(|_| broken("a stored state could not be read"))
}

fn credentials(rows: &[passkey::Model]) -> ApiResult<Vec<Passkey>> {
    rows.iter().map(|r| from_json(&r.credential)).collect()
}

pub fn dto(p: &passkey::Model) -> PasskeyDto {
    PasskeyDto {
        id: p.id,
        name: p.name.clone(),
        created_at: p.created_at,
        last_used_at: p.last_used_at,
    }
}

pub async fn list(db: &impl ConnectionTrait, me: &CurrentUser) -> ApiResult<Vec<PasskeyDto>> {
    Ok(store::passkeys_of(db, me.id()).await?.iter().map(dto).collect())
}

/// The options for the browser's `navigator.credentials.create`; the ceremony's state is
/// kept (five minutes, once) in place of any earlier unfinished one.
pub async fn start_registration(
    db: &DatabaseConnection,
    wa: &Webauthn,
    me: &CurrentUser,
) -> ApiResult<CreationChallengeResponse> {
    let now = crate::clock::now();
    let txn = crate::db::write(db).await?;
    let held = credentials(&store::passkeys_of(&txn, me.id()).await?)?;
    let exclude = held.iter().map(|p| p.cred_id().clone()).collect();
    let u = &me.user;
    let display = format!("{} {}", u.first_name, u.last_name);
    let display =
        if display.trim().is_empty() { u.email.clone() } else { display.trim().to_owned() };
    let handle = Uuid::from_bytes(rule::user_handle(me.id()));
    let (options, state) = wa
        .start_passkey_registration(handle, &u.email, &display, Some(exclude))
        .map_err(|_| broken("a registration could not be started"))?;
    store::open_ceremony(&txn, me.id(), None, &to_json(&state)?, now).await?;
    txn.commit().await?;
    Ok(options)
}

/// The browser's new credential, checked against the open registration: the passkey is
/// kept under `name`, the caller's other sign-ins end, and when it is her first factor ten
/// recovery codes come with it (to show once).
pub async fn finish_registration(
    db: &DatabaseConnection,
    wa: &Webauthn,
    me: &CurrentUser,
    name: &str,
    credential: &RegisterPublicKeyCredential,
    session: Option<&str>,
) -> ApiResult<(PasskeyDto, Option<Vec<String>>)> {
    let now = crate::clock::now();
    let txn = crate::db::write(db).await?;
    let Some(state) = store::take_ceremony(&txn, me.id(), None, now).await? else {
        return Err(ApiError::rule("credential", NO_CEREMONY));
    };
    let state: PasskeyRegistration = from_json(&state)?;
    let key = match wa.finish_passkey_registration(credential, &state) {
        Ok(key) => key,
        Err(e) => {
            // The ceremony is spent either way; the refusal is kept with it.
            let change = note(me.id(), "passkey-registration-failed")
                .after(json!({"reason": failure_kind(&e)}));
            audit::record(&txn, &me.into(), change).await?;
            txn.commit().await?;
            return Err(ApiError::rule("credential", NOT_VERIFIED));
        }
    };
    let credential_id = encode(key.cred_id());
    if store::credential_taken(&txn, &credential_id).await? {
        txn.commit().await?;
        return Err(ApiError::Conflict("This passkey is already registered.".into()));
    }
    let first_factor = !factors::factors(&txn, me.id()).await?.any();
    let row = store::insert(&txn, me.id(), &credential_id, name, &to_json(&key)?, now).await?;
    let codes = if first_factor {
        Some(factors::replace_recovery_codes(&txn, me.id(), now).await?)
    } else {
        None
    };
    end_other_sessions(&txn, me.id(), session, now).await?;
    let change =
        note(me.id(), "passkey-registered").after(json!({"passkeyId": row.id, "name": row.name}));
    audit::record(&txn, &me.into(), change).await?;
    txn.commit().await?;
    Ok((dto(&row), codes))
}

/// Renames one of the caller's passkeys (404 unless hers).
pub async fn rename(
    db: &DatabaseConnection,
    me: &CurrentUser,
    id: i32,
    name: &str,
) -> ApiResult<PasskeyDto> {
    let txn = crate::db::write(db).await?;
    let before = store::passkeys_of(&txn, me.id()).await?.into_iter().find(|p| p.id == id);
    let Some(before) = before else { return Err(ApiError::not_found("The passkey")) };
    store::rename(&txn, me.id(), id, name).await?;
    let change = note(me.id(), "passkey-renamed")
        .before(json!({"passkeyId": id, "name": before.name}))
        .after(json!({"passkeyId": id, "name": name}));
    audit::record(&txn, &me.into(), change).await?;
    txn.commit().await?;
    Ok(PasskeyDto { name: name.to_owned(), ..dto(&before) })
}

/// Removes one of the caller's passkeys, proven by her password; her other sign-ins end,
/// and the recovery codes go with the last factor. A wrong password is recorded, 422.
pub async fn remove(
    db: &DatabaseConnection,
    me: &CurrentUser,
    id: i32,
    given_password: String,
    session: Option<&str>,
) -> ApiResult<()> {
    let Some(hash) = me.user.password_hash.clone() else {
        return Err(ApiError::rule(
            "password",
            "This account has no MentorPay password: ask an administrator to remove the passkey.",
        ));
    };
    // Verified before the write transaction: argon2 is slow and writers queue behind it.
    let good = password::verify(given_password, Some(hash)).await;
    let now = crate::clock::now();
    let txn = crate::db::write(db).await?;
    if !good {
        let change = note(me.id(), "passkey-removal-refused").after(json!({"passkeyId": id}));
        audit::record(&txn, &me.into(), change).await?;
        txn.commit().await?;
        return Err(ApiError::rule("password", WRONG_PASSWORD));
    }
    let Some(name) = store::delete(&txn, me.id(), id).await? else {
        return Err(ApiError::not_found("The passkey"));
    };
    if !factors::factors(&txn, me.id()).await?.any() {
        factors::delete_recovery_codes(&txn, me.id()).await?;
    }
    end_other_sessions(&txn, me.id(), session, now).await?;
    let change = note(me.id(), "passkey-removed").before(json!({"passkeyId": id, "name": name}));
    audit::record(&txn, &me.into(), change).await?;
    txn.commit().await?;
    Ok(())
}

// ---- the second step of a sign-in ----

/// The options for the browser's `navigator.credentials.get`, for the account behind an
/// open sign-in step; the ceremony is kept with that step, in place of an earlier one.
pub async fn start_sign_in(
    db: &DatabaseConnection,
    wa: &Webauthn,
    token: &str,
) -> ApiResult<RequestChallengeResponse> {
    let now = crate::clock::now();
    let txn = crate::db::write(db).await?;
    let (c, u) = open_challenge(&txn, token, VERIFY).await?;
    let held = credentials(&store::passkeys_of(&txn, u.id).await?)?;
    if held.is_empty() {
        return Err(ApiError::rule("mfaToken", "This account has no passkey."));
    }
    let (options, state) = wa
        .start_passkey_authentication(&held)
        .map_err(|_| broken("a sign-in could not be started"))?;
    store::open_ceremony(&txn, u.id, Some(c.id), &to_json(&state)?, now).await?;
    txn.commit().await?;
    Ok(options)
}

/// The browser's assertion, checked against the ceremony of this sign-in step: the step is
/// spent and the sign-in completes. A wrong, replayed or foreign assertion (or none started)
/// is a 401 and counts against the step, as a wrong code does (the fifth ends it).
pub async fn finish_sign_in(
    db: &DatabaseConnection,
    wa: &Webauthn,
    keys: &crate::auth::tokens::TokenKeys,
    token: &str,
    credential: &PublicKeyCredential,
    origin: &Origin,
) -> ApiResult<SignIn> {
    let now = crate::clock::now();
    let txn = crate::db::write(db).await?;
    let (c, u) = open_challenge(&txn, token, VERIFY).await?;
    let state = store::take_ceremony(&txn, u.id, Some(c.id), now).await?;
    let rows = store::passkeys_of(&txn, u.id).await?;
    let verified = match state {
        None => None,
        Some(state) => {
            let state: PasskeyAuthentication = from_json(&state)?;
            wa.finish_passkey_authentication(credential, &state).ok()
        }
    };
    let used = verified.and_then(|result| {
        let row = rows.iter().find(|r| r.credential_id == encode(result.cred_id()))?;
        Some((row, result))
    });
    let Some((row, result)) = used else {
        return Err(refuse_code(txn, &c, &u, "passkey", origin).await?);
    };
    if !factors::spend_challenge(&txn, &c, now).await? {
        return Err(ApiError::Unauthorized(super::factor_commands::STEP_ENDED.into()));
    }
    let mut key: Passkey = from_json(&row.credential)?;
    let moved = key.update_credential(&result) == Some(true);
    let kept = if moved { Some(to_json(&key)?) } else { None };
    store::record_use(&txn, row.id, kept.as_deref(), now).await?;
    let change = note(u.id, "passkey-used").after(json!({"passkeyId": row.id, "name": row.name}));
    audit::record(&txn, &Actor::user(&u, Some(origin.ip.clone())), change).await?;
    let signed_in = commands::sign_in_within(&txn, keys, u, origin).await?;
    txn.commit().await?;
    Ok(signed_in)
}
