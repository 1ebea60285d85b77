//! Payment request handlers (DESIGN §4): thin — parse, authorize (permission, then scope),
//! call the pure rules (`workflow`, `approval`, `write_check`), and change state through the
//! store's ONE conditional update guarded by id, status and version, in one transaction with
//! its activity-log entry; `view` turns the row into what the caller sees.

use actix_web::{web, HttpResponse};
use chrono::Utc;
use sea_orm::{sea_query::Expr, ColumnTrait, EntityTrait, QueryFilter};
use serde_json::json;

use crate::forms::{self, Details, FormType};

use super::{
    approval::{self, Proposal},
    dto::*,
    receipts,
    store::{self, form_of, status_of},
    view::{to_dto, to_list_item},
    workflow::{self, Action, Refusal, Status},
    write_check,
};
use crate::{
    auth::{
        scope::{scope_of, Scope},
        CurrentUser,
    },
    entities::{payment_request as pr, user},
    error::{ApiError, ApiResult, ProblemBody},
    money::Money,
    state::AppState,
    web::{Json, Page, PageQuery, Put, Query},
};

type FormPath = web::Path<(String, i32)>;

fn refusal(r: Refusal) -> ApiError {
    match r {
        Refusal::Forbidden(p) => ApiError::missing_permission(p.code()),
        Refusal::WrongStatus { action, status } => ApiError::Conflict(format!(
            "The request is {}; {action:?} is not possible from there.",
            status.as_str()
        )),
    }
}

/// The route table's scope rule for `/payment-requests/{formType}/{id}…` and the F2 file
/// routes (`routes::Routes::scope`): a request outside the caller's programs is a 404,
/// before the body is read. Unrestricted callers pass without a query; the handler finds
/// the row (of its form type) itself.
pub fn in_scope<'a>(
    state: &'a AppState,
    me: &'a CurrentUser,
    id: i32,
) -> crate::routes::ScopeFuture<'a> {
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
pub(super) async fn load_for(
    state: &AppState,
    me: &CurrentUser,
    form: &str,
    id: i32,
    action: Action,
) -> ApiResult<(pr::Model, Status, Scope)> {
    let form = form_of(form)?;
    let scope = scope_of(&state.db, me).await?;
    let r = store::find_visible(&state.db, &scope, form, id).await?;
    let status = status_of(&r)?;
    workflow::check(action, status, |p| me.has(p)).map_err(refusal)?;
    Ok((r, status, scope))
}

async fn reload(
    state: &AppState,
    me: &CurrentUser,
    id: i32,
) -> ApiResult<web::Json<PaymentRequestDto>> {
    let r = pr::Entity::find_by_id(id)
        .one(&state.db)
        .await?
        .ok_or_else(|| ApiError::not_found("The payment request"))?;
    Ok(web::Json(to_dto(&state.db, me, r).await?))
}

// ---- create and edit ----

#[utoipa::path(post, path = "/api/v1/payment-requests/{formType}", tag = "payment-requests", security(("bearer" = [])),
    params(("formType" = FormType, Path)), request_body = WriteRequest,
    responses((status = 201, body = PaymentRequestDto), (status = 400, body = ProblemBody), (status = 401, body = ProblemBody),
        (status = 403, body = ProblemBody), (status = 404, body = ProblemBody), (status = 422, body = ProblemBody)))]
pub async fn create(
    state: web::Data<AppState>,
    me: CurrentUser,
    form: web::Path<String>,
    Json(body): Json<WriteRequest>,
) -> ApiResult<HttpResponse> {
    let form = form_of(&form)?;
    let scope = scope_of(&state.db, &me).await?;
    let c = write_check::check_write(&state, &me, &scope, form, &body, None).await?;
    let now = Utc::now();
    let txn = crate::db::write(&state.db).await?;
    let id = store::insert_draft(&txn, form, &c, me.id(), now).await?;
    store::attach_files(&txn, id, c.details.file_ids()).await?;
    store::log(
        &txn,
        me.id(),
        id,
        "created",
        (None, Some(Status::Draft)),
        None,
        json!({"requestedAmount": c.evaluated.requested_amount}),
    )
    .await?;
    txn.commit().await?;
    let r = pr::Entity::find_by_id(id)
        .one(&state.db)
        .await?
        .ok_or_else(|| ApiError::Internal("created row missing".into()))?;
    Ok(HttpResponse::Created().json(to_dto(&state.db, &me, r).await?))
}

#[utoipa::path(get, path = "/api/v1/payment-requests/{formType}/{id}", tag = "payment-requests", security(("bearer" = [])),
    params(("formType" = FormType, Path), ("id" = i32, Path)),
    responses((status = 200, body = PaymentRequestDto), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody), (status = 404, body = ProblemBody)))]
pub async fn get(
    state: web::Data<AppState>,
    me: CurrentUser,
    path: FormPath,
) -> ApiResult<web::Json<PaymentRequestDto>> {
    let (form, id) = path.into_inner();
    let form = form_of(&form)?;
    let scope = scope_of(&state.db, &me).await?;
    let r = store::find_visible(&state.db, &scope, form, id).await?;
    Ok(web::Json(to_dto(&state.db, &me, r).await?))
}

#[utoipa::path(put, path = "/api/v1/payment-requests/{formType}/{id}", tag = "payment-requests", security(("bearer" = [])),
    params(("formType" = FormType, Path), ("id" = i32, Path)), request_body = WriteRequest,
    responses((status = 200, body = PaymentRequestDto), (status = 400, body = ProblemBody), (status = 401, body = ProblemBody),
        (status = 403, body = ProblemBody), (status = 404, body = ProblemBody), (status = 409, body = ProblemBody, description = "Wrong status or stale version"),
        (status = 422, body = ProblemBody)))]
pub async fn update(
    state: web::Data<AppState>,
    me: CurrentUser,
    path: FormPath,
    Put(body): Put<WriteRequest>,
) -> ApiResult<web::Json<PaymentRequestDto>> {
    let (form_text, id) = path.into_inner();
    // Optional in the shared body schema, required to edit: a rule of this call.
    let version = body
        .version
        .ok_or_else(|| ApiError::rule("version", "is required to edit (the version you read)"))?;
    let (r, status, scope) = load_for(&state, &me, &form_text, id, Action::Edit).await?;
    if r.version != version {
        return Err(store::stale());
    }
    let form = form_of(&form_text)?;
    let c = write_check::check_write(&state, &me, &scope, form, &body, Some(id)).await?;
    let sources = Action::Edit.sources(|p| me.has(p));
    let txn = crate::db::write(&state.db).await?;
    store::save_edit(&txn, id, version, &sources, &c, me.id()).await?;
    let dropped = store::attach_files(&txn, id, c.details.file_ids()).await?;
    store::log(
        &txn,
        me.id(),
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
pub async fn delete(
    state: web::Data<AppState>,
    me: CurrentUser,
    path: FormPath,
) -> ApiResult<HttpResponse> {
    let (form, id) = path.into_inner();
    let (r, status, _) = load_for(&state, &me, &form, id, Action::Delete).await?;
    let txn = crate::db::write(&state.db).await?;
    let now = Utc::now();
    store::save_guarded(
        store::guarded(id, r.version, &[Status::Draft])
            .col_expr(pr::Column::DeletedAt, Expr::value(now)),
        now,
        me.id(),
        &txn,
    )
    .await?;
    store::log(&txn, me.id(), id, "deleted", (Some(status), None), None, json!({})).await?;
    txn.commit().await?;
    Ok(HttpResponse::NoContent().finish())
}

// ---- transitions ----

/// A plain transition: the guarded update plus the entry, nothing else to decide.
async fn simple(
    state: &AppState,
    me: &CurrentUser,
    path: FormPath,
    action: Action,
    name: &str,
    comment: Option<String>,
) -> ApiResult<web::Json<PaymentRequestDto>> {
    let (form, id) = path.into_inner();
    let (r, status, _) = load_for(state, me, &form, id, action).await?;
    let to = action.target().expect("a transition");
    let txn = crate::db::write(&state.db).await?;
    let mut update = store::guarded(id, r.version, &action.sources(|p| me.has(p)))
        .col_expr(pr::Column::Status, Expr::value(to.as_str()));
    if action == Action::MoveBackToSubmitted {
        // The approval no longer stands: nothing is charged until approved again.
        update = update
            .col_expr(pr::Column::ApprovedCents, Expr::value(Option::<i64>::None))
            .col_expr(pr::Column::ApprovedAt, Expr::value(Option::<chrono::DateTime<Utc>>::None))
            .col_expr(pr::Column::ApprovedBy, Expr::value(Option::<i32>::None));
    }
    store::save_guarded(update, Utc::now(), me.id(), &txn).await?;
    store::log(
        &txn,
        me.id(),
        id,
        name,
        (Some(status), Some(to)),
        comment,
        json!({"approvedAmount": r.approved_cents.map(Money)}),
    )
    .await?;
    txn.commit().await?;
    reload(state, me, id).await
}

#[utoipa::path(post, path = "/api/v1/payment-requests/{formType}/{id}/submit", tag = "payment-requests", security(("bearer" = [])),
    params(("formType" = FormType, Path), ("id" = i32, Path)),
    responses((status = 200, body = PaymentRequestDto), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody),
        (status = 404, body = ProblemBody), (status = 409, body = ProblemBody), (status = 422, body = ProblemBody)))]
pub async fn submit(
    state: web::Data<AppState>,
    me: CurrentUser,
    path: FormPath,
) -> ApiResult<web::Json<PaymentRequestDto>> {
    let (form_text, id) = path.into_inner();
    let (r, status, _) = load_for(&state, &me, &form_text, id, Action::Submit).await?;
    let form = form_of(&form_text)?;
    // The limits and rates in force now apply: they may have changed since the draft.
    let mut details = Details::from_stored(form, &r.details)?;
    let rates = store::rates(&state.db).await?;
    let limits = store::limits(&state.db, form).await?;
    let evaluated = forms::evaluate(&mut details, Some(Money(r.requested_cents)), &rates, &limits)
        .map_err(|errors| ApiError::Unprocessable {
            detail: "The request breaks the form's limits.".into(),
            errors,
        })?;
    let submitted_on = r.submitted_on.unwrap_or_else(store::today);
    let year =
        store::charged_year(&state.db, r.fiscal_year_id, Some(submitted_on)).await?.map(|y| y.id);
    let txn = crate::db::write(&state.db).await?;
    store::save_guarded(
        store::guarded(id, r.version, &Action::Submit.sources(|p| me.has(p)))
            .col_expr(pr::Column::Status, Expr::value(Status::Submitted.as_str()))
            .col_expr(pr::Column::SubmittedOn, Expr::value(submitted_on))
            .col_expr(pr::Column::SubmittedBy, Expr::value(me.id()))
            .col_expr(pr::Column::FiscalYearId, Expr::value(year))
            .col_expr(pr::Column::RequestedCents, Expr::value(evaluated.requested_amount.cents()))
            .col_expr(pr::Column::Details, Expr::value(details.to_json())),
        Utc::now(),
        me.id(),
        &txn,
    )
    .await?;
    store::log(
        &txn,
        me.id(),
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
pub async fn move_to_draft(
    state: web::Data<AppState>,
    me: CurrentUser,
    path: FormPath,
) -> ApiResult<web::Json<PaymentRequestDto>> {
    simple(&state, &me, path, Action::MoveToDraft, "moved-to-draft", None).await
}

#[utoipa::path(post, path = "/api/v1/payment-requests/{formType}/{id}/send-for-revision", tag = "payment-requests", security(("bearer" = [])),
    params(("formType" = FormType, Path), ("id" = i32, Path)), request_body = ReasonBody,
    responses((status = 200, body = PaymentRequestDto), (status = 400, body = ProblemBody), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody),
        (status = 404, body = ProblemBody), (status = 409, body = ProblemBody)))]
pub async fn send_for_revision(
    state: web::Data<AppState>,
    me: CurrentUser,
    path: FormPath,
    Json(body): Json<ReasonBody>,
) -> ApiResult<web::Json<PaymentRequestDto>> {
    let reason = body.reason.trim();
    if reason.is_empty() {
        return Err(ApiError::bad_field("reason", "is required"));
    }
    if reason.chars().count() > forms::MAX_DESCRIPTION_CHARS {
        return Err(ApiError::bad_field(
            "reason",
            format!("must be at most {} characters", forms::MAX_DESCRIPTION_CHARS),
        ));
    }
    simple(&state, &me, path, Action::SendForRevision, "sent-for-revision", Some(reason.to_owned()))
        .await
}

#[utoipa::path(post, path = "/api/v1/payment-requests/{formType}/{id}/move-back-to-submitted", tag = "payment-requests", security(("bearer" = [])),
    params(("formType" = FormType, Path), ("id" = i32, Path)),
    responses((status = 200, body = PaymentRequestDto), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody), (status = 404, body = ProblemBody), (status = 409, body = ProblemBody)))]
pub async fn move_back_to_submitted(
    state: web::Data<AppState>,
    me: CurrentUser,
    path: FormPath,
) -> ApiResult<web::Json<PaymentRequestDto>> {
    simple(&state, &me, path, Action::MoveBackToSubmitted, "moved-back-to-submitted", None).await
}

#[utoipa::path(post, path = "/api/v1/payment-requests/{formType}/{id}/move-to-ready-for-processing", tag = "payment-requests", security(("bearer" = [])),
    params(("formType" = FormType, Path), ("id" = i32, Path)),
    responses((status = 200, body = PaymentRequestDto), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody), (status = 404, body = ProblemBody), (status = 409, body = ProblemBody)))]
pub async fn move_to_ready_for_processing(
    state: web::Data<AppState>,
    me: CurrentUser,
    path: FormPath,
) -> ApiResult<web::Json<PaymentRequestDto>> {
    simple(
        &state,
        &me,
        path,
        Action::MoveToReadyForProcessing,
        "moved-to-ready-for-processing",
        None,
    )
    .await
}

// ---- approval ----

#[utoipa::path(post, path = "/api/v1/payment-requests/{formType}/{id}/approve/validate", tag = "payment-requests", security(("bearer" = [])),
    params(("formType" = FormType, Path), ("id" = i32, Path)), request_body = ApproveValidateBody,
    responses((status = 200, body = ValidationResult), (status = 400, body = ProblemBody), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody),
        (status = 404, body = ProblemBody), (status = 409, body = ProblemBody)))]
pub async fn approve_validate(
    state: web::Data<AppState>,
    me: CurrentUser,
    path: FormPath,
    Json(body): Json<ApproveValidateBody>,
) -> ApiResult<web::Json<ValidationResult>> {
    let (form, id) = path.into_inner();
    let (r, _, _) = load_for(&state, &me, &form, id, Action::Approve).await?;
    let p = Proposal {
        approved_amount: body.approved_amount,
        approval_code_id: body.approval_code_id,
        fund_id: body.fund_id,
        expense_account_id: body.expense_account_id,
    };
    let year = store::charged_year(&state.db, r.fiscal_year_id, r.submitted_on).await?;
    let v = approval::assess(
        &p,
        &store::approval_facts(&state.db, &r, &p, year.as_ref(), me.id()).await?,
    );
    Ok(web::Json(ValidationResult { errors: v.errors, warnings: v.warnings }))
}

#[utoipa::path(post, path = "/api/v1/payment-requests/{formType}/{id}/approve", tag = "payment-requests", security(("bearer" = [])),
    params(("formType" = FormType, Path), ("id" = i32, Path)), request_body = ApproveBody,
    responses((status = 200, body = PaymentRequestDto), (status = 400, body = ProblemBody), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody),
        (status = 404, body = ProblemBody), (status = 409, body = ProblemBody), (status = 422, body = ProblemBody, description = "Errors, or warnings not acknowledged")))]
pub async fn approve(
    state: web::Data<AppState>,
    me: CurrentUser,
    path: FormPath,
    Json(body): Json<ApproveBody>,
) -> ApiResult<web::Json<PaymentRequestDto>> {
    let (form, id) = path.into_inner();
    let (r, status, _) = load_for(&state, &me, &form, id, Action::Approve).await?;
    let p = Proposal {
        approved_amount: body.approved_amount,
        approval_code_id: body.approval_code_id,
        fund_id: body.fund_id,
        expense_account_id: body.expense_account_id,
    };
    let year = store::charged_year(&state.db, r.fiscal_year_id, r.submitted_on).await?;
    let verdict = approval::assess(
        &p,
        &store::approval_facts(&state.db, &r, &p, year.as_ref(), me.id()).await?,
    );
    verdict.gate(body.acknowledge_warnings)?;
    let comment =
        body.comment.as_deref().map(str::trim).filter(|c| !c.is_empty()).map(str::to_owned);
    let year = year.map(|y| y.id);
    let now = Utc::now();
    let txn = crate::db::write(&state.db).await?;
    store::save_guarded(
        store::guarded(id, r.version, &[Status::Submitted])
            .col_expr(pr::Column::Status, Expr::value(Status::Approved.as_str()))
            .col_expr(pr::Column::ApprovedCents, Expr::value(p.approved_amount.cents()))
            .col_expr(pr::Column::ApprovalCodeId, Expr::value(p.approval_code_id))
            .col_expr(pr::Column::FundId, Expr::value(p.fund_id))
            .col_expr(pr::Column::ExpenseAccountId, Expr::value(p.expense_account_id))
            .col_expr(pr::Column::FiscalYearId, Expr::value(year))
            .col_expr(pr::Column::ApprovedAt, Expr::value(now))
            .col_expr(pr::Column::ApprovedBy, Expr::value(me.id())),
        now,
        me.id(),
        &txn,
    )
    .await?;
    store::log(
        &txn,
        me.id(),
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
pub async fn batch_ready_for_processing(
    state: web::Data<AppState>,
    me: CurrentUser,
    Json(body): Json<BatchBody>,
) -> ApiResult<web::Json<BatchResult>> {
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
    let rows = pr::Entity::find()
        .filter(pr::Column::Id.is_in(ids.clone()))
        .filter(pr::Column::DeletedAt.is_null())
        .all(&state.db)
        .await?;
    let offenders = batch_offenders(&ids, &rows, &scope);
    if !offenders.is_empty() {
        return Err(ApiError::Conflict(format!(
            "Nothing was moved: not Approved (or not found): {}.",
            offenders.join(", ")
        )));
    }
    let now = Utc::now();
    let txn = crate::db::write(&state.db).await?;
    let done = store::move_approved_to_ready(&txn, &ids, me.id(), now).await?;
    if done != ids.len() as u64 {
        // Someone moved one of them meanwhile: undo all (the transaction rolls back on drop).
        return Err(ApiError::Conflict(
            "Nothing was moved: some requests changed meanwhile; reload and try again.".into(),
        ));
    }
    for id in &ids {
        store::log(
            &txn,
            me.id(),
            *id,
            "moved-to-ready-for-processing",
            (Some(Status::Approved), Some(Status::ReadyForProcessing)),
            None,
            json!({"batch": ids.len()}),
        )
        .await?;
    }
    txn.commit().await?;
    Ok(web::Json(BatchResult { moved: ids }))
}

/// Ids that block a batch: unknown, outside scope, or not Approved.
pub fn batch_offenders(ids: &[i32], rows: &[pr::Model], scope: &Scope) -> Vec<String> {
    ids.iter()
        .filter_map(|id| match rows.iter().find(|r| r.id == *id) {
            Some(r) if !scope.allows_program(r.mentor_program_id) => {
                Some(format!("{id} (not found)"))
            }
            Some(r) if r.status != Status::Approved.as_str() => {
                Some(format!("{id} ({})", r.status))
            }
            Some(_) => None,
            None => Some(format!("{id} (not found)")),
        })
        .collect()
}

// ---- lists ----

#[utoipa::path(get, path = "/api/v1/payment-requests", tag = "payment-requests", security(("bearer" = [])), params(ListQuery),
    responses((status = 200, body = Page<PaymentRequestListItem>), (status = 400, body = ProblemBody), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody),
        (status = 422, body = ProblemBody, description = "ApprovedEnd before ApprovedStart")))]
pub async fn list(
    state: web::Data<AppState>,
    me: CurrentUser,
    Query(q): Query<ListQuery>,
) -> ApiResult<web::Json<Page<PaymentRequestListItem>>> {
    let paging = PageQuery { page: q.page, size: q.size }.paging()?;
    let (statuses, forms) = store::parse_list_filters(&q)?;
    let scope = scope_of(&state.db, &me).await?;
    let filter = store::ListFilter { query: &q, scope: &scope, statuses: &statuses, forms: &forms };
    let (rows, total) = store::list(&state.db, &filter, paging).await?;
    let items = rows.into_iter().map(|r| to_list_item(&me, r)).collect::<ApiResult<Vec<_>>>()?;
    Ok(web::Json(Page::counted(items, paging, total)))
}

#[utoipa::path(get, path = "/api/v1/payment-requests/summary", tag = "payment-requests", security(("bearer" = [])), params(SummaryQuery),
    responses((status = 200, description = "One entry per status, in workflow order", body = Vec<StatusSummary>), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody)))]
pub async fn summary(
    state: web::Data<AppState>,
    me: CurrentUser,
    Query(q): Query<SummaryQuery>,
) -> ApiResult<web::Json<Vec<StatusSummary>>> {
    let scope = scope_of(&state.db, &me).await?;
    Ok(web::Json(store::summary(&state.db, &scope, q.mentorprogramid).await?))
}

#[utoipa::path(get, path = "/api/v1/payment-requests/rates", tag = "payment-requests", security(("bearer" = [])),
    responses((status = 200, body = CurrentRates), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody)))]
pub async fn rates(
    state: web::Data<AppState>,
    _me: CurrentUser,
) -> ApiResult<web::Json<CurrentRates>> {
    let r = store::rates(&state.db).await?;
    Ok(web::Json(CurrentRates { mileage_rate: r.mileage, meal_rates: r.meals }))
}

#[utoipa::path(get, path = "/api/v1/payment-requests/activity-log", tag = "payment-requests", security(("bearer" = [])), params(ActivityQuery),
    responses((status = 200, description = "Newest first", body = Vec<ActivityEntryDto>), (status = 400, body = ProblemBody), (status = 401, body = ProblemBody),
        (status = 403, body = ProblemBody), (status = 404, body = ProblemBody)))]
pub async fn activity_log(
    state: web::Data<AppState>,
    me: CurrentUser,
    Query(q): Query<ActivityQuery>,
) -> ApiResult<web::Json<Vec<ActivityEntryDto>>> {
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
    let users =
        user::Entity::find().filter(user::Column::Id.is_in(actor_ids)).all(&state.db).await?;
    Ok(web::Json(
        entries
            .into_iter()
            .map(|e| ActivityEntryDto {
                actor_name: e
                    .actor_user_id
                    .and_then(|id| users.iter().find(|u| u.id == id))
                    .map(|u| format!("{} {}", u.first_name, u.last_name)),
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
pub async fn download_file(
    state: web::Data<AppState>,
    me: CurrentUser,
    path: FilePath,
) -> ApiResult<HttpResponse> {
    let (id, file_id) = path.into_inner();
    let scope = scope_of(&state.db, &me).await?;
    let r = store::find_visible(&state.db, &scope, FormType::F2, id).await?;
    let file = store::files_of(&state.db, r.id)
        .await?
        .into_iter()
        .find(|f| f.id == file_id)
        .ok_or_else(|| ApiError::not_found("The file"))?;
    let bytes = state.files.read(&file.id).await?;
    Ok(HttpResponse::Ok()
        .content_type(file.content_type.clone())
        .insert_header(("Content-Disposition", receipts::disposition(&file.file_name)))
        .body(bytes))
}

#[utoipa::path(delete, path = "/api/v1/payment-requests/F2/{id}/files/{fileId}", tag = "payment-requests", security(("bearer" = [])),
    params(("id" = i32, Path), ("fileId" = String, Path)),
    responses((status = 200, body = PaymentRequestDto), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody),
        (status = 404, body = ProblemBody), (status = 409, body = ProblemBody)))]
pub async fn delete_file(
    state: web::Data<AppState>,
    me: CurrentUser,
    path: FilePath,
) -> ApiResult<web::Json<PaymentRequestDto>> {
    let (id, file_id) = path.into_inner();
    let (r, status, _) = load_for(&state, &me, "F2", id, Action::Edit).await?;
    let file = store::files_of(&state.db, r.id)
        .await?
        .into_iter()
        .find(|f| f.id == file_id)
        .ok_or_else(|| ApiError::not_found("The file"))?;
    let mut details = Details::from_stored(FormType::F2, &r.details)?;
    if let Details::F2(d) = &mut details {
        d.file_ids.retain(|f| f != &file.id);
    }
    let txn = crate::db::write(&state.db).await?;
    store::save_guarded(
        store::guarded(id, r.version, &Action::Edit.sources(|p| me.has(p)))
            .col_expr(pr::Column::Details, Expr::value(details.to_json())),
        Utc::now(),
        me.id(),
        &txn,
    )
    .await?;
    store::drop_files(&txn, std::slice::from_ref(&file.id)).await?;
    store::log(
        &txn,
        me.id(),
        id,
        "file-deleted",
        (Some(status), Some(status)),
        None,
        json!({"fileId": file.id, "fileName": file.file_name}),
    )
    .await?;
    txn.commit().await?;
    state.files.remove(&file.id).await;
    reload(&state, &me, id).await
}
