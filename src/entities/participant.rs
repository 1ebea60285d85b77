use sea_orm::entity::prelude::*;

use super::codes::{DistrictSetType, ParticipantRole, ParticipantStatus};

/// A participant of the mentor programs. Deletion is soft (`deleted_at`).
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "participants")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub first_name: String,
    pub last_name: String,
    /// "First Last", derived on every write.
    pub full_name: String,
    /// Lower-cased full name, for case-insensitive filtering and sorting.
    pub sort_name: String,
    /// Always stored lower case; unique among live participants.
    pub email: String,
    pub phone: Option<String>,
    pub address: Option<String>,
    pub status: ParticipantStatus,
    pub role_code: ParticipantRole,
    pub district_set_type: Option<DistrictSetType>,
    pub district_id: Option<i32>,
    pub caucus_region_id: Option<i32>,
    /// Programs of the live participations, `,1,3,` (empty without any): kept by
    /// `participants::store::refresh_program_keys` so list filters count from an index.
    pub program_keys: String,
    /// Optimistic concurrency: PUT carries the version it was based on.
    pub version: i32,
    pub deleted_at: Option<super::Timestamp>,
    pub created_by: Option<i32>,
    pub updated_by: Option<i32>,
    pub created_at: super::Timestamp,
    pub updated_at: super::Timestamp,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
