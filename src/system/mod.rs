//! System calls: health.

use std::time::Duration;

use actix_web::{web, HttpResponse};
use sea_orm::{ConnectionTrait, DatabaseBackend, Statement};
use serde::Serialize;
use utoipa::ToSchema;

use crate::{
    error::{ApiError, ApiResult, ProblemBody},
    state::AppState,
};

#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// `ok`.
    pub status: &'static str,
    /// `ok`.
    pub database: &'static str,
    pub version: &'static str,
}

/// A monitor wants an answer, not a hang: a database that does not answer within this is down.
const PROBE_TIMEOUT: Duration = Duration::from_secs(3);

#[utoipa::path(get, path = "/api/v1/health", tag = "system",
    responses((status = 200, body = Health), (status = 503, description = "The database does not answer", body = ProblemBody)))]
pub async fn health(state: web::Data<AppState>) -> ApiResult<HttpResponse> {
    match tokio::time::timeout(PROBE_TIMEOUT, database_problem(&state)).await {
        Ok(None) => Ok(HttpResponse::Ok().json(Health {
            status: "ok",
            database: "ok",
            version: env!("CARGO_PKG_VERSION"),
        })),
        Ok(Some(problem)) => {
            tracing::warn!(%problem, "health: the database is unavailable");
            Err(ApiError::Unavailable("The database does not answer.".into()))
        }
        Err(_) => {
            tracing::warn!(
                "health: the database did not answer within {} s",
                PROBE_TIMEOUT.as_secs()
            );
            Err(ApiError::Unavailable("The database does not answer.".into()))
        }
    }
}

/// Why the database cannot serve requests, or None when it can. The probe is a real query
/// over the pool (PostgreSQL: a connection that a restarted server dropped is replaced).
/// SQLite also checks that the database file is still where the server opened it: open
/// connections keep working on a file whose folder was unmounted, moved or deleted, but
/// what they write is lost and new connections fail, so that is an outage too.
async fn database_problem(state: &AppState) -> Option<String> {
    let db = &state.db;
    match db.get_database_backend() {
        DatabaseBackend::Sqlite => {
            let sql = "SELECT file FROM pragma_database_list WHERE name = 'main'";
            let file = match db
                .query_one_raw(Statement::from_string(DatabaseBackend::Sqlite, sql))
                .await
            {
                Ok(row) => {
                    row.and_then(|r| r.try_get::<String>("", "file").ok()).unwrap_or_default()
                }
                Err(e) => return Some(e.to_string()),
            };
            // An in-memory database has no file.
            (!file.is_empty() && !std::path::Path::new(&file).exists())
                .then(|| format!("the database file {file} is gone"))
        }
        _ => db.ping().await.err().map(|e| e.to_string()),
    }
}

pub fn configure(r: &mut crate::routes::Routes) {
    r.get("/health", crate::routes::Access::Public, health);
}
