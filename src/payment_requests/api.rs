//! Payment request handlers: each parses its path and body, calls one command (`commands`)
//! or query (`store`), and renders the result (`view`).

use actix_web::{web, HttpResponse};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};

use super::{
    commands::{self, Target},
    dto::*,
    receipts,
    store::{self, form_of},
    view::{to_dto, to_list_item},
    workflow,
};
use crate::{
    auth::{scope::scope_of, CurrentUser},
    entities::{payment_request as pr, user},
    error::{ApiError, ApiResult, ProblemBody},
    forms::{self, FormType},
    state::AppState,
    web::{Json, Page, Put, Query},
};

type FormPath = web::Path<(String, i32)>;

/// The request a path names; an unknown form type is a 404.
fn target(path: FormPath) -> ApiResult<Target> {
    let (form, id) = path.into_inner();
    Ok(Target { form: form_of(&form)?, id })
}

async fn render(
    state: &AppState,
    me: &CurrentUser,
    r: pr::Model,
) -> ApiResult<web::Json<PaymentRequestDto>> {
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
    let r = commands::create(&state.db, &me, form_of(&form)?, &body).await?;
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
    let target = target(path)?;
    let scope = scope_of(&state.db, &me).await?;
    let r = store::find_visible(&state.db, &scope, target.form, target.id).await?;
    render(&state, &me, r).await
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
    let target = target(path)?;
    // Optional in the shared body schema, required to edit: a rule of this call.
    let version = body
        .version
        .ok_or_else(|| ApiError::rule("version", "is required to edit (the version you read)"))?;
    let r = commands::edit(&state.db, &state.files, &me, target, version, &body).await?;
    render(&state, &me, r).await
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
    commands::delete(&state.db, &me, target(path)?).await?;
    Ok(HttpResponse::NoContent().finish())
}

// ---- transitions ----

#[utoipa::path(post, path = "/api/v1/payment-requests/{formType}/{id}/submit", tag = "payment-requests", security(("bearer" = [])),
    params(("formType" = FormType, Path), ("id" = i32, Path)),
    responses((status = 200, body = PaymentRequestDto), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody),
        (status = 404, body = ProblemBody), (status = 409, body = ProblemBody), (status = 422, body = ProblemBody)))]
pub async fn submit(
    state: web::Data<AppState>,
    me: CurrentUser,
    path: FormPath,
) -> ApiResult<web::Json<PaymentRequestDto>> {
    let r = commands::submit(&state.db, &me, target(path)?).await?;
    render(&state, &me, r).await
}

#[utoipa::path(post, path = "/api/v1/payment-requests/{formType}/{id}/move-to-draft", tag = "payment-requests", security(("bearer" = [])),
    params(("formType" = FormType, Path), ("id" = i32, Path)),
    responses((status = 200, body = PaymentRequestDto), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody), (status = 404, body = ProblemBody), (status = 409, body = ProblemBody)))]
pub async fn move_to_draft(
    state: web::Data<AppState>,
    me: CurrentUser,
    path: FormPath,
) -> ApiResult<web::Json<PaymentRequestDto>> {
    let r = commands::move_to_draft(&state.db, &me, target(path)?).await?;
    render(&state, &me, r).await
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
    let target = target(path)?;
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
    let r = commands::send_for_revision(&state.db, &me, target, reason.to_owned()).await?;
    render(&state, &me, r).await
}

#[utoipa::path(post, path = "/api/v1/payment-requests/{formType}/{id}/move-back-to-submitted", tag = "payment-requests", security(("bearer" = [])),
    params(("formType" = FormType, Path), ("id" = i32, Path)),
    responses((status = 200, body = PaymentRequestDto), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody), (status = 404, body = ProblemBody), (status = 409, body = ProblemBody)))]
pub async fn move_back_to_submitted(
    state: web::Data<AppState>,
    me: CurrentUser,
    path: FormPath,
) -> ApiResult<web::Json<PaymentRequestDto>> {
    let r = commands::move_back_to_submitted(&state.db, &me, target(path)?).await?;
    render(&state, &me, r).await
}

#[utoipa::path(post, path = "/api/v1/payment-requests/{formType}/{id}/move-to-ready-for-processing", tag = "payment-requests", security(("bearer" = [])),
    params(("formType" = FormType, Path), ("id" = i32, Path)),
    responses((status = 200, body = PaymentRequestDto), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody), (status = 404, body = ProblemBody), (status = 409, body = ProblemBody)))]
pub async fn move_to_ready_for_processing(
    state: web::Data<AppState>,
    me: CurrentUser,
    path: FormPath,
) -> ApiResult<web::Json<PaymentRequestDto>> {
    let r = commands::move_to_ready_for_processing(&state.db, &me, target(path)?).await?;
    render(&state, &me, r).await
}

// ---- approval ----

/// The step an approve body names: 0-based, within the longest chain.
fn check_step(step: Option<u8>) -> ApiResult<()> {
    match step {
        Some(s) if usize::from(s) >= super::chain::MAX_STEPS => {
            Err(ApiError::bad_field("step", "must be from 0 to 4"))
        }
        _ => Ok(()),
    }
}

#[utoipa::path(post, path = "/api/v1/payment-requests/{formType}/{id}/approve/validate", tag = "payment-requests", security(("bearer" = [])),
    params(("formType" = FormType, Path), ("id" = i32, Path)), request_body = ApproveValidateBody,
    responses((status = 200, body = ApprovalValidation), (status = 400, body = ProblemBody), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody),
        (status = 404, body = ProblemBody), (status = 409, body = ProblemBody)))]
pub async fn approve_validate(
    state: web::Data<AppState>,
    me: CurrentUser,
    path: FormPath,
    Json(body): Json<ApproveValidateBody>,
) -> ApiResult<web::Json<ApprovalValidation>> {
    let r = commands::load_for(&state.db, &me, target(path)?, workflow::Action::Approve).await?;
    check_step(body.step)?;
    let p = body.proposal();
    let ground = store::facts::approval_ground(&state.db, &r, &p, me.id()).await?;
    let takers = super::takers::load(&state.db, &me, r.mentor_program_id).await?;
    let (index, _) = commands::step_for(&ground, &takers, body.step.map(usize::from))?;
    let v = commands::assess_approval(&ground, &p, index);
    let s = &ground.chain[index];
    let step =
        StepInfo { name: s.name.clone(), role: s.role.clone(), index, count: ground.chain.len() };
    let is_final = super::chain::is_final(&ground.chain, index);
    Ok(web::Json(ApprovalValidation { errors: v.errors, warnings: v.warnings, step, is_final }))
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
    check_step(body.step)?;
    let r = commands::approve(&state.db, &me, target(path)?, &body).await?;
    render(&state, &me, r).await
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
    commands::batch_ready_for_processing(&state.db, &me, &ids).await?;
    Ok(web::Json(BatchResult { moved: ids }))
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
    let paging = q.paging()?;
    let (statuses, forms) = store::list::parse_list_filters(&q)?;
    let scope = scope_of(&state.db, &me).await?;
    let waiting = match q.waitingforme {
        Some(true) => Some(store::list::WaitingFor::load(&state.db, &me).await?),
        _ => None,
    };
    let filter = store::list::ListFilter {
        query: &q,
        scope: &scope,
        statuses: &statuses,
        forms: &forms,
        waiting_for: waiting.as_ref(),
    };
    let (rows, total) = store::list::list(&state.db, &filter, paging).await?;
    let years = crate::settings::store::fiscal_years_kept(&state).await?;
    let items =
        rows.into_iter().map(|r| to_list_item(&me, &years, r)).collect::<ApiResult<Vec<_>>>()?;
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
    Ok(web::Json(store::list::summary(&state.db, &scope, q.mentorprogramid).await?))
}

#[utoipa::path(get, path = "/api/v1/payment-requests/rates", tag = "payment-requests", security(("bearer" = [])),
    responses((status = 200, body = CurrentRates), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody)))]
pub async fn rates(
    state: web::Data<AppState>,
    _me: CurrentUser,
) -> ApiResult<web::Json<CurrentRates>> {
    let r = store::facts::rates(&state.db).await?;
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
        .filter(|r| r.form_type == form && scope.allows_program(r.mentor_program_id))
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
    let file = receipt_on(&state, &me, path).await?;
    let bytes = state.files.read(&file.id).await?;
    Ok(HttpResponse::Ok()
        .content_type(file.content_type.clone())
        .insert_header(("Content-Disposition", receipts::disposition(&file.file_name)))
        .body(bytes))
}

/// The live receipt a path names, on a request the caller sees (404 otherwise).
async fn receipt_on(
    state: &AppState,
    me: &CurrentUser,
    path: FilePath,
) -> ApiResult<crate::entities::uploaded_file::Model> {
    let (id, file_id) = path.into_inner();
    let scope = scope_of(&state.db, me).await?;
    let r = store::find_visible(&state.db, &scope, FormType::F2, id).await?;
    store::files::files_of(&state.db, r.id)
        .await?
        .into_iter()
        .find(|f| f.id == file_id)
        .ok_or_else(|| ApiError::not_found("The file"))
}

/// The same receipt as the download, to be shown in the page: only an image or a PDF (the
/// type stored at upload, checked against the bytes again here), inline, with a policy that
/// runs no script and lets only our own pages frame it.
#[utoipa::path(get, path = "/api/v1/payment-requests/F2/{id}/files/{fileId}/preview", tag = "payment-requests", security(("bearer" = [])),
    params(("id" = i32, Path), ("fileId" = String, Path)),
    responses((status = 200, description = "The file's bytes: image/png, image/jpeg or application/pdf", content_type = "application/octet-stream"), (status = 401, body = ProblemBody),
        (status = 403, body = ProblemBody), (status = 404, body = ProblemBody),
        (status = 422, body = ProblemBody, description = "A type browsers do not show (HEIC): download it")))]
pub async fn preview_file(
    state: web::Data<AppState>,
    me: CurrentUser,
    path: FilePath,
) -> ApiResult<HttpResponse> {
    let file = receipt_on(&state, &me, path).await?;
    if !receipts::previewable(&file.content_type) {
        return Err(ApiError::rule(
            "fileId",
            format!("a {} receipt cannot be shown in the page; download it", file.content_type),
        ));
    }
    let bytes = state.files.read(&file.id).await?;
    if !receipts::content_matches(&file.content_type, &bytes[..bytes.len().min(16)]) {
        // The bytes changed since the upload's check: never shown as what they claim to be.
        tracing::warn!(file_id = %file.id, "a stored receipt no longer matches its type");
        return Err(ApiError::rule(
            "fileId",
            "the receipt's contents do not match its type; download it",
        ));
    }
    Ok(HttpResponse::Ok()
        .content_type(file.content_type.clone())
        .insert_header(("Content-Disposition", receipts::inline_disposition(&file.file_name)))
        .insert_header(("Content-Security-Policy", receipts::PREVIEW_CSP))
        .insert_header(("X-Content-Type-Options", "nosniff"))
        // Our own pages may frame it (the app's default for every answer is DENY).
        .insert_header(("X-Frame-Options", "SAMEORIGIN"))
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
    let r = commands::delete_file(&state.db, &state.files, &me, id, &file_id).await?;
    render(&state, &me, r).await
}
