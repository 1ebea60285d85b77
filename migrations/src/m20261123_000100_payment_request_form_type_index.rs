//! The request list filtered by form type without a program (an office's everyday filter):
//! before, its bounded count read every entry of the program × form index (no leading
//! program) to find one form, 30 ms and more at a million rows. Two indexes, one per page
//! order: `(form_type, deleted_at)` ends in the id, so the default newest-first page reads
//! 25 entries (with only the second, SQLite sorted all 71,000 of a form: 3.8 ms);
//! `(form_type, deleted_at, submitted_on)` serves submission order (with only the first,
//! 157 ms reading every row of the form). Measured in docs/benchmarks.md (issue 15).

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_index(
            Index::create()
                .name("ix_payment_requests_form_type")
                .table(PaymentRequests::Table)
                .col(PaymentRequests::FormType)
                .col(PaymentRequests::DeletedAt)
                .to_owned(),
        )
        .await?;
        m.create_index(
            Index::create()
                .name("ix_payment_requests_form_submitted")
                .table(PaymentRequests::Table)
                .col(PaymentRequests::FormType)
                .col(PaymentRequests::DeletedAt)
                .col(PaymentRequests::SubmittedOn)
                .to_owned(),
        )
        .await
    }
}

#[derive(DeriveIden)]
enum PaymentRequests {
    Table,
    FormType,
    DeletedAt,
    SubmittedOn,
}
