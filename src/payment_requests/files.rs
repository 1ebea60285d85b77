//! F2 receipts: the browser announces files, gets signed single-use
//! upload URLs, and PUTs the bytes there; the bytes go to the kernel's `FileStore`.

use actix_web::{web, HttpRequest, HttpResponse};
use sea_orm::EntityTrait;

use super::{
    commands,
    dto::{GenerateUploadUrls, UploadQuery, UploadUrl},
    receipts::{allowed_type, check_announcements, content_matches},
    store,
};
use crate::{
    auth::{client_address, CurrentUser, Permission},
    entities::uploaded_file,
    error::{ApiError, ApiResult, ProblemBody},
    state::AppState,
    web::{Json, Query},
};

#[utoipa::path(post, path = "/api/v1/fileupload/generate-upload-urls", tag = "payment-requests", security(("bearer" = [])),
    request_body = GenerateUploadUrls,
    responses((status = 200, body = Vec<UploadUrl>), (status = 400, body = ProblemBody), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody)))]
pub async fn generate_upload_urls(
    state: web::Data<AppState>,
    me: CurrentUser,
    Json(body): Json<GenerateUploadUrls>,
) -> ApiResult<web::Json<Vec<UploadUrl>>> {
    if !(me.has(Permission::RequestCreate) || me.has(Permission::RequestEdit)) {
        return Err(ApiError::missing_permission(Permission::RequestCreate.code()));
    }
    let files = check_announcements(&body.files)?;
    // A form's receipts go in a few calls; a script does not fill the disk between upkeeps.
    let per_minute = state.config.receipt_uploads_per_minute;
    state.files.take_announcements(me.id(), files.len(), per_minute)?;
    Ok(web::Json(commands::announce_files(&state.db, &state.files, &me, files).await?))
}

/// The signed URL is the credential (no bearer: the browser PUTs straight to it).
#[utoipa::path(put, path = "/api/v1/fileupload/{fileId}", tag = "payment-requests", params(("fileId" = String, Path), UploadQuery),
    request_body(content = Vec<u8>, description = "The file's bytes, with the announced Content-Type", content_type = "application/octet-stream"),
    responses((status = 204, description = "Stored"), (status = 400, body = ProblemBody), (status = 403, body = ProblemBody, description = "Bad or expired signature"),
        (status = 409, body = ProblemBody, description = "URL already used")))]
pub async fn upload(
    state: web::Data<AppState>,
    req: HttpRequest,
    file_id: web::Path<String>,
    Query(q): Query<UploadQuery>,
    payload: web::Payload,
) -> ApiResult<HttpResponse> {
    let file_id = file_id.into_inner();
    let now = crate::clock::now();
    if !state.files.verify(&file_id, q.expires, &q.signature) {
        return Err(ApiError::Forbidden("The upload URL is not valid.".into()));
    }
    if now.timestamp() > q.expires {
        return Err(ApiError::Forbidden("The upload URL has expired.".into()));
    }
    let file = uploaded_file::Entity::find_by_id(file_id.clone())
        .one(&state.db)
        .await?
        .filter(|f| f.deleted_at.is_none())
        .ok_or_else(|| ApiError::not_found("The file"))?;
    if file.uploaded_at.is_some() {
        return Err(ApiError::Conflict("The upload URL has been used already.".into()));
    }
    let sent_type = req
        .headers()
        .get(actix_web::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(allowed_type);
    if sent_type != Some(file.content_type.as_str()) {
        return Err(ApiError::bad_field(
            "contentType",
            format!("must be {} as announced", file.content_type),
        ));
    }
    // Read at most the announced size (itself at most 10 MB): a bigger body stops here.
    let announced = file.size;
    let bytes = crate::web::read_body(&req, payload, announced as usize, move || {
        ApiError::bad_field(
            "size",
            format!("the body is larger than the announced {announced} bytes"),
        )
    })
    .await?;
    if bytes.len() as i64 != file.size {
        return Err(ApiError::bad_field(
            "size",
            format!("the body has {} bytes, {} were announced", bytes.len(), file.size),
        ));
    }
    if !content_matches(&file.content_type, &bytes[..bytes.len().min(16)]) {
        return Err(ApiError::bad_field(
            "contentType",
            format!("the bytes are not a {} file", file.content_type),
        ));
    }
    // Single use: only the PUT that flips uploaded_at from NULL stores its bytes.
    if !store::files::claim_upload(&state.db, &file_id, now).await? {
        return Err(ApiError::Conflict("The upload URL has been used already.".into()));
    }
    if let Err(e) = state.files.put(&file_id, bytes.freeze()).await {
        let _ = store::files::release_upload(&state.db, &file_id).await;
        return Err(e);
    }
    commands::receipt_uploaded(&state.db, &file, client_address(&req, &state.config)).await?;
    Ok(HttpResponse::NoContent().finish())
}
