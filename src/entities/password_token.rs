use sea_orm::entity::prelude::*;

/// A one-time set-password token (reset or invitation).
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "password_tokens")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub user_id: i32,
    /// SHA-256 of the token; the token itself is never stored.
    pub token_hash: String,
    /// `reset` or `invite`.
    pub purpose: String,
    pub expires_at: super::Timestamp,
    pub used_at: Option<super::Timestamp>,
    pub created_at: super::Timestamp,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
