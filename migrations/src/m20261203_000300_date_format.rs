//! How the office writes a day in the files it imports (the participant import): one of a
//! closed set, `MM/DD/YYYY` until an Administrator chooses another.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.alter_table(
            Table::alter()
                .table(GeneralSettings::Table)
                .add_column(string(GeneralSettings::DateFormat).default("MM/DD/YYYY"))
                .to_owned(),
        )
        .await
    }
}

#[derive(DeriveIden)]
enum GeneralSettings {
    Table,
    DateFormat,
}
