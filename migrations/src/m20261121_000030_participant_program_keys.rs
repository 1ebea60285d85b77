//! The programs a participant takes part in, kept on the participant row as `,1,3,`, and
//! in the list's covering index: filtering the list by program (and a Coordinator's scope)
//! then counts from the index alone instead of probing participations row by row, which
//! was the slowest part of a filtered page at 100k participants (docs/benchmarks.md).

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::DatabaseBackend;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.alter_table(
            Table::alter()
                .table(Participants::Table)
                .add_column(ColumnDef::new(Participants::ProgramKeys).string().not_null().default(""))
                .to_owned(),
        )
        .await?;
        let aggregate = match m.get_database_backend() {
            DatabaseBackend::Postgres => "string_agg(DISTINCT mentor_program_id::text, ',')",
            _ => "group_concat(DISTINCT mentor_program_id)",
        };
        m.get_connection()
            .execute_unprepared(&format!(
                "UPDATE participants SET program_keys = COALESCE((SELECT ',' || {aggregate} || ',' FROM participations \
                 WHERE participations.participant_id = participants.id AND participations.deleted_at IS NULL), '')"
            ))
            .await?;
        m.drop_index(Index::drop().name("ix_participants_status_role_name").table(Participants::Table).to_owned()).await?;
        m.create_index(
            Index::create()
                .name("ix_participants_list")
                .table(Participants::Table)
                .col(Participants::DeletedAt)
                .col(Participants::Status)
                .col(Participants::RoleCode)
                .col(Participants::SortName)
                .col(Participants::ProgramKeys)
                .col(Participants::Id)
                .to_owned(),
        )
        .await
    }
}

#[derive(DeriveIden)]
enum Participants {
    Table,
    Id,
    DeletedAt,
    Status,
    RoleCode,
    SortName,
    ProgramKeys,
}
