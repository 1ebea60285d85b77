//! Every administration action that changes users and roles, one function each, owning its
//! transaction: the rows and the "an active Administrator remains" facts are read inside it,
//! and its activity entry is written there (`note`) before the commit. Account creation has
//! its own (`accounts`); the sign-in commands are at the end.

use chrono::Duration;
use sea_orm::{ConnectionTrait, DatabaseConnection};
use serde_json::{json, Value};

use super::{
    rules,
    store::{self, EMAIL_TAKEN, ROLE_TAKEN},
};
use crate::{
    activity,
    audit::{self, Actor},
    auth::{
        load_principal, permissions::ADMINISTRATOR, tokens::TokenKeys, CurrentUser, Permission,
    },
    entities::{refresh_token, role, user},
    error::{ApiError, ApiResult},
    settings,
};

/// The activity entry of a user or a role (`entity`), with its fields before and after
/// (null where it did not exist).
async fn note(
    txn: &impl ConnectionTrait,
    me: &CurrentUser,
    (entity, id): (&str, i32),
    action: &str,
    (before, after): (&Value, &Value),
    data: Option<Value>,
) -> ApiResult<()> {
    let entry = activity::Entry {
        entity_type: entity,
        entity_id: id,
        action,
        data,
        change: Some(audit::fields::changed(before, after)),
        ..Default::default()
    };
    activity::record(txn, &me.into(), entry).await
}

/// The caller as the ceiling on rights sees her.
pub fn granter(me: &CurrentUser) -> rules::Granter<'_> {
    rules::Granter { administrator: me.is_administrator(), permissions: &me.permissions }
}

/// Nobody hands out (or takes away) roles above her own: `roles` are judged with their
/// permissions as stored now.
pub async fn check_roles_grantable(
    txn: &impl ConnectionTrait,
    me: &CurrentUser,
    roles: &[role::Model],
) -> ApiResult<()> {
    let grants = store::role_grants(txn, roles).await?;
    let grants: Vec<(&str, &[Permission])> =
        grants.iter().map(|(name, ps)| (name.as_str(), ps.as_slice())).collect();
    rules::check_roles_grantable(&granter(me), &grants)
}

/// Whether `u` is an active Administrator now.
async fn is_active_admin(txn: &impl ConnectionTrait, u: &user::Model) -> ApiResult<bool> {
    Ok(u.is_active && store::first_role(txn, u.id).await?.as_deref() == Some(ADMINISTRATOR))
}

/// The programs `requested` for a user who had `before`, checked against the programs
/// stored and the caller's own scope.
pub async fn checked_programs(
    txn: &impl ConnectionTrait,
    me: &CurrentUser,
    requested: &[i32],
    before: &[i32],
) -> ApiResult<Vec<i32>> {
    let existing = store::existing_programs(txn, requested).await?;
    let scope = crate::auth::scope::scope_of(txn, me).await?;
    rules::check_named_programs(requested, before, &existing, &scope)
}

/// A user's names, e-mail, roles (by name, the first one leading), whether active, and the
/// programs named on her (`None` keeps them).
pub async fn update_user(
    db: &DatabaseConnection,
    me: &CurrentUser,
    id: i32,
    change: store::UserChange,
    (role_names, programs): (&[String], Option<&[i32]>),
) -> ApiResult<user::Model> {
    let now = crate::clock::now();
    let txn = crate::db::write(db).await?;
    let roles = store::roles_by_names(&txn, role_names).await?;
    let existing = store::get_user(&txn, id).await?;
    if let Some(other) = store::find_user_by_email(&txn, &change.email).await? {
        if other.id != existing.id {
            return Err(ApiError::Conflict(EMAIL_TAKEN.into()));
        }
    }
    let held_roles =
        store::roles_by_names(&txn, &store::user_dto(&txn, existing.clone()).await?.roles).await?;
    let roles_changed = held_roles.iter().map(|r| r.id).ne(roles.iter().map(|r| r.id));
    let edit = rules::AccountEdit {
        on_self: existing.id == me.id(),
        target_is_administrator: held_roles.first().is_some_and(|r| r.name == ADMINISTRATOR),
        roles_changed,
        email_changed: existing.email != change.email,
        deactivates: existing.is_active && !change.is_active,
    };
    rules::check_account_edit(&granter(me), &edit)?;
    let added_or_removed: Vec<role::Model> = roles
        .iter()
        .filter(|r| !held_roles.iter().any(|h| h.id == r.id))
        .chain(held_roles.iter().filter(|h| !roles.iter().any(|r| r.id == h.id)))
        .cloned()
        .collect();
    check_roles_grantable(&txn, me, &added_or_removed).await?;
    let was_admin = is_active_admin(&txn, &existing).await?;
    let stays_admin = change.is_active && roles.first().is_some_and(|r| r.name == ADMINISTRATOR);
    let others = store::other_active_admins(&txn, existing.id).await?;
    rules::check_admin_kept(existing.id == me.id(), was_admin, stays_admin, others)?;

    let deactivated = existing.is_active && !change.is_active;
    let before_dto = store::user_dto(&txn, existing.clone()).await?;
    let programs = match programs {
        Some(p) => Some(checked_programs(&txn, me, p, &before_dto.mentor_program_ids).await?),
        None => None,
    };
    let before = json!(before_dto);
    let updated = store::update_user(&txn, existing, change, now).await?;
    store::set_user_roles(&txn, updated.id, &roles).await?;
    if let Some(p) = &programs {
        store::set_user_programs(&txn, updated.id, p).await?;
    }
    // A person whose access changed signs in again under the new roles.
    if deactivated || roles_changed {
        store::revoke_all_refresh(&txn, updated.id, now).await?;
        // Links sent before stay dead after a reactivation: she asks for a new one.
        store::void_password_tokens(&txn, updated.id, now).await?;
    }
    let role_names: Vec<&str> = roles.iter().map(|r| r.name.as_str()).collect();
    let data = json!({"email": updated.email, "roles": role_names, "isActive": updated.is_active});
    let after = json!(store::user_dto(&txn, updated.clone()).await?);
    note(&txn, me, ("user", updated.id), "updated", (&before, &after), Some(data)).await?;
    txn.commit().await?;
    Ok(updated)
}

/// Deactivates a user (never oneself, never the last active Administrator); history stays.
pub async fn deactivate_user(db: &DatabaseConnection, me: &CurrentUser, id: i32) -> ApiResult<()> {
    let now = crate::clock::now();
    let txn = crate::db::write(db).await?;
    let existing = store::get_user(&txn, id).await?;
    if existing.id == me.id() {
        return Err(ApiError::rule("id", "You cannot deactivate yourself."));
    }
    let was_admin = is_active_admin(&txn, &existing).await?;
    let edit = rules::AccountEdit {
        on_self: false,
        target_is_administrator: store::first_role(&txn, existing.id).await?.as_deref()
            == Some(ADMINISTRATOR),
        roles_changed: false,
        email_changed: false,
        deactivates: existing.is_active,
    };
    rules::check_account_edit(&granter(me), &edit)?;
    let others = store::other_active_admins(&txn, existing.id).await?;
    rules::check_admin_kept(false, was_admin, false, others)?;
    if existing.is_active {
        let user_id = existing.id;
        store::deactivate_user(&txn, existing, now).await?;
        store::revoke_all_refresh(&txn, user_id, now).await?;
        store::void_password_tokens(&txn, user_id, now).await?;
        let change = (&json!({"isActive": true}), &json!({"isActive": false}));
        note(&txn, me, ("user", user_id), "deactivated", change, None).await?;
    }
    txn.commit().await?;
    Ok(())
}

/// A role's name and permissions (sorted codes), as its entries record them.
fn role_fields(name: &str, mut codes: Vec<String>) -> Value {
    codes.sort();
    json!({"name": name, "permissions": codes})
}

/// The role's activity entry: its name and permissions as they are now (`Some`, or `None`
/// once deleted), and as they were (`before`, null for a new role).
async fn note_role(
    txn: &impl ConnectionTrait,
    me: &CurrentUser,
    (r, action): (&role::Model, &str),
    before: Value,
    permissions: Option<&[Permission]>,
) -> ApiResult<()> {
    let after = permissions.map_or(Value::Null, |ps| {
        role_fields(&r.name, ps.iter().map(|p| p.code().to_owned()).collect())
    });
    let data = if after.is_null() { before.clone() } else { after.clone() };
    note(txn, me, ("role", r.id), action, (&before, &after), Some(data)).await
}

pub async fn create_role(
    db: &DatabaseConnection,
    me: &CurrentUser,
    name: String,
    permissions: &[Permission],
) -> ApiResult<role::Model> {
    rules::check_permissions_grantable(&granter(me), permissions.iter().copied())?;
    let txn = crate::db::write(db).await?;
    if store::find_role_by_name(&txn, &name).await?.is_some() {
        return Err(ApiError::Conflict(ROLE_TAKEN.into()));
    }
    let created = store::insert_role(&txn, name).await?;
    store::set_role_permissions(&txn, created.id, permissions).await?;
    note_role(&txn, me, (&created, "created"), Value::Null, Some(permissions)).await?;
    txn.commit().await?;
    Ok(created)
}

/// Renames a role (built-in ones keep their names) and sets its permissions.
pub async fn update_role(
    db: &DatabaseConnection,
    me: &CurrentUser,
    id: i32,
    name: String,
    permissions: &[Permission],
) -> ApiResult<role::Model> {
    let txn = crate::db::write(db).await?;
    let existing = store::get_role(&txn, id).await?;
    if existing.is_built_in && existing.name != name {
        return Err(ApiError::rule("name", "Built-in roles cannot be renamed."));
    }
    rules::check_role_permissions(&existing.name, permissions)?;
    if let Some(other) = store::find_role_by_name(&txn, &name).await? {
        if other.id != existing.id {
            return Err(ApiError::Conflict(ROLE_TAKEN.into()));
        }
    }
    let held = store::role_permissions(&txn, existing.id).await?;
    let kept_or_given = permissions.iter().copied();
    rules::check_permissions_grantable(
        &granter(me),
        kept_or_given.chain(held.iter().filter_map(|c| Permission::from_code(c))),
    )?;
    let before = role_fields(&existing.name, held);
    let updated = store::rename_role(&txn, existing, name).await?;
    store::set_role_permissions(&txn, updated.id, permissions).await?;
    note_role(&txn, me, (&updated, "updated"), before, Some(permissions)).await?;
    txn.commit().await?;
    Ok(updated)
}

/// Deletes a role nobody holds that is not built in.
pub async fn delete_role(db: &DatabaseConnection, me: &CurrentUser, id: i32) -> ApiResult<()> {
    let txn = crate::db::write(db).await?;
    let existing = store::get_role(&txn, id).await?;
    rules::check_role_deletable(
        existing.is_built_in,
        store::users_holding_role(&txn, existing.id).await?,
    )?;
    let before = role_fields(&existing.name, store::role_permissions(&txn, existing.id).await?);
    note_role(&txn, me, (&existing, "deleted"), before, None).await?;
    store::delete_role(&txn, existing).await?;
    txn.commit().await?;
    Ok(())
}

// ---- sessions: the password is checked (and hashed) before, outside the write lock ----

/// A new sign-in of `user`, whose password was verified: the caller, its sign-in family and
/// first refresh token, and the access token's lifetime in seconds.
pub struct SignIn {
    pub principal: CurrentUser,
    pub family: String,
    pub refresh_token: String,
    pub access_ttl: i64,
}

pub async fn sign_in(
    db: &DatabaseConnection,
    keys: &TokenKeys,
    u: user::Model,
    origin: &store::Origin,
) -> ApiResult<SignIn> {
    let txn = crate::db::write(db).await?;
    let signed_in = sign_in_within(&txn, keys, u, origin).await?;
    txn.commit().await?;
    Ok(signed_in)
}

/// A sign-in inside `txn`, for the commands that finish one after a second factor.
pub async fn sign_in_within(
    txn: &impl ConnectionTrait,
    keys: &TokenKeys,
    u: user::Model,
    origin: &store::Origin,
) -> ApiResult<SignIn> {
    let now = crate::clock::now();
    let u = store::record_sign_in(txn, u, now).await?;
    let actor = Actor::user(&u, Some(origin.ip.clone()));
    audit::record(txn, &actor, audit::Change::new("user", u.id, "signed-in")).await?;
    let principal = load_principal(txn, u).await?;
    // Refused while coordinator sign-in is blocked; returning drops (rolls back) the transaction.
    settings::store::ensure_may_sign_in(txn, &principal.roles).await?;
    let (access_ttl, refresh_ttl) = settings::store::token_lifetimes(txn, keys).await?;
    let family = uuid::Uuid::new_v4().to_string();
    let expires = now + Duration::seconds(refresh_ttl);
    let refresh_token = store::issue_refresh(txn, principal.id(), &family, expires, origin).await?;
    Ok(SignIn { principal, family, refresh_token, access_ttl })
}

/// Spends a refresh token judged fit to rotate and issues the next one of its sign-in: the
/// user, the next token and the access token's lifetime. `refused` when the token was spent
/// meanwhile (a reuse: its whole sign-in is revoked) or its user may no longer sign in.
pub async fn rotate_refresh(
    db: &DatabaseConnection,
    keys: &TokenKeys,
    token: &refresh_token::Model,
    origin: &store::Origin,
    refused: impl Fn() -> ApiError,
) -> ApiResult<(user::Model, String, i64)> {
    let now = crate::clock::now();
    let txn = crate::db::write(db).await?;
    if !store::spend_refresh(&txn, token.id, now).await? {
        // Lost a race against another use of the same token: that is a reuse too.
        txn.rollback().await?;
        end_session(db, token, "refresh-token-reused", None).await?;
        return Err(refused());
    }
    let u = store::get_user(&txn, token.user_id)
        .await
        .ok()
        .filter(|u| u.is_active)
        .ok_or_else(&refused)?;
    // A blocked Coordinator is out at the next refresh; the token stays unspent (rollback).
    let principal = load_principal(&txn, u).await?;
    settings::store::ensure_may_sign_in(&txn, &principal.roles).await?;
    let (access_ttl, _) = settings::store::token_lifetimes(&txn, keys).await?;
    let u = principal.user;
    // The sign-in keeps its original end: rotation does not extend a session.
    let next = store::issue_refresh(&txn, u.id, &token.family_id, token.expires_at, origin).await?;
    txn.commit().await?;
    Ok((u, next, access_ttl))
}

/// Sets the password `hash` through a live link `token_id` (`false`: the link was used
/// meanwhile); every sign-in of the user ends.
pub async fn set_password(
    db: &DatabaseConnection,
    u: user::Model,
    token_id: i32,
    hash: String,
    ip: String,
) -> ApiResult<bool> {
    let now = crate::clock::now();
    let txn = crate::db::write(db).await?;
    if !store::spend_password_tokens(&txn, token_id, u.id, now).await? {
        return Ok(false);
    }
    let (user_id, actor) = (u.id, Actor::user(&u, Some(ip)));
    store::set_password_hash(&txn, u, hash, now).await?;
    store::revoke_all_refresh(&txn, user_id, now).await?;
    let entry = activity::Entry {
        entity_type: "user",
        entity_id: user_id,
        action: "password-set",
        ..Default::default()
    };
    activity::record(&txn, &actor, entry).await?;
    txn.commit().await?;
    Ok(true)
}

/// A refused sign-in: the e-mail tried, and the account it names when there is one.
pub async fn sign_in_refused(
    db: &DatabaseConnection,
    email: &str,
    user_id: Option<i32>,
    ip: String,
) -> ApiResult<()> {
    let change = audit::Change::new("user", user_id, "sign-in-failed")
        .after(serde_json::json!({"email": email}));
    audit::record_alone(db, &Actor::anonymous(Some(ip)), change).await
}

/// Ends the sign-in `token` belongs to (`action`: signed out, or a reused refresh token).
pub async fn end_session(
    db: &DatabaseConnection,
    token: &refresh_token::Model,
    action: &str,
    ip: Option<String>,
) -> ApiResult<()> {
    let txn = crate::db::write(db).await?;
    store::revoke_family(&txn, &token.family_id, crate::clock::now()).await?;
    let actor = match store::get_user(&txn, token.user_id).await {
        Ok(u) => Actor::user(&u, ip),
        Err(_) => Actor::anonymous(ip),
    };
    audit::record(&txn, &actor, audit::Change::new("user", token.user_id, action)).await?;
    txn.commit().await?;
    Ok(())
}

/// A password-reset link for `u`, who asked for it: the link's token.
pub async fn request_reset(
    db: &DatabaseConnection,
    u: &user::Model,
    ip: String,
) -> ApiResult<String> {
    let txn = crate::db::write(db).await?;
    let token = store::issue_password_token(&txn, u.id, store::RESET).await?;
    let change = audit::Change::new("user", u.id, "password-reset-requested");
    audit::record(&txn, &Actor::anonymous(Some(ip)), change).await?;
    txn.commit().await?;
    Ok(token)
}
