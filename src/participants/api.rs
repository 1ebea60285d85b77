//! Participant handlers: check the body (`rules`), call one command (`commands`) or query
//! (`store`), render.

use actix_web::{web, HttpResponse};
use sea_orm::DatabaseConnection;

use super::{
    commands,
    dto::*,
    rules::{self, DistrictSetType, ParticipantRole, ParticipantStatus},
    store,
};
use crate::{
    auth::{
        password,
        permissions::COORDINATOR,
        scope::{scope_of, Scope},
        CurrentUser,
    },
    error::{ApiError, ApiResult, Checks, ProblemBody},
    identity::{
        self,
        accounts::{create_user_with_roles, invitation_sent, NewUser},
        dto::InvitedUser,
    },
    reference::fixed::parse_payment_request_type,
    routes::ScopeFuture,
    state::AppState,
    web::{Json, Page, Put, Query},
};

/// The route table's scope rule for `/participants/{id}…` (`routes::Routes::scope`): a
/// participant the caller cannot see is a 404, before the body is read; the handler finds
/// the row (or its absence) itself.
pub fn in_scope<'a>(db: &'a DatabaseConnection, scope: &'a Scope, id: i32) -> ScopeFuture<'a> {
    Box::pin(async move { store::get_visible(db, scope, id).await.map(drop) })
}

#[utoipa::path(get, path = "/api/v1/participants", tag = "participants", security(("bearer" = [])), params(ParticipantsQuery),
    responses((status = 200, body = Page<ParticipantDto>), (status = 400, body = ProblemBody), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody)))]
pub async fn list(
    state: web::Data<AppState>,
    me: CurrentUser,
    Query(q): Query<ParticipantsQuery>,
) -> ApiResult<web::Json<Page<ParticipantDto>>> {
    let paging = q.paging()?;
    let mut checks = Checks::default();
    let mut link_ids: [Vec<i32>; 4] = Default::default();
    for (slot, (field, raw)) in link_ids.iter_mut().zip([
        ("WorkplaceSettingIds", &q.workplacesettingids),
        ("LanguageIds", &q.languageids),
        ("EducationLevelIds", &q.educationlevelids),
        ("PermitLevelIds", &q.permitlevelids),
    ]) {
        *slot = rules::ids(&mut checks, field, raw);
    }
    checks.finish()?;
    let filters = store::Filters {
        mentor_program_id: q.mentorprogramid,
        role: rules::enum_filter(
            "RoleCode",
            q.rolecode.as_deref(),
            ParticipantRole::parse,
            ParticipantRole::labels,
        )?,
        name: rules::search_text(q.fullname.as_deref()),
        email: rules::search_text(q.email.as_deref()),
        status: rules::enum_filter(
            "Status",
            q.status.as_deref(),
            ParticipantStatus::parse,
            ParticipantStatus::labels,
        )?,
        district_set_type: rules::enum_filter(
            "DistrictSetType",
            q.districtsettype.as_deref(),
            DistrictSetType::parse,
            DistrictSetType::labels,
        )?,
        district_id: q.districtid,
        link_ids,
        sort_by: super::dto::SortBy::parse(q.sortby.as_deref())?,
        descending: q.sortdescending.unwrap_or(false),
    };
    let scope = scope_of(&state.db, &me).await?;
    scope.require_filter(filters.mentor_program_id)?;
    Ok(web::Json(store::list(&state.db, &scope, &filters, paging).await?))
}

#[utoipa::path(get, path = "/api/v1/participants/{id}", tag = "participants", security(("bearer" = [])),
    responses((status = 200, body = ParticipantDto), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody), (status = 404, body = ProblemBody)))]
pub async fn get(
    state: web::Data<AppState>,
    me: CurrentUser,
    id: web::Path<i32>,
) -> ApiResult<web::Json<ParticipantDto>> {
    let scope = scope_of(&state.db, &me).await?;
    let p = store::get_visible(&state.db, &scope, id.into_inner()).await?;
    Ok(web::Json(store::dto(&state.db, p, &scope).await?))
}

#[utoipa::path(post, path = "/api/v1/participants", tag = "participants", security(("bearer" = [])), request_body = ParticipantBody,
    responses((status = 201, body = ParticipantDto), (status = 400, body = ProblemBody), (status = 401, body = ProblemBody),
        (status = 403, body = ProblemBody), (status = 409, body = ProblemBody), (status = 422, body = ProblemBody)))]
pub async fn create(
    state: web::Data<AppState>,
    me: CurrentUser,
    Json(body): Json<ParticipantBody>,
) -> ApiResult<HttpResponse> {
    let clean = rules::check_participant(&body)?;
    let mut checks = Checks::default();
    let participations: Vec<_> = body
        .participations
        .iter()
        .flatten()
        .enumerate()
        .filter_map(|(i, p)| {
            rules::check_participation(&format!("participations[{i}]."), p, &mut checks)
        })
        .collect();
    checks.finish()?;
    // The body is shared with PUT, so `version` is in its schema: refusing it here is a rule.
    let mut later = Checks::default();
    if body.version.is_some() {
        later.add("version", "is not accepted when creating");
    }
    for (i, p) in body.participations.iter().flatten().enumerate() {
        rules::participation_order(&format!("participations[{i}]."), p, &mut later);
    }
    later.finish_rules()?;
    let created = commands::create(&state.db, &me, &clean, &participations).await?;
    let scope = scope_of(&state.db, &me).await?;
    Ok(HttpResponse::Created().json(store::dto(&state.db, created, &scope).await?))
}

#[utoipa::path(put, path = "/api/v1/participants/{id}", tag = "participants", security(("bearer" = [])), request_body = ParticipantBody,
    responses((status = 200, body = ParticipantDto), (status = 400, body = ProblemBody), (status = 401, body = ProblemBody),
        (status = 403, body = ProblemBody), (status = 404, body = ProblemBody), (status = 409, description = "Stale version or e-mail taken", body = ProblemBody)))]
pub async fn update(
    state: web::Data<AppState>,
    me: CurrentUser,
    id: web::Path<i32>,
    Put(body): Put<ParticipantBody>,
) -> ApiResult<web::Json<ParticipantDto>> {
    let clean = rules::check_participant(&body)?;
    // Optional in the body's schema (shared with POST), required to edit: a rule of this call.
    let version = body
        .version
        .ok_or_else(|| ApiError::rule("version", "is required to edit (the version you read)"))?;
    let updated = commands::update(&state.db, &me, id.into_inner(), version, &clean).await?;
    let scope = scope_of(&state.db, &me).await?;
    Ok(web::Json(store::dto(&state.db, updated, &scope).await?))
}

#[utoipa::path(delete, path = "/api/v1/participants/{id}", tag = "participants", security(("bearer" = [])),
    responses((status = 204, description = "Deleted (soft): answers 404 from now on"), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody), (status = 404, body = ProblemBody)))]
pub async fn delete(
    state: web::Data<AppState>,
    me: CurrentUser,
    id: web::Path<i32>,
) -> ApiResult<HttpResponse> {
    commands::delete(&state.db, &me, id.into_inner()).await?;
    Ok(HttpResponse::NoContent().finish())
}

// ---- participations ----

fn check_one_participation(body: &ParticipationBody) -> ApiResult<rules::CleanParticipation> {
    let mut checks = Checks::default();
    let clean = rules::check_participation("", body, &mut checks);
    checks.finish()?;
    let mut later = Checks::default();
    rules::participation_order("", body, &mut later);
    later.finish_rules()?;
    clean.ok_or_else(|| ApiError::Internal("participation check".into()))
}

#[utoipa::path(post, path = "/api/v1/participants/{id}/participations", tag = "participants", security(("bearer" = [])), request_body = ParticipationBody,
    responses((status = 201, body = ParticipationDto), (status = 400, body = ProblemBody), (status = 401, body = ProblemBody),
        (status = 403, description = "Missing permission, or the program is outside your scope", body = ProblemBody), (status = 404, body = ProblemBody)))]
pub async fn add_participation(
    state: web::Data<AppState>,
    me: CurrentUser,
    id: web::Path<i32>,
    Json(body): Json<ParticipationBody>,
) -> ApiResult<HttpResponse> {
    let clean = check_one_participation(&body)?;
    let created = commands::add_participation(&state.db, &me, id.into_inner(), &clean).await?;
    Ok(HttpResponse::Created().json(store::participation_dto(created)))
}

#[utoipa::path(put, path = "/api/v1/participants/{id}/participations/{participationId}", tag = "participants", security(("bearer" = [])), request_body = ParticipationBody,
    params(("id" = i32, Path), ("participationId" = i32, Path)),
    responses((status = 200, body = ParticipationDto), (status = 400, body = ProblemBody), (status = 401, body = ProblemBody),
        (status = 403, body = ProblemBody), (status = 404, body = ProblemBody)))]
pub async fn update_participation(
    state: web::Data<AppState>,
    me: CurrentUser,
    path: web::Path<(i32, i32)>,
    Put(body): Put<ParticipationBody>,
) -> ApiResult<web::Json<ParticipationDto>> {
    let clean = check_one_participation(&body)?;
    let updated = commands::update_participation(&state.db, &me, path.into_inner(), &clean).await?;
    Ok(web::Json(store::participation_dto(updated)))
}

#[utoipa::path(delete, path = "/api/v1/participants/{id}/participations/{participationId}", tag = "participants", security(("bearer" = [])),
    params(("id" = i32, Path), ("participationId" = i32, Path)),
    responses((status = 204, description = "Deleted (soft)"), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody), (status = 404, body = ProblemBody)))]
pub async fn delete_participation(
    state: web::Data<AppState>,
    me: CurrentUser,
    path: web::Path<(i32, i32)>,
) -> ApiResult<HttpResponse> {
    commands::delete_participation(&state.db, &me, path.into_inner()).await?;
    Ok(HttpResponse::NoContent().finish())
}

// ---- coordinator login ----

#[utoipa::path(post, path = "/api/v1/participants/{id}/identity-user", tag = "participants", security(("bearer" = [])), request_body = IdentityUserBody,
    responses((status = 201, body = InvitedUser), (status = 400, body = ProblemBody), (status = 401, body = ProblemBody),
        (status = 403, body = ProblemBody), (status = 404, body = ProblemBody), (status = 409, description = "The participant (or its e-mail) has a login already", body = ProblemBody)))]
pub async fn create_identity_user(
    state: web::Data<AppState>,
    me: CurrentUser,
    id: web::Path<i32>,
    Json(body): Json<IdentityUserBody>,
) -> ApiResult<HttpResponse> {
    if let Some(problem) = body.password.as_deref().and_then(password::policy_problem) {
        return Err(ApiError::bad_field("password", problem));
    }
    let p =
        store::get_visible(&state.db, &scope_of(&state.db, &me).await?, id.into_inner()).await?;
    let roles = identity::store::roles_by_names(&state.db, &[COORDINATOR.to_owned()]).await?;
    let hash = match body.password {
        Some(pw) => Some(password::hash(pw).await?),
        None => None,
    };
    let new = NewUser {
        email: p.email.clone(),
        first_name: p.first_name.clone(),
        last_name: p.last_name.clone(),
        hash,
        participant_id: Some(p.id),
    };
    // The same path as an invitation from the user screens: it checks the participant may be
    // linked (within the caller's programs, no login yet), records the creation and queues the
    // invitation mail, in one transaction.
    let (created, link) =
        create_user_with_roles(&state, (&(&me).into(), Some(&me)), new, &roles).await?;
    let user = identity::store::user_dto(&state.db, created).await?;
    let invitation = link.map(|l| invitation_sent(&state, l));
    Ok(HttpResponse::Created().json(InvitedUser { user, invitation }))
}

// ---- payee picker ----

#[utoipa::path(get, path = "/api/v1/payment-requests/participant-list", tag = "participants", security(("bearer" = [])), params(ParticipantListQuery),
    responses((status = 200, body = Vec<ParticipantListItem>), (status = 400, body = ProblemBody), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody)))]
pub async fn participant_list(
    state: web::Data<AppState>,
    me: CurrentUser,
    Query(q): Query<ParticipantListQuery>,
) -> ApiResult<web::Json<Vec<ParticipantListItem>>> {
    if let Some(t) = q.formtype.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
        parse_payment_request_type(t)
            .ok_or_else(|| ApiError::bad_field("FormType", "must be one of F1..F14"))?;
    }
    let filters = store::PickerFilters {
        mentor_program_id: q.mentorprogramid,
        role: rules::enum_filter(
            "RoleType",
            q.roletype.as_deref(),
            ParticipantRole::parse,
            ParticipantRole::labels,
        )?,
        show_deleted: q.showdeleted.unwrap_or(false),
        participation_ids: q.participationids,
    };
    // FormId (the request being edited) will keep its current payee listed once requests exist.
    let _ = q.formid;
    let scope = scope_of(&state.db, &me).await?;
    scope.require_filter(filters.mentor_program_id)?;
    Ok(web::Json(store::picker(&state.db, &scope, &filters).await?))
}
