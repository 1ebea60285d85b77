//! Import handlers: the upload read and handed to the import command, the answer rendered
//! (a real run with errors is a 422 carrying the same report); the template to fill in, from
//! the live lists.

use actix_web::{http::header, web, HttpRequest, HttpResponse};
use futures_util::StreamExt;

use super::{dto::*, file, store, template};
use crate::{
    auth::CurrentUser,
    error::{title_for, ApiError, ApiResult, ProblemBody},
    participants::commands,
    state::AppState,
    web::Query,
};

/// Room for the multipart framing around a file of the largest size.
const FRAMING_BYTES: usize = 64 * 1024;

#[utoipa::path(post, path = "/api/v1/participants/import", tag = "participants", security(("bearer" = [])), params(ImportQuery),
    request_body(content = ImportUpload, content_type = "multipart/form-data"),
    responses((status = 200, description = "What the rows do (dry run) or did", body = ImportReport),
        (status = 400, description = "Not a CSV or XLSX file, empty, unknown or missing columns, too many rows or cells", body = ProblemBody),
        (status = 401, body = ProblemBody), (status = 403, body = ProblemBody),
        (status = 413, description = "Over 10 MB", body = ProblemBody),
        (status = 422, description = "Nothing was written: a real run with row errors (the report lists them), or a file the import cannot read (a problem naming `file`)", body = ImportRefusal)))]
pub async fn import(
    state: web::Data<AppState>,
    me: CurrentUser,
    req: HttpRequest,
    payload: web::Payload,
    Query(q): Query<ImportQuery>,
) -> ApiResult<HttpResponse> {
    let dry_run = q.dryrun.unwrap_or(true);
    let bytes = upload(&req, payload).await?;
    let sheet = file::read(&bytes)?;
    let report = commands::import(&state.db, &me, &sheet, dry_run).await?;
    if !dry_run && !report.errors.is_empty() {
        let status = actix_web::http::StatusCode::UNPROCESSABLE_ENTITY;
        let detail = format!("{} rows have errors; nothing was imported.", {
            let mut rows: Vec<usize> = report.errors.iter().map(|e| e.row).collect();
            rows.dedup();
            rows.len()
        });
        let mut body =
            serde_json::to_value(&report).map_err(|e| ApiError::Internal(e.to_string()))?;
        body["status"] = status.as_u16().into();
        body["title"] = title_for(status).into();
        body["detail"] = detail.into();
        return Ok(HttpResponse::build(status).content_type("application/problem+json").json(body));
    }
    Ok(HttpResponse::Ok().json(report))
}

/// The bytes of the multipart field `file`.
async fn upload(req: &HttpRequest, payload: web::Payload) -> ApiResult<Vec<u8>> {
    let too_large = || {
        ApiError::PayloadTooLarge(format!(
            "file: must be at most {} MB.",
            file::MAX_BYTES / (1024 * 1024)
        ))
    };
    let body =
        crate::web::read_body(req, payload, file::MAX_BYTES + FRAMING_BYTES, too_large).await?;
    let not_multipart = || {
        ApiError::bad_field("file", "send the file as multipart/form-data in a field named file")
    };
    let stream = futures_util::stream::once(async move {
        Ok::<_, actix_web::error::PayloadError>(body.freeze())
    });
    let mut parts = actix_multipart::Multipart::new(req.headers(), stream);
    while let Some(part) = parts.next().await {
        let mut part = part.map_err(|_| not_multipart())?;
        if part.name() != Some("file") {
            continue;
        }
        let mut bytes = Vec::new();
        while let Some(chunk) = part.next().await {
            let chunk = chunk.map_err(|_| not_multipart())?;
            if bytes.len() + chunk.len() > file::MAX_BYTES {
                return Err(too_large());
            }
            bytes.extend_from_slice(&chunk);
        }
        return Ok(bytes);
    }
    Err(not_multipart())
}

#[utoipa::path(get, path = "/api/v1/participants/import/template", tag = "participants", security(("bearer" = [])), params(TemplateQuery),
    responses((status = 200, description = "participant-import.csv (the header in words and one example row) or participant-import.xlsx (the same, with a drop-down of the allowed values on every column that takes them, an Allowed values sheet and a Notes sheet that says how to write each column, dates in the office's format)"),
        (status = 400, body = ProblemBody), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody)))]
pub async fn template(
    state: web::Data<AppState>,
    _me: CurrentUser,
    Query(q): Query<TemplateQuery>,
) -> ApiResult<HttpResponse> {
    let csv = match q.reportformat.as_deref().map(str::trim) {
        None | Some("") => true,
        Some(f) if f.eq_ignore_ascii_case("csv") => true,
        Some(f) if f.eq_ignore_ascii_case("xlsx") => false,
        Some(_) => return Err(ApiError::bad_field("ReportFormat", "must be Csv or Xlsx")),
    };
    let internal = |e: &dyn std::fmt::Display| ApiError::Internal(e.to_string());
    let (bytes, content_type, extension) = if csv {
        (template::csv().map_err(|e| internal(&e))?, "text/csv; charset=utf-8", "csv")
    } else {
        let lists = store::lists(&state.db).await?;
        let bytes = template::xlsx(&lists, crate::clock::today()).map_err(|e| internal(&e))?;
        (bytes, "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "xlsx")
    };
    Ok(HttpResponse::Ok()
        .content_type(content_type)
        .insert_header((
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"participant-import.{extension}\""),
        ))
        .body(bytes))
}
