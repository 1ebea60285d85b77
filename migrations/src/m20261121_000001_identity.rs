//! Identity: users, roles, their permissions, refresh-token families, one-time
//! password tokens, key/value application settings and the activity log.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table(AppSettings::Table)
                .col(string(AppSettings::Key).primary_key())
                .col(text(AppSettings::Value))
                .col(timestamp_with_time_zone(AppSettings::UpdatedAt))
                .to_owned(),
        )
        .await?;

        m.create_table(
            Table::create()
                .table(Users::Table)
                .col(pk_auto(Users::Id))
                .col(string_uniq(Users::Email))
                .col(string(Users::FirstName))
                .col(string(Users::LastName))
                .col(string_null(Users::PasswordHash))
                .col(boolean(Users::IsActive).default(true))
                .col(integer_null(Users::ParticipantId))
                .col(timestamp_with_time_zone_null(Users::LastLoginAt))
                .col(timestamp_with_time_zone(Users::CreatedAt))
                .col(timestamp_with_time_zone(Users::UpdatedAt))
                .to_owned(),
        )
        .await?;

        m.create_table(
            Table::create()
                .table(Roles::Table)
                .col(pk_auto(Roles::Id))
                .col(string_uniq(Roles::Name))
                .col(boolean(Roles::IsBuiltIn).default(false))
                .col(timestamp_with_time_zone(Roles::CreatedAt))
                .to_owned(),
        )
        .await?;

        m.create_table(
            Table::create()
                .table(RolePermissions::Table)
                .col(integer(RolePermissions::RoleId))
                .col(string(RolePermissions::Permission))
                .primary_key(Index::create().col(RolePermissions::RoleId).col(RolePermissions::Permission))
                .foreign_key(
                    ForeignKey::create()
                        .from(RolePermissions::Table, RolePermissions::RoleId)
                        .to(Roles::Table, Roles::Id)
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .to_owned(),
        )
        .await?;

        m.create_table(
            Table::create()
                .table(UserRoles::Table)
                .col(integer(UserRoles::UserId))
                .col(integer(UserRoles::RoleId))
                // Order of the user's roles: the first one is shown and decides admin status (SPEC §6).
                .col(integer(UserRoles::Position))
                .primary_key(Index::create().col(UserRoles::UserId).col(UserRoles::RoleId))
                .foreign_key(
                    ForeignKey::create()
                        .from(UserRoles::Table, UserRoles::UserId)
                        .to(Users::Table, Users::Id)
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .foreign_key(ForeignKey::create().from(UserRoles::Table, UserRoles::RoleId).to(Roles::Table, Roles::Id))
                .to_owned(),
        )
        .await?;

        m.create_table(
            Table::create()
                .table(RefreshTokens::Table)
                .col(pk_auto(RefreshTokens::Id))
                .col(integer(RefreshTokens::UserId))
                .col(string(RefreshTokens::FamilyId))
                .col(string_uniq(RefreshTokens::TokenHash))
                .col(timestamp_with_time_zone(RefreshTokens::ExpiresAt))
                .col(timestamp_with_time_zone_null(RefreshTokens::UsedAt))
                .col(timestamp_with_time_zone_null(RefreshTokens::RevokedAt))
                .col(timestamp_with_time_zone(RefreshTokens::CreatedAt))
                .foreign_key(
                    ForeignKey::create()
                        .from(RefreshTokens::Table, RefreshTokens::UserId)
                        .to(Users::Table, Users::Id)
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .to_owned(),
        )
        .await?;
        m.create_index(
            Index::create()
                .name("ix_refresh_tokens_family")
                .table(RefreshTokens::Table)
                .col(RefreshTokens::FamilyId)
                .to_owned(),
        )
        .await?;

        m.create_table(
            Table::create()
                .table(PasswordTokens::Table)
                .col(pk_auto(PasswordTokens::Id))
                .col(integer(PasswordTokens::UserId))
                .col(string_uniq(PasswordTokens::TokenHash))
                .col(string(PasswordTokens::Purpose))
                .col(timestamp_with_time_zone(PasswordTokens::ExpiresAt))
                .col(timestamp_with_time_zone_null(PasswordTokens::UsedAt))
                .col(timestamp_with_time_zone(PasswordTokens::CreatedAt))
                .foreign_key(
                    ForeignKey::create()
                        .from(PasswordTokens::Table, PasswordTokens::UserId)
                        .to(Users::Table, Users::Id)
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .to_owned(),
        )
        .await?;

        m.create_table(
            Table::create()
                .table(ActivityLog::Table)
                .col(pk_auto(ActivityLog::Id))
                .col(string(ActivityLog::EntityType))
                .col(integer(ActivityLog::EntityId))
                .col(string(ActivityLog::Action))
                .col(integer_null(ActivityLog::ActorUserId))
                .col(string_null(ActivityLog::FromStatus))
                .col(string_null(ActivityLog::ToStatus))
                .col(text_null(ActivityLog::Comment))
                .col(text_null(ActivityLog::Data))
                .col(timestamp_with_time_zone(ActivityLog::CreatedAt))
                .to_owned(),
        )
        .await?;
        m.create_index(
            Index::create()
                .name("ix_activity_log_entity")
                .table(ActivityLog::Table)
                .col(ActivityLog::EntityType)
                .col(ActivityLog::EntityId)
                .col(ActivityLog::Id)
                .to_owned(),
        )
        .await
    }
}

#[derive(DeriveIden)]
enum AppSettings {
    Table,
    Key,
    Value,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum Users {
    Table,
    Id,
    Email,
    FirstName,
    LastName,
    PasswordHash,
    IsActive,
    ParticipantId,
    LastLoginAt,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum Roles {
    Table,
    Id,
    Name,
    IsBuiltIn,
    CreatedAt,
}

#[derive(DeriveIden)]
enum RolePermissions {
    Table,
    RoleId,
    Permission,
}

#[derive(DeriveIden)]
enum UserRoles {
    Table,
    UserId,
    RoleId,
    Position,
}

#[derive(DeriveIden)]
enum RefreshTokens {
    Table,
    Id,
    UserId,
    FamilyId,
    TokenHash,
    ExpiresAt,
    UsedAt,
    RevokedAt,
    CreatedAt,
}

#[derive(DeriveIden)]
enum PasswordTokens {
    Table,
    Id,
    UserId,
    TokenHash,
    Purpose,
    ExpiresAt,
    UsedAt,
    CreatedAt,
}

#[derive(DeriveIden)]
enum ActivityLog {
    Table,
    Id,
    EntityType,
    EntityId,
    Action,
    ActorUserId,
    FromStatus,
    ToStatus,
    Comment,
    Data,
    CreatedAt,
}
