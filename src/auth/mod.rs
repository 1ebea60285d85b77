//! Who is calling and what they may do: passwords, tokens, permissions, and the
//! `CurrentUser` extractor every protected handler takes.

pub mod password;
pub mod permissions;
pub mod scope;
pub mod throttle;
pub mod tokens;

use std::{collections::BTreeSet, future::Future, pin::Pin};

use actix_web::{dev::Payload, web, FromRequest, HttpMessage, HttpRequest};
use sea_orm::{
    sea_query::{Asterisk, Expr, ExprTrait, Order, Query, SelectStatement},
    ConnectionTrait, FromQueryResult, QueryResult,
};

pub use permissions::Permission;

use crate::{
    entities::{role, role_permission, user, user_role},
    error::ApiError,
    state::AppState,
};

/// A signed-in, active user with the roles (in order) and permissions it holds now.
#[derive(Debug, Clone)]
pub struct CurrentUser {
    pub user: user::Model,
    pub roles: Vec<String>,
    pub permissions: BTreeSet<Permission>,
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
        if self.has(permission) { Ok(()) } else { Err(ApiError::missing_permission(permission.code())) }
    }

    /// SPEC §6: the first role decides administrator status.
    pub fn is_administrator(&self) -> bool {
        self.roles.first().is_some_and(|r| r == permissions::ADMINISTRATOR)
    }

    pub fn permission_codes(&self) -> Vec<String> {
        self.permissions.iter().map(|p| p.code().to_owned()).collect()
    }
}

/// A row per role × permission of the user (one with NULLs without roles), in role
/// order; with the user's own columns too when asked.
fn principal_query(user_id: i32, with_user: bool) -> SelectStatement {
    let mut q = Query::select();
    if with_user {
        q.expr(Expr::col((user::Entity, Asterisk)));
    }
    q.expr_as(Expr::col((role::Entity, role::Column::Name)), ROLE_NAME)
        .expr_as(Expr::col((role_permission::Entity, role_permission::Column::Permission)), PERMISSION)
        .from(user::Entity)
        .left_join(user_role::Entity, Expr::col((user_role::Entity, user_role::Column::UserId)).equals((user::Entity, user::Column::Id)))
        .left_join(role::Entity, Expr::col((role::Entity, role::Column::Id)).equals((user_role::Entity, user_role::Column::RoleId)))
        .left_join(
            role_permission::Entity,
            Expr::col((role_permission::Entity, role_permission::Column::RoleId)).equals((role::Entity, role::Column::Id)),
        )
        .and_where(Expr::col((user::Entity, user::Column::Id)).eq(user_id))
        .order_by((user_role::Entity, user_role::Column::Position), Order::Asc)
        .order_by((role::Entity, role::Column::Id), Order::Asc)
        .to_owned()
}

const ROLE_NAME: &str = "principal_role_name";
const PERMISSION: &str = "principal_permission";

fn principal_from(user: user::Model, rows: &[QueryResult]) -> Result<CurrentUser, ApiError> {
    let mut roles: Vec<String> = Vec::new();
    let mut permissions = BTreeSet::new();
    for row in rows {
        if let Some(name) = row.try_get::<Option<String>>("", ROLE_NAME)? {
            if roles.last() != Some(&name) {
                roles.push(name);
            }
        }
        if let Some(p) = row.try_get::<Option<String>>("", PERMISSION)?.as_deref().and_then(Permission::from_code) {
            permissions.insert(p);
        }
    }
    Ok(CurrentUser { user, roles, permissions })
}

/// Loads a user's roles and permissions as they are in the database now, so that a
/// role change or deactivation takes effect on the very next call.
pub async fn load_principal(db: &impl ConnectionTrait, user: user::Model) -> Result<CurrentUser, ApiError> {
    let rows = db.query_all(&principal_query(user.id, false)).await?;
    principal_from(user, &rows)
}

/// The active user `id` with its roles and permissions, in one query (it runs on every
/// authenticated call); None for an unknown or deactivated user.
async fn active_principal(db: &impl ConnectionTrait, id: i32) -> Result<Option<CurrentUser>, ApiError> {
    let rows = db.query_all(&principal_query(id, true)).await?;
    let Some(first) = rows.first() else { return Ok(None) };
    let user = user::Model::from_query_result(first, "")?;
    if !user.is_active {
        return Ok(None);
    }
    principal_from(user, &rows).map(Some)
}

fn bearer(req: &HttpRequest) -> Option<&str> {
    let value = req.headers().get(actix_web::http::header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
}

impl FromRequest for CurrentUser {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, ApiError>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        // Already authenticated by the route guard (crate::routes): no second query.
        if let Some(me) = req.extensions().get::<CurrentUser>().cloned() {
            return Box::pin(async move { Ok(me) });
        }
        let state = req.app_data::<web::Data<AppState>>().cloned();
        let claims = state.as_ref().and_then(|s| bearer(req).and_then(|t| s.keys.verify_access(t)));
        Box::pin(async move {
            let state = state.ok_or_else(|| ApiError::Internal("state missing".into()))?;
            let unauthorized = || ApiError::Unauthorized("A valid access token is required.".into());
            let claims = claims.ok_or_else(unauthorized)?;
            let id: i32 = claims.sub.parse().map_err(|_| unauthorized())?;
            active_principal(&state.db, id).await?.ok_or_else(unauthorized)
        })
    }
}
