//! Identity: sign-in, tokens, password links, users, roles and permissions.

pub mod bootstrap;
pub mod dto;
pub mod management;
pub mod rules;
pub mod session;
pub mod store;

use actix_web::web;

pub fn configure(cfg: &mut web::ServiceConfig) {
    use management as m;
    use session as s;
    cfg.route("/identity/login", web::post().to(s::login))
        .route("/identity/refresh", web::post().to(s::refresh))
        .route("/identity/logout", web::post().to(s::logout))
        .route("/identity/reset-token/validate", web::post().to(s::validate_reset_token))
        .route("/identity/user/set-password", web::post().to(s::set_password))
        .route("/identity/user/reset-password", web::post().to(s::reset_password))
        .route("/identity/permissions", web::get().to(m::list_permissions))
        .service(web::resource("/identity/users").get(m::list_users).post(m::create_user))
        .service(web::resource("/identity/users/{id}").get(m::get_user).put(m::update_user).delete(m::delete_user))
        .service(web::resource("/identity/roles").get(m::list_roles).post(m::create_role))
        .service(web::resource("/identity/roles/{id}").get(m::get_role).put(m::update_role).delete(m::delete_role));
}
