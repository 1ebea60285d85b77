//! Connection, pragmas and migrations on start.

pub mod derived;
pub mod sqlite_speed;

use std::time::Duration;

use anyhow::Context;
use migration::{Migrator, MigratorTrait};
use sea_orm::{
    sqlx::sqlite::{SqliteJournalMode, SqliteSynchronous},
    ConnectOptions, ConnectionTrait, Database, DatabaseBackend, DatabaseConnection,
    DatabaseTransaction, DbErr, SqliteTransactionMode, TransactionOptions, TransactionTrait,
};

/// Opens the database and brings its schema up to date.
pub async fn connect(url: &str) -> anyhow::Result<DatabaseConnection> {
    let db = open(url).await?;
    // Several instances may start at once on one PostgreSQL database: one migrates at a time.
    let lock = StartupLock::take(&db).await?;
    Migrator::up(&db, None).await.context("database migration failed")?;
    lock.release().await?;
    Ok(db)
}

/// Opens the database as it is, without migrating (backups: a newer binary's backup must
/// not change the schema under an older server that is still running).
pub async fn open(url: &str) -> anyhow::Result<DatabaseConnection> {
    sqlite_process_settings();
    let mut options = ConnectOptions::new(url.to_owned());
    options
        .sqlx_logging(false)
        .max_connections(16)
        .min_connections(1)
        .acquire_timeout(Duration::from_secs(10))
        // A PostgreSQL connection may have been dropped by the network or the server while
        // idle, so it is pinged before use. A SQLite connection lives in this process, and
        // `after_release` below has already seen its thread answer when it came back: the
        // ping was one more hand-over to that thread per statement (docs/benchmarks.md).
        .test_before_acquire(!url.starts_with("sqlite:"))
        // SQLite: readers never wait for the writer (WAL), a busy writer is waited for
        // instead of failing (with `write` below), and foreign keys are enforced. FULL syncs
        // the WAL at every commit, so an acknowledged payment survives a power cut too, not
        // only a killed process (NORMAL would not); one fsync per action (docs/decisions-database.md).
        .map_sqlx_sqlite_opts(|o| {
            o.journal_mode(SqliteJournalMode::Wal)
                .busy_timeout(Duration::from_secs(10))
                .foreign_keys(true)
                .synchronous(SqliteSynchronous::Full)
                .create_if_missing(true)
        })
        // A connection back from a write that failed (a full disk, an I/O error) may still be
        // inside its transaction: SQLite undoes some failed statements by itself, so the
        // ROLLBACK sea-orm sends on drop then fails and the driver still counts one open
        // transaction. Kept, it would turn the next write's BEGIN IMMEDIATE into an error or
        // hold the write lock, and every later write and sign-in would fail with "database is
        // locked" until a restart. Such a connection is closed instead; the pool opens another.
        .map_sqlx_sqlite_pool_opts(|o| {
            o.after_release(|conn, _| Box::pin(async move { Ok(outside_transaction(conn).await) }))
        });
    Database::connect(options)
        .await
        .with_context(|| format!("cannot open the database {}", redact(url)))
}

/// Whether a pooled SQLite connection is idle as it should be: neither the driver nor SQLite
/// itself thinks a transaction is open on it.
async fn outside_transaction(conn: &mut sea_orm::sqlx::SqliteConnection) -> bool {
    use sea_orm::sqlx::Connection;
    if conn.is_in_transaction() {
        tracing::warn!("a database connection was left inside a transaction; it is closed");
        return false;
    }
    let Ok(mut handle) = conn.lock_handle().await else { return false };
    // SAFETY: the handle is locked for us, open, and only read here.
    let autocommit =
        unsafe { libsqlite3_sys::sqlite3_get_autocommit(handle.as_raw_handle().as_ptr()) };
    if autocommit == 0 {
        tracing::warn!("a database connection was left inside a transaction; it is closed");
    }
    autocommit != 0
}

/// SQLite's process-wide settings, once, before its first connection. Memory statistics off:
/// with them every allocation inside SQLite takes one global mutex, which the pool's worker
/// threads (one per connection) queue on under load (docs/decisions-speed.md). When
/// SQLite is already initialised (a second database in one process) the call is refused and
/// the settings stay as they were, which is harmless.
fn sqlite_process_settings() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // SAFETY: sqlite3_config is documented as safe to call before sqlite3_initialize,
        // and Once keeps two threads from calling it at the same time.
        let _ = unsafe {
            libsqlite3_sys::sqlite3_config(
                libsqlite3_sys::SQLITE_CONFIG_MEMSTATUS,
                0 as std::ffi::c_int,
            )
        };
    });
}

/// Starts the transaction of one write action. Every write transaction goes through here.
///
/// SQLite: `BEGIN IMMEDIATE` takes the write lock up front, so a concurrent writer waits on
/// the busy timeout. A plain (DEFERRED) `BEGIN` reads first and upgrades to a writer
/// later; when another connection has written in between, that upgrade fails at once with
/// SQLITE_BUSY / SQLITE_BUSY_SNAPSHOT ("database is locked", 5/517) without waiting — the
/// 500s seen on concurrent edits of different rows.
///
/// PostgreSQL: a READ COMMITTED transaction that first takes one transaction-scoped advisory
/// lock shared by every instance, so write actions run one at a time there too (reads never
/// wait). Without it, actions that read a row and then change it raced under READ
/// COMMITTED: two concurrent deletes of one role both answered 204, one deactivation was
/// logged 13 times (tests/integration/contention.rs on PostgreSQL). See docs/decisions.md.
pub async fn write(db: &DatabaseConnection) -> Result<DatabaseTransaction, DbErr> {
    let txn = db
        .begin_with_options(TransactionOptions {
            sqlite_transaction_mode: Some(SqliteTransactionMode::Immediate),
            ..TransactionOptions::default()
        })
        .await?;
    if txn.get_database_backend() == DatabaseBackend::Postgres {
        txn.execute_unprepared(&format!("SELECT pg_advisory_xact_lock({WRITE_LOCK_KEY})")).await?;
    }
    Ok(txn)
}

/// The PostgreSQL counterpart of SQLite's write lock (any fixed number, the same in every
/// instance): held until the transaction ends, so crashed holders cannot keep it.
const WRITE_LOCK_KEY: i64 = 0x4d_50_57_52_49_54_45; // "MPWRITE"

/// The database is overloaded rather than broken: no pooled connection came free, or the
/// write lock did not within the busy timeout (SQLite 5/517, PostgreSQL 55P03). Answered
/// 503 "try again", not 500.
pub fn is_busy(err: &DbErr) -> bool {
    use sea_orm::{ConnAcquireErr, RuntimeErr};
    match err {
        DbErr::ConnectionAcquire(ConnAcquireErr::Timeout) => true,
        DbErr::Exec(RuntimeErr::SqlxError(e))
        | DbErr::Query(RuntimeErr::SqlxError(e))
        | DbErr::Conn(RuntimeErr::SqlxError(e)) => match e.as_ref() {
            sea_orm::sqlx::Error::PoolTimedOut => true,
            sea_orm::sqlx::Error::Database(d) => {
                matches!(d.code().as_deref(), Some("5" | "517" | "55P03"))
            }
            _ => false,
        },
        _ => false,
    }
}

/// The disk holding the database is full (SQLite 13 SQLITE_FULL, PostgreSQL 53100
/// disk_full): nothing was written, and the write may succeed once space is freed.
pub fn is_full(err: &DbErr) -> bool {
    use sea_orm::RuntimeErr;
    match err {
        DbErr::Exec(RuntimeErr::SqlxError(e))
        | DbErr::Query(RuntimeErr::SqlxError(e))
        | DbErr::Conn(RuntimeErr::SqlxError(e)) => match e.as_ref() {
            sea_orm::sqlx::Error::Database(d) => {
                matches!(d.code().as_deref(), Some("13" | "53100"))
            }
            _ => false,
        },
        _ => false,
    }
}

/// The URL without its password, for messages.
pub fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let creds = &url[scheme + 3..at];
            let user = creds.split(':').next().unwrap_or("");
            format!("{}{user}:***{}", &url[..scheme + 3], &url[at..])
        }
        _ => url.to_owned(),
    }
}

/// Several instances on one PostgreSQL database may start at once: each migrates and sets
/// up first-start data (roles, the signing secret, the first Administrator) while holding
/// this lock, so the others wait and then find the work done instead of racing it. It is a
/// transaction-scoped advisory lock held by an open transaction on its own connection, so
/// a crashed instance cannot leave it taken. SQLite needs none (one instance per file).
pub struct StartupLock(Option<sea_orm::DatabaseTransaction>);

/// Any fixed number, the same in every instance.
const STARTUP_LOCK_KEY: i64 = 0x4d_50_53_54_41_52_54; // "MPSTART"

impl StartupLock {
    pub async fn take(db: &DatabaseConnection) -> anyhow::Result<Self> {
        use sea_orm::{ConnectionTrait, DatabaseBackend, TransactionTrait};
        if db.get_database_backend() != DatabaseBackend::Postgres {
            return Ok(Self(None));
        }
        let txn = db.begin().await?;
        txn.execute_unprepared(&format!("SELECT pg_advisory_xact_lock({STARTUP_LOCK_KEY})"))
            .await
            .context("start-up lock")?;
        Ok(Self(Some(txn)))
    }

    pub async fn release(self) -> anyhow::Result<()> {
        if let Some(txn) = self.0 {
            txn.commit().await?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn overload_is_busy_and_other_errors_are_not() {
        use sea_orm::{ConnAcquireErr, DbErr};
        assert!(super::is_busy(&DbErr::ConnectionAcquire(ConnAcquireErr::Timeout)));
        assert!(!super::is_busy(&DbErr::Custom("no such table".into())));
        assert!(!super::is_busy(&DbErr::RecordNotFound("x".into())));
    }

    #[test]
    fn redacts_passwords() {
        assert_eq!(super::redact("postgres://app:s3cret@db/mp"), "postgres://app:***@db/mp");
        assert_eq!(
            super::redact("sqlite://mentorpay.db?mode=rwc"),
            "sqlite://mentorpay.db?mode=rwc"
        );
    }
}
