//! A covering index for the participant list's common filters (status, role, name), so
//! that counting the matches of a page reads only the index, never the table rows.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_index(
            Index::create()
                .name("ix_participants_status_role_name")
                .table(Participants::Table)
                .col(Participants::DeletedAt)
                .col(Participants::Status)
                .col(Participants::RoleCode)
                .col(Participants::SortName)
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
}
