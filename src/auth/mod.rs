//! Who is calling and what they may do: passwords, tokens, permissions, and the
//! `CurrentUser` extractor every protected handler takes.

pub mod callers;
pub mod grants;
pub mod password;
pub mod permissions;
mod principal;
pub mod scope;
pub mod stand_in;
pub mod throttle;
pub mod tokens;

use std::{collections::BTreeSet, future::Future, pin::Pin, sync::Arc};

use actix_web::{dev::Payload, web, FromRequest, HttpMessage, HttpRequest};
use sea_orm::{
    sea_query::{Alias, Asterisk, Expr, ExprTrait, Order, Query, SelectStatement},
    ConnectionTrait, FromQueryResult, QueryResult,
};

pub use permissions::Permission;
pub use principal::CurrentUser;

use crate::{
    entities::{
        coordinator_login_block, out_of_office, refresh_token, role, role_permission, user,
        user_role,
    },
    error::ApiError,
    state::AppState,
};

/// A row per role × permission of the user (one with NULLs without roles), in role order.
fn grants_query(user_id: i32) -> SelectStatement {
    Query::select()
        .expr_as(Expr::col((role::Entity, role::Column::Name)), ROLE_NAME)
        .expr_as(
            Expr::col((role_permission::Entity, role_permission::Column::Permission)),
            PERMISSION,
        )
        .from(user::Entity)
        .left_join(
            user_role::Entity,
            Expr::col((user_role::Entity, user_role::Column::UserId))
                .equals((user::Entity, user::Column::Id)),
        )
        .left_join(
            role::Entity,
            Expr::col((role::Entity, role::Column::Id))
                .equals((user_role::Entity, user_role::Column::RoleId)),
        )
        .left_join(
            role_permission::Entity,
            Expr::col((role_permission::Entity, role_permission::Column::RoleId))
                .equals((role::Entity, role::Column::Id)),
        )
        .and_where(Expr::col((user::Entity, user::Column::Id)).eq(user_id))
        .order_by((user_role::Entity, user_role::Column::Position), Order::Asc)
        .order_by((role::Entity, role::Column::Id), Order::Asc)
        .to_owned()
}

const ROLE_NAME: &str = "principal_role_name";
const PERMISSION: &str = "principal_permission";

fn grants_from(rows: &[QueryResult]) -> Result<grants::Grants, ApiError> {
    let mut roles: Vec<String> = Vec::new();
    let mut permissions = BTreeSet::new();
    for row in rows {
        if let Some(name) = row.try_get::<Option<String>>("", ROLE_NAME)? {
            if roles.last() != Some(&name) {
                roles.push(name);
            }
        }
        if let Some(p) = row
            .try_get::<Option<String>>("", PERMISSION)?
            .as_deref()
            .and_then(Permission::from_code)
        {
            permissions.insert(p);
        }
    }
    Ok(grants::Grants { roles, permissions })
}

async fn load_grants(db: &impl ConnectionTrait, user_id: i32) -> Result<grants::Grants, ApiError> {
    grants_from(&db.query_all(&grants_query(user_id)).await?)
}

/// Loads a user's roles and permissions as they are in the database now (sign-in, refresh).
pub async fn load_principal(
    db: &impl ConnectionTrait,
    user: user::Model,
) -> Result<CurrentUser, ApiError> {
    let grants = load_grants(db, user.id).await?;
    Ok(CurrentUser {
        user,
        roles: grants.roles,
        permissions: grants.permissions,
        ip: None,
        may_stand_in: true,
    })
}

/// While coordinator sign-in is blocked, users holding Coordinator and not Administrator
/// can neither sign in, refresh, nor use a token they already hold.
pub fn is_shut_out(is_blocked: bool, roles: &[String]) -> bool {
    is_blocked
        && roles.iter().any(|r| r == permissions::COORDINATOR)
        && !roles.iter().any(|r| r == permissions::ADMINISTRATOR)
}

const SESSION_LIVE: &str = "caller_session_live";
const AUTH_VERSION: &str = "caller_auth_version";
const BLOCKED: &str = "caller_sign_in_blocked";
const BLOCK_MESSAGE: &str = "caller_sign_in_block_message";
const MAY_STAND_IN: &str = "caller_may_stand_in";

/// The one query of every authenticated call: the user's row, whether its session (the
/// refresh-token family named in the token) is still live, the auth version its cached
/// grants must match (migration 000080), the coordinator sign-in block, and whether any time
/// away near `today` names her as stand-in (most callers stand in for nobody, and the lists
/// of what waits for them then ask nothing more).
fn caller_query(user_id: i32, session: &str, today: chrono::NaiveDate) -> SelectStatement {
    let live = Query::select()
        .expr(Expr::val(1))
        .from(refresh_token::Entity)
        .and_where(Expr::col((refresh_token::Entity, refresh_token::Column::FamilyId)).eq(session))
        .and_where(
            Expr::col((refresh_token::Entity, refresh_token::Column::UserId))
                .equals((user::Entity, user::Column::Id)),
        )
        .and_where(Expr::col((refresh_token::Entity, refresh_token::Column::RevokedAt)).is_null())
        .to_owned();
    let time_away = Query::select()
        .expr(Expr::val(1))
        .from(out_of_office::Entity)
        .and_where(
            Expr::col((out_of_office::Entity, out_of_office::Column::StandInUserId))
                .equals((user::Entity, user::Column::Id)),
        )
        .cond_where(scope::near_time_away(today))
        .to_owned();
    let version = Alias::new("auth_version");
    Query::select()
        .expr(Expr::col((user::Entity, Asterisk)))
        .expr_as(Expr::exists(live), SESSION_LIVE)
        .expr_as(Expr::exists(time_away), MAY_STAND_IN)
        .expr_as(Expr::col((version.clone(), Alias::new("version"))), AUTH_VERSION)
        .expr_as(
            Expr::col((
                coordinator_login_block::Entity,
                coordinator_login_block::Column::IsBlocked,
            )),
            BLOCKED,
        )
        .expr_as(
            Expr::col((coordinator_login_block::Entity, coordinator_login_block::Column::Message)),
            BLOCK_MESSAGE,
        )
        .from(user::Entity)
        .left_join(version.clone(), Expr::col((version, Alias::new("id"))).eq(1))
        // The block is a single row (settings::store::SINGLE_ROW_ID).
        .left_join(
            coordinator_login_block::Entity,
            Expr::col((coordinator_login_block::Entity, coordinator_login_block::Column::Id)).eq(1),
        )
        .and_where(Expr::col((user::Entity, user::Column::Id)).eq(user_id))
        .to_owned()
}

/// Why a token is refused on this call.
#[derive(Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Unknown or deactivated user.
    NoUser,
    /// Signed out, family revoked (reuse, password set, deactivation) or expired away.
    SessionEnded,
    /// Coordinator sign-in is blocked; the configured message.
    Blocked(Option<String>),
}

impl From<Refusal> for ApiError {
    fn from(r: Refusal) -> Self {
        ApiError::Unauthorized(match r {
            Refusal::NoUser => "A valid access token is required.".into(),
            Refusal::SessionEnded => "The session has ended. Please sign in again.".into(),
            Refusal::Blocked(message) => {
                message.unwrap_or_else(|| "Coordinator sign-in is currently blocked.".into())
            }
        })
    }
}

/// The active user `id` of live `session` with its roles and permissions: one small query,
/// plus a second only when the auth version moved since this user's grants were loaded.
pub async fn caller(
    db: &impl ConnectionTrait,
    cache: &grants::GrantsCache,
    id: i32,
    session: &str,
    today: chrono::NaiveDate,
) -> Result<Result<CurrentUser, Refusal>, ApiError> {
    let Some(row) = db.query_one(&caller_query(id, session, today)).await? else {
        return Ok(Err(Refusal::NoUser));
    };
    let user = user::Model::from_query_result(&row, "")?;
    if !user.is_active {
        return Ok(Err(Refusal::NoUser));
    }
    let version: i64 = row.try_get::<Option<i64>>("", AUTH_VERSION)?.unwrap_or(0);
    let grants = match cache.get(id, version) {
        Some(g) => g,
        None => {
            let g = Arc::new(load_grants(db, id).await?);
            cache.put(id, version, g.clone());
            g
        }
    };
    if is_shut_out(row.try_get::<Option<bool>>("", BLOCKED)?.unwrap_or(false), &grants.roles) {
        return Ok(Err(Refusal::Blocked(row.try_get::<Option<String>>("", BLOCK_MESSAGE)?)));
    }
    // After the block: its message says why, even of a session the block itself ended.
    if !row.try_get::<bool>("", SESSION_LIVE)? {
        return Ok(Err(Refusal::SessionEnded));
    }
    Ok(Ok(CurrentUser {
        user,
        roles: grants.roles.clone(),
        permissions: grants.permissions.clone(),
        ip: None,
        may_stand_in: row.try_get::<bool>("", MAY_STAND_IN)?,
    }))
}

/// The caller's address: the peer, or behind a trusted proxy the address it forwards.
pub fn client_address(req: &HttpRequest, config: &crate::config::Config) -> String {
    let forwarded = config.trust_proxy.then(|| {
        let values = req.headers().get_all(&config.client_address_header);
        forwarded_client(values.filter_map(|v| v.to_str().ok()))
    });
    match forwarded.flatten() {
        Some(ip) => ip.to_string(),
        None => req.peer_addr().map_or("unknown".to_owned(), |a| a.ip().to_string()),
    }
}

/// The client a proxy forwarded: the last entry of its header's values (a proxy appends the
/// address it saw to what the client sent, so only the last one is its word; `Forwarded` and
/// earlier entries are the client's own and prove nothing). None when it is not an address.
pub fn forwarded_client<'a>(values: impl Iterator<Item = &'a str>) -> Option<std::net::IpAddr> {
    let last = values.flat_map(|v| v.split(',')).last()?.trim();
    last.parse().ok()
}

/// The sign-in (refresh-token family) the call's access token belongs to.
pub fn session_of(req: &HttpRequest, keys: &tokens::TokenKeys) -> Option<String> {
    bearer(req).and_then(|t| keys.verify_access(t)).and_then(|c| c.sid)
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
        let ip = state.as_ref().map(|s| client_address(req, &s.config));
        let claims = state.as_ref().and_then(|s| bearer(req).and_then(|t| s.keys.verify_access(t)));
        Box::pin(async move {
            let state = state.ok_or_else(|| ApiError::Internal("state missing".into()))?;
            let unauthorized =
                || ApiError::Unauthorized("A valid access token is required.".into());
            let claims = claims.ok_or_else(unauthorized)?;
            let id: i32 = claims.sub.parse().map_err(|_| unauthorized())?;
            let session = claims.sid.ok_or_else(unauthorized)?;
            // One day for the whole check: what it read of time away holds for that day.
            let today = crate::clock::today();
            if let Some(me) = state.callers.get(id, &session, today) {
                return Ok(CurrentUser { ip, ..CurrentUser::clone(&me) });
            }
            let ticket = state.callers.ticket(today);
            let me = caller(&state.db, &state.grants, id, &session, today).await??;
            state.callers.put(ticket, &session, &me);
            Ok(CurrentUser { ip, ..me })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::forwarded_client;

    #[test]
    fn only_the_proxys_own_entry_is_believed() {
        // (header values as received) -> the client address taken
        let cases: [(&[&str], Option<&str>); 7] = [
            (&["203.0.113.7"], Some("203.0.113.7")),
            (&["6.6.6.6, 203.0.113.7"], Some("203.0.113.7")),
            (&["6.6.6.6", "203.0.113.7"], Some("203.0.113.7")),
            (&["6.6.6.6,2001:db8::1"], Some("2001:db8::1")),
            (&["203.0.113.7, not-an-address"], None),
            (&[""], None),
            (&[], None),
        ];
        for (values, taken) in cases {
            let got = forwarded_client(values.iter().copied()).map(|ip| ip.to_string());
            assert_eq!(got.as_deref(), taken, "{values:?}");
        }
    }
}
