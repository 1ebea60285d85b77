//! The database a test runs on, chosen by one switch: a SQLite file in the test's temporary
//! folder, or, when `MENTORPAY_TEST_DATABASE_URL` names a PostgreSQL server
//! (`scripts/postgres.sh run …` sets it), a database of its own on that server.
//!
//! A PostgreSQL database belongs to its test's folder: it is created on first use, found
//! again on a restart in the same folder (its name is kept in the folder), and dropped once
//! the folder is gone: every fresh start first drops the databases whose folders have been
//! removed (their path is the database's comment). The last few left when the run ends go
//! with the throw-away cluster.
#![allow(dead_code)]

use std::path::Path;

use sea_orm::{
    ConnectOptions, ConnectionTrait, Database, DatabaseConnection, DbBackend, Statement,
};

/// The switch: a PostgreSQL server URL (any database on it; tests make their own).
pub const SWITCH: &str = "MENTORPAY_TEST_DATABASE_URL";

const PREFIX: &str = "mentorpay_test_";
const MARKER: &str = ".postgres-database";

/// The PostgreSQL server the suite runs on, if any.
pub fn postgres_server() -> Option<String> {
    std::env::var(SWITCH)
        .ok()
        .filter(|u| u.starts_with("postgres://") || u.starts_with("postgresql://"))
}

pub fn on_postgres() -> bool {
    postgres_server().is_some()
}

/// True (and says why) when the test must not run on PostgreSQL.
pub fn skip_on_postgres(reason: &str) -> bool {
    on_postgres() && skipped(&format!("skipped on PostgreSQL: {reason}"))
}

/// True (and says why) when the test needs PostgreSQL and the suite runs on SQLite.
pub fn skip_on_sqlite(reason: &str) -> bool {
    !on_postgres() && skipped(&format!("skipped on SQLite: {reason}"))
}

/// Straight to stderr: the test harness captures `eprintln!` of passing tests, and a skip
/// should be seen in the run's output.
fn skipped(message: &str) -> bool {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{message}");
    true
}

/// The database URL of the test folder `dir`: `dir/<file>` on SQLite, or the folder's own
/// PostgreSQL database (created the first time). A folder that already holds that SQLite file
/// and no PostgreSQL database (a fixture or a restored backup put there by the test) is about
/// the file: it stays on SQLite, and says so.
pub async fn url_for(dir: &Path, file: &str) -> String {
    let sqlite = format!("sqlite://{}?mode=rwc", dir.join(file).display());
    match postgres_server() {
        None => sqlite,
        Some(_) if dir.join(file).exists() && !dir.join(MARKER).exists() => {
            skipped(&format!(
                "on SQLite in the PostgreSQL pass: the test brought its own SQLite file {file}"
            ));
            sqlite
        }
        Some(server) => {
            let marker = dir.join(MARKER);
            let name = match std::fs::read_to_string(&marker) {
                Ok(name) => name,
                Err(_) => {
                    let name = format!("{PREFIX}{}", uuid::Uuid::new_v4().simple());
                    let template = template(&server).await;
                    let admin = connect(&server).await;
                    drop_orphans(&admin).await;
                    exec(&admin, &format!("CREATE DATABASE {name} TEMPLATE {template}")).await;
                    let path = dir.display().to_string().replace('\'', "''");
                    exec(&admin, &format!("COMMENT ON DATABASE {name} IS '{path}'")).await;
                    let _ = admin.close().await;
                    std::fs::write(&marker, &name).expect("write the database marker");
                    name
                }
            };
            with_database(&server, &name)
        }
    }
}

/// A database migrated once per test process, which every test database is copied from: a
/// copy takes a fraction of the second that migrating each one did. Its comment is the
/// process's `/proc` entry, so it is dropped like a test's database once the process is gone.
async fn template(server: &str) -> &'static str {
    static TEMPLATE: tokio::sync::OnceCell<String> = tokio::sync::OnceCell::const_new();
    TEMPLATE
        .get_or_init(|| async {
            let pid = std::process::id();
            let name = format!("{PREFIX}template_{pid}");
            let admin = connect(server).await;
            exec(&admin, &format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")).await;
            exec(&admin, &format!("CREATE DATABASE {name}")).await;
            exec(&admin, &format!("COMMENT ON DATABASE {name} IS '/proc/{pid}'")).await;
            let _ = admin.close().await;
            let db = mentorpay::db::connect(&with_database(server, &name))
                .await
                .expect("migrate the template database");
            // No session may stay connected to a template while it is copied.
            let _ = db.close().await;
            name
        })
        .await
}

/// `url` with its database (the path) replaced by `name`, query string kept.
pub fn with_database(url: &str, name: &str) -> String {
    let after_scheme = url.find("://").map(|i| i + 3).unwrap_or(0);
    let path_start = url[after_scheme..].find('/').map(|i| i + after_scheme);
    let query = url.find('?').map(|i| &url[i..]).unwrap_or("");
    let authority = &url[..path_start.unwrap_or(url.len() - query.len())];
    format!("{authority}/{name}{query}")
}

async fn connect(url: &str) -> DatabaseConnection {
    let mut options = ConnectOptions::new(url.to_owned());
    options.max_connections(1).sqlx_logging(false);
    Database::connect(options).await.expect("connect to the test PostgreSQL server")
}

async fn exec(db: &DatabaseConnection, sql: &str) {
    db.execute_raw(Statement::from_string(DbBackend::Postgres, sql.to_owned()))
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"));
}

/// Drops the test databases whose folders no longer exist (their tests have ended).
async fn drop_orphans(admin: &DatabaseConnection) {
    let rows = admin
        .query_all_raw(Statement::from_string(
            DbBackend::Postgres,
            format!("SELECT datname, shobj_description(oid, 'pg_database') AS dir FROM pg_database WHERE datname LIKE '{PREFIX}%'"),
        ))
        .await
        .expect("list test databases");
    for row in rows {
        let name: String = row.try_get("", "datname").unwrap();
        let dir: Option<String> = row.try_get("", "dir").unwrap();
        if dir.is_some_and(|d| !Path::new(&d).exists()) {
            // Another test may be dropping it at the same moment: that is fine.
            let _ = admin
                .execute_raw(Statement::from_string(
                    DbBackend::Postgres,
                    format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"),
                ))
                .await;
        }
    }
}

/// SQLite's plan of `sql` on `db`, one `EXPLAIN QUERY PLAN` line each.
pub async fn sqlite_plan(db: &DatabaseConnection, sql: &str) -> Vec<String> {
    let explain = Statement::from_string(DbBackend::Sqlite, format!("EXPLAIN QUERY PLAN {sql}"));
    let rows = db.query_all_raw(explain).await.unwrap();
    rows.iter().map(|row| row.try_get::<String>("", "detail").unwrap()).collect()
}
