//! Vendor payments (DESIGN §6): the hand-off of approved money. A preview of the ready
//! requests, a generation that pays them exactly once, and the history that reproduces
//! every generated report unchanged.

pub mod api;
pub mod dto;
pub mod export;
pub mod rules;
pub mod store;

use actix_web::web;
use utoipa::{Modify, OpenApi};

use crate::{auth::Permission, reports::catalogue::ReportInfo};

/// The /reports card: the history is where vendor payments start (generating needs
/// `report:generatevendorpayment` on top).
pub const INFO: ReportInfo = ReportInfo {
    key: "vendor-payments",
    title: "Vendor payments",
    description: "Pay the requests ready for processing exactly once, and every report generated so far.",
    route: "/reports/vendor-payment/list",
    path: "/reports/vendor-payments",
    permission: Permission::ReportReadVendorPaymentsHistory,
    filters: &["FiscalYearId", "StartDate", "EndDate"],
    sortable: &[],
    default_sort: ("approvedAt", false),
    totals: &["amount"],
    exports: true,
};

/// Fixed paths before `{id}`.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/reports/vendor-payments", web::get().to(api::preview))
        .route("/reports/vendor-payments", web::post().to(api::generate))
        .route("/reports/vendor-payments/retrieve", web::get().to(api::preview_retrieve))
        .route("/reports/vendor-payments/history", web::get().to(api::history))
        .route("/reports/vendor-payments/history/{id}", web::get().to(api::history_details))
        .route("/reports/vendor-payments/history/{id}/retrieve", web::get().to(api::history_retrieve));
}

#[derive(OpenApi)]
#[openapi(paths(api::preview, api::generate, api::preview_retrieve, api::history, api::history_details, api::history_retrieve))]
struct Doc;

/// Adds these calls to the API document (`src/openapi.rs` modifiers).
pub struct VendorPaymentPaths;

impl Modify for VendorPaymentPaths {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        openapi.merge(Doc::openapi());
    }
}
