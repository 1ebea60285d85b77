use sea_orm::entity::prelude::*;

/// A passkey ceremony between its start and its finish: a registration (one open per user)
/// or the second step of a sign-in (one open per mfa challenge). Short-lived, single use;
/// `state` holds the challenge and is never answered, logged or put in the trail.
#[derive(Clone, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "passkey_ceremonies")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub user_id: i32,
    /// `register` or `sign-in`.
    pub kind: String,
    pub challenge_id: Option<i32>,
    pub state: String,
    pub expires_at: super::Timestamp,
    pub created_at: super::Timestamp,
}

// By hand: the derived one would print the state.
impl std::fmt::Debug for Model {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PasskeyCeremony")
            .field("id", &self.id)
            .field("user_id", &self.user_id)
            .field("kind", &self.kind)
            .finish_non_exhaustive()
    }
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
