//! System settings: fiscal years, general settings (one row), form validation limits
//! (one row per form type), the coordinator sign-in block (one row) and notification
//! banners. Default rows are written by the app on start (settings::defaults), so the
//! defaults live in one place.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table(FiscalYears::Table)
                .col(pk_auto(FiscalYears::Id))
                .col(string_uniq(FiscalYears::Name))
                .col(date(FiscalYears::StartDate))
                .col(date(FiscalYears::EndDate))
                .col(timestamp_with_time_zone(FiscalYears::CreatedAt))
                .to_owned(),
        )
        .await?;
        m.create_index(
            Index::create().name("ix_fiscal_years_start").table(FiscalYears::Table).col(FiscalYears::StartDate).to_owned(),
        )
        .await?;

        m.create_table(
            Table::create()
                .table(GeneralSettings::Table)
                .col(pk_auto(GeneralSettings::Id))
                .col(string(GeneralSettings::OrganisationName))
                .col(string(GeneralSettings::SupportEmail))
                .col(big_integer(GeneralSettings::MileageRateCents))
                .col(big_integer(GeneralSettings::BreakfastCents))
                .col(big_integer(GeneralSettings::LunchCents))
                .col(big_integer(GeneralSettings::DinnerCents))
                // NULL until saved once: the --access-token-ttl / --refresh-token-ttl flags apply.
                .col(integer_null(GeneralSettings::AccessTokenTtlSeconds))
                .col(integer_null(GeneralSettings::RefreshTokenTtlSeconds))
                .col(integer(GeneralSettings::Version).default(1))
                .col(timestamp_with_time_zone(GeneralSettings::UpdatedAt))
                .to_owned(),
        )
        .await?;

        m.create_table(
            Table::create()
                .table(FormValidationLimits::Table)
                .col(string(FormValidationLimits::FormType).primary_key())
                .col(big_integer(FormValidationLimits::MaxAmountCents))
                .col(integer(FormValidationLimits::SubmissionWindowDays))
                .col(integer_null(FormValidationLimits::MaxMilesPerTrip))
                .col(integer_null(FormValidationLimits::MaxHours))
                .col(integer_null(FormValidationLimits::MaxNights))
                .col(timestamp_with_time_zone(FormValidationLimits::UpdatedAt))
                .to_owned(),
        )
        .await?;

        m.create_table(
            Table::create()
                .table(CoordinatorLoginBlock::Table)
                .col(pk_auto(CoordinatorLoginBlock::Id))
                .col(boolean(CoordinatorLoginBlock::IsBlocked).default(false))
                .col(text_null(CoordinatorLoginBlock::Message))
                .col(timestamp_with_time_zone(CoordinatorLoginBlock::UpdatedAt))
                .to_owned(),
        )
        .await?;

        m.create_table(
            Table::create()
                .table(NotificationBanners::Table)
                .col(pk_auto(NotificationBanners::Id))
                .col(text(NotificationBanners::Message))
                .col(string(NotificationBanners::Severity))
                .col(timestamp_with_time_zone_null(NotificationBanners::StartsAt))
                .col(timestamp_with_time_zone_null(NotificationBanners::EndsAt))
                .col(boolean(NotificationBanners::IsActive))
                // The order the list was saved in, which is the order banners show in.
                .col(integer(NotificationBanners::Position))
                .col(timestamp_with_time_zone(NotificationBanners::UpdatedAt))
                .to_owned(),
        )
        .await
    }
}

#[derive(DeriveIden)]
enum FiscalYears {
    Table,
    Id,
    Name,
    StartDate,
    EndDate,
    CreatedAt,
}

#[derive(DeriveIden)]
enum GeneralSettings {
    Table,
    Id,
    OrganisationName,
    SupportEmail,
    MileageRateCents,
    BreakfastCents,
    LunchCents,
    DinnerCents,
    AccessTokenTtlSeconds,
    RefreshTokenTtlSeconds,
    Version,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum FormValidationLimits {
    Table,
    FormType,
    MaxAmountCents,
    SubmissionWindowDays,
    MaxMilesPerTrip,
    MaxHours,
    MaxNights,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum CoordinatorLoginBlock {
    Table,
    Id,
    IsBlocked,
    Message,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum NotificationBanners {
    Table,
    Id,
    Message,
    Severity,
    StartsAt,
    EndsAt,
    IsActive,
    Position,
    UpdatedAt,
}
