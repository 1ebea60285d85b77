use sea_orm::entity::prelude::*;

use super::codes::Status;

/// Live payment requests of one mentor program in one status: kept by database triggers
/// (migration 000031) on every insert, update and delete of `payment_requests`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "payment_request_totals")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub mentor_program_id: i32,
    #[sea_orm(primary_key, auto_increment = false)]
    pub status: Status,
    pub request_count: i64,
    pub requested_cents: i64,
    pub approved_cents: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
