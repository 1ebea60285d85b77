//! The signed-in caller as handlers see it (apart from the extractor in `auth`, so the
//! callers' cache can hold it without depending on the application state).

use std::collections::BTreeSet;

use super::permissions::{self, Permission};
use crate::{entities::user, error::ApiError};

/// A signed-in, active user with the roles (in order) and permissions it holds now.
#[derive(Debug, Clone)]
pub struct CurrentUser {
    pub user: user::Model,
    pub roles: Vec<String>,
    pub permissions: BTreeSet<Permission>,
    /// The address this call came from (what the audit trail records).
    pub ip: Option<String>,
    /// Some time away names her as stand-in within a day of today (UTC), as the per-call
    /// check read it with the user's row; `true` where nobody looked, so the stand-ins are
    /// then read from the database (`scope::standing_in`).
    pub may_stand_in: bool,
}

impl CurrentUser {
    pub fn id(&self) -> i32 {
        self.user.id
    }

    pub fn has(&self, permission: Permission) -> bool {
        self.permissions.contains(&permission)
    }

    /// 403 unless the user holds `permission`.
    pub fn require(&self, permission: Permission) -> Result<(), ApiError> {
        if self.has(permission) {
            Ok(())
        } else {
            Err(ApiError::missing_permission(permission.code()))
        }
    }

    /// The first role decides administrator status (and is the one the user menu shows).
    pub fn is_administrator(&self) -> bool {
        self.roles.first().is_some_and(|r| r == permissions::ADMINISTRATOR)
    }

    pub fn permission_codes(&self) -> Vec<String> {
        self.permissions.iter().map(|p| p.code().to_owned()).collect()
    }
}
