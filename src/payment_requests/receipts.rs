//! F2 receipts' rules, pure: what may be announced, what the bytes must look like, which
//! files a request may hold, and how a name goes into a header.

use serde::Deserialize;
use utoipa::ToSchema;

use crate::{
    entities::uploaded_file,
    error::{ApiError, Checks, FieldErrors},
    forms::{ALLOWED_RECEIPT_TYPES, MAX_RECEIPT_BYTES},
};

pub const MAX_FILES_PER_CALL: usize = 20;
/// How long an upload URL may be used.
pub const UPLOAD_URL_TTL_SECS: i64 = 15 * 60;
/// How long an announced file may wait to be attached to a request before the hourly
/// upkeep removes it: a day, for someone who uploads receipts and saves the form later.
pub const UNATTACHED_GRACE_HOURS: i64 = 24;

/// Whether `asked` more bytes fit beside the `held` bytes of receipts no request uses yet,
/// under a quota of `quota_mb` megabytes: a 422 on `files` in words when not.
pub fn check_quota(held: i64, asked: i64, quota_mb: i32) -> Result<(), ApiError> {
    let quota = i64::from(quota_mb) * 1024 * 1024;
    if held.saturating_add(asked) <= quota {
        return Ok(());
    }
    let mb = |bytes: i64| format!("{:.1} MB", bytes as f64 / (1024.0 * 1024.0));
    Err(ApiError::rule(
        "files",
        format!(
            "would hold {} of receipts not attached to a request; the limit is {quota_mb} MB per person ({} held now). Attach or delete receipts first.",
            mb(held.saturating_add(asked)),
            mb(held)
        ),
    ))
}

/// Lower-cased media type without parameters, if it is one we take.
pub fn allowed_type(content_type: &str) -> Option<&'static str> {
    let base = content_type.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    let base = if base == "image/jpg" { "image/jpeg".to_owned() } else { base };
    ALLOWED_RECEIPT_TYPES.into_iter().find(|t| *t == base)
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
                && [b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"mif1", b"msf1"]
                    .iter()
                    .any(|b| &head[8..12] == *b)
        }
        _ => false,
    }
}

// One file the browser means to upload.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FileAnnouncement {
    /// The last path component is kept: 1 to 200 characters, none of them control characters.
    #[schema(
        max_length = 200,
        pattern = r"^[^\u0000-\u001F\u007F-\u009F]*[^\s/\\\u0000-\u001F\u007F-\u009F] *$"
    )]
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
        crate::web::string_enum(ALLOWED_RECEIPT_TYPES)
    }
}

impl ToSchema for AllowedType {}

/// Checks announcements; returns (name, type) pairs cleaned, or field errors `files[i].x`.
pub fn check_announcements(
    files: &[FileAnnouncement],
) -> Result<Vec<(String, &'static str, i64)>, ApiError> {
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
            errors.add(
                format!("files[{i}].contentType"),
                "must be application/pdf, image/png, image/jpeg or image/heic",
            );
        }
        if !(1..=MAX_RECEIPT_BYTES).contains(&f.size) {
            errors.add(format!("files[{i}].size"), "must be between 1 byte and 10 MB");
        }
        out.push((name, ty.unwrap_or(""), f.size));
    }
    errors.finish()?;
    Ok(out)
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
            Some(f) if f.payment_request_id.is_some() && f.payment_request_id != request_id => {
                Some("belongs to another request")
            }
            Some(f) if f.payment_request_id.is_none() && f.created_by != user => {
                Some("was uploaded by someone else")
            }
            Some(_) => None,
        };
        if let Some(p) = problem {
            errors.add(field, p);
        }
    }
    errors.0
}

/// A download's Content-Disposition, the name made safe as a quoted filename.
pub fn disposition(file_name: &str) -> String {
    format!("attachment; filename=\"{}\"", header_safe(file_name))
}

/// A preview's Content-Disposition: shown in the page, the name kept for "save as".
pub fn inline_disposition(file_name: &str) -> String {
    format!("inline; filename=\"{}\"", header_safe(file_name))
}

fn header_safe(file_name: &str) -> String {
    file_name
        .chars()
        .map(|c| if c == '"' || c == '\\' || c.is_control() || !c.is_ascii() { '_' } else { c })
        .collect()
}

/// The receipt types a browser shows by itself: images in an `<img>`, PDFs in its viewer.
/// HEIC is taken as a receipt but no browser we support draws it, so it is only downloaded.
pub const PREVIEW_TYPES: [&str; 3] = ["image/png", "image/jpeg", "application/pdf"];

/// Whether a stored receipt (its type checked against its first bytes at upload) may be
/// served for preview.
pub fn previewable(content_type: &str) -> bool {
    PREVIEW_TYPES.contains(&content_type)
}

/// The policy a previewed receipt is served with: it loads nothing, runs no script, and may
/// be framed by our own pages only. `sandbox` keeps a document opened from it without an
/// origin; Chromium's PDF viewer still draws a sandboxed PDF (checked in the browser test).
pub const PREVIEW_CSP: &str =
    "default-src 'none'; img-src 'self'; object-src 'self'; sandbox; frame-ancestors 'self'";

/// Ids given are of this form: UUIDs only (they become object names).
pub fn is_file_id(id: &str) -> bool {
    uuid::Uuid::parse_str(id).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::Utc;

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
        let ok = FileAnnouncement {
            file_name: "C:\\scans\\receipt.pdf".into(),
            content_type: "application/pdf".into(),
            size: 10,
        };
        let got = check_announcements(&[ok]).unwrap();
        assert_eq!(got[0].0, "receipt.pdf");
        let bad = vec![
            FileAnnouncement { file_name: "".into(), content_type: "image/gif".into(), size: 0 },
            FileAnnouncement {
                file_name: "a.pdf".into(),
                content_type: "application/pdf".into(),
                size: MAX_RECEIPT_BYTES + 1,
            },
        ];
        match check_announcements(&bad).unwrap_err() {
            ApiError::BadRequest { errors, .. } => {
                for f in
                    ["files[0].fileName", "files[0].contentType", "files[0].size", "files[1].size"]
                {
                    assert!(errors.contains_key(f), "{f}: {errors:?}");
                }
            }
            other => panic!("{other:?}"),
        }
        assert!(check_announcements(&[]).is_err());
        let exactly = FileAnnouncement {
            file_name: "a.pdf".into(),
            content_type: "application/pdf".into(),
            size: MAX_RECEIPT_BYTES,
        };
        assert!(check_announcements(&[exactly]).is_ok());
    }

    fn file(
        id: &str,
        by: i32,
        uploaded: bool,
        request: Option<i32>,
        deleted: bool,
    ) -> uploaded_file::Model {
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
        let ids: Vec<String> =
            ["mine", "pending", "theirs", "other-request", "this-request", "gone", "unknown"]
                .map(String::from)
                .to_vec();
        let errs = check_attachable(&ids, &found, 1, Some(5));
        let bad: Vec<&str> = errs.keys().map(String::as_str).collect();
        assert_eq!(
            bad,
            [
                "details.fileIds[1]",
                "details.fileIds[2]",
                "details.fileIds[3]",
                "details.fileIds[5]",
                "details.fileIds[6]"
            ]
        );
    }

    #[test]
    fn the_quota_counts_what_is_held_and_what_is_asked() {
        const MB: i64 = 1024 * 1024;
        for (held, asked, quota, fits) in [
            (0, 10 * MB, 100, true),
            (90 * MB, 10 * MB, 100, true),
            (90 * MB, 10 * MB + 1, 100, false),
            (100 * MB, 1, 100, false),
            (0, 2 * MB, 1, false),
            (i64::MAX, 1, 100, false),
        ] {
            assert_eq!(check_quota(held, asked, quota).is_ok(), fits, "{held} + {asked} / {quota}");
        }
        match check_quota(95 * MB, 10 * MB, 100).unwrap_err() {
            ApiError::Unprocessable { errors, .. } => assert_eq!(
                errors["files"],
                ["would hold 105.0 MB of receipts not attached to a request; the limit is 100 MB per person (95.0 MB held now). Attach or delete receipts first."]
            ),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn only_images_and_pdfs_are_previewed() {
        for t in ["image/png", "image/jpeg", "application/pdf"] {
            assert!(previewable(t), "{t}");
        }
        for t in ["image/heic", "text/html", "image/svg+xml", "application/octet-stream", ""] {
            assert!(!previewable(t), "{t}");
        }
        assert!(!PREVIEW_CSP.contains("script-src"));
        assert!(PREVIEW_CSP.starts_with("default-src 'none'"));
    }

    #[test]
    fn dispositions_are_header_safe() {
        assert_eq!(disposition("a\"b\n.pdf"), "attachment; filename=\"a_b_.pdf\"");
        assert_eq!(inline_disposition("Ré\\çu.png"), "inline; filename=\"R___u.png\"");
        assert!(is_file_id(&uuid::Uuid::new_v4().to_string()));
        assert!(!is_file_id("../etc/passwd"));
    }
}
