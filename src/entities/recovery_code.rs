use sea_orm::entity::prelude::*;

/// One single-use recovery code of a user, kept as SHA-256 of its salt and the code.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "recovery_codes")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub user_id: i32,
    pub salt: String,
    pub code_hash: String,
    pub used_at: Option<super::Timestamp>,
    pub created_at: super::Timestamp,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
