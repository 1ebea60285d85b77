use sea_orm::entity::prelude::*;

/// One entry of the audit trail: append-only (the database refuses UPDATE and DELETE), and
/// chained: `hash` covers the previous entry's hash and this entry (`crate::audit::chain`).
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "audit_log")]
pub struct Model {
    /// The previous entry's id plus one, given by the writer: the trail has no gaps.
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: i32,
    pub at: super::Timestamp,
    pub actor_id: Option<i32>,
    /// The actor as it was then (a later rename does not rewrite history).
    pub actor_email: Option<String>,
    pub actor_name: Option<String>,
    pub ip: Option<String>,
    pub entity_type: String,
    pub entity_id: Option<i32>,
    pub action: String,
    /// Canonical JSON of the changed fields before and after.
    pub before: Option<String>,
    pub after: Option<String>,
    pub hash: String,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
