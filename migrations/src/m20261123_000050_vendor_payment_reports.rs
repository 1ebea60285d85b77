//! Vendor payment reports (DESIGN §6): the history entry of each generation and a frozen
//! copy of its rows. Every value a row shows is copied (names, address, codes, amount), so
//! later renames and edits never change what a history entry reproduces.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table(Reports::Table)
                .col(pk_auto(Reports::Id))
                .col(integer(Reports::FiscalYearId))
                .col(date(Reports::StartDate))
                .col(date(Reports::EndDate))
                // Local-day boundaries the range was read with (minutes, UTC minus local).
                .col(integer(Reports::MinutesOffset).default(0))
                .col(integer(Reports::RowCount))
                .col(big_integer(Reports::TotalCents))
                .col(timestamp_with_time_zone(Reports::CreatedAt))
                .col(integer(Reports::CreatedBy))
                // Who generated it, as named then.
                .col(string(Reports::CreatedByName))
                .to_owned(),
        )
        .await?;
        m.create_index(Index::create().name("ix_vendor_payment_reports_created").table(Reports::Table).col(Reports::CreatedAt).to_owned()).await?;

        m.create_table(
            Table::create()
                .table(Rows::Table)
                .col(pk_auto(Rows::Id))
                .col(integer(Rows::ReportId))
                .col(integer(Rows::Position))
                .col(integer(Rows::PaymentRequestId))
                .col(integer(Rows::MentorProgramId))
                .col(string_len(Rows::FormType, 4))
                .col(string(Rows::Payee))
                .col(text_null(Rows::PayeeAddress))
                .col(timestamp_with_time_zone(Rows::ApprovedAt))
                .col(string_null(Rows::ApprovalCode))
                .col(string_null(Rows::Fund))
                .col(string_null(Rows::ExpenseAccount))
                .col(big_integer(Rows::AmountCents))
                .foreign_key(ForeignKey::create().from(Rows::Table, Rows::ReportId).to(Reports::Table, Reports::Id))
                .to_owned(),
        )
        .await?;
        m.create_index(
            Index::create().name("ix_vendor_payment_report_rows_report").table(Rows::Table).col(Rows::ReportId).col(Rows::Position).to_owned(),
        )
        .await?;
        // A request is paid at most once, whatever the application does: the second
        // history entry naming it cannot be written.
        m.create_index(
            Index::create().name("ux_vendor_payment_report_rows_request").table(Rows::Table).col(Rows::PaymentRequestId).unique().to_owned(),
        )
        .await?;
        // The preview: ready requests of a fiscal year by approval time.
        m.create_index(
            Index::create()
                .name("ix_payment_requests_ready_approved")
                .table(PaymentRequests::Table)
                .col(PaymentRequests::Status)
                .col(PaymentRequests::FiscalYearId)
                .col(PaymentRequests::ApprovedAt)
                .to_owned(),
        )
        .await
    }
}

#[derive(DeriveIden)]
enum Reports {
    #[sea_orm(iden = "vendor_payment_reports")]
    Table,
    Id,
    FiscalYearId,
    StartDate,
    EndDate,
    MinutesOffset,
    RowCount,
    TotalCents,
    CreatedAt,
    CreatedBy,
    CreatedByName,
}

#[derive(DeriveIden)]
enum Rows {
    #[sea_orm(iden = "vendor_payment_report_rows")]
    Table,
    Id,
    ReportId,
    Position,
    PaymentRequestId,
    MentorProgramId,
    FormType,
    Payee,
    PayeeAddress,
    ApprovedAt,
    ApprovalCode,
    Fund,
    ExpenseAccount,
    AmountCents,
}

#[derive(DeriveIden)]
enum PaymentRequests {
    Table,
    Status,
    FiscalYearId,
    ApprovedAt,
}
