//! How many megabytes of receipts one person may hold that no request uses yet (uploaded
//! or announced, not attached). Existing installations get 100 MB.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.alter_table(
            Table::alter()
                .table(GeneralSettings::Table)
                .add_column(integer(GeneralSettings::UnattachedReceiptQuotaMb).default(100))
                .to_owned(),
        )
        .await
    }
}

#[derive(DeriveIden)]
enum GeneralSettings {
    Table,
    UnattachedReceiptQuotaMb,
}
