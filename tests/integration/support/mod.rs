//! Checks shared by the reliability tests (contention, crash, backup, upgrade): the
//! database file is sound and the kept totals equal a recount.
#![allow(dead_code)]

use sea_orm::{ConnectionTrait, DatabaseConnection, Statement};

/// True (and says so) when the integration suite runs on PostgreSQL
/// (`MENTORPAY_TEST_DATABASE_URL`) and the test is about the SQLite file itself.
pub fn skip_on_postgres(reason: &str) -> bool {
    let on_postgres =
        std::env::var("MENTORPAY_TEST_DATABASE_URL").is_ok_and(|u| u.starts_with("postgres"));
    if on_postgres {
        use std::io::Write;
        let _ = writeln!(std::io::stderr(), "skipped on PostgreSQL: {reason}");
    }
    on_postgres
}

/// `PRAGMA integrity_check` answers exactly "ok" (SQLite; other databases pass).
pub async fn integrity_ok(db: &DatabaseConnection) -> Result<(), String> {
    if db.get_database_backend() != sea_orm::DatabaseBackend::Sqlite {
        return Ok(());
    }
    let rows = db
        .query_all_raw(Statement::from_string(db.get_database_backend(), "PRAGMA integrity_check"))
        .await
        .map_err(|e| e.to_string())?;
    let lines: Vec<String> =
        rows.iter().map(|r| r.try_get_by_index::<String>(0).unwrap_or_default()).collect();
    if lines == ["ok"] {
        Ok(())
    } else {
        Err(format!("integrity_check: {lines:?}"))
    }
}

// BIGINT casts: PostgreSQL sums are NUMERIC and ids INTEGER; SQLite ignores them. The
// per program × status totals (000031) read as year 0; the per program × year × status ones
// (000120) keep a request without a year under 0 too.
const KEPT: &str = "SELECT CAST(mentor_program_id AS BIGINT), CAST(0 AS BIGINT), status, CAST(request_count AS BIGINT), \
     CAST(requested_cents AS BIGINT), CAST(approved_cents AS BIGINT) \
     FROM payment_request_totals WHERE request_count <> 0 OR requested_cents <> 0 OR approved_cents <> 0 \
     ORDER BY 1, 2, 3";
const RECOUNT: &str = "SELECT CAST(mentor_program_id AS BIGINT), CAST(0 AS BIGINT), status, CAST(COUNT(*) AS BIGINT), \
     CAST(SUM(requested_cents) AS BIGINT), CAST(COALESCE(SUM(approved_cents), 0) AS BIGINT) \
     FROM payment_requests WHERE deleted_at IS NULL GROUP BY mentor_program_id, status ORDER BY 1, 2, 3";
const KEPT_BY_YEAR: &str = "SELECT CAST(mentor_program_id AS BIGINT), CAST(fiscal_year_id AS BIGINT), status, CAST(request_count AS BIGINT), \
     CAST(requested_cents AS BIGINT), CAST(approved_cents AS BIGINT) \
     FROM payment_request_year_totals WHERE request_count <> 0 OR requested_cents <> 0 OR approved_cents <> 0 \
     ORDER BY 1, 2, 3";
const RECOUNT_BY_YEAR: &str = "SELECT CAST(mentor_program_id AS BIGINT), CAST(COALESCE(fiscal_year_id, 0) AS BIGINT), status, \
     CAST(COUNT(*) AS BIGINT), CAST(SUM(requested_cents) AS BIGINT), CAST(COALESCE(SUM(approved_cents), 0) AS BIGINT) \
     FROM payment_requests WHERE deleted_at IS NULL GROUP BY mentor_program_id, COALESCE(fiscal_year_id, 0), status ORDER BY 1, 2, 3";

const KEPT_APPROVALS: &str = "SELECT CAST(mentor_program_id AS BIGINT), CAST(fiscal_year_id AS BIGINT), form_type, \
     CAST(approval_count AS BIGINT), CAST(requested_cents AS BIGINT), CAST(approved_cents AS BIGINT) \
     FROM request_approval_totals WHERE approval_count <> 0 OR requested_cents <> 0 OR approved_cents <> 0 ORDER BY 1, 2, 3";
const RECOUNT_APPROVALS: &str = "SELECT CAST(pr.mentor_program_id AS BIGINT), CAST(COALESCE(ap.fiscal_year_id, 0) AS BIGINT), pr.form_type, \
     CAST(COUNT(*) AS BIGINT), CAST(COALESCE(SUM(ap.requested_cents), 0) AS BIGINT), CAST(COALESCE(SUM(ap.approved_cents), 0) AS BIGINT) \
     FROM request_approvals ap JOIN payment_requests pr ON pr.id = ap.payment_request_id WHERE pr.deleted_at IS NULL \
     GROUP BY pr.mentor_program_id, COALESCE(ap.fiscal_year_id, 0), pr.form_type ORDER BY 1, 2, 3";

/// Approvals whose copies of their request's facts differ from the request (000240); an
/// approval of a request deleted outright only has to be out of the counts.
const APPROVAL_FACTS_ASTRAY: &str = "SELECT CAST(COUNT(*) AS BIGINT) FROM request_approvals ap \
     LEFT JOIN payment_requests pr ON pr.id = ap.payment_request_id \
     WHERE (pr.id IS NULL AND ap.request_live) OR (pr.id IS NOT NULL AND (ap.request_live <> (pr.deleted_at IS NULL) \
     OR ap.mentor_program_id IS DISTINCT FROM pr.mentor_program_id OR ap.form_type IS DISTINCT FROM pr.form_type \
     OR ap.participant_id IS DISTINCT FROM pr.participant_id OR ap.request_status IS DISTINCT FROM pr.status))";

type TotalRow = (i64, i64, String, i64, i64, i64);

async fn rows(db: &DatabaseConnection, sql: &str) -> Result<Vec<TotalRow>, String> {
    let rows = db
        .query_all_raw(Statement::from_string(db.get_database_backend(), sql))
        .await
        .map_err(|e| e.to_string())?;
    rows.iter()
        .map(|r| {
            let int = |i: usize| r.try_get_by_index::<i64>(i).map_err(|e| e.to_string());
            Ok((
                int(0)?,
                int(1)?,
                r.try_get_by_index::<String>(2).map_err(|e| e.to_string())?,
                int(3)?,
                int(4)?,
                int(5)?,
            ))
        })
        .collect()
}

/// The totals kept by triggers (per program × status, per program × fiscal year × status,
/// the approvals' per program × year × form, and the window figures) equal a recount of the
/// requests, and each approval's copies of its request's facts equal the request's.
pub async fn totals_match_recount(db: &DatabaseConnection) -> Result<usize, String> {
    let mut checked = 0;
    for (kept, recount) in
        [(KEPT, RECOUNT), (KEPT_BY_YEAR, RECOUNT_BY_YEAR), (KEPT_APPROVALS, RECOUNT_APPROVALS)]
    {
        let (kept, recount) = (rows(db, kept).await?, rows(db, recount).await?);
        if kept != recount {
            return Err(format!("kept totals {kept:?} != recount {recount:?}"));
        }
        checked += recount.len();
    }
    let astray = db
        .query_one_raw(Statement::from_string(db.get_database_backend(), APPROVAL_FACTS_ASTRAY))
        .await
        .map_err(|e| e.to_string())?
        .map(|r| r.try_get_by_index::<i64>(0))
        .transpose()
        .map_err(|e| e.to_string())?;
    if astray != Some(0) {
        return Err(format!("{astray:?} approvals whose copies differ from their request"));
    }
    Ok(checked + window_figures_match_recount(db).await?)
}

/// The kept window figures (`window_totals`: per submitted day, per approval hour) and their
/// recount from the live requests, each row as one line of text, for `backend`.
fn window_figures(backend: sea_orm::DatabaseBackend) -> [(String, String); 3] {
    let postgres = backend == sea_orm::DatabaseBackend::Postgres;
    let (hour, days) = if postgres {
        (
            "CAST(FLOOR(EXTRACT(EPOCH FROM approved_at) / 3600) AS INTEGER)",
            "((approved_at AT TIME ZONE 'UTC')::date - submitted_on)",
        )
    } else {
        (
            "(CAST(strftime('%s', approved_at) AS INTEGER) / 3600)",
            "CAST(julianday(date(approved_at)) - julianday(submitted_on) AS INTEGER)",
        )
    };
    let line = |columns: &[&str]| {
        columns.iter().map(|c| format!("CAST({c} AS TEXT)")).collect::<Vec<_>>().join(" || ' ' || ")
    };
    let charged = "deleted_at IS NULL AND status IN ('Approved', 'ReadyForProcessing', 'Processed') AND approved_at IS NOT NULL";
    let kept = |table: &str, columns: &[&str], nonzero: &str| {
        format!("SELECT {} FROM {table} WHERE {nonzero} <> 0", line(columns))
    };
    let recount = |keys: &[&str], figures: &[&str], filter: &str| {
        let all: Vec<&str> = keys.iter().chain(figures).copied().collect();
        format!(
            "SELECT {} FROM payment_requests WHERE {filter} GROUP BY {}",
            line(&all),
            keys.join(", ")
        )
    };
    let year = "COALESCE(fiscal_year_id, 0)";
    let days_sum = format!("COALESCE(SUM(CASE WHEN submitted_on IS NOT NULL THEN {days} END), 0)");
    [
        (
            kept(
                "payment_request_form_days",
                &[
                    "submitted_on",
                    "mentor_program_id",
                    "fiscal_year_id",
                    "form_type",
                    "submitted_count",
                ],
                "submitted_count",
            ),
            recount(
                &["submitted_on", "mentor_program_id", year, "form_type"],
                &["COUNT(*)"],
                "deleted_at IS NULL AND submitted_on IS NOT NULL",
            ),
        ),
        (
            kept(
                "payment_request_form_hours",
                &[
                    "approval_hour",
                    "mentor_program_id",
                    "fiscal_year_id",
                    "form_type",
                    "approved_count",
                    "approved_cents",
                    "days_count",
                    "days_sum",
                ],
                "approved_count",
            ),
            recount(
                &[hour, "mentor_program_id", year, "form_type"],
                &["COUNT(*)", "COALESCE(SUM(approved_cents), 0)", "COUNT(submitted_on)", &days_sum],
                charged,
            ),
        ),
        (
            kept(
                "payment_request_line_hours",
                &[
                    "approval_hour",
                    "mentor_program_id",
                    "fiscal_year_id",
                    "fund_id",
                    "expense_account_id",
                    "approved_count",
                    "approved_cents",
                ],
                "approved_count",
            ),
            recount(
                &[
                    hour,
                    "mentor_program_id",
                    year,
                    "COALESCE(fund_id, 0)",
                    "COALESCE(expense_account_id, 0)",
                ],
                &["COUNT(*)", "COALESCE(SUM(approved_cents), 0)"],
                charged,
            ),
        ),
    ]
}

async fn lines(db: &DatabaseConnection, sql: &str) -> Result<Vec<String>, String> {
    let rows = db
        .query_all_raw(Statement::from_string(db.get_database_backend(), sql))
        .await
        .map_err(|e| format!("{sql}: {e}"))?;
    let mut lines = rows
        .iter()
        .map(|r| r.try_get_by_index::<String>(0).map_err(|e| e.to_string()))
        .collect::<Result<Vec<_>, _>>()?;
    lines.sort();
    Ok(lines)
}

/// The window figures kept by triggers (per submitted day, per approval hour) equal a recount
/// of the live requests.
pub async fn window_figures_match_recount(db: &DatabaseConnection) -> Result<usize, String> {
    let mut checked = 0;
    for (kept, recount) in window_figures(db.get_database_backend()) {
        let (kept, recount) = (lines(db, &kept).await?, lines(db, &recount).await?);
        if kept != recount {
            return Err(format!("kept window figures {kept:?} != recount {recount:?}"));
        }
        checked += recount.len();
    }
    Ok(checked)
}

/// Opens a SQLite file directly (no migrations), for checks after the server is gone.
pub async fn open_sqlite(path: &std::path::Path) -> DatabaseConnection {
    sea_orm::Database::connect(format!("sqlite://{}?mode=rw", path.display()))
        .await
        .expect("open the database file")
}
