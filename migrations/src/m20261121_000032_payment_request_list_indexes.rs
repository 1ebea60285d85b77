//! Indexes for the payment request list at a million rows (docs/benchmarks-requests.md):
//! - program × status pages count from one covering index that also holds the form type,
//!   and walk it in submission order;
//! - "approved in a date range, by amount" walks (status, approved amount) and reads the
//!   approval date from the same index instead of sorting every approved row.
//!
//! The summary index of 000020 is dropped: the summary reads the kept totals (000031).
//! New indexes take new names: the statements may run on different pooled connections,
//! and one whose cached schema predates a DROP would still see the old name as taken.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        for name in ["ix_payment_requests_summary", "ix_payment_requests_program_status"] {
            m.drop_index(Index::drop().if_exists().name(name).table(PaymentRequests::Table).to_owned()).await?;
        }
        m.create_index(
            Index::create()
                .name("ix_payment_requests_program_status_form")
                .table(PaymentRequests::Table)
                .col(PaymentRequests::MentorProgramId)
                .col(PaymentRequests::DeletedAt)
                .col(PaymentRequests::Status)
                .col(PaymentRequests::SubmittedOn)
                .col(PaymentRequests::FormType)
                .to_owned(),
        )
        .await?;
        m.create_index(
            Index::create()
                .name("ix_payment_requests_approved_amount")
                .table(PaymentRequests::Table)
                .col(PaymentRequests::Status)
                .col(PaymentRequests::DeletedAt)
                .col(PaymentRequests::ApprovedCents)
                .col(PaymentRequests::ApprovedAt)
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
    Status,
    SubmittedOn,
    FormType,
    ApprovedCents,
    ApprovedAt,
}
