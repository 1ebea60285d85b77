//! Substring search on participant names and e-mails through an index, case- and
//! accent-insensitive ("jose" finds "José Núñez", "NUNEZ@" finds "nunez@…"):
//! - SQLite: an FTS5 table with the trigram tokenizer (`remove_diacritics 1` folds
//!   accents, case is folded by default) over `participants.full_name` and `email`, its
//!   external content kept by triggers in the transaction of every insert, update and
//!   delete. The bundled SQLite (libsqlite3-sys, `bundled`) is built with FTS5.
//! - PostgreSQL: `pg_trgm` GIN indexes over `mentorpay_fold(column)` (lower case,
//!   `unaccent`), which LIKE '%…%' on the same expression uses; the index is kept by
//!   PostgreSQL itself.
//!
//! The queries live in `participants::store` (`search_condition`).

use sea_orm_migration::{prelude::*, sea_orm::DatabaseBackend};

#[derive(DeriveMigrationName)]
pub struct Migration;

const SQLITE: [&str; 5] = [
    "CREATE VIRTUAL TABLE participant_search USING fts5(full_name, email, content='participants', content_rowid='id', \
     tokenize='trigram remove_diacritics 1')",
    "INSERT INTO participant_search (participant_search) VALUES ('rebuild')",
    "CREATE TRIGGER participant_search_insert AFTER INSERT ON participants BEGIN \
     INSERT INTO participant_search (rowid, full_name, email) VALUES (NEW.id, NEW.full_name, NEW.email); END",
    "CREATE TRIGGER participant_search_delete AFTER DELETE ON participants BEGIN \
     INSERT INTO participant_search (participant_search, rowid, full_name, email) VALUES ('delete', OLD.id, OLD.full_name, OLD.email); END",
    // Only a change of the indexed columns touches the index (not every edit or program change).
    "CREATE TRIGGER participant_search_update AFTER UPDATE OF full_name, email ON participants BEGIN \
     INSERT INTO participant_search (participant_search, rowid, full_name, email) VALUES ('delete', OLD.id, OLD.full_name, OLD.email); \
     INSERT INTO participant_search (rowid, full_name, email) VALUES (NEW.id, NEW.full_name, NEW.email); END",
];

const POSTGRES: [&str; 5] = [
    "CREATE EXTENSION IF NOT EXISTS pg_trgm",
    "CREATE EXTENSION IF NOT EXISTS unaccent",
    // unaccent() is only STABLE (its dictionary could change); naming the dictionary makes
    // the wrapper safe to declare IMMUTABLE, which an expression index needs.
    "CREATE FUNCTION mentorpay_fold(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT \
     AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, $1)) $$",
    "CREATE INDEX ix_participants_full_name_trgm ON participants USING gin (mentorpay_fold(full_name) gin_trgm_ops)",
    "CREATE INDEX ix_participants_email_trgm ON participants USING gin (mentorpay_fold(email) gin_trgm_ops)",
];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        let statements: &[&str] = match m.get_database_backend() {
            DatabaseBackend::Postgres => &POSTGRES,
            _ => &SQLITE,
        };
        let db = m.get_connection();
        for sql in statements {
            db.execute_unprepared(sql).await?;
        }
        Ok(())
    }
}
