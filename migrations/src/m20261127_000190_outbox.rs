//! The outbox: every e-mail MentorPay sends is first a row here, written in the transaction of
//! the action that causes it, and sent after commit by a worker (src/notifications/outbox.rs).
//! So an action never waits for the relay, and a mail is neither lost over a crash (the row
//! was committed with the action) nor sent twice (a row is claimed before it is sent).
//! Users choose how they hear of work: at once, in a daily digest, or not at all.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table(OutboxMails::Table)
                .col(pk_auto(OutboxMails::Id))
                .col(string(OutboxMails::Recipient))
                .col(string(OutboxMails::Subject))
                // What happened, as JSON: rendered into the message when it is sent.
                .col(text(OutboxMails::Event))
                .col(string(OutboxMails::Status))
                .col(integer(OutboxMails::Attempts).default(0))
                .col(timestamp_with_time_zone(OutboxMails::NextAttemptAt))
                .col(timestamp_with_time_zone_null(OutboxMails::ClaimedUntil))
                .col(text_null(OutboxMails::LastError))
                .col(string_null(OutboxMails::DeliveredBy))
                .col(timestamp_with_time_zone(OutboxMails::CreatedAt))
                .col(timestamp_with_time_zone_null(OutboxMails::SentAt))
                .to_owned(),
        )
        .await?;
        // The worker's claim: pending rows due now, oldest first.
        m.create_index(
            Index::create()
                .name("outbox_mails_due")
                .table(OutboxMails::Table)
                .col(OutboxMails::Status)
                .col(OutboxMails::NextAttemptAt)
                .to_owned(),
        )
        .await?;
        m.alter_table(
            Table::alter()
                .table(Users::Table)
                .add_column(string(Users::NotificationMode).default("instant"))
                .to_owned(),
        )
        .await?;
        m.alter_table(
            Table::alter()
                .table(Users::Table)
                .add_column(date_null(Users::DigestSentOn))
                .to_owned(),
        )
        .await
    }
}

#[derive(DeriveIden)]
enum OutboxMails {
    Table,
    Id,
    Recipient,
    Subject,
    Event,
    Status,
    Attempts,
    NextAttemptAt,
    ClaimedUntil,
    LastError,
    DeliveredBy,
    CreatedAt,
    SentAt,
}

#[derive(DeriveIden)]
enum Users {
    Table,
    NotificationMode,
    DigestSentOn,
}
