use sea_orm::entity::prelude::*;

/// One generated vendor payment report: a history entry. Never changed after
/// the transaction that created it.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "vendor_payment_reports")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub fiscal_year_id: i32,
    pub start_date: Date,
    pub end_date: Date,
    pub minutes_offset: i32,
    pub row_count: i32,
    pub total_cents: i64,
    pub created_at: super::Timestamp,
    pub created_by: i32,
    /// Who generated it, as named at the time.
    pub created_by_name: String,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
