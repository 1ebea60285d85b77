//! Vendor payments: the hand-off of approved money. A preview of the ready
//! requests, a generation that pays them exactly once, and the history that reproduces
//! every generated report unchanged.

pub mod api;
pub mod commands;
pub mod dto;
pub mod export;
pub mod queries;
pub mod rules;

use utoipa::{Modify, OpenApi};

use crate::{
    auth::Permission,
    reports::catalogue::ReportInfo,
    routes::{Access, Routes},
};

/// The /reports card: the history is where vendor payments start (generating needs
/// `report:generatevendorpayment` on top).
pub const INFO: ReportInfo = ReportInfo {
    key: "vendor-payments",
    title: "Vendor payments",
    description:
        "Pay the requests ready for processing exactly once, and every report generated so far.",
    route: "/reports/vendor-payment/list",
    path: "/reports/vendor-payments",
    permission: Permission::ReportReadVendorPaymentsHistory,
    filters: &["FiscalYearId", "StartDate", "EndDate"],
    sortable: &[],
    default_sort: ("approvedAt", false),
    totals: &["amount"],
};

/// Fixed paths before `{id}`.
pub fn configure(r: &mut Routes) {
    let generate = Access::Needs(Permission::ReportGenerateVendorPayment);
    let history = Access::Needs(Permission::ReportReadVendorPaymentsHistory);
    r.get("/reports/vendor-payments", generate, api::preview)
        .post("/reports/vendor-payments", generate, api::generate)
        .get("/reports/vendor-payments/retrieve", generate, api::preview_retrieve)
        .get("/reports/vendor-payments/ready", generate, api::ready)
        .get("/reports/vendor-payments/history", history, api::history)
        .get("/reports/vendor-payments/history/{id}", history, api::history_details)
        .get("/reports/vendor-payments/history/{id}/retrieve", history, api::history_retrieve)
        // A client may retry a generation safely with an Idempotency-Key.
        .idempotent("/reports/vendor-payments");
}

#[derive(OpenApi)]
#[openapi(paths(
    api::preview,
    api::generate,
    api::preview_retrieve,
    api::ready,
    api::history,
    api::history_details,
    api::history_retrieve
))]
struct Doc;

/// Adds these calls to the API document (`src/openapi.rs` modifiers).
pub struct VendorPaymentPaths;

impl Modify for VendorPaymentPaths {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        openapi.merge(Doc::openapi());
    }
}
