use sea_orm::entity::prelude::*;

/// A receipt announced for upload; `uploaded_at` is set by the one PUT that stores it.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "uploaded_files")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub file_name: String,
    pub content_type: String,
    pub size: i64,
    pub created_by: i32,
    pub created_at: super::Timestamp,
    pub expires_at: super::Timestamp,
    pub uploaded_at: Option<super::Timestamp>,
    pub payment_request_id: Option<i32>,
    pub deleted_at: Option<super::Timestamp>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
