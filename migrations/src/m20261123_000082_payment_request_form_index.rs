//! The request list filtered by form type (an office's everyday filter) at a million rows:
//! program × form type × status, in submission order, from one index. A page's ids and its
//! bounded count then read only index entries of that form type (docs/benchmarks.md);
//! before, the program × status index of 000032 read every form type to find one.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_index(
            Index::create()
                .name("ix_payment_requests_program_form_status")
                .table(PaymentRequests::Table)
                .col(PaymentRequests::MentorProgramId)
                .col(PaymentRequests::DeletedAt)
                .col(PaymentRequests::FormType)
                .col(PaymentRequests::Status)
                .col(PaymentRequests::SubmittedOn)
                .to_owned(),
        )
        .await
    }
}

#[derive(DeriveIden)]
enum PaymentRequests {
    Table,
    MentorProgramId,
    DeletedAt,
    FormType,
    Status,
    SubmittedOn,
}
