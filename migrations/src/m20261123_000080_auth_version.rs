//! One counter that moves whenever who-may-do-what changes: a user's roles, a role's
//! permissions, a role's name or its deletion. Every authenticated call reads it in its
//! one per-call query and reuses the roles and permissions it loaded earlier while the
//! counter stands still (src/auth/grants.rs). Triggers rather than application code, so
//! that no write path (the users and roles screens, the CLI, bootstrap, a future import)
//! can forget to move it; the two dialects below say the same thing.

use sea_orm_migration::{prelude::*, sea_orm::DatabaseBackend};

#[derive(DeriveMigrationName)]
pub struct Migration;

/// Tables and events whose change moves the counter.
const WATCHED: [(&str, &str); 3] =
    [("user_roles", "INSERT OR UPDATE OR DELETE"), ("role_permissions", "INSERT OR UPDATE OR DELETE"), ("roles", "UPDATE OR DELETE")];

const BUMP: &str = "UPDATE auth_version SET version = version + 1 WHERE id = 1;";

fn sqlite_statements() -> Vec<String> {
    let mut out = Vec::new();
    for (table, events) in WATCHED {
        // SQLite triggers take one event each.
        for event in events.split(" OR ") {
            out.push(format!(
                "CREATE TRIGGER auth_version_{table}_{} AFTER {event} ON {table} BEGIN {BUMP} END",
                event.to_lowercase()
            ));
        }
    }
    out
}

fn postgres_statements() -> Vec<String> {
    let mut out = vec![format!(
        "CREATE FUNCTION auth_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN {BUMP} RETURN NULL; END $$"
    )];
    for (table, events) in WATCHED {
        // Once per statement: a role saved with 60 permissions moves the counter once.
        out.push(format!(
            "CREATE TRIGGER auth_version_{table} AFTER {events} ON {table} FOR EACH STATEMENT EXECUTE FUNCTION auth_version_bump()"
        ));
    }
    out
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table(AuthVersion::Table)
                .col(ColumnDef::new(AuthVersion::Id).integer().not_null().primary_key())
                .col(ColumnDef::new(AuthVersion::Version).big_integer().not_null())
                .to_owned(),
        )
        .await?;
        let db = m.get_connection();
        db.execute_unprepared("INSERT INTO auth_version (id, version) VALUES (1, 1)").await?;
        let statements = match m.get_database_backend() {
            DatabaseBackend::Postgres => postgres_statements(),
            _ => sqlite_statements(),
        };
        for sql in statements {
            db.execute_unprepared(&sql).await?;
        }
        Ok(())
    }
}

#[derive(DeriveIden)]
enum AuthVersion {
    #[sea_orm(iden = "auth_version")]
    Table,
    Id,
    Version,
}
