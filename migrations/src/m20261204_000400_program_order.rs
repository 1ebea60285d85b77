//! A program's requests of one status in submission order, with the request number right after
//! the day: the list breaks a day's ties by number in the order's own direction, so oldest first
//! and newest first are each one walk of this index and stop at the page (or, waiting for you,
//! at the count's bound). Through `(…, submitted_on, form_type, …)` a day's entries came in form
//! order, and every match of the first days was probed and sorted before the first row came out.
//! The columns after the number keep the index covering for the waiting list and its count.
//! A new name, as for the index it replaces: a pooled connection whose cached schema predates
//! the DROP would still see the old name as taken.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        use PaymentRequests as P;
        m.drop_index(
            Index::drop()
                .if_exists()
                .name("ix_payment_requests_program_status_cover")
                .table(P::Table)
                .to_owned(),
        )
        .await?;
        m.create_index(
            Index::create()
                .name("ix_payment_requests_program_order")
                .table(P::Table)
                .col(P::MentorProgramId)
                .col(P::DeletedAt)
                .col(P::Status)
                .col(P::SubmittedOn)
                .col(P::Id)
                .col(P::FormType)
                .col(P::CreatedBy)
                .col(P::SubmittedBy)
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
    Id,
    FormType,
    CreatedBy,
    SubmittedBy,
}
