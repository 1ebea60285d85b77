use sea_orm::entity::prelude::*;

/// An expense account charged by approvals (unique code). Same shape as every reference table (src/reference/).
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "expense_accounts")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub name: String,
    pub code: Option<String>,
    pub is_active: bool,
    pub sort_order: i32,
    pub created_at: super::Timestamp,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
