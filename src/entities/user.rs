use sea_orm::entity::prelude::*;

use super::codes::NotificationMode;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "users")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    /// Always stored lower case.
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    pub password_hash: Option<String>,
    pub is_active: bool,
    pub participant_id: Option<i32>,
    pub last_login_at: Option<super::Timestamp>,
    pub created_at: super::Timestamp,
    pub updated_at: super::Timestamp,
    pub notification_mode: NotificationMode,
    /// The local day of the last daily digest, so each day has at most one.
    pub digest_sent_on: Option<Date>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
