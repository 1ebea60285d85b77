//! Logins by participant: each participant on a list page reads its login
//! (`participants::store::dtos`), which without an index scanned every user.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_index(Index::create().name("ix_users_participant").table(Users::Table).col(Users::ParticipantId).to_owned()).await
    }
}

#[derive(DeriveIden)]
enum Users {
    Table,
    ParticipantId,
}
