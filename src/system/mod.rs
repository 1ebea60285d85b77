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
    /// `ok`: the disks holding the database and the receipts have room.
    pub disk: &'static str,
    pub version: &'static str,
}

/// A monitor wants an answer, not a hang: a database that does not answer within this is down.
const PROBE_TIMEOUT: Duration = Duration::from_secs(3);

#[utoipa::path(get, path = "/api/v1/health", tag = "system",
    responses((status = 200, body = Health), (status = 503, description = "The database does not answer, or a disk it or the receipts are on is full", body = ProblemBody)))]
pub async fn health(state: web::Data<AppState>) -> ApiResult<HttpResponse> {
    match tokio::time::timeout(PROBE_TIMEOUT, problem(&state)).await {
        Ok(None) => Ok(HttpResponse::Ok().json(Health {
            status: "ok",
            database: "ok",
            disk: "ok",
            version: env!("CARGO_PKG_VERSION"),
        })),
        Ok(Some(Problem::Database(problem))) => {
            tracing::warn!(%problem, "health: the database is unavailable");
            Err(ApiError::Unavailable("The database does not answer.".into()))
        }
        Ok(Some(Problem::Disk(problem))) => {
            tracing::warn!(%problem, "health: a disk is full");
            Err(ApiError::Unavailable(format!("The disk is full: {problem}.")))
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

enum Problem {
    Database(String),
    Disk(String),
}

/// Below this much room a disk counts as full: a write (a WAL frame, a receipt) would fail.
const MIN_FREE_BYTES: u64 = 1024 * 1024;

async fn problem(state: &AppState) -> Option<Problem> {
    let file = match database_problem(state).await {
        Err(problem) => return Some(Problem::Database(problem)),
        Ok(file) => file,
    };
    let mut places = vec![("the receipts' folder", state.config.data_dir.clone())];
    if let Some(file) = file {
        places.push(("the database's folder", file));
    }
    for (what, path) in places {
        if let Some(free) = free_bytes(&path) {
            if free < MIN_FREE_BYTES {
                return Some(Problem::Disk(format!("{what} has {} KB free", free / 1024)));
            }
        }
    }
    None
}

/// Bytes an unprivileged process may still write on the file system holding `path`
/// (None when it cannot be asked).
fn free_bytes(path: &std::path::Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    let path = std::ffi::CString::new(path.as_os_str().as_bytes()).ok()?;
    // SAFETY: statvfs is plain data; all zeroes is a valid value for the call to fill in.
    let mut stat: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: a NUL-terminated path and a statvfs the call fills in.
    let done = unsafe { libc::statvfs(path.as_ptr(), &mut stat) };
    #[allow(clippy::unnecessary_cast, clippy::useless_conversion)]
    (done == 0).then(|| (stat.f_bavail as u64) * (stat.f_frsize as u64))
}

/// Why the database cannot serve requests, or the database file's path when it can (None
/// on PostgreSQL and for an in-memory database). The probe is a real query
/// over the pool (PostgreSQL: a connection that a restarted server dropped is replaced).
/// SQLite also checks that the database file is still where the server opened it: open
/// connections keep working on a file whose folder was unmounted, moved or deleted, but
/// what they write is lost and new connections fail, so that is an outage too.
async fn database_problem(state: &AppState) -> Result<Option<std::path::PathBuf>, String> {
    let db = &state.db;
    match db.get_database_backend() {
        DatabaseBackend::Sqlite => {
            let sql = "SELECT file FROM pragma_database_list WHERE name = 'main'";
            let file = db
                .query_one_raw(Statement::from_string(DatabaseBackend::Sqlite, sql))
                .await
                .map_err(|e| e.to_string())?
                .and_then(|r| r.try_get::<String>("", "file").ok())
                .unwrap_or_default();
            // An in-memory database has no file.
            if file.is_empty() {
                return Ok(None);
            }
            let path = std::path::PathBuf::from(&file);
            if !path.exists() {
                return Err(format!("the database file {file} is gone"));
            }
            Ok(path.parent().map(std::path::Path::to_path_buf))
        }
        _ => db.ping().await.map(|_| None).map_err(|e| e.to_string()),
    }
}

pub fn configure(r: &mut crate::routes::Routes) {
    r.get("/health", crate::routes::Access::Public, health);
}
