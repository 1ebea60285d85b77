//! System calls: health.

use actix_web::{web, HttpResponse};
use serde::Serialize;
use utoipa::ToSchema;

use crate::state::AppState;

#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// `ok` or `unavailable`.
    pub status: &'static str,
    /// `ok` or `unavailable`.
    pub database: &'static str,
    pub version: &'static str,
}

#[utoipa::path(get, path = "/api/v1/health", tag = "system",
    responses((status = 200, body = Health), (status = 503, description = "The database does not answer", body = Health)))]
pub async fn health(state: web::Data<AppState>) -> HttpResponse {
    let ok = state.db.ping().await.is_ok();
    let body = Health {
        status: if ok { "ok" } else { "unavailable" },
        database: if ok { "ok" } else { "unavailable" },
        version: env!("CARGO_PKG_VERSION"),
    };
    if ok { HttpResponse::Ok().json(body) } else { HttpResponse::ServiceUnavailable().json(body) }
}

pub fn configure(r: &mut crate::routes::Routes) {
    r.get("/health", crate::routes::Access::Public, health);
}
