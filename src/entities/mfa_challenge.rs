use sea_orm::entity::prelude::*;

/// The step between a correct password and the second factor (the `mfaToken`): short-lived,
/// single use, ended by too many wrong codes.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "mfa_challenges")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    /// SHA-256 of the token; the token itself is never stored.
    pub token_hash: String,
    pub user_id: i32,
    /// `verify` or `enroll`.
    pub purpose: String,
    pub failures: i32,
    pub expires_at: super::Timestamp,
    pub used_at: Option<super::Timestamp>,
    pub created_at: super::Timestamp,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
