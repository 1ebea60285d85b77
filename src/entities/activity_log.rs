use sea_orm::entity::prelude::*;

/// Who changed what, when: one row per state change of any entity.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "activity_log")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub entity_type: String,
    pub entity_id: i32,
    pub action: String,
    pub actor_user_id: Option<i32>,
    pub from_status: Option<String>,
    pub to_status: Option<String>,
    pub comment: Option<String>,
    /// JSON with the change's details (amounts, changed fields).
    pub data: Option<String>,
    pub created_at: super::Timestamp,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
