//! Packet handlers: the path and the caller's scope checked, then the packet streamed.

use actix_web::{web, HttpResponse};

use super::{document, dto::PacketQuery, facts, sheet};
use crate::{
    auth::{scope::scope_of, CurrentUser},
    error::{ApiError, ApiResult, ProblemBody},
    forms::FormType,
    payment_requests::store as requests,
    state::AppState,
    vendor_payments::{queries as vendor_payments, rules::OFFSET_RANGE},
    web::Query,
};

/// `MinutesOffset`, checked (a 400 naming it).
fn offset(q: &PacketQuery) -> ApiResult<i32> {
    let offset = q.minutesoffset.unwrap_or(0);
    if !OFFSET_RANGE.contains(&offset) {
        return Err(ApiError::bad_field("MinutesOffset", "must be between -840 and 840 minutes"));
    }
    Ok(offset)
}

fn full_name(me: &CurrentUser) -> String {
    format!("{} {}", me.user.first_name, me.user.last_name).trim().to_owned()
}

#[utoipa::path(get, path = "/api/v1/payment-requests/{formType}/{id}/packet", tag = "payment-requests", security(("bearer" = [])),
    params(("formType" = FormType, Path), ("id" = i32, Path), PacketQuery),
    responses((status = 200, description = "The request as a document with its approval, activity and receipts (PDF, streamed), named `request-F2-123.pdf`", content_type = "application/pdf"),
        (status = 400, body = ProblemBody), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody), (status = 404, body = ProblemBody)))]
pub async fn request_packet(
    state: web::Data<AppState>,
    me: CurrentUser,
    path: web::Path<(String, i32)>,
    Query(q): Query<PacketQuery>,
) -> ApiResult<HttpResponse> {
    let (form, id) = path.into_inner();
    let offset = offset(&q)?;
    let scope = scope_of(&state.db, &me).await?;
    let r = requests::find_visible(&state.db, &scope, requests::form_of(&form)?, id).await?;
    Ok(document::request(state.db.clone(), state.files.clone(), full_name(&me), r, offset))
}

#[utoipa::path(get, path = "/api/v1/reports/vendor-payments/history/{id}/packet", tag = "reports", security(("bearer" = [])),
    params(("id" = i32, Path), PacketQuery),
    responses((status = 200, description = "A cover page, then every request's packet in the vendor payment's row order (PDF, streamed)", content_type = "application/pdf"),
        (status = 400, body = ProblemBody), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody), (status = 404, body = ProblemBody)))]
pub async fn vendor_payment_packet(
    state: web::Data<AppState>,
    me: CurrentUser,
    id: web::Path<i32>,
    Query(q): Query<PacketQuery>,
) -> ApiResult<HttpResponse> {
    let offset = offset(&q)?;
    let scope = scope_of(&state.db, &me).await?;
    let entry = vendor_payments::entry(&state.db, &scope, *id).await?;
    let (cover, requests) = facts::cover(&state.db, &me, &scope, &entry).await?;
    Ok(document::vendor_payment(
        state.db.clone(),
        state.files.clone(),
        full_name(&me),
        sheet::cover(&cover, offset),
        requests,
        format!("vendor-payment-{}-packet.pdf", entry.id),
        offset,
    ))
}
