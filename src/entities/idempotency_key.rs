use sea_orm::entity::prelude::*;

/// The first answer to a POST sent with an `Idempotency-Key` (src/idempotency/).
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "idempotency_keys")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub user_id: i32,
    #[sea_orm(primary_key, auto_increment = false)]
    pub key: String,
    /// SHA-256 (hex) of the method, path and body of the request that claimed the key.
    pub request_hash: String,
    /// Null while that request is in flight.
    pub response_status: Option<i32>,
    /// JSON `[[name, value], ...]`.
    pub response_headers: Option<String>,
    pub response_body: Option<Vec<u8>>,
    pub created_at: super::Timestamp,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
