//! Payment request handlers (DESIGN §4): thin — parse, authorize (permission, then scope),
//! call the pure rules, and change state with ONE conditional update guarded by id,
//! status and version, in one transaction with its activity-log entry.

use actix_web::{web, HttpResponse};
use chrono::Utc;
use sea_orm::{
    sea_query::{Expr, ExprTrait},
    ActiveValue::Set,
    ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter,
};
use serde_json::json;

use crate::forms::{self, Details, FormType};

use super::{
    approval::{self, Proposal},
    dto::*,
    files::{self, FileDto},
    store,
    workflow::{self, Action, Refusal, Status},
};
use crate::{
    activity,
    auth::{
        scope::{scope_of, Scope},
        CurrentUser, Permission,
    },
    entities::{payment_request as pr, uploaded_file, user},
    error::{ApiError, ApiResult, Checks, ProblemBody},
    money::Money,
    reference,
    state::AppState,
    web::{Json, Page, PageQuery, Put, Query},
};

type FormPath = web::Path<(String, i32)>;

fn form_of(text: &str) -> ApiResult<FormType> {
    FormType::parse(text).ok_or_else(|| ApiError::not_found("The form type"))
}

fn status_of(r: &pr::Model) -> ApiResult<Status> {
    Status::parse(&r.status).ok_or_else(|| ApiError::Internal(format!("stored status {}", r.status)))
}

fn refusal(r: Refusal) -> ApiError {
    match r {
        Refusal::Forbidden(p) => ApiError::missing_permission(p.code()),
        Refusal::WrongStatus { action, status } => {
            ApiError::Conflict(format!("The request is {}; {action:?} is not possible from there.", status.as_str()))
        }
    }
}

fn stale() -> ApiError {
    ApiError::Conflict("The request was changed by someone else meanwhile; reload it and try again.".into())
}

/// What `me` may do to `r` now (the self-approval rule included).
fn available(me: &CurrentUser, r: &pr::Model) -> Vec<Action> {
    let status = Status::parse(&r.status).unwrap_or(Status::Processed);
    let has = |p: Permission| me.has(p);
    let own = r.created_by == Some(me.id()) || r.submitted_by == Some(me.id());
    workflow::available(status, has).into_iter().filter(|a| !(own && *a == Action::Approve)).collect()
}

async fn dto(db: &impl ConnectionTrait, me: &CurrentUser, r: pr::Model) -> ApiResult<PaymentRequestDto> {
    let form = form_of(&r.form_type)?;
    let details = Details::from_stored(form, &r.details)?;
    let files = if form == FormType::F2 {
        Some(store::files_of(db, r.id).await?.into_iter().map(FileDto::from).collect())
    } else {
        None
    };
    let vendor_payment_report_id = if r.status == Status::Processed.as_str() { store::paid_in(db, r.id).await? } else { None };
    Ok(PaymentRequestDto {
        vendor_payment_report_id,
        available_actions: available(me, &r),
        id: r.id,
        form_type: form,
        form_status: status_of(&r)?,
        participation_id: r.participation_id,
        payee_id: r.participant_id,
        mentor_program_id: r.mentor_program_id,
        description: r.description,
        requested_amount: Money(r.requested_cents),
        approved_amount: r.approved_cents.map(Money),
        approval_code_id: r.approval_code_id,
        fund_id: r.fund_id,
        expense_account_id: r.expense_account_id,
        fiscal_year_id: r.fiscal_year_id,
        submitted_on: r.submitted_on,
        placement_end_date: r.placement_end_date,
        approved_at: r.approved_at,
        approved_by: r.approved_by,
        version: r.version,
        created_at: r.created_at,
        created_by: r.created_by,
        updated_at: r.updated_at,
        updated_by: r.updated_by,
        details,
        files,
    })
}

fn list_item(me: &CurrentUser, r: pr::Model) -> ApiResult<PaymentRequestListItem> {
    Ok(PaymentRequestListItem {
        available_actions: available(me, &r),
        id: r.id,
        form_type: form_of(&r.form_type)?,
        form_status: status_of(&r)?,
        participation_id: r.participation_id,
        payee_id: r.participant_id,
        mentor_program_id: r.mentor_program_id,
        description: r.description,
        requested_amount: Money(r.requested_cents),
        approved_amount: r.approved_cents.map(Money),
        submitted_on: r.submitted_on,
        placement_end_date: r.placement_end_date,
        approved_at: r.approved_at,
        version: r.version,
        updated_at: r.updated_at,
    })
}

/// The route table's scope rule for `/payment-requests/{formType}/{id}…` and the F2 file
/// routes (`routes::Routes::scope`): a request outside the caller's programs is a 404,
/// before the body is read. Unrestricted callers pass without a query; the handler finds
/// the row (of its form type) itself.
pub fn in_scope<'a>(state: &'a AppState, me: &'a CurrentUser, id: i32) -> crate::routes::ScopeFuture<'a> {
    Box::pin(async move {
        let scope = scope_of(&state.db, me).await?;
        if scope.is_all() {
            return Ok(());
        }
        store::visible_by_id(&state.db, &scope, id).await.map(drop)
    })
}

/// The request in scope (404), then the workflow (409); the route table checked the
/// action's permission (403) before.
pub(super) async fn load_for(state: &AppState, me: &CurrentUser, form: &str, id: i32, action: Action) -> ApiResult<(pr::Model, Status, Scope)> {
    let form = form_of(form)?;
    let scope = scope_of(&state.db, me).await?;
    let r = store::find_visible(&state.db, &scope, form, id).await?;
    let status = status_of(&r)?;
    workflow::check(action, status, |p| me.has(p)).map_err(refusal)?;
    Ok((r, status, scope))
}

/// The guarded update: only the row still at `version` in one of `sources` changes.
fn guarded(id: i32, version: i32, sources: &[Status]) -> sea_orm::UpdateMany<pr::Entity> {
    pr::Entity::update_many()
        .col_expr(pr::Column::Version, Expr::value(version + 1))
        .filter(pr::Column::Id.eq(id))
        .filter(pr::Column::Version.eq(version))
        .filter(pr::Column::Status.is_in(sources.iter().map(|s| s.as_str())))
        .filter(pr::Column::DeletedAt.is_null())
}

/// Runs a `guarded` update as `me` at `at`; a row that moved on meanwhile is a 409.
async fn save_guarded(
    update: sea_orm::UpdateMany<pr::Entity>,
    at: chrono::DateTime<Utc>,
    me: &CurrentUser,
    txn: &impl ConnectionTrait,
) -> ApiResult<()> {
    let done = update
        .col_expr(pr::Column::UpdatedAt, Expr::value(at))
        .col_expr(pr::Column::UpdatedBy, Expr::value(me.id()))
        .exec(txn)
        .await?;
    if done.rows_affected != 1 {
        return Err(stale());
    }
    Ok(())
}

async fn log(
    db: &impl ConnectionTrait,
    me: &CurrentUser,
    id: i32,
    action: &str,
    (from, to): (Option<Status>, Option<Status>),
    comment: Option<String>,
    data: serde_json::Value,
) -> ApiResult<()> {
    activity::record(
        db,
        activity::Entry {
            entity_type: store::ENTITY,
            entity_id: id,
            action,
            actor_user_id: Some(me.id()),
            from_status: from.map(|s| s.as_str().to_owned()),
            to_status: to.map(|s| s.as_str().to_owned()),
            comment,
            data: Some(data),
        },
    )
    .await
}

async fn reload(state: &AppState, me: &CurrentUser, id: i32) -> ApiResult<web::Json<PaymentRequestDto>> {
    let r = pr::Entity::find_by_id(id).one(&state.db).await?.ok_or_else(|| ApiError::not_found("The payment request"))?;
    Ok(web::Json(dto(&state.db, me, r).await?))
}

// ---- create and edit ----

/// Everything a create or edit writes, checked.
struct Checked {
    participation: crate::entities::participation::Model,
    description: Option<String>,
    details: Details,
    evaluated: forms::Evaluated,
    fund_id: Option<i32>,
    expense_account_id: Option<i32>,
}

async fn check_write(state: &AppState, me: &CurrentUser, scope: &Scope, form: FormType, body: &WriteRequest, request_id: Option<i32>) -> ApiResult<Checked> {
    // The details' shape depends on the form type in the path, which no schema can tie to
    // the body: a mismatch is a rule (422 naming the field), like the rules after it.
    let mut details = Details::parse(form, &body.details).map_err(|e| match e {
        ApiError::BadRequest { detail, errors } => ApiError::Unprocessable { detail, errors },
        other => other,
    })?;
    let db = &state.db;
    let mut errors = Checks::default();
    let participation = store::live_participation(db, body.participation_id).await?;
    let participation = match participation {
        Some(p) if scope.allows_program(p.mentor_program_id) => p,
        Some(p) => {
            scope.require_program(p.mentor_program_id, "participationId")?;
            unreachable!()
        }
        None => return Err(ApiError::rule("participationId", "No live participation has this id.")),
    };
    if body.mentor_program_id.is_some_and(|m| m != participation.mentor_program_id) {
        errors.add("mentorProgramId", "must be the participation's mentor program");
    }
    let description = forms::check_description(body.description.as_deref(), &mut errors);
    let rates = store::rates(db).await?;
    let limits = store::limits(db, form).await?;
    let evaluated = match forms::evaluate(&mut details, body.requested_amount, &rates, &limits) {
        Ok(e) => Some(e),
        Err(e) => {
            errors.extend(e);
            None
        }
    };
    for (field, list, id) in details.references() {
        reference::store::check_ids(db, &mut errors, field, list.table(), &[id]).await?;
    }
    if let Some(f) = body.fund_id {
        reference::store::check_ids(db, &mut errors, "fundId", "funds", &[f]).await?;
    }
    if let Some(a) = body.expense_account_id {
        reference::store::check_ids(db, &mut errors, "expenseAccountId", "expense_accounts", &[a]).await?;
    }
    let ids = details.file_ids().to_vec();
    if ids.iter().any(|id| !files::is_file_id(id)) {
        errors.add("details.fileIds", "must hold file ids from generate-upload-urls");
    } else {
        let found = store::files_by_ids(db, &ids).await?;
        errors.extend(files::check_attachable(&ids, &found, me.id(), request_id));
    }
    errors.finish_as("The request has invalid fields.")?;
    Ok(Checked {
        participation,
        description,
        details,
        evaluated: evaluated.expect("no errors means evaluated"),
        fund_id: body.fund_id,
        expense_account_id: body.expense_account_id,
    })
}

/// Points the listed receipts at the request and frees the ones no longer listed.
async fn attach_files(db: &impl ConnectionTrait, request_id: i32, ids: &[String]) -> ApiResult<Vec<String>> {
    let current = store::files_of(db, request_id).await?;
    let dropped: Vec<String> = current.iter().filter(|f| !ids.contains(&f.id)).map(|f| f.id.clone()).collect();
    if !dropped.is_empty() {
        uploaded_file::Entity::update_many()
            .col_expr(uploaded_file::Column::DeletedAt, Expr::value(Utc::now()))
            .filter(uploaded_file::Column::Id.is_in(dropped.clone()))
            .exec(db)
            .await?;
    }
    if !ids.is_empty() {
        uploaded_file::Entity::update_many()
            .col_expr(uploaded_file::Column::PaymentRequestId, Expr::value(request_id))
            .filter(uploaded_file::Column::Id.is_in(ids.to_vec()))
            .exec(db)
            .await?;
    }
    Ok(dropped)
}

#[utoipa::path(post, path = "/api/v1/payment-requests/{formType}", tag = "payment-requests", security(("bearer" = [])),
    params(("formType" = FormType, Path)), request_body = WriteRequest,
    responses((status = 201, body = PaymentRequestDto), (status = 400, body = ProblemBody), (status = 401, body = ProblemBody),
        (status = 403, body = ProblemBody), (status = 404, body = ProblemBody), (status = 422, body = ProblemBody)))]
pub async fn create(state: web::Data<AppState>, me: CurrentUser, form: web::Path<String>, Json(body): Json<WriteRequest>) -> ApiResult<HttpResponse> {
    let form = form_of(&form)?;
    let scope = scope_of(&state.db, &me).await?;
    let c = check_write(&state, &me, &scope, form, &body, None).await?;
    let now = Utc::now();
    let (start, end) = c.evaluated.activity_dates.map_or((None, None), |(a, b)| (Some(a), Some(b)));
    let txn = crate::db::write(&state.db).await?;
    let inserted = pr::Entity::insert(pr::ActiveModel {
        form_type: Set(form.as_str().to_owned()),
        status: Set(Status::Draft.as_str().to_owned()),
        participation_id: Set(c.participation.id),
        mentor_program_id: Set(c.participation.mentor_program_id),
        participant_id: Set(c.participation.participant_id),
        description: Set(c.description.clone()),
        requested_cents: Set(c.evaluated.requested_amount.cents()),
        approved_cents: Set(None),
        approval_code_id: Set(None),
        fund_id: Set(c.fund_id),
        expense_account_id: Set(c.expense_account_id),
        fiscal_year_id: Set(None),
        submitted_on: Set(None),
        submitted_by: Set(None),
        approved_at: Set(None),
        approved_by: Set(None),
        placement_end_date: Set(c.evaluated.placement_end_date),
        activity_start: Set(start),
        activity_end: Set(end),
        details: Set(c.details.to_json()),
        version: Set(1),
        created_at: Set(now),
        created_by: Set(Some(me.id())),
        updated_at: Set(now),
        updated_by: Set(Some(me.id())),
        deleted_at: Set(None),
        ..Default::default()
    })
    .exec(&txn)
    .await?;
    let id = inserted.last_insert_id;
    attach_files(&txn, id, c.details.file_ids()).await?;
    log(&txn, &me, id, "created", (None, Some(Status::Draft)), None, json!({"requestedAmount": c.evaluated.requested_amount})).await?;
    txn.commit().await?;
    let r = pr::Entity::find_by_id(id).one(&state.db).await?.ok_or_else(|| ApiError::Internal("created row missing".into()))?;
    Ok(HttpResponse::Created().json(dto(&state.db, &me, r).await?))
}

#[utoipa::path(get, path = "/api/v1/payment-requests/{formType}/{id}", tag = "payment-requests", security(("bearer" = [])),
    params(("formType" = FormType, Path), ("id" = i32, Path)),
    responses((status = 200, body = PaymentRequestDto), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody), (status = 404, body = ProblemBody)))]
pub async fn get(state: web::Data<AppState>, me: CurrentUser, path: FormPath) -> ApiResult<web::Json<PaymentRequestDto>> {
    let (form, id) = path.into_inner();
    let form = form_of(&form)?;
    let scope = scope_of(&state.db, &me).await?;
    let r = store::find_visible(&state.db, &scope, form, id).await?;
    Ok(web::Json(dto(&state.db, &me, r).await?))
}

#[utoipa::path(put, path = "/api/v1/payment-requests/{formType}/{id}", tag = "payment-requests", security(("bearer" = [])),
    params(("formType" = FormType, Path), ("id" = i32, Path)), request_body = WriteRequest,
    responses((status = 200, body = PaymentRequestDto), (status = 400, body = ProblemBody), (status = 401, body = ProblemBody),
        (status = 403, body = ProblemBody), (status = 404, body = ProblemBody), (status = 409, body = ProblemBody, description = "Wrong status or stale version"),
        (status = 422, body = ProblemBody)))]
pub async fn update(state: web::Data<AppState>, me: CurrentUser, path: FormPath, Put(body): Put<WriteRequest>) -> ApiResult<web::Json<PaymentRequestDto>> {
    let (form_text, id) = path.into_inner();
    // Optional in the shared body schema, required to edit: a rule of this call.
    let version = body.version.ok_or_else(|| ApiError::rule("version", "is required to edit (the version you read)"))?;
    let (r, status, scope) = load_for(&state, &me, &form_text, id, Action::Edit).await?;
    if r.version != version {
        return Err(stale());
    }
    let form = form_of(&form_text)?;
    let c = check_write(&state, &me, &scope, form, &body, Some(id)).await?;
    let (start, end) = c.evaluated.activity_dates.map_or((None, None), |(a, b)| (Some(a), Some(b)));
    let sources = Action::Edit.sources(|p| me.has(p));
    let txn = crate::db::write(&state.db).await?;
    save_guarded(
        guarded(id, version, &sources)
        .col_expr(pr::Column::ParticipationId, Expr::value(c.participation.id))
        .col_expr(pr::Column::MentorProgramId, Expr::value(c.participation.mentor_program_id))
        .col_expr(pr::Column::ParticipantId, Expr::value(c.participation.participant_id))
        .col_expr(pr::Column::Description, Expr::value(c.description.clone()))
        .col_expr(pr::Column::RequestedCents, Expr::value(c.evaluated.requested_amount.cents()))
        .col_expr(pr::Column::FundId, Expr::value(c.fund_id))
        .col_expr(pr::Column::ExpenseAccountId, Expr::value(c.expense_account_id))
        .col_expr(pr::Column::PlacementEndDate, Expr::value(c.evaluated.placement_end_date))
        .col_expr(pr::Column::ActivityStart, Expr::value(start))
        .col_expr(pr::Column::ActivityEnd, Expr::value(end))
        .col_expr(pr::Column::Details, Expr::value(c.details.to_json())),
        Utc::now(),
        &me,
        &txn,
    )
    .await?;
    let dropped = attach_files(&txn, id, c.details.file_ids()).await?;
    log(
        &txn,
        &me,
        id,
        "edited",
        (Some(status), Some(status)),
        None,
        json!({"requestedAmount": {"before": Money(r.requested_cents), "after": c.evaluated.requested_amount}, "removedFiles": dropped}),
    )
    .await?;
    txn.commit().await?;
    for f in &dropped {
        state.files.remove(f).await;
    }
    reload(&state, &me, id).await
}

#[utoipa::path(delete, path = "/api/v1/payment-requests/{formType}/{id}", tag = "payment-requests", security(("bearer" = [])),
    params(("formType" = FormType, Path), ("id" = i32, Path)),
    responses((status = 204, description = "Deleted (soft)"), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody),
        (status = 404, body = ProblemBody), (status = 409, body = ProblemBody)))]
pub async fn delete(state: web::Data<AppState>, me: CurrentUser, path: FormPath) -> ApiResult<HttpResponse> {
    let (form, id) = path.into_inner();
    let (r, status, _) = load_for(&state, &me, &form, id, Action::Delete).await?;
    let txn = crate::db::write(&state.db).await?;
    let done = guarded(id, r.version, &[Status::Draft])
        .col_expr(pr::Column::DeletedAt, Expr::value(Utc::now()))
        .col_expr(pr::Column::UpdatedBy, Expr::value(me.id()))
        .exec(&txn)
        .await?;
    if done.rows_affected != 1 {
        return Err(stale());
    }
    log(&txn, &me, id, "deleted", (Some(status), None), None, json!({})).await?;
    txn.commit().await?;
    Ok(HttpResponse::NoContent().finish())
}

// ---- transitions ----

/// A plain transition: the guarded update plus the entry, nothing else to decide.
async fn simple(state: &AppState, me: &CurrentUser, path: FormPath, action: Action, name: &str, comment: Option<String>) -> ApiResult<web::Json<PaymentRequestDto>> {
    let (form, id) = path.into_inner();
    let (r, status, _) = load_for(state, me, &form, id, action).await?;
    let to = action.target().expect("a transition");
    let txn = crate::db::write(&state.db).await?;
    let mut update = guarded(id, r.version, &action.sources(|p| me.has(p)))
        .col_expr(pr::Column::Status, Expr::value(to.as_str()))
        .col_expr(pr::Column::UpdatedAt, Expr::value(Utc::now()))
        .col_expr(pr::Column::UpdatedBy, Expr::value(me.id()));
    if action == Action::MoveBackToSubmitted {
        // The approval no longer stands: nothing is charged until approved again.
        update = update
            .col_expr(pr::Column::ApprovedCents, Expr::value(Option::<i64>::None))
            .col_expr(pr::Column::ApprovedAt, Expr::value(Option::<chrono::DateTime<Utc>>::None))
            .col_expr(pr::Column::ApprovedBy, Expr::value(Option::<i32>::None));
    }
    if update.exec(&txn).await?.rows_affected != 1 {
        return Err(stale());
    }
    log(&txn, me, id, name, (Some(status), Some(to)), comment, json!({"approvedAmount": r.approved_cents.map(Money)})).await?;
    txn.commit().await?;
    reload(state, me, id).await
}

#[utoipa::path(post, path = "/api/v1/payment-requests/{formType}/{id}/submit", tag = "payment-requests", security(("bearer" = [])),
    params(("formType" = FormType, Path), ("id" = i32, Path)),
    responses((status = 200, body = PaymentRequestDto), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody),
        (status = 404, body = ProblemBody), (status = 409, body = ProblemBody), (status = 422, body = ProblemBody)))]
pub async fn submit(state: web::Data<AppState>, me: CurrentUser, path: FormPath) -> ApiResult<web::Json<PaymentRequestDto>> {
    let (form_text, id) = path.into_inner();
    let (r, status, _) = load_for(&state, &me, &form_text, id, Action::Submit).await?;
    let form = form_of(&form_text)?;
    // The limits and rates in force now apply: they may have changed since the draft.
    let mut details = Details::from_stored(form, &r.details)?;
    let rates = store::rates(&state.db).await?;
    let limits = store::limits(&state.db, form).await?;
    let evaluated = forms::evaluate(&mut details, Some(Money(r.requested_cents)), &rates, &limits)
        .map_err(|errors| ApiError::Unprocessable { detail: "The request breaks the form's limits.".into(), errors })?;
    let submitted_on = r.submitted_on.unwrap_or_else(store::today);
    let year = store::charged_year(&state.db, r.fiscal_year_id, Some(submitted_on)).await?.map(|y| y.id);
    let txn = crate::db::write(&state.db).await?;
    save_guarded(
        guarded(id, r.version, &Action::Submit.sources(|p| me.has(p)))
        .col_expr(pr::Column::Status, Expr::value(Status::Submitted.as_str()))
        .col_expr(pr::Column::SubmittedOn, Expr::value(submitted_on))
        .col_expr(pr::Column::SubmittedBy, Expr::value(me.id()))
        .col_expr(pr::Column::FiscalYearId, Expr::value(year))
        .col_expr(pr::Column::RequestedCents, Expr::value(evaluated.requested_amount.cents()))
        .col_expr(pr::Column::Details, Expr::value(details.to_json())),
        Utc::now(),
        &me,
        &txn,
    )
    .await?;
    log(
        &txn,
        &me,
        id,
        "submitted",
        (Some(status), Some(Status::Submitted)),
        None,
        json!({"requestedAmount": evaluated.requested_amount, "submittedOn": submitted_on, "fiscalYearId": year}),
    )
    .await?;
    txn.commit().await?;
    reload(&state, &me, id).await
}

#[utoipa::path(post, path = "/api/v1/payment-requests/{formType}/{id}/move-to-draft", tag = "payment-requests", security(("bearer" = [])),
    params(("formType" = FormType, Path), ("id" = i32, Path)),
    responses((status = 200, body = PaymentRequestDto), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody), (status = 404, body = ProblemBody), (status = 409, body = ProblemBody)))]
pub async fn move_to_draft(state: web::Data<AppState>, me: CurrentUser, path: FormPath) -> ApiResult<web::Json<PaymentRequestDto>> {
    simple(&state, &me, path, Action::MoveToDraft, "moved-to-draft", None).await
}

#[utoipa::path(post, path = "/api/v1/payment-requests/{formType}/{id}/send-for-revision", tag = "payment-requests", security(("bearer" = [])),
    params(("formType" = FormType, Path), ("id" = i32, Path)), request_body = ReasonBody,
    responses((status = 200, body = PaymentRequestDto), (status = 400, body = ProblemBody), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody),
        (status = 404, body = ProblemBody), (status = 409, body = ProblemBody)))]
pub async fn send_for_revision(state: web::Data<AppState>, me: CurrentUser, path: FormPath, Json(body): Json<ReasonBody>) -> ApiResult<web::Json<PaymentRequestDto>> {
    let reason = body.reason.trim();
    if reason.is_empty() {
        return Err(ApiError::bad_field("reason", "is required"));
    }
    if reason.chars().count() > forms::MAX_DESCRIPTION_CHARS {
        return Err(ApiError::bad_field("reason", format!("must be at most {} characters", forms::MAX_DESCRIPTION_CHARS)));
    }
    simple(&state, &me, path, Action::SendForRevision, "sent-for-revision", Some(reason.to_owned())).await
}

#[utoipa::path(post, path = "/api/v1/payment-requests/{formType}/{id}/move-back-to-submitted", tag = "payment-requests", security(("bearer" = [])),
    params(("formType" = FormType, Path), ("id" = i32, Path)),
    responses((status = 200, body = PaymentRequestDto), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody), (status = 404, body = ProblemBody), (status = 409, body = ProblemBody)))]
pub async fn move_back_to_submitted(state: web::Data<AppState>, me: CurrentUser, path: FormPath) -> ApiResult<web::Json<PaymentRequestDto>> {
    simple(&state, &me, path, Action::MoveBackToSubmitted, "moved-back-to-submitted", None).await
}

#[utoipa::path(post, path = "/api/v1/payment-requests/{formType}/{id}/move-to-ready-for-processing", tag = "payment-requests", security(("bearer" = [])),
    params(("formType" = FormType, Path), ("id" = i32, Path)),
    responses((status = 200, body = PaymentRequestDto), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody), (status = 404, body = ProblemBody), (status = 409, body = ProblemBody)))]
pub async fn move_to_ready_for_processing(state: web::Data<AppState>, me: CurrentUser, path: FormPath) -> ApiResult<web::Json<PaymentRequestDto>> {
    simple(&state, &me, path, Action::MoveToReadyForProcessing, "moved-to-ready-for-processing", None).await
}

// ---- approval ----

#[utoipa::path(post, path = "/api/v1/payment-requests/{formType}/{id}/approve/validate", tag = "payment-requests", security(("bearer" = [])),
    params(("formType" = FormType, Path), ("id" = i32, Path)), request_body = ApproveValidateBody,
    responses((status = 200, body = ValidationResult), (status = 400, body = ProblemBody), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody),
        (status = 404, body = ProblemBody), (status = 409, body = ProblemBody)))]
pub async fn approve_validate(state: web::Data<AppState>, me: CurrentUser, path: FormPath, Json(body): Json<ApproveValidateBody>) -> ApiResult<web::Json<ValidationResult>> {
    let (form, id) = path.into_inner();
    let (r, _, _) = load_for(&state, &me, &form, id, Action::Approve).await?;
    let p = Proposal { approved_amount: body.approved_amount, approval_code_id: body.approval_code_id, fund_id: body.fund_id, expense_account_id: body.expense_account_id };
    let year = store::charged_year(&state.db, r.fiscal_year_id, r.submitted_on).await?;
    let v = approval::assess(&p, &store::approval_facts(&state.db, &r, &p, year.as_ref(), me.id()).await?);
    Ok(web::Json(ValidationResult { errors: v.errors, warnings: v.warnings }))
}

#[utoipa::path(post, path = "/api/v1/payment-requests/{formType}/{id}/approve", tag = "payment-requests", security(("bearer" = [])),
    params(("formType" = FormType, Path), ("id" = i32, Path)), request_body = ApproveBody,
    responses((status = 200, body = PaymentRequestDto), (status = 400, body = ProblemBody), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody),
        (status = 404, body = ProblemBody), (status = 409, body = ProblemBody), (status = 422, body = ProblemBody, description = "Errors, or warnings not acknowledged")))]
pub async fn approve(state: web::Data<AppState>, me: CurrentUser, path: FormPath, Json(body): Json<ApproveBody>) -> ApiResult<web::Json<PaymentRequestDto>> {
    let (form, id) = path.into_inner();
    let (r, status, _) = load_for(&state, &me, &form, id, Action::Approve).await?;
    let p = Proposal { approved_amount: body.approved_amount, approval_code_id: body.approval_code_id, fund_id: body.fund_id, expense_account_id: body.expense_account_id };
    let year = store::charged_year(&state.db, r.fiscal_year_id, r.submitted_on).await?;
    let verdict = approval::assess(&p, &store::approval_facts(&state.db, &r, &p, year.as_ref(), me.id()).await?);
    verdict.gate(body.acknowledge_warnings)?;
    let comment = body.comment.as_deref().map(str::trim).filter(|c| !c.is_empty()).map(str::to_owned);
    let year = year.map(|y| y.id);
    let now = Utc::now();
    let txn = crate::db::write(&state.db).await?;
    save_guarded(
        guarded(id, r.version, &[Status::Submitted])
        .col_expr(pr::Column::Status, Expr::value(Status::Approved.as_str()))
        .col_expr(pr::Column::ApprovedCents, Expr::value(p.approved_amount.cents()))
        .col_expr(pr::Column::ApprovalCodeId, Expr::value(p.approval_code_id))
        .col_expr(pr::Column::FundId, Expr::value(p.fund_id))
        .col_expr(pr::Column::ExpenseAccountId, Expr::value(p.expense_account_id))
        .col_expr(pr::Column::FiscalYearId, Expr::value(year))
        .col_expr(pr::Column::ApprovedAt, Expr::value(now))
        .col_expr(pr::Column::ApprovedBy, Expr::value(me.id())),
        now,
        &me,
        &txn,
    )
    .await?;
    log(
        &txn,
        &me,
        id,
        "approved",
        (Some(status), Some(Status::Approved)),
        comment,
        json!({
            "requestedAmount": Money(r.requested_cents), "approvedAmount": p.approved_amount,
            "approvalCodeId": p.approval_code_id, "fundId": p.fund_id, "expenseAccountId": p.expense_account_id,
            "fiscalYearId": year, "acknowledgedWarnings": verdict.warnings,
        }),
    )
    .await?;
    txn.commit().await?;
    reload(&state, &me, id).await
}

#[utoipa::path(post, path = "/api/v1/payment-requests/move-to-statuses/ready-for-processing/batch", tag = "payment-requests", security(("bearer" = [])),
    request_body = BatchBody,
    responses((status = 200, body = BatchResult), (status = 400, body = ProblemBody), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody),
        (status = 409, body = ProblemBody, description = "Names the requests that are not Approved (or not found); nothing moved")))]
pub async fn batch_ready_for_processing(state: web::Data<AppState>, me: CurrentUser, Json(body): Json<BatchBody>) -> ApiResult<web::Json<BatchResult>> {
    let mut ids = body.ids.clone();
    ids.sort_unstable();
    ids.dedup();
    if ids.is_empty() {
        return Err(ApiError::bad_field("ids", "name at least one request"));
    }
    if ids.len() > 1000 {
        return Err(ApiError::bad_field("ids", "at most 1000 requests at once"));
    }
    let scope = scope_of(&state.db, &me).await?;
    let rows = pr::Entity::find().filter(pr::Column::Id.is_in(ids.clone())).filter(pr::Column::DeletedAt.is_null()).all(&state.db).await?;
    let offenders = batch_offenders(&ids, &rows, &scope);
    if !offenders.is_empty() {
        return Err(ApiError::Conflict(format!("Nothing was moved: not Approved (or not found): {}.", offenders.join(", "))));
    }
    let now = Utc::now();
    let txn = crate::db::write(&state.db).await?;
    let done = pr::Entity::update_many()
        .col_expr(pr::Column::Status, Expr::value(Status::ReadyForProcessing.as_str()))
        .col_expr(pr::Column::Version, Expr::col(pr::Column::Version).add(1))
        .col_expr(pr::Column::UpdatedAt, Expr::value(now))
        .col_expr(pr::Column::UpdatedBy, Expr::value(me.id()))
        .filter(pr::Column::Id.is_in(ids.clone()))
        .filter(pr::Column::Status.eq(Status::Approved.as_str()))
        .filter(pr::Column::DeletedAt.is_null())
        .exec(&txn)
        .await?;
    if done.rows_affected != ids.len() as u64 {
        // Someone moved one of them meanwhile: undo all (the transaction rolls back on drop).
        return Err(ApiError::Conflict("Nothing was moved: some requests changed meanwhile; reload and try again.".into()));
    }
    for id in &ids {
        log(&txn, &me, *id, "moved-to-ready-for-processing", (Some(Status::Approved), Some(Status::ReadyForProcessing)), None, json!({"batch": ids.len()})).await?;
    }
    txn.commit().await?;
    Ok(web::Json(BatchResult { moved: ids }))
}

/// Ids that block a batch: unknown, outside scope, or not Approved.
pub fn batch_offenders(ids: &[i32], rows: &[pr::Model], scope: &Scope) -> Vec<String> {
    ids.iter()
        .filter_map(|id| match rows.iter().find(|r| r.id == *id) {
            Some(r) if !scope.allows_program(r.mentor_program_id) => Some(format!("{id} (not found)")),
            Some(r) if r.status != Status::Approved.as_str() => Some(format!("{id} ({})", r.status)),
            Some(_) => None,
            None => Some(format!("{id} (not found)")),
        })
        .collect()
}

// ---- lists ----

#[utoipa::path(get, path = "/api/v1/payment-requests", tag = "payment-requests", security(("bearer" = [])), params(ListQuery),
    responses((status = 200, body = Page<PaymentRequestListItem>), (status = 400, body = ProblemBody), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody),
        (status = 422, body = ProblemBody, description = "ApprovedEnd before ApprovedStart")))]
pub async fn list(state: web::Data<AppState>, me: CurrentUser, Query(q): Query<ListQuery>) -> ApiResult<web::Json<Page<PaymentRequestListItem>>> {
    let paging = PageQuery { page: q.page, size: q.size }.paging()?;
    let (statuses, forms) = store::parse_list_filters(&q)?;
    let scope = scope_of(&state.db, &me).await?;
    let filter = store::ListFilter { query: &q, scope: &scope, statuses: &statuses, forms: &forms };
    let (rows, total) = store::list(&state.db, &filter, paging).await?;
    let items = rows.into_iter().map(|r| list_item(&me, r)).collect::<ApiResult<Vec<_>>>()?;
    Ok(web::Json(Page::counted(items, paging, total)))
}

#[utoipa::path(get, path = "/api/v1/payment-requests/summary", tag = "payment-requests", security(("bearer" = [])), params(SummaryQuery),
    responses((status = 200, description = "One entry per status, in workflow order", body = Vec<StatusSummary>), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody)))]
pub async fn summary(state: web::Data<AppState>, me: CurrentUser, Query(q): Query<SummaryQuery>) -> ApiResult<web::Json<Vec<StatusSummary>>> {
    let scope = scope_of(&state.db, &me).await?;
    Ok(web::Json(store::summary(&state.db, &scope, q.mentorprogramid).await?))
}

#[utoipa::path(get, path = "/api/v1/payment-requests/rates", tag = "payment-requests", security(("bearer" = [])),
    responses((status = 200, body = CurrentRates), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody)))]
pub async fn rates(state: web::Data<AppState>, _me: CurrentUser) -> ApiResult<web::Json<CurrentRates>> {
    let r = store::rates(&state.db).await?;
    Ok(web::Json(CurrentRates { mileage_rate: r.mileage, meal_rates: r.meals }))
}

#[utoipa::path(get, path = "/api/v1/payment-requests/activity-log", tag = "payment-requests", security(("bearer" = [])), params(ActivityQuery),
    responses((status = 200, description = "Newest first", body = Vec<ActivityEntryDto>), (status = 400, body = ProblemBody), (status = 401, body = ProblemBody),
        (status = 403, body = ProblemBody), (status = 404, body = ProblemBody)))]
pub async fn activity_log(state: web::Data<AppState>, me: CurrentUser, Query(q): Query<ActivityQuery>) -> ApiResult<web::Json<Vec<ActivityEntryDto>>> {
    let form = form_of(&q.paymentrequesttype)?;
    let scope = scope_of(&state.db, &me).await?;
    // Deleted requests keep their history; scope and form type still apply.
    let r = pr::Entity::find_by_id(q.paymentrequestid)
        .one(&state.db)
        .await?
        .filter(|r| r.form_type == form.as_str() && scope.allows_program(r.mentor_program_id))
        .ok_or_else(|| ApiError::not_found("The payment request"))?;
    let entries = store::activity(&state.db, r.id).await?;
    let actor_ids: Vec<i32> = entries.iter().filter_map(|e| e.actor_user_id).collect();
    let users = user::Entity::find().filter(user::Column::Id.is_in(actor_ids)).all(&state.db).await?;
    Ok(web::Json(
        entries
            .into_iter()
            .map(|e| ActivityEntryDto {
                actor_name: e.actor_user_id.and_then(|id| users.iter().find(|u| u.id == id)).map(|u| format!("{} {}", u.first_name, u.last_name)),
                id: e.id,
                action: e.action,
                actor_user_id: e.actor_user_id,
                from_status: e.from_status,
                to_status: e.to_status,
                comment: e.comment,
                data: e.data.and_then(|d| serde_json::from_str(&d).ok()),
                created_at: e.created_at,
            })
            .collect(),
    ))
}

// ---- F2 receipts on a request ----

type FilePath = web::Path<(i32, String)>;

#[utoipa::path(get, path = "/api/v1/payment-requests/F2/{id}/files/{fileId}", tag = "payment-requests", security(("bearer" = [])),
    params(("id" = i32, Path), ("fileId" = String, Path)),
    responses((status = 200, description = "The file's bytes", content_type = "application/octet-stream"), (status = 401, body = ProblemBody),
        (status = 403, body = ProblemBody), (status = 404, body = ProblemBody)))]
pub async fn download_file(state: web::Data<AppState>, me: CurrentUser, path: FilePath) -> ApiResult<HttpResponse> {
    let (id, file_id) = path.into_inner();
    let scope = scope_of(&state.db, &me).await?;
    let r = store::find_visible(&state.db, &scope, FormType::F2, id).await?;
    let file = store::files_of(&state.db, r.id).await?.into_iter().find(|f| f.id == file_id).ok_or_else(|| ApiError::not_found("The file"))?;
    let bytes = state.files.read(&file.id).await?;
    Ok(HttpResponse::Ok()
        .content_type(file.content_type.clone())
        .insert_header(("Content-Disposition", files::disposition(&file.file_name)))
        .body(bytes))
}

#[utoipa::path(delete, path = "/api/v1/payment-requests/F2/{id}/files/{fileId}", tag = "payment-requests", security(("bearer" = [])),
    params(("id" = i32, Path), ("fileId" = String, Path)),
    responses((status = 200, body = PaymentRequestDto), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody),
        (status = 404, body = ProblemBody), (status = 409, body = ProblemBody)))]
pub async fn delete_file(state: web::Data<AppState>, me: CurrentUser, path: FilePath) -> ApiResult<web::Json<PaymentRequestDto>> {
    let (id, file_id) = path.into_inner();
    let (r, status, _) = load_for(&state, &me, "F2", id, Action::Edit).await?;
    let file = store::files_of(&state.db, r.id).await?.into_iter().find(|f| f.id == file_id).ok_or_else(|| ApiError::not_found("The file"))?;
    let mut details = Details::from_stored(FormType::F2, &r.details)?;
    if let Details::F2(d) = &mut details {
        d.file_ids.retain(|f| f != &file.id);
    }
    let txn = crate::db::write(&state.db).await?;
    save_guarded(
        guarded(id, r.version, &Action::Edit.sources(|p| me.has(p)))
        .col_expr(pr::Column::Details, Expr::value(details.to_json())),
        Utc::now(),
        &me,
        &txn,
    )
    .await?;
    uploaded_file::Entity::update_many()
        .col_expr(uploaded_file::Column::DeletedAt, Expr::value(Utc::now()))
        .filter(uploaded_file::Column::Id.eq(file.id.clone()))
        .exec(&txn)
        .await?;
    log(&txn, &me, id, "file-deleted", (Some(status), Some(status)), None, json!({"fileId": file.id, "fileName": file.file_name})).await?;
    txn.commit().await?;
    state.files.remove(&file.id).await;
    reload(&state, &me, id).await
}
