//! Passkeys (WebAuthn) as a second factor: each registered credential of a user, and the
//! ceremonies between a start and its finish (registration, or the second step of a
//! sign-in), kept in the database so that every instance honours the same one.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table(Passkeys::Table)
                .col(pk_auto(Passkeys::Id))
                .col(integer(Passkeys::UserId))
                // The credential id (base64url), unique across accounts: an authenticator's
                // credential belongs to one person.
                .col(string_uniq(Passkeys::CredentialId))
                .col(string(Passkeys::Name))
                // The relying party's record of the credential (public key, counter), as JSON.
                .col(text(Passkeys::Credential))
                .col(timestamp_with_time_zone(Passkeys::CreatedAt))
                .col(timestamp_with_time_zone_null(Passkeys::LastUsedAt))
                .foreign_key(&mut users_fk(Passkeys::Table, Passkeys::UserId))
                .to_owned(),
        )
        .await?;
        m.create_index(
            Index::create()
                .name("passkeys_user")
                .table(Passkeys::Table)
                .col(Passkeys::UserId)
                .to_owned(),
        )
        .await?;
        m.create_table(
            Table::create()
                .table(PasskeyCeremonies::Table)
                .col(pk_auto(PasskeyCeremonies::Id))
                .col(integer(PasskeyCeremonies::UserId))
                // `register` (one open per user) or `sign-in` (one open per mfa challenge).
                .col(string(PasskeyCeremonies::Kind))
                .col(integer_null(PasskeyCeremonies::ChallengeId))
                // The relying party's state, challenge included: never answered or logged.
                .col(text(PasskeyCeremonies::State))
                .col(timestamp_with_time_zone(PasskeyCeremonies::ExpiresAt))
                .col(timestamp_with_time_zone(PasskeyCeremonies::CreatedAt))
                .foreign_key(&mut users_fk(PasskeyCeremonies::Table, PasskeyCeremonies::UserId))
                .foreign_key(
                    ForeignKey::create()
                        .from_tbl(PasskeyCeremonies::Table)
                        .from_col(PasskeyCeremonies::ChallengeId)
                        .to_tbl(MfaChallenges::Table)
                        .to_col(MfaChallenges::Id)
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .to_owned(),
        )
        .await?;
        m.create_index(
            Index::create()
                .name("passkey_ceremonies_user")
                .table(PasskeyCeremonies::Table)
                .col(PasskeyCeremonies::UserId)
                .to_owned(),
        )
        .await?;
        m.create_index(
            Index::create()
                .name("passkey_ceremonies_challenge")
                .table(PasskeyCeremonies::Table)
                .col(PasskeyCeremonies::ChallengeId)
                .to_owned(),
        )
        .await?;
        Ok(())
    }
}

fn users_fk(table: impl IntoIden, column: impl IntoIden) -> ForeignKeyCreateStatement {
    ForeignKey::create()
        .from_tbl(table)
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
enum MfaChallenges {
    Table,
    Id,
}

#[derive(DeriveIden)]
enum Passkeys {
    Table,
    Id,
    UserId,
    CredentialId,
    Name,
    Credential,
    CreatedAt,
    LastUsedAt,
}

#[derive(DeriveIden)]
enum PasskeyCeremonies {
    Table,
    Id,
    UserId,
    Kind,
    ChallengeId,
    State,
    ExpiresAt,
    CreatedAt,
}
