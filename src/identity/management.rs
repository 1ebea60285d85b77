//! Users, roles and permissions (administration calls).

use actix_web::{web, HttpResponse};

use super::{
    accounts::{self, create_user_with_programs, NewUser},
    commands,
    dto::*,
    rules, store,
};
use crate::{
    auth::{password, permissions::PermissionInfo, CurrentUser, Permission},
    error::{ApiResult, Checks, ProblemBody},
    state::AppState,
    web::{Json, Page, Query},
};

#[utoipa::path(get, path = "/api/v1/identity/permissions", tag = "identity", security(("bearer" = [])),
    responses((status = 200, body = Vec<PermissionInfo>), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody)))]
pub async fn list_permissions(me: CurrentUser) -> ApiResult<web::Json<Vec<PermissionInfo>>> {
    let by = commands::granter(&me);
    let info = |p: Permission| PermissionInfo {
        grantable: rules::check_permissions_grantable(&by, [p]).is_ok(),
        ..PermissionInfo::from(p)
    };
    Ok(web::Json(Permission::ALL.iter().copied().map(info).collect()))
}

/// A user as `me` sees her: whether her account is beyond `me`'s reach (the ceiling).
fn user_for(me: &CurrentUser, mut u: UserDto) -> UserDto {
    let administrator =
        u.roles.first().is_some_and(|r| r == crate::auth::permissions::ADMINISTRATOR);
    u.locked = rules::account_locked(&commands::granter(me), administrator);
    u
}

/// A role as `me` sees it: whether she may give it.
fn role_for(me: &CurrentUser, mut r: RoleDto) -> RoleDto {
    let permissions: Vec<Permission> =
        r.permissions.iter().filter_map(|c| Permission::from_code(c)).collect();
    r.grantable = rules::role_grantable(&commands::granter(me), &r.name, &permissions);
    r
}

// ---- users ----

#[utoipa::path(get, path = "/api/v1/identity/users", tag = "identity", security(("bearer" = [])), params(UsersQuery),
    responses((status = 200, body = Page<UserDto>), (status = 400, body = ProblemBody), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody)))]
pub async fn list_users(
    state: web::Data<AppState>,
    me: CurrentUser,
    Query(q): Query<UsersQuery>,
) -> ApiResult<web::Json<Page<UserDto>>> {
    let paging = q.paging()?;
    let mut page = store::list_users(&state.db, &q.roles, q.email.as_deref(), paging).await?;
    page.items = page.items.into_iter().map(|u| user_for(&me, u)).collect();
    Ok(web::Json(page))
}

#[utoipa::path(get, path = "/api/v1/identity/users/{id}", tag = "identity", security(("bearer" = [])),
    responses((status = 200, body = UserDto), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody), (status = 404, body = ProblemBody)))]
pub async fn get_user(
    state: web::Data<AppState>,
    me: CurrentUser,
    id: web::Path<i32>,
) -> ApiResult<web::Json<UserDto>> {
    let u = store::get_user(&state.db, id.into_inner()).await?;
    Ok(web::Json(user_for(&me, store::user_dto(&state.db, u).await?)))
}

#[utoipa::path(post, path = "/api/v1/identity/users", tag = "identity", security(("bearer" = [])), request_body = CreateUserRequest,
    responses((status = 201, body = InvitedUser), (status = 400, body = ProblemBody), (status = 401, body = ProblemBody),
        (status = 403, body = ProblemBody), (status = 409, body = ProblemBody),
        (status = 422, description = "A Coordinator without her participant, or a participant the caller cannot link", body = ProblemBody)))]
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
    let (created, link) = create_user_with_programs(
        &state,
        &me,
        NewUser { email, first_name, last_name, hash, participant_id: body.participant_id },
        (&roles, &body.mentor_program_ids),
    )
    .await?;
    let user = user_for(&me, store::user_dto(&state.db, created).await?);
    let invitation = link.map(|l| accounts::invitation_sent(&state, l));
    Ok(HttpResponse::Created().json(InvitedUser { user, invitation }))
}

#[utoipa::path(post, path = "/api/v1/identity/users/{id}/invitation", tag = "identity", security(("bearer" = [])),
    responses((status = 200, description = "A new set-password link was issued (the older ones no longer work) and mailed", body = InvitedUser),
        (status = 401, body = ProblemBody), (status = 403, body = ProblemBody), (status = 404, body = ProblemBody),
        (status = 409, description = "She has chosen a password already", body = ProblemBody),
        (status = 422, description = "The account is deactivated or signs in through single sign-on", body = ProblemBody)))]
pub async fn resend_invitation(
    state: web::Data<AppState>,
    me: CurrentUser,
    id: web::Path<i32>,
) -> ApiResult<web::Json<InvitedUser>> {
    let (u, link) = accounts::resend_invitation(&state, &me, id.into_inner()).await?;
    let user = user_for(&me, store::user_dto(&state.db, u).await?);
    Ok(web::Json(InvitedUser { user, invitation: Some(accounts::invitation_sent(&state, link)) }))
}

#[utoipa::path(get, path = "/api/v1/identity/invitation-terms", tag = "identity", security(("bearer" = [])),
    responses((status = 200, body = InvitationTerms), (status = 401, body = ProblemBody)))]
pub async fn invitation_terms(state: web::Data<AppState>) -> web::Json<InvitationTerms> {
    web::Json(accounts::invitation_terms(&state))
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
    let change = store::UserChange { email, first_name, last_name, is_active: body.is_active };
    let programs = body.mentor_program_ids.as_deref();
    let updated =
        commands::update_user(&state.db, &me, id.into_inner(), change, (&role_names, programs))
            .await?;
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
    commands::deactivate_user(&state.db, &me, id.into_inner()).await?;
    Ok(HttpResponse::NoContent().finish())
}

// ---- roles ----

#[utoipa::path(get, path = "/api/v1/identity/roles", tag = "identity", security(("bearer" = [])),
    responses((status = 200, body = Vec<RoleDto>), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody)))]
pub async fn list_roles(
    state: web::Data<AppState>,
    me: CurrentUser,
) -> ApiResult<web::Json<Vec<RoleDto>>> {
    let roles = store::list_roles(&state.db).await?;
    Ok(web::Json(roles.into_iter().map(|r| role_for(&me, r)).collect()))
}

#[utoipa::path(get, path = "/api/v1/identity/roles/{id}", tag = "identity", security(("bearer" = [])),
    responses((status = 200, body = RoleDto), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody), (status = 404, body = ProblemBody)))]
pub async fn get_role(
    state: web::Data<AppState>,
    me: CurrentUser,
    id: web::Path<i32>,
) -> ApiResult<web::Json<RoleDto>> {
    let r = store::get_role(&state.db, id.into_inner()).await?;
    Ok(web::Json(role_for(&me, store::role_dto(&state.db, r).await?)))
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
    let created = commands::create_role(&state.db, &me, name, &permissions).await?;
    Ok(HttpResponse::Created().json(store::role_dto(&state.db, created).await?))
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
    let updated =
        commands::update_role(&state.db, &me, id.into_inner(), name, &permissions).await?;
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
    commands::delete_role(&state.db, &me, id.into_inner()).await?;
    Ok(HttpResponse::NoContent().finish())
}
