//! Users, roles and permissions (administration calls).

use actix_web::{web, HttpResponse};
use chrono::Utc;
use serde_json::json;

use super::{
    accounts::{create_user_with_roles, mail_invitation, NewUser, EMAIL_TAKEN},
    dto::*,
    rules, store,
};
use crate::{
    activity,
    auth::{
        password,
        permissions::{PermissionInfo, ADMINISTRATOR},
        CurrentUser, Permission,
    },
    entities::role,
    error::{ApiError, ApiResult, Checks, ProblemBody},
    state::AppState,
    web::{Json, Page, PageQuery, Query},
};

use super::store::ROLE_TAKEN;

#[utoipa::path(get, path = "/api/v1/identity/permissions", tag = "identity", security(("bearer" = [])),
    responses((status = 200, body = Vec<PermissionInfo>), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody)))]
pub async fn list_permissions(_me: CurrentUser) -> ApiResult<web::Json<Vec<PermissionInfo>>> {
    Ok(web::Json(Permission::ALL.iter().copied().map(PermissionInfo::from).collect()))
}

// ---- users ----

#[utoipa::path(get, path = "/api/v1/identity/users", tag = "identity", security(("bearer" = [])), params(UsersQuery),
    responses((status = 200, body = Page<UserDto>), (status = 400, body = ProblemBody), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody)))]
pub async fn list_users(
    state: web::Data<AppState>,
    _me: CurrentUser,
    Query(q): Query<UsersQuery>,
) -> ApiResult<web::Json<Page<UserDto>>> {
    let paging = PageQuery { page: q.page, size: q.size }.paging()?;
    Ok(web::Json(store::list_users(&state.db, &q.roles, q.email.as_deref(), paging).await?))
}

#[utoipa::path(get, path = "/api/v1/identity/users/{id}", tag = "identity", security(("bearer" = [])),
    responses((status = 200, body = UserDto), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody), (status = 404, body = ProblemBody)))]
pub async fn get_user(
    state: web::Data<AppState>,
    _me: CurrentUser,
    id: web::Path<i32>,
) -> ApiResult<web::Json<UserDto>> {
    let u = store::get_user(&state.db, id.into_inner()).await?;
    Ok(web::Json(store::user_dto(&state.db, u).await?))
}

#[utoipa::path(post, path = "/api/v1/identity/users", tag = "identity", security(("bearer" = [])), request_body = CreateUserRequest,
    responses((status = 201, body = UserDto), (status = 400, body = ProblemBody), (status = 401, body = ProblemBody),
        (status = 403, body = ProblemBody), (status = 409, body = ProblemBody)))]
pub async fn create_user(
    state: web::Data<AppState>,
    me: CurrentUser,
    Json(body): Json<CreateUserRequest>,
) -> ApiResult<HttpResponse> {
    let mut checks = Checks::default();
    let email = checks.email("email", &body.email);
    let first_name = checks.name("firstName", &body.first_name);
    let last_name = checks.name("lastName", &body.last_name);
    let role_names = rules::dedupe_roles("roles", &body.roles, &mut checks);
    if let Some(problem) = body.password.as_deref().and_then(password::policy_problem) {
        checks.add("password", problem);
    }
    checks.finish()?;
    let roles = store::roles_by_names(&state.db, &role_names).await?;
    let hash = match body.password {
        Some(p) => Some(password::hash(p).await?),
        None => None,
    };
    let (created, link) = create_user_with_roles(
        &state,
        Some(me.id()),
        NewUser { email, first_name, last_name, hash, participant_id: None },
        &roles,
    )
    .await?;
    if let Some(link) = link {
        mail_invitation(&state, &created.email, &link);
    }
    Ok(HttpResponse::Created().json(store::user_dto(&state.db, created).await?))
}

#[utoipa::path(put, path = "/api/v1/identity/users/{id}", tag = "identity", security(("bearer" = [])), request_body = UpdateUserRequest,
    responses((status = 200, body = UserDto), (status = 400, body = ProblemBody), (status = 401, body = ProblemBody),
        (status = 403, body = ProblemBody), (status = 404, body = ProblemBody), (status = 409, body = ProblemBody), (status = 422, body = ProblemBody)))]
pub async fn update_user(
    state: web::Data<AppState>,
    me: CurrentUser,
    id: web::Path<i32>,
    crate::web::Put(body): crate::web::Put<UpdateUserRequest>,
) -> ApiResult<web::Json<UserDto>> {
    let mut checks = Checks::default();
    let email = checks.email("email", &body.email);
    let first_name = checks.name("firstName", &body.first_name);
    let last_name = checks.name("lastName", &body.last_name);
    let role_names = rules::dedupe_roles("roles", &body.roles, &mut checks);
    checks.finish()?;
    let roles = store::roles_by_names(&state.db, &role_names).await?;

    let now = Utc::now();
    let txn = crate::db::write(&state.db).await?;
    let existing = store::get_user(&txn, id.into_inner()).await?;
    if let Some(other) = store::find_user_by_email(&txn, &email).await? {
        if other.id != existing.id {
            return Err(ApiError::Conflict(EMAIL_TAKEN.into()));
        }
    }
    let was_admin = existing.is_active
        && store::first_role(&txn, existing.id).await?.as_deref() == Some(ADMINISTRATOR);
    let stays_admin = body.is_active && roles.first().is_some_and(|r| r.name == ADMINISTRATOR);
    let others = store::other_active_admins(&txn, existing.id).await?;
    rules::check_admin_kept(existing.id == me.id(), was_admin, stays_admin, others)?;

    let deactivated = existing.is_active && !body.is_active;
    let updated = store::update_user(
        &txn,
        existing,
        store::UserChange { email, first_name, last_name, is_active: body.is_active },
        now,
    )
    .await?;
    store::set_user_roles(&txn, updated.id, &roles).await?;
    if deactivated {
        store::revoke_all_refresh(&txn, updated.id, now).await?;
    }
    let role_names: Vec<&str> = roles.iter().map(|r| r.name.as_str()).collect();
    activity::record(
        &txn,
        activity::Entry {
            entity_type: "user",
            entity_id: updated.id,
            action: "updated",
            actor_user_id: Some(me.id()),
            data: Some(
                json!({"email": updated.email, "roles": role_names, "isActive": updated.is_active}),
            ),
            ..Default::default()
        },
    )
    .await?;
    txn.commit().await?;
    Ok(web::Json(store::user_dto(&state.db, updated).await?))
}

#[utoipa::path(delete, path = "/api/v1/identity/users/{id}", tag = "identity", security(("bearer" = [])),
    responses((status = 204, description = "Deactivated: the user can no longer sign in; history is kept"),
        (status = 401, body = ProblemBody), (status = 403, body = ProblemBody), (status = 404, body = ProblemBody), (status = 422, body = ProblemBody)))]
pub async fn delete_user(
    state: web::Data<AppState>,
    me: CurrentUser,
    id: web::Path<i32>,
) -> ApiResult<HttpResponse> {
    let now = Utc::now();
    let txn = crate::db::write(&state.db).await?;
    let existing = store::get_user(&txn, id.into_inner()).await?;
    if existing.id == me.id() {
        return Err(ApiError::rule("id", "You cannot deactivate yourself."));
    }
    let was_admin = existing.is_active
        && store::first_role(&txn, existing.id).await?.as_deref() == Some(ADMINISTRATOR);
    let others = store::other_active_admins(&txn, existing.id).await?;
    rules::check_admin_kept(false, was_admin, false, others)?;
    if existing.is_active {
        let user_id = existing.id;
        store::deactivate_user(&txn, existing, now).await?;
        store::revoke_all_refresh(&txn, user_id, now).await?;
        activity::record(
            &txn,
            activity::Entry {
                entity_type: "user",
                entity_id: user_id,
                action: "deactivated",
                actor_user_id: Some(me.id()),
                ..Default::default()
            },
        )
        .await?;
    }
    txn.commit().await?;
    Ok(HttpResponse::NoContent().finish())
}

// ---- roles ----

#[utoipa::path(get, path = "/api/v1/identity/roles", tag = "identity", security(("bearer" = [])),
    responses((status = 200, body = Vec<RoleDto>), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody)))]
pub async fn list_roles(
    state: web::Data<AppState>,
    _me: CurrentUser,
) -> ApiResult<web::Json<Vec<RoleDto>>> {
    Ok(web::Json(store::list_roles(&state.db).await?))
}

#[utoipa::path(get, path = "/api/v1/identity/roles/{id}", tag = "identity", security(("bearer" = [])),
    responses((status = 200, body = RoleDto), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody), (status = 404, body = ProblemBody)))]
pub async fn get_role(
    state: web::Data<AppState>,
    _me: CurrentUser,
    id: web::Path<i32>,
) -> ApiResult<web::Json<RoleDto>> {
    let r = store::get_role(&state.db, id.into_inner()).await?;
    Ok(web::Json(store::role_dto(&state.db, r).await?))
}

fn check_role_body(body: &RoleRequest) -> ApiResult<(String, Vec<Permission>)> {
    let mut checks = Checks::default();
    let name = checks.name("name", &body.name);
    let permissions = rules::parse_permissions(&body.permissions, &mut checks);
    checks.finish()?;
    Ok((name, permissions))
}

#[utoipa::path(post, path = "/api/v1/identity/roles", tag = "identity", security(("bearer" = [])), request_body = RoleRequest,
    responses((status = 201, body = RoleDto), (status = 400, body = ProblemBody), (status = 401, body = ProblemBody),
        (status = 403, body = ProblemBody), (status = 409, body = ProblemBody)))]
pub async fn create_role(
    state: web::Data<AppState>,
    me: CurrentUser,
    Json(body): Json<RoleRequest>,
) -> ApiResult<HttpResponse> {
    let (name, permissions) = check_role_body(&body)?;
    let txn = crate::db::write(&state.db).await?;
    if store::find_role_by_name(&txn, &name).await?.is_some() {
        return Err(ApiError::Conflict(ROLE_TAKEN.into()));
    }
    let created = store::insert_role(&txn, name).await?;
    store::set_role_permissions(&txn, created.id, &permissions).await?;
    record_role(&txn, &created, "created", me.id(), &permissions).await?;
    txn.commit().await?;
    Ok(HttpResponse::Created().json(store::role_dto(&state.db, created).await?))
}

async fn record_role(
    txn: &impl sea_orm::ConnectionTrait,
    r: &role::Model,
    action: &str,
    actor: i32,
    permissions: &[Permission],
) -> ApiResult<()> {
    let codes: Vec<&str> = permissions.iter().map(|p| p.code()).collect();
    activity::record(
        txn,
        activity::Entry {
            entity_type: "role",
            entity_id: r.id,
            action,
            actor_user_id: Some(actor),
            data: Some(json!({"name": r.name, "permissions": codes})),
            ..Default::default()
        },
    )
    .await
}

#[utoipa::path(put, path = "/api/v1/identity/roles/{id}", tag = "identity", security(("bearer" = [])), request_body = RoleRequest,
    responses((status = 200, body = RoleDto), (status = 400, body = ProblemBody), (status = 401, body = ProblemBody),
        (status = 403, body = ProblemBody), (status = 404, body = ProblemBody), (status = 409, body = ProblemBody), (status = 422, body = ProblemBody)))]
pub async fn update_role(
    state: web::Data<AppState>,
    me: CurrentUser,
    id: web::Path<i32>,
    crate::web::Put(body): crate::web::Put<RoleRequest>,
) -> ApiResult<web::Json<RoleDto>> {
    let (name, permissions) = check_role_body(&body)?;
    let txn = crate::db::write(&state.db).await?;
    let existing = store::get_role(&txn, id.into_inner()).await?;
    if existing.is_built_in && existing.name != name {
        return Err(ApiError::rule("name", "Built-in roles cannot be renamed."));
    }
    rules::check_role_permissions(&existing.name, &permissions)?;
    if let Some(other) = store::find_role_by_name(&txn, &name).await? {
        if other.id != existing.id {
            return Err(ApiError::Conflict(ROLE_TAKEN.into()));
        }
    }
    let updated = store::rename_role(&txn, existing, name).await?;
    store::set_role_permissions(&txn, updated.id, &permissions).await?;
    record_role(&txn, &updated, "updated", me.id(), &permissions).await?;
    txn.commit().await?;
    Ok(web::Json(store::role_dto(&state.db, updated).await?))
}

#[utoipa::path(delete, path = "/api/v1/identity/roles/{id}", tag = "identity", security(("bearer" = [])),
    responses((status = 204), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody),
        (status = 404, body = ProblemBody), (status = 422, description = "Built-in or still held", body = ProblemBody)))]
pub async fn delete_role(
    state: web::Data<AppState>,
    me: CurrentUser,
    id: web::Path<i32>,
) -> ApiResult<HttpResponse> {
    let txn = crate::db::write(&state.db).await?;
    let existing = store::get_role(&txn, id.into_inner()).await?;
    rules::check_role_deletable(
        existing.is_built_in,
        store::users_holding_role(&txn, existing.id).await?,
    )?;
    record_role(&txn, &existing, "deleted", me.id(), &[]).await?;
    sea_orm::ModelTrait::delete(existing, &txn).await?;
    txn.commit().await?;
    Ok(HttpResponse::NoContent().finish())
}
