//! Reference lists (DESIGN §5): every list is a table of the same shape
//! `(id, name, code?, is_active, sort_order, created_at)` so that one generic
//! implementation (src/reference/) serves them all. Approval codes add the payment
//! request type they belong to; mentor programs link to their colleges.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

/// Tables of the common shape, in creation order.
pub const REFERENCE_TABLES: &[&str] = &[
    "mentor_programs",
    "funds",
    "expense_accounts",
    "colleges",
    "caucus_regions",
    "education_levels",
    "languages",
    "permit_levels",
    "workplace_settings",
    "institutions",
    "job_categories",
    "travel_purposes",
    "transit_types",
    "training_types",
    "approval_codes",
];

fn reference_table(name: &str) -> TableCreateStatement {
    let mut t = Table::create();
    t.table(Alias::new(name))
        .col(pk_auto(Ref::Id))
        .col(string(Ref::Name))
        .col(string_null(Ref::Code))
        .col(boolean(Ref::IsActive).default(true))
        // Lists with a natural order (permit ladder, education levels) keep it; others sort by name.
        .col(integer(Ref::SortOrder).default(0))
        .col(timestamp_with_time_zone(Ref::CreatedAt));
    if name == "approval_codes" {
        t.col(string(Ref::PaymentRequestType));
    }
    t.to_owned()
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        for name in REFERENCE_TABLES {
            m.create_table(reference_table(name)).await?;
            // Codes are unique where a list has them (several NULLs are allowed).
            m.create_index(
                Index::create().name(format!("ux_{name}_code")).table(Alias::new(*name)).col(Ref::Code).unique().to_owned(),
            )
            .await?;
        }
        m.create_table(
            Table::create()
                .table(MentorProgramColleges::Table)
                .col(integer(MentorProgramColleges::MentorProgramId))
                .col(integer(MentorProgramColleges::CollegeId))
                .primary_key(Index::create().col(MentorProgramColleges::MentorProgramId).col(MentorProgramColleges::CollegeId))
                .foreign_key(
                    ForeignKey::create()
                        .from(MentorProgramColleges::Table, MentorProgramColleges::MentorProgramId)
                        .to(Alias::new("mentor_programs"), Ref::Id)
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .foreign_key(
                    ForeignKey::create()
                        .from(MentorProgramColleges::Table, MentorProgramColleges::CollegeId)
                        .to(Alias::new("colleges"), Ref::Id),
                )
                .to_owned(),
        )
        .await?;
        m.create_index(
            Index::create()
                .name("ix_approval_codes_type")
                .table(Alias::new("approval_codes"))
                .col(Ref::PaymentRequestType)
                .to_owned(),
        )
        .await
    }
}

#[derive(DeriveIden)]
enum Ref {
    Id,
    Name,
    Code,
    IsActive,
    SortOrder,
    CreatedAt,
    PaymentRequestType,
}

#[derive(DeriveIden)]
enum MentorProgramColleges {
    Table,
    MentorProgramId,
    CollegeId,
}
