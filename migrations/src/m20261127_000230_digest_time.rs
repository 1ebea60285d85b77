//! When the daily digest goes out: an hour of the day in the office's time zone (an IANA
//! name). Existing installations get 8 o'clock UTC until an Administrator says otherwise.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.alter_table(
            Table::alter()
                .table(GeneralSettings::Table)
                .add_column(integer(GeneralSettings::DigestHour).default(8))
                .to_owned(),
        )
        .await?;
        m.alter_table(
            Table::alter()
                .table(GeneralSettings::Table)
                .add_column(string(GeneralSettings::TimeZone).default("UTC"))
                .to_owned(),
        )
        .await
    }
}

#[derive(DeriveIden)]
enum GeneralSettings {
    Table,
    DigestHour,
    TimeZone,
}
