use sea_orm::entity::prelude::*;

use super::codes::FormType;

/// An approval code, valid for one payment request type (`F1`..`F14`).
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "approval_codes")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub name: String,
    pub code: Option<String>,
    pub is_active: bool,
    pub sort_order: i32,
    pub created_at: super::Timestamp,
    pub payment_request_type: FormType,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
