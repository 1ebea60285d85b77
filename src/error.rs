//! The one error type of the API. Every non-2xx answer is a JSON problem body
//! `{status, title, detail, errors?}` with the standard titles (docs/api.md).

use std::collections::BTreeMap;

use actix_web::{http::StatusCode, HttpResponse, ResponseError};
use serde::Serialize;
use utoipa::ToSchema;

/// Field name -> messages, as sent in `errors`.
pub type FieldErrors = BTreeMap<String, Vec<String>>;

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{detail}")]
    BadRequest { detail: String, errors: FieldErrors },
    #[error("{0}")]
    Unauthorized(String),
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Conflict(String),
    /// 409 for a write based on a version that has moved on since the caller read it. Its
    /// `errors.version` is how a caller tells it from the other conflicts (a name already
    /// taken, a closed year), which no reload mends.
    #[error("{0}")]
    Stale(String),
    #[error("{detail}")]
    Unprocessable { detail: String, errors: FieldErrors },
    /// 408: a body that did not arrive in time.
    #[error("{0}")]
    RequestTimeout(String),
    /// 413: a body over the size limit.
    #[error("{0}")]
    PayloadTooLarge(String),
    #[error("too many requests")]
    TooManyRequests { retry_after_secs: u64 },
    #[error("{0}")]
    Unavailable(String),
    /// 503 with `Retry-After`: overloaded rather than broken (no slot or connection came free).
    #[error("{detail}")]
    Busy { detail: String, retry_after_secs: u64 },
    /// Never shown to the caller: logged, answered with a bare 500.
    #[error("internal error: {0}")]
    Internal(String),
}

/// The wire shape of every error answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProblemBody {
    pub status: u16,
    pub title: String,
    pub detail: String,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub errors: FieldErrors,
}

/// The title of each status: the standard reason phrase (the UI shows these texts).
pub fn title_for(status: StatusCode) -> &'static str {
    match status.as_u16() {
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        _ => status.canonical_reason().unwrap_or("Generic Error"),
    }
}

impl ApiError {
    pub fn bad_request(detail: impl Into<String>) -> Self {
        Self::BadRequest { detail: detail.into(), errors: FieldErrors::new() }
    }

    /// A 400 naming one field.
    pub fn bad_field(field: &str, message: impl Into<String>) -> Self {
        let message = message.into();
        Self::BadRequest {
            detail: format!("{field}: {message}"),
            errors: one_field(field, message),
        }
    }

    /// A 422 naming one field.
    pub fn rule(field: &str, message: impl Into<String>) -> Self {
        let message = message.into();
        Self::Unprocessable { detail: message.clone(), errors: one_field(field, message) }
    }

    pub fn validation(errors: FieldErrors) -> Self {
        let detail = errors
            .iter()
            .map(|(field, msgs)| format!("{field}: {}", msgs.join("; ")))
            .collect::<Vec<_>>()
            .join(", ");
        Self::BadRequest { detail, errors }
    }

    pub fn not_found(what: &str) -> Self {
        Self::NotFound(format!("{what} was not found."))
    }

    pub fn missing_permission(code: &str) -> Self {
        Self::Forbidden(format!("You do not have the permission {code}."))
    }

    fn body(&self) -> ProblemBody {
        let status = self.status_code();
        let (detail, errors) = match self {
            Self::BadRequest { detail, errors } | Self::Unprocessable { detail, errors } => {
                (detail.clone(), errors.clone())
            }
            Self::TooManyRequests { retry_after_secs } => (
                format!("Too many attempts. Try again in {retry_after_secs} seconds."),
                FieldErrors::new(),
            ),
            Self::Internal(_) => ("An unexpected error occurred.".to_owned(), FieldErrors::new()),
            Self::Stale(detail) => {
                (detail.clone(), one_field("version", "has changed since it was read".into()))
            }
            other => (other.to_string(), FieldErrors::new()),
        };
        // Field names and messages may quote what the caller sent: never echo control characters.
        let errors = errors
            .into_iter()
            .map(|(k, v)| (printable(&k), v.iter().map(|m| printable(m)).collect()))
            .collect();
        ProblemBody {
            status: status.as_u16(),
            title: title_for(status).to_owned(),
            detail: printable(&detail),
            errors,
        }
    }
}

/// Control characters (but tab and line breaks) as U+FFFD.
fn printable(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() && !matches!(c, '\t' | '\n' | '\r') { '\u{FFFD}' } else { c })
        .collect()
}

fn one_field(field: &str, message: String) -> FieldErrors {
    FieldErrors::from([(field.to_owned(), vec![message])])
}

pub const MAX_NAME_CHARS: usize = 100;

/// Lower-cased, trimmed e-mail if it looks like one (local@domain.tld, no spaces).
pub fn normalize_email(raw: &str) -> Option<String> {
    let email = raw.trim().to_lowercase();
    let (local, domain) = email.split_once('@')?;
    let plausible = !local.is_empty()
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !domain.contains('@')
        && email.len() <= 254
        && !email.chars().any(char::is_whitespace);
    plausible.then_some(email)
}

/// The one builder of field errors: collects every problem of a body so a form shows all of
/// them at once, then answers 400 (shape) or 422 (rules). The flag is set by a problem no
/// schema states (hidden characters in a name): `finish` then answers 422.
#[derive(Debug, Default)]
pub struct Checks(pub FieldErrors, bool);

impl Checks {
    pub fn add(&mut self, field: impl Into<String>, message: impl Into<String>) {
        self.0.entry(field.into()).or_default().push(message.into());
    }

    /// Another check's problems, kept beside these.
    pub fn extend(&mut self, errors: FieldErrors) {
        for (field, messages) in errors {
            self.0.entry(field).or_default().extend(messages);
        }
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Required free text, trimmed, at most `max` characters.
    pub fn text(&mut self, field: &str, raw: &str, max: usize) -> String {
        let text = raw.trim();
        if text.is_empty() {
            self.add(field, "is required");
        } else if text.chars().count() > max {
            self.add(field, format!("must be at most {max} characters"));
        }
        text.to_owned()
    }

    pub fn email(&mut self, field: &str, raw: &str) -> String {
        self.plain(field, raw);
        normalize_email(raw).unwrap_or_else(|| {
            self.add(field, "must be a valid e-mail address");
            String::new()
        })
    }

    pub fn name(&mut self, field: &str, raw: &str) -> String {
        self.plain(field, raw);
        self.text(field, raw, MAX_NAME_CHARS)
    }

    /// Names, e-mail addresses and codes hold no invisible or direction-changing characters
    /// (`crate::text`): a rule, so the answer is 422.
    pub fn plain(&mut self, field: &str, raw: &str) {
        if let Some(hidden) = crate::text::first_hidden(raw) {
            self.add(
                field,
                format!("must not contain invisible or direction-changing characters ({hidden})"),
            );
            self.1 = true;
        }
    }

    pub fn finish(self) -> Result<(), ApiError> {
        if self.0.is_empty() {
            Ok(())
        } else if self.1 {
            Self(self.0, false).finish_rules()
        } else {
            Err(ApiError::validation(self.0))
        }
    }

    /// As a 422 whose detail sums the problems up in a sentence of the caller's choosing.
    pub fn finish_as(self, detail: impl Into<String>) -> Result<(), ApiError> {
        if self.0.is_empty() {
            Ok(())
        } else {
            Err(ApiError::Unprocessable { detail: detail.into(), errors: self.0 })
        }
    }

    /// As a 422: for rules a schema cannot state (one field against another, or against
    /// stored data), so a 400 always means "not what the OpenAPI document describes".
    pub fn finish_rules(self) -> Result<(), ApiError> {
        if self.0.is_empty() {
            return Ok(());
        }
        match ApiError::validation(self.0) {
            ApiError::BadRequest { detail, errors } => {
                Err(ApiError::Unprocessable { detail, errors })
            }
            other => Err(other),
        }
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        match self {
            Self::BadRequest { .. } => StatusCode::BAD_REQUEST,
            Self::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            Self::Forbidden(_) => StatusCode::FORBIDDEN,
            Self::NotFound(_) => StatusCode::NOT_FOUND,
            Self::Conflict(_) | Self::Stale(_) => StatusCode::CONFLICT,
            Self::Unprocessable { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            Self::RequestTimeout(_) => StatusCode::REQUEST_TIMEOUT,
            Self::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            Self::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            Self::Unavailable(_) | Self::Busy { .. } => StatusCode::SERVICE_UNAVAILABLE,
            Self::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        if let Self::Internal(cause) = self {
            tracing::error!(%cause, "internal error");
        }
        let mut response = HttpResponse::build(self.status_code());
        if let Self::TooManyRequests { retry_after_secs } | Self::Busy { retry_after_secs, .. } =
            self
        {
            response.insert_header(("Retry-After", retry_after_secs.to_string()));
        }
        response.json(self.body())
    }
}

/// What a write that met a full disk answers (503 with Retry-After): nothing was saved.
pub const DISK_FULL: &str =
    "The server's disk is full, so nothing was saved. Try again once space has been freed.";

impl ApiError {
    pub fn disk_full() -> Self {
        Self::Busy { detail: DISK_FULL.into(), retry_after_secs: 60 }
    }
}

impl From<sea_orm::DbErr> for ApiError {
    fn from(err: sea_orm::DbErr) -> Self {
        if crate::db::is_full(&err) {
            tracing::error!(%err, "the database's disk is full");
            return Self::disk_full();
        }
        if crate::db::is_busy(&err) {
            tracing::warn!(%err, "database busy");
            return Self::Busy {
                detail: "The server is busy. Try again in a moment.".into(),
                retry_after_secs: 1,
            };
        }
        Self::Internal(format!("database: {err}"))
    }
}

impl From<sea_orm::TransactionError<ApiError>> for ApiError {
    fn from(err: sea_orm::TransactionError<ApiError>) -> Self {
        match err {
            sea_orm::TransactionError::Connection(db) => db.into(),
            sea_orm::TransactionError::Transaction(api) => api,
        }
    }
}

impl ApiError {
    /// A unique-index violation becomes a 409 (a concurrent duplicate); anything else stays internal.
    pub fn unique_or_internal(err: sea_orm::DbErr, conflict: &str) -> Self {
        match err.sql_err() {
            Some(sea_orm::SqlErr::UniqueConstraintViolation(_)) => {
                Self::Conflict(conflict.to_owned())
            }
            _ => err.into(),
        }
    }
}

pub type ApiResult<T> = Result<T, ApiError>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emails() {
        assert_eq!(
            normalize_email("  Ann.Lee@Example.ORG ").as_deref(),
            Some("ann.lee@example.org")
        );
        for bad in [
            "",
            "ann",
            "ann@",
            "@example.org",
            "ann@example",
            "a b@example.org",
            "a@b@c.org",
            "ann@.org",
            "ann@org.",
        ] {
            assert_eq!(normalize_email(bad), None, "{bad}");
        }
        assert_eq!(normalize_email(&format!("{}@example.org", "a".repeat(250))), None);
    }

    #[test]
    fn checks_collect_every_problem() {
        let mut c = Checks::default();
        c.email("email", "nope");
        c.name("firstName", "  ");
        c.name("lastName", &"x".repeat(101));
        assert_eq!(c.name("x", " Ann "), "Ann");
        let errors = c.0.clone();
        assert_eq!(errors.len(), 3);
        assert!(c.finish().is_err());
        assert!(Checks::default().finish().is_ok());
    }

    use actix_web::body::to_bytes;

    #[test]
    fn titles_follow_the_spec_catalogue() {
        for (code, title) in [
            (400, "Bad Request"),
            (401, "Unauthorized"),
            (403, "Forbidden"),
            (404, "Not Found"),
            (500, "Internal Server Error"),
            (502, "Bad Gateway"),
            (503, "Service Unavailable"),
            (409, "Conflict"),
            (422, "Unprocessable Entity"),
            (429, "Too Many Requests"),
        ] {
            assert_eq!(title_for(StatusCode::from_u16(code).unwrap()), title);
        }
    }

    #[actix_web::test]
    async fn internal_errors_hide_their_cause() {
        let response = ApiError::Internal("secret path /etc/x".into()).error_response();
        assert_eq!(response.status(), 500);
        let body = to_bytes(response.into_body()).await.unwrap();
        let text = String::from_utf8(body.to_vec()).unwrap();
        assert!(!text.contains("secret"), "{text}");
        assert!(text.contains("\"title\":\"Internal Server Error\""));
    }

    #[actix_web::test]
    async fn throttling_sets_retry_after() {
        let response = ApiError::TooManyRequests { retry_after_secs: 7 }.error_response();
        assert_eq!(response.status(), 429);
        assert_eq!(response.headers().get("Retry-After").unwrap(), "7");
    }

    #[test]
    fn field_errors_are_named() {
        let body = ApiError::bad_field("email", "is required").body();
        assert_eq!(body.errors["email"], vec!["is required".to_owned()]);
        assert_eq!(body.status, 400);
    }
}
