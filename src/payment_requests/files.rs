//! F2 receipts (DESIGN §5 Files): the browser announces files, gets signed single-use
//! upload URLs, and PUTs the bytes there; the bytes go to the kernel's `FileStore`.

use actix_web::{web, HttpRequest, HttpResponse};
use chrono::{DateTime, Duration, Utc};
use futures_util::StreamExt;
use sea_orm::{ActiveValue::Set, ColumnTrait, EntityTrait, QueryFilter};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::{
    auth::{CurrentUser, Permission},
    entities::uploaded_file,
    error::{ApiError, ApiResult, Checks, FieldErrors, ProblemBody},
    state::AppState,
    web::{Json, Query},
};

pub const MAX_FILE_BYTES: i64 = 10 * 1024 * 1024;
pub const MAX_FILES_PER_CALL: usize = 20;
/// How long an upload URL may be used.
pub const UPLOAD_URL_TTL_SECS: i64 = 15 * 60;
/// How long an announced file may wait to be attached to a request before the hourly
/// upkeep removes it: a day, for someone who uploads receipts and saves the form later.
pub const UNATTACHED_GRACE_HOURS: i64 = 24;
pub const ALLOWED_TYPES: [&str; 4] = ["application/pdf", "image/png", "image/jpeg", "image/heic"];

/// Lower-cased media type without parameters, if it is one we take.
pub fn allowed_type(content_type: &str) -> Option<&'static str> {
    let base = content_type.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    let base = if base == "image/jpg" { "image/jpeg".to_owned() } else { base };
    ALLOWED_TYPES.into_iter().find(|t| *t == base)
}

/// Whether the first bytes look like the announced type (a renamed .exe is not a PDF).
pub fn content_matches(content_type: &str, head: &[u8]) -> bool {
    match content_type {
        "application/pdf" => head.starts_with(b"%PDF-"),
        "image/png" => head.starts_with(b"\x89PNG\r\n\x1a\n"),
        "image/jpeg" => head.starts_with(&[0xFF, 0xD8, 0xFF]),
        // ISO base media file: size, then `ftyp` and a HEIF brand.
        "image/heic" => {
            head.len() >= 12
                && &head[4..8] == b"ftyp"
                && [b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"mif1", b"msf1"].iter().any(|b| &head[8..12] == *b)
        }
        _ => false,
    }
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FileAnnouncement {
    /// The last path component is kept: 1 to 200 characters, none of them control characters.
    #[schema(max_length = 200, pattern = r"^[^\u0000-\u001F\u007F-\u009F]*[^\s/\\\u0000-\u001F\u007F-\u009F] *$")]
    pub file_name: String,
    #[schema(value_type = AllowedType)]
    pub content_type: String,
    /// Bytes.
    #[schema(minimum = 1, maximum = 10485760)]
    pub size: i64,
}

/// The receipt types (`contentType`).
pub struct AllowedType;

impl utoipa::PartialSchema for AllowedType {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        crate::web::string_enum(ALLOWED_TYPES)
    }
}

impl ToSchema for AllowedType {}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct GenerateUploadUrls {
    #[schema(min_items = 1, max_items = 20)]
    pub files: Vec<FileAnnouncement>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UploadUrl {
    pub file_id: String,
    /// PUT the bytes here with the announced Content-Type; usable once, until `expiresAt`.
    pub upload_url: String,
    pub expires_at: DateTime<Utc>,
}

/// A receipt as listed on an F2 request.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FileDto {
    pub id: String,
    pub file_name: String,
    pub content_type: String,
    pub size: i64,
}

impl From<uploaded_file::Model> for FileDto {
    fn from(f: uploaded_file::Model) -> Self {
        Self { id: f.id, file_name: f.file_name, content_type: f.content_type, size: f.size }
    }
}

/// Checks announcements; returns (name, type) pairs cleaned, or field errors `files[i].x`.
pub fn check_announcements(files: &[FileAnnouncement]) -> Result<Vec<(String, &'static str, i64)>, ApiError> {
    let mut errors = Checks::default();
    if files.is_empty() {
        errors.add("files", "announce at least one file");
    } else if files.len() > MAX_FILES_PER_CALL {
        errors.add("files", format!("at most {MAX_FILES_PER_CALL} files per call"));
    }
    let mut out = Vec::new();
    for (i, f) in files.iter().enumerate() {
        let name = f.file_name.trim();
        // Only the last path component, and no control characters (it goes into headers).
        let name = name.rsplit(['/', '\\']).next().unwrap_or("").to_owned();
        if name.is_empty() || name.chars().count() > 200 || name.chars().any(char::is_control) {
            errors.add(format!("files[{i}].fileName"), "must be 1 to 200 printable characters");
        }
        let ty = allowed_type(&f.content_type);
        if ty.is_none() {
            errors.add(format!("files[{i}].contentType"), "must be application/pdf, image/png, image/jpeg or image/heic");
        }
        if !(1..=MAX_FILE_BYTES).contains(&f.size) {
            errors.add(format!("files[{i}].size"), "must be between 1 byte and 10 MB");
        }
        out.push((name, ty.unwrap_or(""), f.size));
    }
    errors.finish()?;
    Ok(out)
}

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
    let now = Utc::now();
    let expires_at = now + Duration::seconds(UPLOAD_URL_TTL_SECS);
    let txn = crate::db::write(&state.db).await?;
    let mut out = Vec::new();
    for (file_name, content_type, size) in files {
        let id = uuid::Uuid::new_v4().to_string();
        uploaded_file::Entity::insert(uploaded_file::ActiveModel {
            id: Set(id.clone()),
            file_name: Set(file_name),
            content_type: Set(content_type.to_owned()),
            size: Set(size),
            created_by: Set(me.id()),
            created_at: Set(now),
            expires_at: Set(expires_at),
            uploaded_at: Set(None),
            payment_request_id: Set(None),
            deleted_at: Set(None),
        })
        .exec_without_returning(&txn)
        .await?;
        let signature = state.files.sign(&id, expires_at.timestamp());
        out.push(UploadUrl {
            upload_url: format!("/api/v1/fileupload/{id}?expires={}&signature={signature}", expires_at.timestamp()),
            file_id: id,
            expires_at,
        });
    }
    txn.commit().await?;
    Ok(web::Json(out))
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "lowercase")]
#[into_params(parameter_in = Query)]
pub struct UploadQuery {
    pub expires: i64,
    #[param(min_length = 1)]
    pub signature: String,
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
    mut payload: web::Payload,
) -> ApiResult<HttpResponse> {
    let file_id = file_id.into_inner();
    let now = Utc::now();
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
    let sent_type = req.headers().get(actix_web::http::header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).and_then(allowed_type);
    if sent_type != Some(file.content_type.as_str()) {
        return Err(ApiError::bad_field("contentType", format!("must be {} as announced", file.content_type)));
    }
    // Read at most the announced size (itself at most 10 MB): a bigger body stops here.
    let mut bytes = web::BytesMut::with_capacity(file.size as usize);
    while let Some(chunk) = payload.next().await {
        let chunk = chunk.map_err(|e| ApiError::bad_request(format!("Unreadable body: {e}")))?;
        if (bytes.len() + chunk.len()) as i64 > file.size {
            return Err(ApiError::bad_field("size", format!("the body is larger than the announced {} bytes", file.size)));
        }
        bytes.extend_from_slice(&chunk);
    }
    if bytes.len() as i64 != file.size {
        return Err(ApiError::bad_field("size", format!("the body has {} bytes, {} were announced", bytes.len(), file.size)));
    }
    if !content_matches(&file.content_type, &bytes[..bytes.len().min(16)]) {
        return Err(ApiError::bad_field("contentType", format!("the bytes are not a {} file", file.content_type)));
    }
    // Single use: only the PUT that flips uploaded_at from NULL stores its bytes.
    let claimed = uploaded_file::Entity::update_many()
        .col_expr(uploaded_file::Column::UploadedAt, sea_orm::sea_query::Expr::value(now))
        .filter(uploaded_file::Column::Id.eq(file_id.clone()))
        .filter(uploaded_file::Column::UploadedAt.is_null())
        .exec(&state.db)
        .await?;
    if claimed.rows_affected != 1 {
        return Err(ApiError::Conflict("The upload URL has been used already.".into()));
    }
    if let Err(e) = state.files.put(&file_id, bytes.freeze()).await {
        // Give the URL back so the browser can retry.
        let _ = uploaded_file::Entity::update_many()
            .col_expr(uploaded_file::Column::UploadedAt, sea_orm::sea_query::Expr::value(Option::<DateTime<Utc>>::None))
            .filter(uploaded_file::Column::Id.eq(file_id))
            .exec(&state.db)
            .await;
        return Err(e);
    }
    Ok(HttpResponse::NoContent().finish())
}

/// Removes files announced more than a day ago and never attached to a request (a form
/// left without saving), and their bytes. Each row is claimed with a conditional update,
/// so a file being attached at the same moment is never taken. Returns how many went.
pub async fn purge_unattached(state: &AppState, now: DateTime<Utc>) -> ApiResult<usize> {
    let cutoff = now - Duration::hours(UNATTACHED_GRACE_HOURS);
    let unattached = || {
        uploaded_file::Entity::find()
            .filter(uploaded_file::Column::PaymentRequestId.is_null())
            .filter(uploaded_file::Column::DeletedAt.is_null())
    };
    let stale = unattached().filter(uploaded_file::Column::CreatedAt.lt(cutoff)).all(&state.db).await?;
    let mut removed = 0;
    for f in stale {
        let claimed = uploaded_file::Entity::update_many()
            .col_expr(uploaded_file::Column::DeletedAt, sea_orm::sea_query::Expr::value(now))
            .filter(uploaded_file::Column::Id.eq(&f.id))
            .filter(uploaded_file::Column::PaymentRequestId.is_null())
            .filter(uploaded_file::Column::DeletedAt.is_null())
            .exec(&state.db)
            .await?;
        if claimed.rows_affected == 1 {
            if f.uploaded_at.is_some() {
                state.files.remove(&f.id).await;
            }
            removed += 1;
        }
    }
    Ok(removed)
}

/// Files usable on a request: uploaded, live, not expired before upload, and either free
/// and announced by `user` or already on `request_id`. Returns field errors for the rest.
pub fn check_attachable(
    ids: &[String],
    found: &[uploaded_file::Model],
    user: i32,
    request_id: Option<i32>,
) -> FieldErrors {
    let mut errors = Checks::default();
    for (i, id) in ids.iter().enumerate() {
        let field = format!("details.fileIds[{i}]");
        let problem = match found.iter().find(|f| &f.id == id) {
            None => Some("is not a known file"),
            Some(f) if f.deleted_at.is_some() => Some("has been deleted"),
            Some(f) if f.uploaded_at.is_none() => Some("has not been uploaded yet"),
            Some(f) if f.payment_request_id.is_some() && f.payment_request_id != request_id => Some("belongs to another request"),
            Some(f) if f.payment_request_id.is_none() && f.created_by != user => Some("was uploaded by someone else"),
            Some(_) => None,
        };
        if let Some(p) = problem {
            errors.add(field, p);
        }
    }
    errors.0
}

/// Whether a value is safe as a quoted filename in Content-Disposition.
pub fn disposition(file_name: &str) -> String {
    let safe: String = file_name.chars().map(|c| if c == '"' || c == '\\' || c.is_control() || !c.is_ascii() { '_' } else { c }).collect();
    format!("attachment; filename=\"{safe}\"")
}

/// Ids given are of this form: UUIDs only (they become object names).
pub fn is_file_id(id: &str) -> bool {
    uuid::Uuid::parse_str(id).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types() {
        assert_eq!(allowed_type("application/pdf"), Some("application/pdf"));
        assert_eq!(allowed_type("IMAGE/PNG; charset=binary"), Some("image/png"));
        assert_eq!(allowed_type("image/jpg"), Some("image/jpeg"));
        assert_eq!(allowed_type("image/heic"), Some("image/heic"));
        assert_eq!(allowed_type("image/gif"), None);
        assert_eq!(allowed_type("application/x-msdownload"), None);
    }

    #[test]
    fn magic_bytes() {
        assert!(content_matches("application/pdf", b"%PDF-1.7\n"));
        assert!(!content_matches("application/pdf", b"MZ\x90\x00"));
        assert!(content_matches("image/png", b"\x89PNG\r\n\x1a\n\0\0"));
        assert!(content_matches("image/jpeg", &[0xFF, 0xD8, 0xFF, 0xE0]));
        assert!(content_matches("image/heic", b"\0\0\0\x18ftypheic\0\0"));
        assert!(!content_matches("image/heic", b"\0\0\0\x18ftypisom"));
        assert!(!content_matches("image/gif", b"GIF89a"));
    }

    #[test]
    fn announcements() {
        let ok = FileAnnouncement { file_name: "C:\\scans\\receipt.pdf".into(), content_type: "application/pdf".into(), size: 10 };
        let got = check_announcements(&[ok]).unwrap();
        assert_eq!(got[0].0, "receipt.pdf");
        let bad = vec![
            FileAnnouncement { file_name: "".into(), content_type: "image/gif".into(), size: 0 },
            FileAnnouncement { file_name: "a.pdf".into(), content_type: "application/pdf".into(), size: MAX_FILE_BYTES + 1 },
        ];
        match check_announcements(&bad).unwrap_err() {
            ApiError::BadRequest { errors, .. } => {
                for f in ["files[0].fileName", "files[0].contentType", "files[0].size", "files[1].size"] {
                    assert!(errors.contains_key(f), "{f}: {errors:?}");
                }
            }
            other => panic!("{other:?}"),
        }
        assert!(check_announcements(&[]).is_err());
        let exactly = FileAnnouncement { file_name: "a.pdf".into(), content_type: "application/pdf".into(), size: MAX_FILE_BYTES };
        assert!(check_announcements(&[exactly]).is_ok());
    }

    fn file(id: &str, by: i32, uploaded: bool, request: Option<i32>, deleted: bool) -> uploaded_file::Model {
        let now = Utc::now();
        uploaded_file::Model {
            id: id.into(),
            file_name: "r.pdf".into(),
            content_type: "application/pdf".into(),
            size: 1,
            created_by: by,
            created_at: now,
            expires_at: now,
            uploaded_at: uploaded.then_some(now),
            payment_request_id: request,
            deleted_at: deleted.then_some(now),
        }
    }

    #[test]
    fn attachable() {
        let found = vec![
            file("mine", 1, true, None, false),
            file("pending", 1, false, None, false),
            file("theirs", 2, true, None, false),
            file("other-request", 1, true, Some(9), false),
            file("this-request", 2, true, Some(5), false),
            file("gone", 1, true, None, true),
        ];
        let ids: Vec<String> = ["mine", "pending", "theirs", "other-request", "this-request", "gone", "unknown"].map(String::from).to_vec();
        let errs = check_attachable(&ids, &found, 1, Some(5));
        let bad: Vec<&str> = errs.keys().map(String::as_str).collect();
        assert_eq!(bad, ["details.fileIds[1]", "details.fileIds[2]", "details.fileIds[3]", "details.fileIds[5]", "details.fileIds[6]"]);
    }

    #[test]
    fn dispositions_are_header_safe() {
        assert_eq!(disposition("a\"b\n.pdf"), "attachment; filename=\"a_b_.pdf\"");
        assert!(is_file_id(&uuid::Uuid::new_v4().to_string()));
        assert!(!is_file_id("../etc/passwd"));
    }
}
