use sea_orm::entity::prelude::*;

/// The approval rule of one form type (F1..F14): its steps as a JSON list.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "approval_rules")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub form_type: String,
    pub steps: String,
    pub updated_at: Option<super::Timestamp>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
