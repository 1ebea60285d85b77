use sea_orm::entity::prelude::*;

/// A fiscal year: inclusive date range; years never overlap.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "fiscal_years")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    #[sea_orm(unique)]
    pub name: String,
    pub start_date: Date,
    pub end_date: Date,
    pub created_at: super::Timestamp,
    /// Set while the year is closed: nothing more may be charged to it.
    pub closed_at: Option<super::Timestamp>,
    /// The user who closed it.
    pub closed_by: Option<i32>,
    pub close_reason: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
