use sea_orm::entity::prelude::*;

use super::codes::OutboxStatus;

/// One e-mail to send (notifications::outbox).
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "outbox_mails")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub recipient: String,
    pub subject: String,
    /// What happened, as JSON (`notifications::Event`): rendered when sent.
    pub event: String,
    pub status: OutboxStatus,
    pub attempts: i32,
    pub next_attempt_at: super::Timestamp,
    /// While `Sending`: when the claim lapses and another worker may take the mail again.
    pub claimed_until: Option<super::Timestamp>,
    /// While `Sending`: which claim holds the mail; only its holder records how it ended.
    pub claim_token: Option<String>,
    pub last_error: Option<String>,
    /// `smtp` or `log`.
    pub delivered_by: Option<String>,
    pub created_at: super::Timestamp,
    pub sent_at: Option<super::Timestamp>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
