//! Payment requests (DESIGN §4) and uploaded receipts. Money in integer cents; the typed
//! `details` as JSON text; the columns lists filter and sort on are copied out of it.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table(PaymentRequests::Table)
                .col(pk_auto(PaymentRequests::Id))
                .col(string_len(PaymentRequests::FormType, 4))
                .col(string_len(PaymentRequests::Status, 24))
                .col(integer(PaymentRequests::ParticipationId))
                .col(integer(PaymentRequests::MentorProgramId))
                // The payee (participation's participant), for duplicate detection.
                .col(integer(PaymentRequests::ParticipantId))
                .col(text_null(PaymentRequests::Description))
                .col(big_integer(PaymentRequests::RequestedCents))
                .col(big_integer_null(PaymentRequests::ApprovedCents))
                .col(integer_null(PaymentRequests::ApprovalCodeId))
                .col(integer_null(PaymentRequests::FundId))
                .col(integer_null(PaymentRequests::ExpenseAccountId))
                // Fixed at first submission: the year covering submitted_on, charged on approval.
                .col(integer_null(PaymentRequests::FiscalYearId))
                .col(date_null(PaymentRequests::SubmittedOn))
                .col(integer_null(PaymentRequests::SubmittedBy))
                .col(timestamp_with_time_zone_null(PaymentRequests::ApprovedAt))
                .col(integer_null(PaymentRequests::ApprovedBy))
                .col(date_null(PaymentRequests::PlacementEndDate))
                .col(date_null(PaymentRequests::ActivityStart))
                .col(date_null(PaymentRequests::ActivityEnd))
                .col(text(PaymentRequests::Details))
                .col(integer(PaymentRequests::Version).default(1))
                .col(timestamp_with_time_zone(PaymentRequests::CreatedAt))
                .col(integer_null(PaymentRequests::CreatedBy))
                .col(timestamp_with_time_zone(PaymentRequests::UpdatedAt))
                .col(integer_null(PaymentRequests::UpdatedBy))
                .col(timestamp_with_time_zone_null(PaymentRequests::DeletedAt))
                .to_owned(),
        )
        .await?;

        // The list's usual shape: a program's live requests in a status, newest submission first.
        index(m, "ix_payment_requests_program_status", &[PaymentRequests::MentorProgramId, PaymentRequests::Status, PaymentRequests::SubmittedOn]).await?;
        // Summary per program: counts and sums per status without touching the table.
        index(
            m,
            "ix_payment_requests_summary",
            &[PaymentRequests::MentorProgramId, PaymentRequests::DeletedAt, PaymentRequests::Status, PaymentRequests::RequestedCents, PaymentRequests::ApprovedCents],
        )
        .await?;
        index(m, "ix_payment_requests_participation", &[PaymentRequests::ParticipationId]).await?;
        index(m, "ix_payment_requests_status_submitted", &[PaymentRequests::Status, PaymentRequests::SubmittedOn]).await?;
        index(m, "ix_payment_requests_approved_at", &[PaymentRequests::ApprovedAt]).await?;
        index(m, "ix_payment_requests_placement_end", &[PaymentRequests::PlacementEndDate]).await?;
        // Budget lines: approved sums per year × program × fund × account.
        index(
            m,
            "ix_payment_requests_budget_line",
            &[PaymentRequests::FiscalYearId, PaymentRequests::MentorProgramId, PaymentRequests::FundId, PaymentRequests::ExpenseAccountId, PaymentRequests::Status],
        )
        .await?;
        // Likely duplicates: same payee, form and activity dates.
        index(
            m,
            "ix_payment_requests_duplicates",
            &[PaymentRequests::ParticipantId, PaymentRequests::FormType, PaymentRequests::ActivityStart, PaymentRequests::ActivityEnd],
        )
        .await?;

        m.create_table(
            Table::create()
                .table(UploadedFiles::Table)
                // A random UUID: it is also the object name in the store.
                .col(string_len(UploadedFiles::Id, 36).primary_key())
                .col(string(UploadedFiles::FileName))
                .col(string(UploadedFiles::ContentType))
                .col(big_integer(UploadedFiles::Size))
                .col(integer(UploadedFiles::CreatedBy))
                .col(timestamp_with_time_zone(UploadedFiles::CreatedAt))
                .col(timestamp_with_time_zone(UploadedFiles::ExpiresAt))
                // Set once, by the one PUT that may store the bytes.
                .col(timestamp_with_time_zone_null(UploadedFiles::UploadedAt))
                .col(integer_null(UploadedFiles::PaymentRequestId))
                .col(timestamp_with_time_zone_null(UploadedFiles::DeletedAt))
                .foreign_key(ForeignKey::create().from(UploadedFiles::Table, UploadedFiles::PaymentRequestId).to(PaymentRequests::Table, PaymentRequests::Id))
                .to_owned(),
        )
        .await?;
        m.create_index(
            Index::create().name("ix_uploaded_files_request").table(UploadedFiles::Table).col(UploadedFiles::PaymentRequestId).to_owned(),
        )
        .await
    }
}

async fn index(m: &SchemaManager<'_>, name: &str, cols: &[PaymentRequests]) -> Result<(), DbErr> {
    let mut index = Index::create();
    index.name(name).table(PaymentRequests::Table);
    for c in cols {
        index.col(*c);
    }
    m.create_index(index.to_owned()).await
}

#[derive(DeriveIden, Clone, Copy)]
enum PaymentRequests {
    Table,
    Id,
    FormType,
    Status,
    ParticipationId,
    MentorProgramId,
    ParticipantId,
    Description,
    RequestedCents,
    ApprovedCents,
    ApprovalCodeId,
    FundId,
    ExpenseAccountId,
    FiscalYearId,
    SubmittedOn,
    SubmittedBy,
    ApprovedAt,
    ApprovedBy,
    PlacementEndDate,
    ActivityStart,
    ActivityEnd,
    Details,
    Version,
    CreatedAt,
    CreatedBy,
    UpdatedAt,
    UpdatedBy,
    DeletedAt,
}

#[derive(DeriveIden)]
enum UploadedFiles {
    Table,
    Id,
    FileName,
    ContentType,
    Size,
    CreatedBy,
    CreatedAt,
    ExpiresAt,
    UploadedAt,
    PaymentRequestId,
    DeletedAt,
}
