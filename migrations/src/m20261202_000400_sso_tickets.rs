//! Single sign-on's short-lived tickets, kept in the database so that several instances share
//! them: a sign-in under way at the provider (`state`, with its nonce, PKCE verifier and the
//! page to return to; 10 minutes) and the one-time code that hands a finished sign-in to the
//! single-page app (`handoff`, with its user; 60 seconds). Only a SHA-256 of each ticket's
//! value is stored; each is deleted when used.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table(SsoTickets::Table)
                .col(pk_auto(SsoTickets::Id))
                .col(string(SsoTickets::Kind))
                .col(string_uniq(SsoTickets::TicketHash))
                .col(string_null(SsoTickets::Nonce))
                .col(string_null(SsoTickets::PkceVerifier))
                .col(string_null(SsoTickets::NextPath))
                .col(integer_null(SsoTickets::UserId))
                .col(timestamp_with_time_zone(SsoTickets::ExpiresAt))
                .col(timestamp_with_time_zone(SsoTickets::CreatedAt))
                .to_owned(),
        )
        .await?;
        m.create_index(
            Index::create()
                .name("idx_sso_tickets_expires_at")
                .table(SsoTickets::Table)
                .col(SsoTickets::ExpiresAt)
                .to_owned(),
        )
        .await
    }
}

#[derive(DeriveIden)]
enum SsoTickets {
    Table,
    Id,
    Kind,
    TicketHash,
    Nonce,
    PkceVerifier,
    NextPath,
    UserId,
    ExpiresAt,
    CreatedAt,
}
