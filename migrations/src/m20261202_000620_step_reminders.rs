//! The local day a waiting approval step last reminded its approvers, and the day it was
//! escalated to the Administrators: a pass on the same day (another server, a cron run, a
//! restart) finds the day taken and sends nothing again.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        for column in [RequestSteps::RemindedOn, RequestSteps::EscalatedOn] {
            m.alter_table(
                Table::alter().table(RequestSteps::Table).add_column(date_null(column)).to_owned(),
            )
            .await?;
        }
        // The pass reads the current steps only.
        m.create_index(
            Index::create()
                .name("idx_request_steps_state")
                .table(RequestSteps::Table)
                .col(RequestSteps::State)
                .to_owned(),
        )
        .await
    }
}

#[derive(DeriveIden)]
enum RequestSteps {
    Table,
    State,
    RemindedOn,
    EscalatedOn,
}
