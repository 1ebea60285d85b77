use sea_orm::entity::prelude::*;

/// A single sign-on ticket: a sign-in under way at the provider (`state`) or the one-time
/// code handing a finished one to the single-page app (`handoff`). Single use, short-lived.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "sso_tickets")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub kind: String,
    /// SHA-256 of the ticket; the ticket itself is never stored.
    pub ticket_hash: String,
    pub nonce: Option<String>,
    pub pkce_verifier: Option<String>,
    pub next_path: Option<String>,
    pub user_id: Option<i32>,
    pub expires_at: super::Timestamp,
    pub created_at: super::Timestamp,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
