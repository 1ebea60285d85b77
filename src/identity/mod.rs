//! Identity: sign-in, tokens, password links, users, roles and permissions.

pub mod accounts;
pub mod bootstrap;
pub mod commands;
pub mod dto;
pub mod factor_commands;
pub mod factor_store;
pub mod factors;
pub mod management;
pub mod passkey_commands;
pub mod passkey_rules;
pub mod passkey_store;
pub mod passkeys;
pub mod rules;
pub mod second_factor;
pub mod session;
pub mod sessions;
pub mod sso;
pub mod stand_ins;
pub mod store;

use crate::{
    auth::Permission as P,
    routes::{Access::*, Routes},
};

pub fn configure(r: &mut Routes) {
    use factors as f;
    use management as m;
    use passkeys as pk;
    use session as s;
    use sessions as ss;
    stand_ins::configure_first(r);
    r.post("/identity/login", Public, s::login)
        .post("/identity/refresh", Public, s::refresh)
        .post("/identity/logout", Public, s::logout)
        .post("/identity/login/mfa", Public, f::login_mfa)
        .post("/identity/login/passkey/start", Public, pk::start_sign_in)
        .post("/identity/login/passkey/finish", Public, pk::finish_sign_in)
        .post("/identity/login/enroll/totp", Public, f::enroll_totp_at_login)
        .post("/identity/login/enroll/totp/confirm", Public, f::confirm_totp_at_login)
        .get("/identity/me/mfa", SignedIn, f::my_factors)
        .post("/identity/me/mfa/totp", SignedIn, f::start_totp)
        .post("/identity/me/mfa/totp/confirm", SignedIn, f::confirm_totp)
        .delete("/identity/me/mfa/totp", SignedIn, f::remove_totp)
        .get("/identity/me/passkeys", SignedIn, pk::my_passkeys)
        .post("/identity/me/passkeys/register/start", SignedIn, pk::start_registration)
        .post("/identity/me/passkeys/register/finish", SignedIn, pk::finish_registration)
        .put("/identity/me/passkeys/{id}", SignedIn, pk::rename_passkey)
        .delete("/identity/me/passkeys/{id}", SignedIn, pk::remove_passkey)
        .get("/identity/me/sessions", SignedIn, ss::my_sessions)
        .post("/identity/me/sessions/end-others", SignedIn, ss::end_my_other_sessions)
        .delete("/identity/me/sessions/{id}", SignedIn, ss::end_my_session)
        .delete("/identity/users/{id}/mfa", Needs(P::UserEdit), f::remove_user_factors)
        .delete("/identity/users/{id}/sessions", Needs(P::UserEdit), ss::end_user_sessions)
        .post("/identity/reset-token/validate", Public, s::validate_reset_token)
        .post("/identity/user/set-password", Public, s::set_password)
        .post("/identity/user/reset-password", Public, s::reset_password)
        .get("/identity/permissions", Needs(P::PermissionRead), m::list_permissions)
        .get("/identity/users", Needs(P::UserRead), m::list_users)
        .post("/identity/users", Needs(P::UserCreate), m::create_user)
        .get("/identity/invitation-terms", SignedIn, m::invitation_terms)
        .post("/identity/users/{id}/invitation", Needs(P::UserCreate), m::resend_invitation)
        .get("/identity/users/{id}", Needs(P::UserRead), m::get_user)
        .put("/identity/users/{id}", Needs(P::UserEdit), m::update_user)
        .delete("/identity/users/{id}", Needs(P::UserDelete), m::delete_user)
        .get("/identity/roles", Needs(P::RoleRead), m::list_roles)
        .post("/identity/roles", Needs(P::RoleCreate), m::create_role)
        .get("/identity/roles/{id}", Needs(P::RoleRead), m::get_role)
        .put("/identity/roles/{id}", Needs(P::RoleEdit), m::update_role)
        .delete("/identity/roles/{id}", Needs(P::RoleDelete), m::delete_role);
    stand_ins::configure(r);
    sso::configure(r);
}
