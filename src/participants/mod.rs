//! Participants, their participations in mentor programs, and their Coordinator logins.
//! Every read and change is narrowed to the caller's scope (auth::scope).

pub mod api;
pub mod dto;
pub mod rules;
pub mod store;

use actix_web::web;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource("/participants").get(api::list).post(api::create))
        .service(web::resource("/participants/{id}").get(api::get).put(api::update).delete(api::delete))
        .route("/participants/{id}/identity-user", web::post().to(api::create_identity_user))
        .route("/participants/{id}/participations", web::post().to(api::add_participation))
        .service(
            web::resource("/participants/{id}/participations/{participationId}")
                .put(api::update_participation)
                .delete(api::delete_participation),
        )
        .route("/payment-requests/participant-list", web::get().to(api::participant_list));
}
