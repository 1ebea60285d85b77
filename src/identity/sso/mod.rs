//! Single sign-on with the agency's directory: OpenID Connect (`oidc`) and LDAP / Active
//! Directory (`ldap`), the settings that say who a directory sign-in becomes (`settings`,
//! judged by `rules`), and the short-lived tickets of the flow (`tickets`).

pub mod api;
pub mod commands;
pub mod dto;
pub mod ldap;
pub mod oidc;
pub mod rules;
pub mod settings;
pub mod tickets;

use crate::{
    auth::Permission as P,
    routes::{Access::*, Routes},
};

pub fn configure(r: &mut Routes) {
    r.get("/identity/sso", Public, api::status)
        .get("/identity/sso/login", Public, api::login)
        .get("/identity/sso/callback", Public, api::callback)
        .post("/identity/sso/exchange", Public, api::exchange)
        .get("/system-settings/sso", Needs(P::SettingRead), api::get_settings)
        .put("/system-settings/sso", Needs(P::SettingEdit), api::put_settings);
}

/// Whether this e-mail may sign in with a MentorPay password (and ask for reset mails).
pub async fn password_allowed(
    db: &impl sea_orm::ConnectionTrait,
    email: &str,
) -> crate::error::ApiResult<bool> {
    Ok(rules::password_allowed(&settings::load(db).await?, email))
}

/// What a password sign-in becomes when the directory is LDAP.
pub enum DirectoryLogin {
    /// No directory, or it holds no such e-mail: MentorPay's own password decides.
    NotHeld,
    SignedIn(crate::entities::user::Model),
    /// Refused (already in the audit trail): the answer to give.
    Refused(crate::error::ApiError),
}

/// A password sign-in of an e-mail the LDAP directory may hold: the directory checks the
/// password, and the settings say who it signs in as.
pub async fn ldap_login(
    state: &crate::state::AppState,
    email: &str,
    password: &str,
    ip: &str,
) -> crate::error::ApiResult<DirectoryLogin> {
    use crate::error::ApiError;
    if !ldap::enabled(&state.config.sso) {
        return Ok(DirectoryLogin::NotHeld);
    }
    // The listed break-glass accounts sign in with their MentorPay password even while the
    // directory is down.
    let settings = settings::load(&state.db).await?;
    if settings.password_sign_in == dto::PasswordSignIn::Listed
        && rules::password_allowed(&settings, email)
    {
        return Ok(DirectoryLogin::NotHeld);
    }
    let refuse = |refusal: rules::Refusal| async move {
        let user = identity_store::find_user_by_email(&state.db, email).await?;
        commands::deny(&state.db, &refusal, Some(email), user.map(|u| u.id), ip).await?;
        Ok(DirectoryLogin::Refused(match refusal {
            rules::Refusal::BadPassword => ApiError::Unauthorized(refusal.words()),
            // Never a MentorPay password instead: the directory decides for the e-mails it
            // may hold, and it could not be asked.
            _ => ApiError::Unavailable(refusal.words()),
        }))
    };
    let person = match ldap::check(&state.config.sso, email, password).await {
        Ok(ldap::Answer::NotHeld) => return Ok(DirectoryLogin::NotHeld),
        Ok(ldap::Answer::WrongPassword) => return refuse(rules::Refusal::BadPassword).await,
        Ok(ldap::Answer::Person(person)) => person,
        Err(refusal) => return refuse(refusal).await,
    };
    Ok(match commands::admit(state, person, ip).await? {
        Ok(user) => DirectoryLogin::SignedIn(user),
        Err(refusal) => DirectoryLogin::Refused(ApiError::Forbidden(refusal.words())),
    })
}

use super::store as identity_store;
