use sea_orm::entity::prelude::*;

use super::codes::ParticipantRole;

/// A participant's part in a mentor program for one fiscal year. Deletion is soft.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "participations")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub participant_id: i32,
    pub mentor_program_id: i32,
    /// Refers to `fiscal_years` (settings area); no foreign key until that table exists.
    pub fiscal_year_id: i32,
    pub role_code: ParticipantRole,
    pub college_id: Option<i32>,
    pub start_date: Date,
    pub end_date: Option<Date>,
    pub deleted_at: Option<super::Timestamp>,
    pub created_at: super::Timestamp,
    pub updated_at: super::Timestamp,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
