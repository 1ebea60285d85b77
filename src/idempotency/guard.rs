//! The wrapper the route table runs around a marked route's handler.

use actix_web::{
    body::{BoxBody, MessageBody},
    dev::{Payload, ServiceRequest, ServiceResponse},
    http::{
        header::{HeaderName, HeaderValue, CONNECTION, CONTENT_LENGTH, DATE, TRANSFER_ENCODING},
        StatusCode,
    },
    middleware::Next,
    Error, HttpResponse,
};
use sea_orm::DatabaseConnection;

use super::{
    key,
    store::{self, Claim, Kept},
    HEADER, REPLAYED,
};
use crate::error::ApiError;

/// The largest body a keyed request may have: a JSON body or a participant import's file
/// (whose own limits answer first for anything they refuse).
const MAX_BODY: usize = 16 * 1024 * 1024;

/// Runs the handler behind `next` at most once per (user, key): see the module's text. A
/// request without the header passes straight through.
pub async fn around(
    db: &DatabaseConnection,
    user: i32,
    mut req: ServiceRequest,
    next: Next<BoxBody>,
) -> Result<ServiceResponse<BoxBody>, Error> {
    let key = match key::from_headers(req.headers()) {
        Ok(Some(key)) => key,
        Ok(None) => return next.call(req).await,
        Err(e) => return Ok(req.error_response(e)),
    };
    let (http, payload) = req.parts_mut();
    let body = match crate::web::read_body(http, payload.take(), MAX_BODY, too_large).await {
        Ok(body) => body.freeze(),
        Err(e) => return Ok(req.error_response(e)),
    };
    let path = req.uri().path_and_query().map_or(req.path(), |p| p.as_str()).to_owned();
    let hash = key::request_hash(req.method().as_str(), &path, req.headers(), &body);
    match store::claim(db, user, &key, &hash, crate::clock::now()).await {
        Ok(Claim::Claimed) => {}
        Ok(Claim::Replay(kept)) => return Ok(req.into_response(replay(kept))),
        Ok(Claim::InFlight) => return Ok(req.into_response(in_flight())),
        Ok(Claim::Mismatch) => {
            return Ok(req.error_response(ApiError::rule(
                HEADER,
                "was already used with another request; send a new key for a new request",
            )))
        }
        Err(e) => return Ok(req.error_response(ApiError::from(e))),
    }
    req.set_payload(Payload::from(body));
    let response = match next.call(req).await {
        Ok(response) => response,
        Err(e) => {
            forget(db, user, &key).await;
            return Err(e);
        }
    };
    // A server error changed nothing (commands roll back): the key is given up, so a retry runs.
    if response.status().is_server_error() {
        forget(db, user, &key).await;
        return Ok(response);
    }
    let (http, response) = response.into_parts();
    let (head, body) = response.into_parts();
    let bytes = match body.try_into_bytes() {
        Ok(bytes) => bytes,
        Err(body) => match actix_web::body::to_bytes(body).await {
            Ok(bytes) => bytes,
            Err(e) => {
                // The effect may have happened: the key stays claimed rather than let it repeat.
                tracing::warn!(error = %e, "idempotency: the answer could not be read to keep it");
                return Ok(ServiceResponse::new(
                    http,
                    HttpResponse::InternalServerError().finish(),
                ));
            }
        },
    };
    let kept = Kept {
        status: head.status().as_u16(),
        headers: head
            .headers()
            .iter()
            .filter(|(name, _)| {
                ![CONTENT_LENGTH, TRANSFER_ENCODING, DATE, CONNECTION].contains(name)
            })
            .map(|(name, value)| {
                (name.as_str().to_owned(), String::from_utf8_lossy(value.as_bytes()).into_owned())
            })
            .collect(),
        body: bytes.to_vec(),
    };
    if let Err(e) = store::keep(db, user, &key, &kept).await {
        // The key stays in flight (a retry gets 409) rather than repeat what was done.
        tracing::warn!(error = %e, "idempotency: could not keep the answer");
    }
    Ok(ServiceResponse::new(http, head.set_body(BoxBody::new(bytes))))
}

async fn forget(db: &DatabaseConnection, user: i32, key: &str) {
    if let Err(e) = store::release(db, user, key).await {
        tracing::warn!(error = %e, "idempotency: could not release a key");
    }
}

fn too_large() -> ApiError {
    ApiError::PayloadTooLarge(format!(
        "A request with {HEADER} must be at most {} MB.",
        MAX_BODY / (1024 * 1024)
    ))
}

/// The kept answer, marked as such.
fn replay(kept: Kept) -> HttpResponse {
    let status = StatusCode::from_u16(kept.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut response = HttpResponse::build(status);
    for (name, value) in &kept.headers {
        if let (Ok(name), Ok(value)) =
            (HeaderName::try_from(name.as_str()), HeaderValue::from_str(value))
        {
            response.append_header((name, value));
        }
    }
    response.insert_header((REPLAYED, "true"));
    response.body(kept.body)
}

/// 409 while the first request with the key runs: try again in a moment.
fn in_flight() -> HttpResponse {
    let error = ApiError::Conflict(format!(
        "A request with this {HEADER} is still being processed; try again in a moment."
    ));
    let mut response = actix_web::ResponseError::error_response(&error);
    response
        .headers_mut()
        .insert(actix_web::http::header::RETRY_AFTER, HeaderValue::from_static("1"));
    response
}
