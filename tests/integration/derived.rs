//! The tables the database keeps by itself are named in one place (`mentorpay::db::derived`):
//! a freshly migrated database, on either dialect, holds exactly the triggers named there, so
//! a migration that adds or renames one without naming it fails here.

use crate::common;

use std::collections::BTreeSet;

use common::*;
use mentorpay::db::derived;
use sea_orm::{ConnectionTrait, DbBackend, Statement};

#[actix_web::test]
async fn the_database_holds_exactly_the_named_triggers() {
    let app = spawn().await;
    let db = &app.state.db;
    let backend = db.get_database_backend();
    let sql = match backend {
        // Foreign keys are internal triggers on PostgreSQL; only ours are compared.
        DbBackend::Postgres => "SELECT tgname::text FROM pg_trigger WHERE NOT tgisinternal",
        _ => "SELECT name FROM sqlite_master WHERE type = 'trigger'",
    };
    let found: BTreeSet<String> = db
        .query_all_raw(Statement::from_string(backend, sql))
        .await
        .unwrap()
        .iter()
        .map(|r| r.try_get_by_index::<String>(0).unwrap())
        .collect();
    let named: BTreeSet<String> =
        derived::triggers(backend).into_iter().map(str::to_owned).collect();
    let unnamed: Vec<_> = found.difference(&named).collect();
    let missing: Vec<_> = named.difference(&found).collect();
    assert!(
        unnamed.is_empty() && missing.is_empty(),
        "triggers in the database but not named in src/db/derived.rs: {unnamed:?}; \
         named there but not in the database: {missing:?}"
    );
}
