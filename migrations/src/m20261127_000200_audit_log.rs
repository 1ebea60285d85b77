//! The audit trail: one row per change or security event, never updated or deleted. The
//! database itself refuses UPDATE and DELETE (a trigger on SQLite, a trigger function on
//! PostgreSQL), so not even a hand-written SQL statement edits the record by accident; a
//! deliberate edit (dropping the trigger first) breaks the hash chain, which
//! `GET /audit-log/verify` finds. Ids are given by the writer (the previous id plus one), so
//! the trail has no gaps and two writers can never both append after the same entry.

use sea_orm_migration::{prelude::*, schema::*, sea_orm::DatabaseBackend};

#[derive(DeriveMigrationName)]
pub struct Migration;

const REFUSAL: &str = "the audit trail is append-only";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table(AuditLog::Table)
                .col(integer(AuditLog::Id).primary_key())
                .col(timestamp_with_time_zone(AuditLog::At))
                .col(integer_null(AuditLog::ActorId))
                .col(string_null(AuditLog::ActorEmail))
                .col(string_null(AuditLog::ActorName))
                .col(string_null(AuditLog::Ip))
                .col(string(AuditLog::EntityType))
                .col(integer_null(AuditLog::EntityId))
                .col(string(AuditLog::Action))
                // Canonical JSON of the changed fields (the text the hash covers).
                .col(text_null(AuditLog::Before))
                .col(text_null(AuditLog::After))
                .col(string(AuditLog::Hash))
                .to_owned(),
        )
        .await?;
        // A record's history, newest first.
        m.create_index(
            Index::create()
                .name("audit_log_entity")
                .table(AuditLog::Table)
                .col(AuditLog::EntityType)
                .col(AuditLog::EntityId)
                .col(AuditLog::Id)
                .to_owned(),
        )
        .await?;
        // What one person did, newest first.
        m.create_index(
            Index::create()
                .name("audit_log_actor")
                .table(AuditLog::Table)
                .col(AuditLog::ActorId)
                .col(AuditLog::Id)
                .to_owned(),
        )
        .await?;
        m.create_index(
            Index::create()
                .name("audit_log_action")
                .table(AuditLog::Table)
                .col(AuditLog::Action)
                .col(AuditLog::Id)
                .to_owned(),
        )
        .await?;
        m.create_index(
            Index::create()
                .name("audit_log_at")
                .table(AuditLog::Table)
                .col(AuditLog::At)
                .to_owned(),
        )
        .await?;
        let db = m.get_connection();
        // Reading the trail is a permission of its own, held by Administrators of databases
        // made before it existed too (a new database's roles are made after the migrations).
        db.execute_unprepared(
            "INSERT INTO role_permissions (role_id, permission) \
             SELECT id, 'audit:read' FROM roles WHERE name = 'Administrator' AND NOT EXISTS \
             (SELECT 1 FROM role_permissions p WHERE p.role_id = roles.id AND p.permission = 'audit:read')",
        )
        .await?;
        match m.get_database_backend() {
            DatabaseBackend::Postgres => {
                db.execute_unprepared(&format!(
                    "CREATE FUNCTION audit_log_refuse() RETURNS trigger LANGUAGE plpgsql AS $$ \
                     BEGIN RAISE EXCEPTION '{REFUSAL}'; END $$"
                ))
                .await?;
                db.execute_unprepared(
                    "CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log \
                     FOR EACH ROW EXECUTE FUNCTION audit_log_refuse()",
                )
                .await?;
                db.execute_unprepared(
                    "CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log \
                     FOR EACH STATEMENT EXECUTE FUNCTION audit_log_refuse()",
                )
                .await?;
            }
            _ => {
                for (name, event) in
                    [("audit_log_no_update", "UPDATE"), ("audit_log_no_delete", "DELETE")]
                {
                    db.execute_unprepared(&format!(
                        "CREATE TRIGGER {name} BEFORE {event} ON audit_log \
                         BEGIN SELECT RAISE(ABORT, '{REFUSAL}'); END"
                    ))
                    .await?;
                }
            }
        }
        Ok(())
    }
}

#[derive(DeriveIden)]
enum AuditLog {
    Table,
    Id,
    At,
    ActorId,
    ActorEmail,
    ActorName,
    Ip,
    EntityType,
    EntityId,
    Action,
    Before,
    After,
    Hash,
}
