//! Identity queries. Callers pass a connection or a transaction.

use std::collections::HashMap;

use chrono::{DateTime, Duration, Utc};
use sea_orm::{
    prelude::Expr,
    sea_query::{ExprTrait, Func, Query},
    ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, IntoActiveModel, PaginatorTrait,
    QueryFilter, QueryOrder, QuerySelect, Set,
};

use super::dto::{RoleDto, UserDto};
use crate::{
    auth::{
        permissions::ADMINISTRATOR,
        tokens::{hash_token, random_token},
        Permission,
    },
    entities::{
        mentor_program, password_token, refresh_token, role, role_permission, user, user_program,
        user_role,
    },
    error::{ApiError, ApiResult},
    web::{Page, Paging},
};

pub async fn find_user_by_email(
    db: &impl ConnectionTrait,
    email: &str,
) -> ApiResult<Option<user::Model>> {
    Ok(user::Entity::find().filter(user::Column::Email.eq(email)).one(db).await?)
}

/// Whether some account (active or not) is the login of participant `id`.
pub async fn participant_has_login(db: &impl ConnectionTrait, id: i32) -> ApiResult<bool> {
    Ok(user::Entity::find().filter(user::Column::ParticipantId.eq(id)).count(db).await? > 0)
}

pub async fn get_user(db: &impl ConnectionTrait, id: i32) -> ApiResult<user::Model> {
    user::Entity::find_by_id(id).one(db).await?.ok_or_else(|| ApiError::not_found("The user"))
}

/// Role rows for names (case-insensitive), in the given order; 400 naming unknown ones.
pub async fn roles_by_names(
    db: &impl ConnectionTrait,
    names: &[String],
) -> ApiResult<Vec<role::Model>> {
    let all = role::Entity::find().all(db).await?;
    let mut found = Vec::with_capacity(names.len());
    let mut unknown = Vec::new();
    for name in names {
        match all.iter().find(|r| r.name.eq_ignore_ascii_case(name)) {
            Some(r) => found.push(r.clone()),
            None => unknown.push(name.clone()),
        }
    }
    if !unknown.is_empty() {
        // Which roles exist is stored data: a rule (422), not the body's shape.
        return Err(ApiError::rule("roles", format!("unknown role(s): {}", unknown.join(", "))));
    }
    Ok(found)
}

pub async fn set_user_roles(
    db: &impl ConnectionTrait,
    user_id: i32,
    roles: &[role::Model],
) -> ApiResult<()> {
    user_role::Entity::delete_many().filter(user_role::Column::UserId.eq(user_id)).exec(db).await?;
    for (position, r) in roles.iter().enumerate() {
        user_role::ActiveModel {
            user_id: Set(user_id),
            role_id: Set(r.id),
            position: Set(position as i32),
        }
        .insert(db)
        .await?;
    }
    Ok(())
}

/// The programs named on each of `users`, in id order.
async fn programs_of(
    db: &impl ConnectionTrait,
    users: &[i32],
) -> ApiResult<HashMap<i32, Vec<i32>>> {
    let mut out: HashMap<i32, Vec<i32>> = HashMap::new();
    for row in user_program::Entity::find()
        .filter(user_program::Column::UserId.is_in(users.to_vec()))
        .order_by_asc(user_program::Column::MentorProgramId)
        .all(db)
        .await?
    {
        out.entry(row.user_id).or_default().push(row.mentor_program_id);
    }
    Ok(out)
}

/// Replaces the programs named on user `user_id`.
pub async fn set_user_programs(
    db: &impl ConnectionTrait,
    user_id: i32,
    programs: &[i32],
) -> ApiResult<()> {
    user_program::Entity::delete_many()
        .filter(user_program::Column::UserId.eq(user_id))
        .exec(db)
        .await?;
    if !programs.is_empty() {
        user_program::Entity::insert_many(programs.iter().map(|p| user_program::ActiveModel {
            user_id: Set(user_id),
            mentor_program_id: Set(*p),
        }))
        .exec(db)
        .await?;
    }
    Ok(())
}

/// Which of `ids` name a mentor program.
pub async fn existing_programs(
    db: &impl ConnectionTrait,
    ids: &[i32],
) -> ApiResult<std::collections::BTreeSet<i32>> {
    Ok(mentor_program::Entity::find()
        .filter(mentor_program::Column::Id.is_in(ids.to_vec()))
        .all(db)
        .await?
        .into_iter()
        .map(|p| p.id)
        .collect())
}

/// Role names of each user, in the user's order.
async fn role_names_of(
    db: &impl ConnectionTrait,
    user_ids: &[i32],
) -> ApiResult<HashMap<i32, Vec<String>>> {
    let links = user_role::Entity::find()
        .filter(user_role::Column::UserId.is_in(user_ids.to_vec()))
        .order_by_asc(user_role::Column::UserId)
        .order_by_asc(user_role::Column::Position)
        .all(db)
        .await?;
    let names: HashMap<i32, String> =
        role::Entity::find().all(db).await?.into_iter().map(|r| (r.id, r.name)).collect();
    let mut out: HashMap<i32, Vec<String>> = HashMap::new();
    for link in links {
        if let Some(name) = names.get(&link.role_id) {
            out.entry(link.user_id).or_default().push(name.clone());
        }
    }
    Ok(out)
}

fn to_dto(u: user::Model, roles: Vec<String>, mentor_program_ids: Vec<i32>) -> UserDto {
    UserDto {
        id: u.id,
        email: u.email,
        first_name: u.first_name,
        last_name: u.last_name,
        roles,
        is_active: u.is_active,
        participant_id: u.participant_id,
        mentor_program_ids,
        has_password: u.password_hash.is_some(),
        last_login_at: u.last_login_at,
        created_at: u.created_at,
        locked: false,
    }
}

pub async fn user_dto(db: &impl ConnectionTrait, u: user::Model) -> ApiResult<UserDto> {
    let roles = role_names_of(db, &[u.id]).await?.remove(&u.id).unwrap_or_default();
    let programs = programs_of(db, &[u.id]).await?.remove(&u.id).unwrap_or_default();
    Ok(to_dto(u, roles, programs))
}

pub async fn list_users(
    db: &impl ConnectionTrait,
    roles: &[String],
    email: Option<&str>,
    paging: Paging,
) -> ApiResult<Page<UserDto>> {
    let mut select = user::Entity::find();
    if !roles.is_empty() {
        let lowered: Vec<String> = roles.iter().map(|r| r.to_lowercase()).collect();
        select = select.filter(
            user::Column::Id.in_subquery(
                Query::select()
                    .column(user_role::Column::UserId)
                    .from(user_role::Entity)
                    .and_where(
                        user_role::Column::RoleId.in_subquery(
                            Query::select()
                                .column(role::Column::Id)
                                .from(role::Entity)
                                .and_where(
                                    Expr::expr(Func::lower(Expr::col(role::Column::Name)))
                                        .is_in(lowered),
                                )
                                .to_owned(),
                        ),
                    )
                    .to_owned(),
            ),
        );
    }
    if let Some(part) = email.map(str::trim).filter(|p| !p.is_empty()) {
        select = select.filter(user::Column::Email.contains(part.to_lowercase()));
    }
    let total = select.clone().count(db).await?;
    let rows = select
        .order_by_asc(user::Column::Email)
        .offset(paging.offset())
        .limit(paging.size)
        .all(db)
        .await?;
    let ids: Vec<i32> = rows.iter().map(|u| u.id).collect();
    let mut names = role_names_of(db, &ids).await?;
    let mut programs = programs_of(db, &ids).await?;
    let items = rows.into_iter().map(|u| {
        let roles = names.remove(&u.id).unwrap_or_default();
        let named = programs.remove(&u.id).unwrap_or_default();
        to_dto(u, roles, named)
    });
    Ok(Page::new(items.collect(), paging, total))
}

/// Active users whose first role is Administrator, other than `except`.
pub async fn other_active_admins(db: &impl ConnectionTrait, except: i32) -> ApiResult<u64> {
    let Some(admin) =
        role::Entity::find().filter(role::Column::Name.eq(ADMINISTRATOR)).one(db).await?
    else {
        return Ok(0);
    };
    Ok(user_role::Entity::find()
        .filter(user_role::Column::RoleId.eq(admin.id))
        .filter(user_role::Column::Position.eq(0))
        .filter(user_role::Column::UserId.ne(except))
        .filter(
            user_role::Column::UserId.in_subquery(
                Query::select()
                    .column(user::Column::Id)
                    .from(user::Entity)
                    .and_where(user::Column::IsActive.eq(true))
                    .to_owned(),
            ),
        )
        .count(db)
        .await?)
}

pub async fn first_role(db: &impl ConnectionTrait, user_id: i32) -> ApiResult<Option<String>> {
    Ok(role_names_of(db, &[user_id]).await?.remove(&user_id).and_then(|r| r.into_iter().next()))
}

// ---- roles ----

pub async fn get_role(db: &impl ConnectionTrait, id: i32) -> ApiResult<role::Model> {
    role::Entity::find_by_id(id).one(db).await?.ok_or_else(|| ApiError::not_found("The role"))
}

pub async fn find_role_by_name(
    db: &impl ConnectionTrait,
    name: &str,
) -> ApiResult<Option<role::Model>> {
    let all = role::Entity::find().all(db).await?;
    Ok(all.into_iter().find(|r| r.name.eq_ignore_ascii_case(name)))
}

pub async fn role_permissions(db: &impl ConnectionTrait, role_id: i32) -> ApiResult<Vec<String>> {
    let mut codes: Vec<String> = role_permission::Entity::find()
        .filter(role_permission::Column::RoleId.eq(role_id))
        .all(db)
        .await?
        .into_iter()
        .map(|rp| rp.permission)
        .collect();
    codes.sort();
    Ok(codes)
}

/// The permissions each of `roles` holds, for the ceiling on what a person may grant.
pub async fn role_grants(
    db: &impl ConnectionTrait,
    roles: &[role::Model],
) -> ApiResult<Vec<(String, Vec<Permission>)>> {
    let mut out = Vec::with_capacity(roles.len());
    for r in roles {
        let codes = role_permissions(db, r.id).await?;
        out.push((r.name.clone(), codes.iter().filter_map(|c| Permission::from_code(c)).collect()));
    }
    Ok(out)
}

pub async fn role_dto(db: &impl ConnectionTrait, r: role::Model) -> ApiResult<RoleDto> {
    let permissions = role_permissions(db, r.id).await?;
    Ok(RoleDto {
        id: r.id,
        name: r.name,
        permissions,
        is_built_in: r.is_built_in,
        grantable: false,
    })
}

pub async fn list_roles(db: &impl ConnectionTrait) -> ApiResult<Vec<RoleDto>> {
    let roles = role::Entity::find().order_by_asc(role::Column::Name).all(db).await?;
    let grants = role_permission::Entity::find().all(db).await?;
    Ok(roles
        .into_iter()
        .map(|r| {
            let mut permissions: Vec<String> =
                grants.iter().filter(|g| g.role_id == r.id).map(|g| g.permission.clone()).collect();
            permissions.sort();
            RoleDto {
                id: r.id,
                name: r.name,
                permissions,
                is_built_in: r.is_built_in,
                grantable: false,
            }
        })
        .collect())
}

pub async fn set_role_permissions(
    db: &impl ConnectionTrait,
    role_id: i32,
    permissions: &[Permission],
) -> ApiResult<()> {
    role_permission::Entity::delete_many()
        .filter(role_permission::Column::RoleId.eq(role_id))
        .exec(db)
        .await?;
    for p in permissions {
        role_permission::ActiveModel {
            role_id: Set(role_id),
            permission: Set(p.code().to_owned()),
        }
        .insert(db)
        .await?;
    }
    Ok(())
}

pub async fn users_holding_role(db: &impl ConnectionTrait, role_id: i32) -> ApiResult<u64> {
    Ok(user_role::Entity::find().filter(user_role::Column::RoleId.eq(role_id)).count(db).await?)
}

// ---- refresh tokens ----

/// Where a call came from: its address and browser, as the sessions list shows them.
#[derive(Debug, Clone, Default)]
pub struct Origin {
    pub ip: String,
    pub user_agent: Option<String>,
}

/// The longest browser name kept (the header is the client's and may be anything).
const USER_AGENT_MAX: usize = 300;

impl Origin {
    pub fn new(ip: String, user_agent: Option<&str>) -> Self {
        let user_agent = user_agent
            .map(|ua| ua.trim().chars().take(USER_AGENT_MAX).collect::<String>())
            .filter(|ua| !ua.is_empty());
        Self { ip, user_agent }
    }
}

/// Stores a new refresh token of `family_id` and returns the token itself.
pub async fn issue_refresh(
    db: &impl ConnectionTrait,
    user_id: i32,
    family_id: &str,
    expires_at: DateTime<Utc>,
    origin: &Origin,
) -> ApiResult<String> {
    let token = random_token();
    refresh_token::ActiveModel {
        user_id: Set(user_id),
        family_id: Set(family_id.to_owned()),
        token_hash: Set(hash_token(&token)),
        expires_at: Set(expires_at),
        created_at: Set(crate::clock::now()),
        ip: Set(Some(origin.ip.clone())),
        user_agent: Set(origin.user_agent.clone()),
        ..Default::default()
    }
    .insert(db)
    .await?;
    Ok(token)
}

pub async fn find_refresh(
    db: &impl ConnectionTrait,
    token: &str,
) -> ApiResult<Option<refresh_token::Model>> {
    Ok(refresh_token::Entity::find()
        .filter(refresh_token::Column::TokenHash.eq(hash_token(token)))
        .one(db)
        .await?)
}

/// Marks the token spent if nobody did first; false when a concurrent call won.
pub async fn spend_refresh(
    db: &impl ConnectionTrait,
    id: i32,
    now: DateTime<Utc>,
) -> ApiResult<bool> {
    let result = refresh_token::Entity::update_many()
        .col_expr(refresh_token::Column::UsedAt, Expr::value(now))
        .filter(refresh_token::Column::Id.eq(id))
        .filter(refresh_token::Column::UsedAt.is_null())
        .filter(refresh_token::Column::RevokedAt.is_null())
        .exec(db)
        .await?;
    Ok(result.rows_affected == 1)
}

pub async fn revoke_family(
    db: &impl ConnectionTrait,
    family_id: &str,
    now: DateTime<Utc>,
) -> ApiResult<()> {
    revoke_live(db, refresh_token::Column::FamilyId.eq(family_id), now).await
}

/// A user's live sign-ins, newest use first: one per refresh-token family, started at its
/// first token, last used at its newest (a refresh), from where that newest one came.
pub async fn live_sessions(
    db: &impl ConnectionTrait,
    user_id: i32,
    now: DateTime<Utc>,
) -> ApiResult<Vec<super::dto::SessionDto>> {
    let rows = refresh_token::Entity::find()
        .filter(refresh_token::Column::UserId.eq(user_id))
        .filter(refresh_token::Column::RevokedAt.is_null())
        .filter(refresh_token::Column::ExpiresAt.gt(now))
        .order_by_asc(refresh_token::Column::CreatedAt)
        .order_by_asc(refresh_token::Column::Id)
        .all(db)
        .await?;
    let mut sessions: Vec<super::dto::SessionDto> = Vec::new();
    for row in rows {
        match sessions.iter_mut().find(|s| s.id == row.family_id) {
            Some(s) => {
                s.last_used_at = row.created_at;
                s.ip = row.ip.or(s.ip.take());
                s.user_agent = row.user_agent.or(s.user_agent.take());
            }
            None => sessions.push(super::dto::SessionDto {
                id: row.family_id,
                started_at: row.created_at,
                last_used_at: row.created_at,
                ip: row.ip,
                user_agent: row.user_agent,
                current: false,
            }),
        }
    }
    sessions.sort_by_key(|s| std::cmp::Reverse(s.last_used_at));
    Ok(sessions)
}

/// Ends the user's live sign-in `family_id`; false when she has no such live one.
pub async fn end_session_of(
    db: &impl ConnectionTrait,
    user_id: i32,
    family_id: &str,
    now: DateTime<Utc>,
) -> ApiResult<bool> {
    let result = refresh_token::Entity::update_many()
        .col_expr(refresh_token::Column::RevokedAt, Expr::value(now))
        .filter(refresh_token::Column::UserId.eq(user_id))
        .filter(refresh_token::Column::FamilyId.eq(family_id))
        .filter(refresh_token::Column::RevokedAt.is_null())
        .exec(db)
        .await?;
    Ok(result.rows_affected > 0)
}

/// Ends every sign-in of a user but `keep` (the one asking): the number of tokens ended.
pub async fn end_other_sessions(
    db: &impl ConnectionTrait,
    user_id: i32,
    keep: Option<&str>,
    now: DateTime<Utc>,
) -> ApiResult<u64> {
    let mut update = refresh_token::Entity::update_many()
        .col_expr(refresh_token::Column::RevokedAt, Expr::value(now))
        .filter(refresh_token::Column::UserId.eq(user_id))
        .filter(refresh_token::Column::RevokedAt.is_null());
    if let Some(keep) = keep {
        update = update.filter(refresh_token::Column::FamilyId.ne(keep));
    }
    Ok(update.exec(db).await?.rows_affected)
}

/// Ends every sign-in of a user (password change, deactivation).
pub async fn revoke_all_refresh(
    db: &impl ConnectionTrait,
    user_id: i32,
    now: DateTime<Utc>,
) -> ApiResult<()> {
    revoke_live(db, refresh_token::Column::UserId.eq(user_id), now).await
}

/// Revokes the live refresh tokens that match `which`.
async fn revoke_live(
    db: &impl ConnectionTrait,
    which: sea_orm::sea_query::SimpleExpr,
    now: DateTime<Utc>,
) -> ApiResult<()> {
    refresh_token::Entity::update_many()
        .col_expr(refresh_token::Column::RevokedAt, Expr::value(now))
        .filter(which)
        .filter(refresh_token::Column::RevokedAt.is_null())
        .exec(db)
        .await?;
    Ok(())
}

// ---- one-time password tokens ----

pub const RESET: &str = "reset";
pub const INVITE: &str = "invite";

/// Reset links live an hour; invitations three days, since a new
/// colleague may not read mail the same hour.
pub fn password_token_ttl(purpose: &str) -> Duration {
    if purpose == INVITE {
        Duration::hours(72)
    } else {
        Duration::hours(1)
    }
}

/// A new set-password link for the user; the links sent before it stop working (only the
/// newest mail is the one to use, and a leaked older one is worth nothing).
pub async fn issue_password_token(
    db: &impl ConnectionTrait,
    user_id: i32,
    purpose: &'static str,
) -> ApiResult<String> {
    let token = random_token();
    let now = crate::clock::now();
    void_password_tokens(db, user_id, now).await?;
    password_token::ActiveModel {
        user_id: Set(user_id),
        token_hash: Set(hash_token(&token)),
        purpose: Set(purpose.to_owned()),
        expires_at: Set(now + password_token_ttl(purpose)),
        created_at: Set(now),
        ..Default::default()
    }
    .insert(db)
    .await?;
    Ok(token)
}

/// Every outstanding link of a user, spent.
pub async fn void_password_tokens(
    db: &impl ConnectionTrait,
    user_id: i32,
    now: DateTime<Utc>,
) -> ApiResult<()> {
    password_token::Entity::update_many()
        .col_expr(password_token::Column::UsedAt, Expr::value(now))
        .filter(password_token::Column::UserId.eq(user_id))
        .filter(password_token::Column::UsedAt.is_null())
        .exec(db)
        .await?;
    Ok(())
}

/// The unspent, unexpired token of that user, if the pair matches.
pub async fn find_live_password_token(
    db: &impl ConnectionTrait,
    user_id: i32,
    token: &str,
    now: DateTime<Utc>,
) -> ApiResult<Option<password_token::Model>> {
    Ok(password_token::Entity::find()
        .filter(password_token::Column::TokenHash.eq(hash_token(token)))
        .filter(password_token::Column::UserId.eq(user_id))
        .filter(password_token::Column::UsedAt.is_null())
        .filter(password_token::Column::ExpiresAt.gt(now))
        .one(db)
        .await?)
}

/// Spends the token once; false when it was spent concurrently. Spending one also
/// voids the user's other outstanding links.
pub async fn spend_password_tokens(
    db: &impl ConnectionTrait,
    id: i32,
    user_id: i32,
    now: DateTime<Utc>,
) -> ApiResult<bool> {
    let won = password_token::Entity::update_many()
        .col_expr(password_token::Column::UsedAt, Expr::value(now))
        .filter(password_token::Column::Id.eq(id))
        .filter(password_token::Column::UsedAt.is_null())
        .exec(db)
        .await?
        .rows_affected
        == 1;
    if won {
        void_password_tokens(db, user_id, now).await?;
    }
    Ok(won)
}

/// Drops what can no longer be used, so the token tables stay small.
pub async fn purge_expired_tokens(db: &impl ConnectionTrait, now: DateTime<Utc>) -> ApiResult<()> {
    let cutoff = now - Duration::days(1);
    refresh_token::Entity::delete_many()
        .filter(refresh_token::Column::ExpiresAt.lt(cutoff))
        .exec(db)
        .await?;
    password_token::Entity::delete_many()
        .filter(password_token::Column::ExpiresAt.lt(cutoff))
        .exec(db)
        .await?;
    super::passkey_store::purge_ceremonies(db, cutoff).await?;
    super::factor_store::purge_challenges(db, cutoff).await?;
    super::sso::tickets::purge_expired(db, now).await
}

// ---- user and role writes of the management calls ----

pub const EMAIL_TAKEN: &str = "A user with this e-mail already exists.";
pub const ROLE_TAKEN: &str = "A role with this name already exists.";

/// What an edit of a user changes (checked by the caller).
pub struct UserChange {
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    pub is_active: bool,
}

/// A user edited; a taken e-mail is a 409.
pub async fn update_user(
    txn: &impl ConnectionTrait,
    existing: user::Model,
    change: UserChange,
    now: DateTime<Utc>,
) -> ApiResult<user::Model> {
    let mut active = existing.into_active_model();
    active.email = Set(change.email);
    active.first_name = Set(change.first_name);
    active.last_name = Set(change.last_name);
    active.is_active = Set(change.is_active);
    active.updated_at = Set(now);
    active.update(txn).await.map_err(|e| ApiError::unique_or_internal(e, EMAIL_TAKEN))
}

/// A user made inactive (the caller ends their sign-ins in the same transaction).
pub async fn deactivate_user(
    txn: &impl ConnectionTrait,
    existing: user::Model,
    now: DateTime<Utc>,
) -> ApiResult<()> {
    let mut active = existing.into_active_model();
    active.is_active = Set(false);
    active.updated_at = Set(now);
    active.update(txn).await?;
    Ok(())
}

/// A new custom role; a taken name is a 409.
pub async fn insert_role(txn: &impl ConnectionTrait, name: String) -> ApiResult<role::Model> {
    role::ActiveModel {
        name: Set(name),
        is_built_in: Set(false),
        created_at: Set(crate::clock::now()),
        ..Default::default()
    }
    .insert(txn)
    .await
    .map_err(|e| ApiError::unique_or_internal(e, ROLE_TAKEN))
}

/// Deletes a role (its permissions and holders go with it by cascade).
pub async fn delete_role(txn: &impl ConnectionTrait, r: role::Model) -> ApiResult<()> {
    sea_orm::ModelTrait::delete(r, txn).await?;
    Ok(())
}

/// A role renamed; a taken name is a 409.
pub async fn rename_role(
    txn: &impl ConnectionTrait,
    existing: role::Model,
    name: String,
) -> ApiResult<role::Model> {
    let mut active = existing.into_active_model();
    active.name = Set(name);
    active.update(txn).await.map_err(|e| ApiError::unique_or_internal(e, ROLE_TAKEN))
}

/// The time of a user's sign-in, recorded.
pub async fn record_sign_in(
    txn: &impl ConnectionTrait,
    user: user::Model,
    now: DateTime<Utc>,
) -> ApiResult<user::Model> {
    let mut active = user.into_active_model();
    active.last_login_at = Set(Some(now));
    Ok(active.update(txn).await?)
}

/// A user's new password (its hash); the caller ends their sign-ins in the same transaction.
pub async fn set_password_hash(
    txn: &impl ConnectionTrait,
    user: user::Model,
    hash: String,
    now: DateTime<Utc>,
) -> ApiResult<()> {
    let mut active = user.into_active_model();
    active.password_hash = Set(Some(hash));
    active.updated_at = Set(now);
    active.update(txn).await?;
    Ok(())
}
