//! A fiscal year can be closed: once its books are closed nothing more is charged to it.
//! Who closed it, when and why stay on the row (cleared again on reopening); the history of
//! both events is in the activity log.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        // One column per statement: SQLite alters a table one column at a time.
        m.alter_table(
            Table::alter()
                .table(FiscalYears::Table)
                .add_column(timestamp_with_time_zone_null(FiscalYears::ClosedAt))
                .to_owned(),
        )
        .await?;
        m.alter_table(
            Table::alter()
                .table(FiscalYears::Table)
                .add_column(integer_null(FiscalYears::ClosedBy))
                .to_owned(),
        )
        .await?;
        m.alter_table(
            Table::alter()
                .table(FiscalYears::Table)
                .add_column(text_null(FiscalYears::CloseReason))
                .to_owned(),
        )
        .await
    }
}

#[derive(DeriveIden)]
enum FiscalYears {
    Table,
    ClosedAt,
    ClosedBy,
    CloseReason,
}
