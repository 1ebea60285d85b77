//! Safe retries: the first answer to a money-moving POST sent with an `Idempotency-Key`, kept
//! per user and key for a day (src/idempotency/). A row is written before the action runs (the
//! claim: the primary key lets one request through) and holds its answer once it is known.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table(IdempotencyKeys::Table)
                .col(integer(IdempotencyKeys::UserId))
                .col(string_len(IdempotencyKeys::Key, 255))
                // SHA-256 of the method, path and body, hex.
                .col(string(IdempotencyKeys::RequestHash))
                // Null while the first request is in flight.
                .col(integer_null(IdempotencyKeys::ResponseStatus))
                // JSON: [[name, value], ...].
                .col(text_null(IdempotencyKeys::ResponseHeaders))
                .col(blob_null(IdempotencyKeys::ResponseBody))
                .col(timestamp_with_time_zone(IdempotencyKeys::CreatedAt))
                .primary_key(Index::create().col(IdempotencyKeys::UserId).col(IdempotencyKeys::Key))
                .to_owned(),
        )
        .await?;
        // The cleanup pass drops answers older than a day.
        m.create_index(
            Index::create()
                .name("idempotency_keys_created")
                .table(IdempotencyKeys::Table)
                .col(IdempotencyKeys::CreatedAt)
                .to_owned(),
        )
        .await
    }
}

#[derive(DeriveIden)]
enum IdempotencyKeys {
    Table,
    UserId,
    Key,
    RequestHash,
    ResponseStatus,
    ResponseHeaders,
    ResponseBody,
    CreatedAt,
}
