//! Out of office: one window per person (first and last day, in the office's calendar) and
//! the colleague who stands in for her meanwhile. Looked up by the stand-in too (whose steps
//! may she take today), hence the second index.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table(OutOfOffice::Table)
                .col(integer(OutOfOffice::UserId).primary_key())
                .col(date(OutOfOffice::FromDay))
                .col(date(OutOfOffice::ToDay))
                .col(integer(OutOfOffice::StandInUserId))
                .col(timestamp_with_time_zone(OutOfOffice::UpdatedAt))
                .foreign_key(&mut users_fk(OutOfOffice::UserId))
                .foreign_key(&mut users_fk(OutOfOffice::StandInUserId))
                .to_owned(),
        )
        .await?;
        m.create_index(
            Index::create()
                .name("out_of_office_stand_in")
                .table(OutOfOffice::Table)
                .col(OutOfOffice::StandInUserId)
                .to_owned(),
        )
        .await
    }
}

fn users_fk(column: OutOfOffice) -> ForeignKeyCreateStatement {
    ForeignKey::create()
        .from_tbl(OutOfOffice::Table)
        .from_col(column)
        .to_tbl(Users::Table)
        .to_col(Users::Id)
        .on_delete(ForeignKeyAction::Cascade)
        .to_owned()
}

#[derive(DeriveIden)]
enum Users {
    Table,
    Id,
}

#[derive(DeriveIden)]
enum OutOfOffice {
    #[sea_orm(iden = "out_of_office")]
    Table,
    UserId,
    FromDay,
    ToDay,
    StandInUserId,
    UpdatedAt,
}
