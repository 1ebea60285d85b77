//! Checks shared by the reliability tests (contention, crash, backup, upgrade): the
//! database file is sound and the kept totals equal a recount.
#![allow(dead_code)]

use sea_orm::{ConnectionTrait, DatabaseConnection, Statement};

/// `PRAGMA integrity_check` answers exactly "ok" (SQLite; other databases pass).
pub async fn integrity_ok(db: &DatabaseConnection) -> Result<(), String> {
    if db.get_database_backend() != sea_orm::DatabaseBackend::Sqlite {
        return Ok(());
    }
    let rows = db
        .query_all_raw(Statement::from_string(db.get_database_backend(), "PRAGMA integrity_check"))
        .await
        .map_err(|e| e.to_string())?;
    let lines: Vec<String> = rows.iter().map(|r| r.try_get_by_index::<String>(0).unwrap_or_default()).collect();
    if lines == ["ok"] { Ok(()) } else { Err(format!("integrity_check: {lines:?}")) }
}

const KEPT: &str = "SELECT mentor_program_id, status, request_count, requested_cents, approved_cents \
     FROM payment_request_totals WHERE request_count <> 0 OR requested_cents <> 0 OR approved_cents <> 0 \
     ORDER BY mentor_program_id, status";
const RECOUNT: &str = "SELECT mentor_program_id, status, COUNT(*), SUM(requested_cents), COALESCE(SUM(approved_cents), 0) \
     FROM payment_requests WHERE deleted_at IS NULL GROUP BY mentor_program_id, status ORDER BY mentor_program_id, status";

type TotalRow = (i64, String, i64, i64, i64);

async fn rows(db: &DatabaseConnection, sql: &str) -> Result<Vec<TotalRow>, String> {
    let rows = db.query_all_raw(Statement::from_string(db.get_database_backend(), sql)).await.map_err(|e| e.to_string())?;
    rows.iter()
        .map(|r| {
            let int = |i: usize| r.try_get_by_index::<i64>(i).map_err(|e| e.to_string());
            Ok((int(0)?, r.try_get_by_index::<String>(1).map_err(|e| e.to_string())?, int(2)?, int(3)?, int(4)?))
        })
        .collect()
}

/// The per program × status totals kept by triggers equal a recount of the requests.
pub async fn totals_match_recount(db: &DatabaseConnection) -> Result<usize, String> {
    let kept = rows(db, KEPT).await?;
    let recount = rows(db, RECOUNT).await?;
    if kept == recount { Ok(recount.len()) } else { Err(format!("kept totals {kept:?} != recount {recount:?}")) }
}

/// Opens a SQLite file directly (no migrations), for checks after the server is gone.
pub async fn open_sqlite(path: &std::path::Path) -> DatabaseConnection {
    sea_orm::Database::connect(format!("sqlite://{}?mode=rw", path.display())).await.expect("open the database file")
}
