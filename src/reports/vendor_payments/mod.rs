//! Vendor payments (DESIGN §6): the hand-off of approved money. A preview of the ready
//! requests, a generation that pays them exactly once, and the history that reproduces
//! every generated report unchanged.

pub mod api;
pub mod dto;
pub mod rules;
pub mod store;

use actix_web::web;
use utoipa::{Modify, OpenApi};

/// Fixed paths before `{id}`.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/reports/vendor-payments", web::get().to(api::preview))
        .route("/reports/vendor-payments", web::post().to(api::generate))
        .route("/reports/vendor-payments/history", web::get().to(api::history))
        .route("/reports/vendor-payments/history/{id}", web::get().to(api::history_details));
}

#[derive(OpenApi)]
#[openapi(paths(api::preview, api::generate, api::history, api::history_details))]
struct Doc;

/// Adds these calls to the API document (`src/openapi.rs` modifiers).
pub struct VendorPaymentPaths;

impl Modify for VendorPaymentPaths {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        openapi.merge(Doc::openapi());
    }
}
