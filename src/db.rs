//! Connection, pragmas and migrations on start.

use std::time::Duration;

use anyhow::Context;
use migration::{Migrator, MigratorTrait};
use sea_orm::{
    sqlx::sqlite::{SqliteJournalMode, SqliteSynchronous},
    ConnectOptions, Database, DatabaseConnection,
};

/// Opens the database and brings its schema up to date.
pub async fn connect(url: &str) -> anyhow::Result<DatabaseConnection> {
    let mut options = ConnectOptions::new(url.to_owned());
    options
        .sqlx_logging(false)
        .max_connections(16)
        .min_connections(1)
        .acquire_timeout(Duration::from_secs(10))
        // SQLite: readers never wait for the writer (WAL), a busy writer is waited for
        // instead of failing, and foreign keys are enforced.
        .map_sqlx_sqlite_opts(|o| {
            o.journal_mode(SqliteJournalMode::Wal)
                .busy_timeout(Duration::from_secs(10))
                .foreign_keys(true)
                .synchronous(SqliteSynchronous::Normal)
                .create_if_missing(true)
        });
    let db = Database::connect(options).await.with_context(|| format!("cannot open the database {}", redact(url)))?;
    let lock = StartupLock::take(&db).await?;
    Migrator::up(&db, None).await.context("database migration failed")?;
    lock.release().await?;
    Ok(db)
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
        txn.execute_unprepared(&format!("SELECT pg_advisory_xact_lock({STARTUP_LOCK_KEY})")).await.context("start-up lock")?;
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
    fn redacts_passwords() {
        assert_eq!(super::redact("postgres://app:s3cret@db/mp"), "postgres://app:***@db/mp");
        assert_eq!(super::redact("sqlite://mentorpay.db?mode=rwc"), "sqlite://mentorpay.db?mode=rwc");
    }
}
