use sea_orm::entity::prelude::*;

/// One refresh token of a sign-in. Tokens of one sign-in share `family_id`; each is
/// single-use, and presenting a spent one revokes the whole family.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "refresh_tokens")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub user_id: i32,
    pub family_id: String,
    /// SHA-256 of the token; the token itself is never stored.
    pub token_hash: String,
    pub expires_at: super::Timestamp,
    pub used_at: Option<super::Timestamp>,
    pub revoked_at: Option<super::Timestamp>,
    pub created_at: super::Timestamp,
    /// Where the call that issued it came from, and its browser (the sessions list).
    pub ip: Option<String>,
    pub user_agent: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
