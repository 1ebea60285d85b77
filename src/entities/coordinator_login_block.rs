use sea_orm::entity::prelude::*;

/// The one row saying whether Coordinators may sign in.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "coordinator_login_block")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub is_blocked: bool,
    pub message: Option<String>,
    pub updated_at: super::Timestamp,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
