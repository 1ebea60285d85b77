use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "notification_banners")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub message: String,
    /// `Info`, `Warning` or `Error`.
    pub severity: String,
    pub starts_at: Option<super::Timestamp>,
    pub ends_at: Option<super::Timestamp>,
    pub is_active: bool,
    pub position: i32,
    pub updated_at: super::Timestamp,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
