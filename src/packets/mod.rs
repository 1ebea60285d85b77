//! Packets: what the office files for auditors, as one PDF. A request's packet is the
//! request as a document (its fields in words, approval, activity log) followed by every
//! receipt; a vendor payment's packet is a cover page and then the packet of each of its
//! requests in the payment's order. Both stream (docs/decisions-packets.md).

pub mod api;
pub mod document;
pub mod dto;
pub mod facts;
pub mod pdf;
pub mod sheet;

use actix_web::http::Method;
use utoipa::{Modify, OpenApi};

use crate::{
    auth::Permission,
    routes::{Access, Routes},
};

/// Same permission and scope as reading the request, or the vendor payment history. Both are
/// files built while they stream: the route table makes them wait for an export's slot.
pub fn configure(r: &mut Routes) {
    const REQUEST: &str = "/payment-requests/{formType}/{id}/packet";
    r.get(REQUEST, Access::Needs(Permission::RequestRead), api::request_packet)
        .scope_route(Method::GET, REQUEST, "id", crate::payment_requests::store::in_scope)
        .get(
            "/reports/vendor-payments/history/{id}/packet",
            Access::Needs(Permission::ReportReadVendorPaymentsHistory),
            api::vendor_payment_packet,
        );
}

#[derive(OpenApi)]
#[openapi(paths(api::request_packet, api::vendor_payment_packet))]
struct Doc;

/// Adds these calls to the API document (`src/openapi.rs` modifiers).
pub struct PacketPaths;

impl Modify for PacketPaths {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        openapi.merge(Doc::openapi());
    }
}
