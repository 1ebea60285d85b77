//! Participants, their participations in mentor programs, and their Coordinator logins.
//! Every read and change is narrowed to the caller's scope (auth::scope).

pub mod api;
pub mod commands;
pub mod dto;
pub mod import;
pub mod rules;
pub mod store;

use crate::{
    auth::Permission as P,
    routes::{
        Access::{AllOf, Needs},
        Routes,
    },
};

pub fn configure(r: &mut Routes) {
    r.get("/participants", Needs(P::ParticipantRead), api::list)
        .post("/participants", Needs(P::ParticipantCreate), api::create)
        // Fixed paths before `/participants/{id}`, which would otherwise claim them.
        .post(
            "/participants/import",
            AllOf(&[P::ParticipantCreate, P::ParticipantEdit]),
            import::api::import,
        )
        .get(
            "/participants/import/template",
            AllOf(&[P::ParticipantCreate, P::ParticipantEdit]),
            import::api::template,
        )
        .get("/participants/{id}", Needs(P::ParticipantRead), api::get)
        .put("/participants/{id}", Needs(P::ParticipantEdit), api::update)
        .delete("/participants/{id}", Needs(P::ParticipantDelete), api::delete)
        .post(
            "/participants/{id}/identity-user",
            Needs(P::CoordinatorCreate),
            api::create_identity_user,
        )
        .post(
            "/participants/{id}/participations",
            Needs(P::ParticipantEdit),
            api::add_participation,
        )
        .put(
            "/participants/{id}/participations/{participationId}",
            Needs(P::ParticipantEdit),
            api::update_participation,
        )
        .delete(
            "/participants/{id}/participations/{participationId}",
            Needs(P::ParticipantEdit),
            api::delete_participation,
        )
        .get("/payment-requests/participant-list", Needs(P::RequestRead), api::participant_list)
        // A participant outside the caller's programs is a 404 before any body is read.
        .scope("/participants/{id}", "id", api::in_scope)
        // A client may retry these safely with an Idempotency-Key.
        .idempotent("/participants")
        .idempotent("/participants/import");
}
