use sea_orm::entity::prelude::*;

/// The budgeted amount of one mentor program × fund × expense account in a fiscal year.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "budget_lines")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub fiscal_year_id: i32,
    pub mentor_program_id: i32,
    pub fund_id: i32,
    pub expense_account_id: i32,
    pub amount_cents: i64,
    pub version: i32,
    pub created_at: super::Timestamp,
    pub updated_at: super::Timestamp,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
