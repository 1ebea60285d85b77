//! The SQLite trigram index (migration 000081) holds live participants only: every list
//! shows only those, so a search without other filters is counted from the index alone
//! instead of reading each match's row to skip the deleted (a thousand random rows for a
//! common name, docs/benchmarks.md, issue 15). A soft delete takes the row out; clearing
//! `deleted_at` would put it back. PostgreSQL's expression indexes are unchanged.

use sea_orm_migration::{
    prelude::*,
    sea_orm::{DatabaseBackend, TransactionTrait},
};

#[derive(DeriveMigrationName)]
pub struct Migration;

const SQLITE: [&str; 8] = [
    "DROP TRIGGER participant_search_insert",
    "DROP TRIGGER participant_search_delete",
    "DROP TRIGGER participant_search_update",
    "CREATE TRIGGER participant_search_insert AFTER INSERT ON participants WHEN NEW.deleted_at IS NULL BEGIN \
     INSERT INTO participant_search (rowid, full_name, email) VALUES (NEW.id, NEW.full_name, NEW.email); END",
    "CREATE TRIGGER participant_search_delete AFTER DELETE ON participants WHEN OLD.deleted_at IS NULL BEGIN \
     INSERT INTO participant_search (participant_search, rowid, full_name, email) VALUES ('delete', OLD.id, OLD.full_name, OLD.email); END",
    // Only a change of the indexed columns or of being deleted touches the index.
    "CREATE TRIGGER participant_search_update AFTER UPDATE OF full_name, email, deleted_at ON participants BEGIN \
     INSERT INTO participant_search (participant_search, rowid, full_name, email) \
     SELECT 'delete', OLD.id, OLD.full_name, OLD.email WHERE OLD.deleted_at IS NULL; \
     INSERT INTO participant_search (rowid, full_name, email) SELECT NEW.id, NEW.full_name, NEW.email WHERE NEW.deleted_at IS NULL; END",
    "INSERT INTO participant_search (participant_search) VALUES ('delete-all')",
    "INSERT INTO participant_search (rowid, full_name, email) SELECT id, full_name, email FROM participants WHERE deleted_at IS NULL",
];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        if m.get_database_backend() == DatabaseBackend::Postgres {
            return Ok(());
        }
        // One transaction, so one connection: another pool connection would still see the
        // dropped triggers in its cached schema and refuse to create them again.
        let txn = m.get_connection().begin().await?;
        for sql in SQLITE {
            txn.execute_unprepared(sql).await?;
        }
        txn.commit().await
    }
}
