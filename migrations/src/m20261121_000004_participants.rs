//! Participants (DESIGN §5), their many-to-many reference links, and participations
//! (participant × mentor program × fiscal year). Indexes serve the participant list:
//! filtered by status / role / district / program, sorted by name, e-mail, status,
//! role or last change, over 100k rows.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

/// (link table, reference column, reference table)
const LINKS: &[(&str, &str, &str)] = &[
    ("participant_workplace_settings", "workplace_setting_id", "workplace_settings"),
    ("participant_languages", "language_id", "languages"),
    ("participant_education_levels", "education_level_id", "education_levels"),
    ("participant_permit_levels", "permit_level_id", "permit_levels"),
];

fn a(s: &str) -> Alias {
    Alias::new(s)
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table(Participants::Table)
                .col(pk_auto(Participants::Id))
                .col(string(Participants::FirstName))
                .col(string(Participants::LastName))
                .col(string(Participants::FullName))
                // Lower-cased full name: case-insensitive filter and sort on any backend.
                .col(string(Participants::SortName))
                .col(string(Participants::Email))
                .col(string_null(Participants::Phone))
                .col(text_null(Participants::Address))
                .col(string(Participants::Status))
                .col(string(Participants::RoleCode))
                .col(string_null(Participants::DistrictSetType))
                .col(integer_null(Participants::DistrictId))
                .col(integer_null(Participants::CaucusRegionId))
                .col(integer(Participants::Version).default(1))
                .col(timestamp_with_time_zone_null(Participants::DeletedAt))
                .col(integer_null(Participants::CreatedBy))
                .col(integer_null(Participants::UpdatedBy))
                .col(timestamp_with_time_zone(Participants::CreatedAt))
                .col(timestamp_with_time_zone(Participants::UpdatedAt))
                .foreign_key(
                    ForeignKey::create()
                        .from(Participants::Table, Participants::CaucusRegionId)
                        .to(a("caucus_regions"), a("id")),
                )
                .to_owned(),
        )
        .await?;
        // E-mail is unique among live participants only: a deleted one frees its address.
        m.create_index(
            Index::create()
                .name("ux_participants_live_email")
                .table(Participants::Table)
                .col(Participants::Email)
                .unique()
                .and_where(Expr::col(Participants::DeletedAt).is_null())
                .to_owned(),
        )
        .await?;
        // One index per sort key, each led by deleted_at so that live rows are read in order.
        for (name, col) in [
            ("ix_participants_sort_name", Participants::SortName),
            ("ix_participants_email", Participants::Email),
            ("ix_participants_status", Participants::Status),
            ("ix_participants_role", Participants::RoleCode),
            ("ix_participants_updated", Participants::UpdatedAt),
        ] {
            m.create_index(
                Index::create().name(name).table(Participants::Table).col(Participants::DeletedAt).col(col).col(Participants::Id).to_owned(),
            )
            .await?;
        }
        m.create_index(
            Index::create()
                .name("ix_participants_district")
                .table(Participants::Table)
                .col(Participants::DistrictSetType)
                .col(Participants::DistrictId)
                .to_owned(),
        )
        .await?;

        for (table, column, target) in LINKS {
            m.create_table(
                Table::create()
                    .table(a(table))
                    .col(integer(a("participant_id")))
                    .col(integer(a(column)))
                    .primary_key(Index::create().col(a("participant_id")).col(a(column)))
                    .foreign_key(
                        ForeignKey::create()
                            .from(a(table), a("participant_id"))
                            .to(Participants::Table, Participants::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .foreign_key(ForeignKey::create().from(a(table), a(column)).to(a(target), a("id")))
                    .to_owned(),
            )
            .await?;
            // Filter direction: "participants speaking language 3".
            m.create_index(
                Index::create().name(format!("ix_{table}_reverse")).table(a(table)).col(a(column)).col(a("participant_id")).to_owned(),
            )
            .await?;
        }

        m.create_table(
            Table::create()
                .table(Participations::Table)
                .col(pk_auto(Participations::Id))
                .col(integer(Participations::ParticipantId))
                .col(integer(Participations::MentorProgramId))
                // Fiscal years arrive with the settings area (m20261121_000010_settings);
                // until then a plain positive integer without a foreign key.
                .col(integer(Participations::FiscalYearId))
                .col(string(Participations::RoleCode))
                .col(integer_null(Participations::CollegeId))
                .col(date(Participations::StartDate))
                .col(date_null(Participations::EndDate))
                .col(timestamp_with_time_zone_null(Participations::DeletedAt))
                .col(timestamp_with_time_zone(Participations::CreatedAt))
                .col(timestamp_with_time_zone(Participations::UpdatedAt))
                .foreign_key(
                    ForeignKey::create()
                        .from(Participations::Table, Participations::ParticipantId)
                        .to(Participants::Table, Participants::Id),
                )
                .foreign_key(
                    ForeignKey::create()
                        .from(Participations::Table, Participations::MentorProgramId)
                        .to(a("mentor_programs"), a("id")),
                )
                .foreign_key(ForeignKey::create().from(Participations::Table, Participations::CollegeId).to(a("colleges"), a("id")))
                .to_owned(),
        )
        .await?;
        m.create_index(
            Index::create()
                .name("ix_participations_participant")
                .table(Participations::Table)
                .col(Participations::ParticipantId)
                .to_owned(),
        )
        .await?;
        // Program filter and coordinator scope: "participants with a live participation in program X".
        m.create_index(
            Index::create()
                .name("ix_participations_program")
                .table(Participations::Table)
                .col(Participations::MentorProgramId)
                .col(Participations::DeletedAt)
                .col(Participations::ParticipantId)
                .to_owned(),
        )
        .await
    }
}

#[derive(DeriveIden)]
enum Participants {
    Table,
    Id,
    FirstName,
    LastName,
    FullName,
    SortName,
    Email,
    Phone,
    Address,
    Status,
    RoleCode,
    DistrictSetType,
    DistrictId,
    CaucusRegionId,
    Version,
    DeletedAt,
    CreatedBy,
    UpdatedBy,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum Participations {
    Table,
    Id,
    ParticipantId,
    MentorProgramId,
    FiscalYearId,
    RoleCode,
    CollegeId,
    StartDate,
    EndDate,
    DeletedAt,
    CreatedAt,
    UpdatedAt,
}
