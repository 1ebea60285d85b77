//! A second factor and the sessions a person sees: an authenticator app's secret per user
//! (TOTP), single-use recovery codes kept as salted hashes, the short-lived sign-in
//! challenges between the password and the code (in the database, so every instance
//! honours the same one), and where each sign-in comes from (address, browser).

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table(UserTotp::Table)
                .col(integer(UserTotp::UserId).primary_key())
                // Base32; never read into a log, an answer after enrolment, or the trail.
                .col(string(UserTotp::Secret))
                // Null while enrolment waits for its first code.
                .col(timestamp_with_time_zone_null(UserTotp::ConfirmedAt))
                // The last time step accepted: a code is good once.
                .col(big_integer_null(UserTotp::LastStep))
                .col(timestamp_with_time_zone(UserTotp::CreatedAt))
                .foreign_key(&mut users_fk(UserTotp::Table, UserTotp::UserId))
                .to_owned(),
        )
        .await?;
        m.create_table(
            Table::create()
                .table(RecoveryCodes::Table)
                .col(pk_auto(RecoveryCodes::Id))
                .col(integer(RecoveryCodes::UserId))
                .col(string(RecoveryCodes::Salt))
                .col(string(RecoveryCodes::CodeHash))
                .col(timestamp_with_time_zone_null(RecoveryCodes::UsedAt))
                .col(timestamp_with_time_zone(RecoveryCodes::CreatedAt))
                .foreign_key(&mut users_fk(RecoveryCodes::Table, RecoveryCodes::UserId))
                .to_owned(),
        )
        .await?;
        m.create_index(
            Index::create()
                .name("recovery_codes_user")
                .table(RecoveryCodes::Table)
                .col(RecoveryCodes::UserId)
                .to_owned(),
        )
        .await?;
        m.create_table(
            Table::create()
                .table(MfaChallenges::Table)
                .col(pk_auto(MfaChallenges::Id))
                .col(string_uniq(MfaChallenges::TokenHash))
                .col(integer(MfaChallenges::UserId))
                // `verify` (a factor is held) or `enroll` (the policy asks for one first).
                .col(string(MfaChallenges::Purpose))
                .col(integer(MfaChallenges::Failures).default(0))
                .col(timestamp_with_time_zone(MfaChallenges::ExpiresAt))
                .col(timestamp_with_time_zone_null(MfaChallenges::UsedAt))
                .col(timestamp_with_time_zone(MfaChallenges::CreatedAt))
                .foreign_key(&mut users_fk(MfaChallenges::Table, MfaChallenges::UserId))
                .to_owned(),
        )
        .await?;
        for column in [RefreshTokens::Ip, RefreshTokens::UserAgent] {
            m.alter_table(
                Table::alter().table(RefreshTokens::Table).add_column(text_null(column)).to_owned(),
            )
            .await?;
        }
        // The sessions list reads a user's live tokens.
        m.create_index(
            Index::create()
                .name("refresh_tokens_user")
                .table(RefreshTokens::Table)
                .col(RefreshTokens::UserId)
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
enum UserTotp {
    #[sea_orm(iden = "user_totp")]
    Table,
    UserId,
    Secret,
    ConfirmedAt,
    LastStep,
    CreatedAt,
}

#[derive(DeriveIden)]
enum RecoveryCodes {
    Table,
    Id,
    UserId,
    Salt,
    CodeHash,
    UsedAt,
    CreatedAt,
}

#[derive(DeriveIden)]
enum MfaChallenges {
    Table,
    Id,
    TokenHash,
    UserId,
    Purpose,
    Failures,
    ExpiresAt,
    UsedAt,
    CreatedAt,
}

#[derive(DeriveIden)]
enum RefreshTokens {
    Table,
    UserId,
    Ip,
    UserAgent,
}
