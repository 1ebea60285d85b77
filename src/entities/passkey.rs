use sea_orm::entity::prelude::*;

/// One passkey (WebAuthn credential) of a user. `credential` is the relying party's record
/// (public key, counter) as JSON; it is never written to a log or the trail.
#[derive(Clone, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "passkeys")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub user_id: i32,
    /// base64url, unique.
    pub credential_id: String,
    pub name: String,
    pub credential: String,
    pub created_at: super::Timestamp,
    pub last_used_at: Option<super::Timestamp>,
}

// By hand: the derived one would print the credential.
impl std::fmt::Debug for Model {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Passkey")
            .field("id", &self.id)
            .field("user_id", &self.user_id)
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
