//! Wire types of single sign-on.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum PasswordSignIn {
    /// Every account may sign in with a MentorPay password.
    #[default]
    Everyone,
    /// Only the accounts in `passwordAccounts` (the break-glass Administrators).
    Listed,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GroupRoles {
    /// The directory group's name (OpenID Connect) or distinguished name (LDAP).
    #[schema(value_type = crate::web::NonBlank)]
    pub group: String,
    /// Role names, as on the Roles screen.
    #[schema(min_items = 1, value_type = Vec<crate::web::NonBlank>)]
    pub roles: Vec<String>,
}

/// How directory sign-ins become MentorPay sign-ins.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SsoSettings {
    /// Create an account at the first directory sign-in of an unknown e-mail.
    pub create_accounts: bool,
    /// The roles of an account created while `groupRoles` is empty.
    #[schema(value_type = Vec<crate::web::NonBlank>)]
    pub default_roles: Vec<String>,
    /// When not empty: the roles of each directory sign-in, from the person's groups, in
    /// this order; a person in no listed group is refused.
    pub group_roles: Vec<GroupRoles>,
    pub password_sign_in: PasswordSignIn,
    /// The accounts that keep password sign-in when `passwordSignIn` is `listed`.
    #[schema(value_type = Vec<crate::web::Email>)]
    pub password_accounts: Vec<String>,
}

/// What the login page needs to know (anonymous).
#[derive(Debug, Serialize, ToSchema)]
pub struct SsoStatus {
    pub enabled: bool,
    pub label: String,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ExchangeRequest {
    /// The one-time code of `#sso=` (60 seconds, once).
    pub code: String,
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
pub struct LoginQuery {
    /// The page of this site to open after the sign-in.
    pub next: Option<String>,
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
pub struct CallbackQuery {
    pub code: Option<String>,
    pub state: Option<String>,
    pub error: Option<String>,
}
