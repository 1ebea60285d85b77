use sea_orm::entity::prelude::*;

/// A user's authenticator-app secret (TOTP). Unconfirmed until its first code; the secret
/// never leaves the server after enrolment and is never written to a log or the trail.
#[derive(Clone, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "user_totp")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub user_id: i32,
    /// Base32.
    pub secret: String,
    pub confirmed_at: Option<super::Timestamp>,
    /// The last time step a code was accepted for (a code is accepted once).
    pub last_step: Option<i64>,
    pub created_at: super::Timestamp,
}

// By hand: the derived one would print the secret.
impl std::fmt::Debug for Model {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UserTotp")
            .field("user_id", &self.user_id)
            .field("confirmed_at", &self.confirmed_at)
            .field("last_step", &self.last_step)
            .finish_non_exhaustive()
    }
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
