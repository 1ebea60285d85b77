//! How long an approval step may wait before its approvers are reminded, and before every
//! Administrator hears of it: whole days, counted from when the step became current.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        for (column, days) in
            [(GeneralSettings::ReminderDays, 3), (GeneralSettings::EscalationDays, 7)]
        {
            m.alter_table(
                Table::alter()
                    .table(GeneralSettings::Table)
                    .add_column(integer(column).default(days))
                    .to_owned(),
            )
            .await?;
        }
        Ok(())
    }
}

#[derive(DeriveIden)]
enum GeneralSettings {
    Table,
    ReminderDays,
    EscalationDays,
}
