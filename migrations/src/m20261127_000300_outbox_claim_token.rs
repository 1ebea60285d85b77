//! An outbox claim names its holder: a worker records how an attempt ended only while the
//! claim is still its own, so one whose lease lapsed (a stalled relay, a paused process) cannot
//! overwrite the attempt of the worker that took the mail over. The index serves the look for
//! claims whose lease lapsed (their sender died).

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.alter_table(
            Table::alter()
                .table(OutboxMails::Table)
                .add_column(string_null(OutboxMails::ClaimToken))
                .to_owned(),
        )
        .await?;
        m.create_index(
            Index::create()
                .name("outbox_mails_claimed")
                .table(OutboxMails::Table)
                .col(OutboxMails::Status)
                .col(OutboxMails::ClaimedUntil)
                .to_owned(),
        )
        .await
    }
}

#[derive(DeriveIden)]
enum OutboxMails {
    Table,
    Status,
    ClaimedUntil,
    ClaimToken,
}
