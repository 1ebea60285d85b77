//! Request kernel shared by every area: a JSON body extractor whose errors name the
//! field (the body read within a deadline, checked against its documented shape before
//! serde reads it), a query extractor that accepts the API's PascalCase names
//! case-insensitively, and the paging contract of docs/api.md.

use std::{future::Future, pin::Pin};

use actix_web::{dev::Payload, http::header, web, FromRequest, HttpRequest};
use chrono::{DateTime, Datelike, NaiveDate, Utc};
use futures_util::StreamExt;
use serde::{de::DeserializeOwned, Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::error::{ApiError, Checks};

pub mod heavy;
mod shape;
pub use shape::Shape;

/// Largest accepted JSON body (413 beyond); uploads do not travel through JSON.
pub const MAX_JSON_BYTES: usize = 2 * 1024 * 1024;

/// How long a body may take to arrive when the configuration does not say
/// (`--body-timeout`): a client trickling bytes must not hold a connection for ever.
pub const DEFAULT_BODY_TIMEOUT_SECS: u64 = 30;

/// The body deadline of the running server (`--body-timeout`), as app data.
#[derive(Debug, Clone, Copy)]
pub struct BodyTimeout(pub std::time::Duration);

fn body_timeout(req: &HttpRequest) -> std::time::Duration {
    req.app_data::<BodyTimeout>()
        .map_or(std::time::Duration::from_secs(DEFAULT_BODY_TIMEOUT_SECS), |t| t.0)
}

/// Reads a whole body of at most `limit` bytes (`too_large` beyond) within the server's body
/// deadline (408 after it): every body a handler reads comes through here.
pub fn read_body(
    req: &HttpRequest,
    payload: impl futures_util::Stream<Item = Result<web::Bytes, actix_web::error::PayloadError>>
        + Unpin
        + 'static,
    limit: usize,
    too_large: impl Fn() -> ApiError + 'static,
) -> impl Future<Output = Result<web::BytesMut, ApiError>> {
    let deadline = body_timeout(req);
    let mut payload = payload;
    async move {
        let read = async {
            let mut body = web::BytesMut::new();
            while let Some(chunk) = payload.next().await {
                let chunk =
                    chunk.map_err(|e| ApiError::bad_request(format!("Unreadable body: {e}")))?;
                if body.len() + chunk.len() > limit {
                    return Err(too_large());
                }
                body.extend_from_slice(&chunk);
            }
            Ok(body)
        };
        tokio::time::timeout(deadline, read).await.unwrap_or_else(|_| {
            Err(ApiError::RequestTimeout(format!(
                "The body did not arrive within {} seconds.",
                deadline.as_secs()
            )))
        })
    }
}

fn too_large() -> ApiError {
    ApiError::PayloadTooLarge(format!(
        "The body must be at most {} MB.",
        MAX_JSON_BYTES / (1024 * 1024)
    ))
}

/// `web::Json` with errors that say which field is wrong (`errors: {"roles[0]": [...]}`),
/// a 413 for bodies over [`MAX_JSON_BYTES`], and no control characters in any text.
pub struct Json<T>(pub T);

impl<T: DeserializeOwned + utoipa::ToSchema + 'static> FromRequest for Json<T> {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, ApiError>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let body = json_body(req, payload);
        Box::pin(async move { parse_shaped(&body.await?, Some(&Shape::of::<T>())).map(Json) })
    }
}

/// The bytes of a JSON body: declared JSON, at most [`MAX_JSON_BYTES`], within the deadline.
fn json_body(
    req: &HttpRequest,
    payload: &mut Payload,
) -> impl Future<Output = Result<web::BytesMut, ApiError>> {
    let headers = req.headers();
    let is_json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json") || v.contains("+json"));
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    let read = read_body(req, payload.take(), MAX_JSON_BYTES, too_large);
    async move {
        if declared.is_some_and(|n| n > MAX_JSON_BYTES as u64) {
            return Err(too_large());
        }
        if !is_json {
            return Err(ApiError::bad_request(
                "The body must be JSON (Content-Type: application/json).",
            ));
        }
        read.await
    }
}

/// A PUT body type that accepts the representation its GET returns: the keys listed
/// here (id, createdAt, computed fields...) are dropped before parsing, so a client may
/// send back what it read with one field changed; any other unknown key is still a 400.
pub trait Representation {
    const READ_ONLY: &'static [&'static str];
}

impl<T: Representation> Representation for Vec<T> {
    const READ_ONLY: &'static [&'static str] = T::READ_ONLY;
}

/// The body of a PUT: [`Json`] after dropping `T::READ_ONLY` keys (of each element of a list).
pub struct Put<T>(pub T);

impl<T: DeserializeOwned + Representation + utoipa::ToSchema + 'static> FromRequest for Put<T> {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, ApiError>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let body = json_body(req, payload);
        Box::pin(async move {
            let mut value: serde_json::Value = parse_json(&body.await?)?;
            let strip = |v: &mut serde_json::Value| {
                if let Some(map) = v.as_object_mut() {
                    for key in T::READ_ONLY {
                        map.remove(*key);
                    }
                }
            };
            match &mut value {
                serde_json::Value::Array(items) => items.iter_mut().for_each(strip),
                other => strip(other),
            }
            // Re-read from bytes: money fields parse from the JSON text itself.
            let bytes = serde_json::to_vec(&value)
                .map_err(|e| ApiError::Internal(format!("re-encode: {e}")))?;
            parse_shaped(&bytes, Some(&Shape::of::<T>())).map(Put)
        })
    }
}

/// Parses JSON and names the failing field path in the error. Text anywhere in the
/// body (keys too) must be free of control characters other than tab and line breaks.
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    parse_shaped(bytes, None)
}

/// [`parse_json`], the values' kinds first checked against the documented `shape`.
fn parse_shaped<T: DeserializeOwned>(bytes: &[u8], shape: Option<&Shape>) -> Result<T, ApiError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(ApiError::bad_request("The body is empty; a JSON value is required."));
    }
    let mut normalized = None;
    if let Ok(mut value) = serde_json::from_slice::<serde_json::Value>(bytes) {
        let mut errors = Checks::default();
        control_characters(&value, ".", &mut errors);
        errors.finish()?;
        if let Some(shape) = shape {
            shape.check(&value)?;
        }
        // JSON (and JSON Schema) count 3.0 as the integer 3; serde's integers do not.
        if whole_floats_to_integers(&mut value) {
            normalized = serde_json::to_vec(&value).ok();
        }
    }
    let bytes = normalized.as_deref().unwrap_or(bytes);
    let de = &mut serde_json::Deserializer::from_slice(bytes);
    serde_path_to_error::deserialize(de).map_err(|err| {
        let path = err.path().to_string();
        let inner = err.into_inner();
        if inner.is_syntax() || inner.is_eof() {
            return ApiError::bad_request(format!("Invalid JSON: {}", inner));
        }
        field_error(&path, &inner.to_string(), "body")
    })
}

/// Reads a part of a body already parsed (a form's `details`) as `T`; errors name the field
/// under `base` (`details.trips[0].miles`) in the same words as a whole body's.
pub fn from_value<T: DeserializeOwned>(
    value: &serde_json::Value,
    base: &str,
) -> Result<T, ApiError> {
    // Through the text, as a body is read: money and hours parse their exact decimals from it.
    let text = value.to_string();
    serde_path_to_error::deserialize(&mut serde_json::Deserializer::from_str(&text)).map_err(
        |err| {
            let path = err.path().to_string();
            let path = if path == "." { base.to_owned() } else { join_path(base, &path) };
            field_error(&path, &err.into_inner().to_string(), base)
        },
    )
}

/// serde's complaint at `path` as a 400 naming the field; `whole` names the value itself.
fn field_error(path: &str, message: &str, whole: &str) -> ApiError {
    let message = clean_serde_message(message);
    if let Some(field) = missing_field(&message) {
        return ApiError::bad_field(&join_path(path, field), "is required");
    }
    if let Some((field, known)) = unknown_field(&message) {
        // The path already ends with the unknown key.
        let at = if path == field || path.ends_with(&format!(".{field}")) {
            path.to_owned()
        } else {
            join_path(path, field)
        };
        return ApiError::bad_field(&at, format!("is not a field here (known: {known})"));
    }
    let field = if path == "." { whole } else { path };
    ApiError::bad_field(field, plain_words(&message))
}

/// 2^63 and 2^64: the first whole numbers beyond `i64` and `u64`.
const I64_END: f64 = 9_223_372_036_854_775_808.0;
const U64_END: f64 = 18_446_744_073_709_551_616.0;

/// The number a whole float (`3.0`, `1e3`, `2122643706491769.0`) stands for, as JSON Schema
/// reads it; None when it has a fraction or lies beyond 64 bits.
fn whole_number(f: f64) -> Option<serde_json::Value> {
    if f.fract() != 0.0 || !f.is_finite() {
        None
    } else if (-I64_END..I64_END).contains(&f) {
        Some(serde_json::Value::from(f as i64))
    } else if (0.0..U64_END).contains(&f) {
        Some(serde_json::Value::from(f as u64))
    } else {
        None
    }
}

/// Rewrites whole numbers written as floats (`3.0`, `1e3`) as integers, so a number is read
/// one way whatever its spelling; true when anything changed.
fn whole_floats_to_integers(value: &mut serde_json::Value) -> bool {
    match value {
        serde_json::Value::Number(n) if n.is_f64() => match n.as_f64().and_then(whole_number) {
            Some(whole) => {
                *value = whole;
                true
            }
            None => false,
        },
        serde_json::Value::Array(items) => {
            items.iter_mut().fold(false, |changed, v| whole_floats_to_integers(v) | changed)
        }
        serde_json::Value::Object(map) => {
            map.values_mut().fold(false, |changed, v| whole_floats_to_integers(v) | changed)
        }
        _ => false,
    }
}

/// Is `c` a control character text must not hold? Tab, line feed and carriage return are text.
pub fn is_forbidden_control(c: char) -> bool {
    c.is_control() && !matches!(c, '\t' | '\n' | '\r')
}

fn control_characters(value: &serde_json::Value, path: &str, errors: &mut Checks) {
    const MESSAGE: &str = "must not contain control characters (such as NUL)";
    match value {
        serde_json::Value::String(text) if text.chars().any(is_forbidden_control) => {
            let field = if path == "." { "body" } else { path };
            errors.add(field, MESSAGE);
        }
        serde_json::Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                let at = if path == "." { format!("[{i}]") } else { format!("{path}[{i}]") };
                control_characters(item, &at, errors);
            }
        }
        serde_json::Value::Object(map) => {
            // Keys are names, not text: an unknown one is refused (or ignored) by the shape.
            for (key, item) in map {
                control_characters(item, &join_path(path, key), errors);
            }
        }
        _ => {}
    }
}

fn join_path(path: &str, field: &str) -> String {
    if path == "." {
        field.to_owned()
    } else {
        format!("{path}.{field}")
    }
}

/// serde's messages end with " at line 1 column 9": the field name already says where.
fn clean_serde_message(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) => message[..i].to_owned(),
        None => message.to_owned(),
    }
}

fn missing_field(message: &str) -> Option<&str> {
    message.strip_prefix("missing field `")?.strip_suffix('`')
}

/// `unknown field `x`, expected one of `a`, `b`` -> ("x", "a, b").
fn unknown_field(message: &str) -> Option<(&str, String)> {
    let rest = message.strip_prefix("unknown field `")?;
    let (field, rest) = rest.split_once('`')?;
    let known = rest
        .split_once("expected ")
        .map(|(_, k)| k.replace("one of ", "").replace('`', ""))
        .unwrap_or_default();
    Some((field, if known.is_empty() { "none".to_owned() } else { known }))
}

/// serde's and std's type-level wording ("invalid type: sequence, expected struct
/// ParticipantBody with 16 elements", "invalid digit found in string") in a caller's words.
pub fn plain_words(message: &str) -> String {
    if message.starts_with("invalid type: null") {
        return "is required".into();
    }
    let expected = message.rsplit_once("expected ").map(|(_, e)| e).unwrap_or("");
    let number_type = |t: &str| {
        matches!(
            t.trim_end_matches(" value"),
            "i8" | "i16" | "i32" | "i64" | "u8" | "u16" | "u32" | "u64" | "usize" | "isize"
        )
    };
    let whole_float = message
        .strip_prefix("invalid type: floating point `")
        .and_then(|rest| rest.split('`').next())
        .and_then(|n| n.parse::<f64>().ok())
        .is_some_and(|f| f.fract() == 0.0);
    if expected.starts_with("struct ") || expected.starts_with("a map") || expected.contains("map")
    {
        "must be a JSON object".into()
    } else if expected.starts_with("a sequence") || expected.starts_with("a list") {
        "must be a list".into()
    } else if whole_float && number_type(expected) {
        // Whole, but beyond 64 bits (whole floats within are read as integers).
        "is out of range for a whole number".into()
    } else if number_type(expected)
        || message.contains("invalid digit")
        || message.contains("cannot parse integer")
    {
        match expected {
            "u8" | "u16" | "u32" | "u64" | "usize" => "must be a whole number, 0 or more".into(),
            "i32" => "must be a whole number from -2147483648 to 2147483647".into(),
            _ => "must be a whole number".into(),
        }
    } else if message.contains("number too large") || message.contains("number too small") {
        "is out of range for a whole number".into()
    } else if expected.starts_with("a string") || expected.starts_with("a borrowed string") {
        "must be text".into()
    } else if expected.starts_with("a boolean") || message.contains("`true` or `false`") {
        "must be true or false".into()
    } else if expected.starts_with("f64")
        || expected.starts_with("f32")
        || message.contains("invalid float")
    {
        "must be a number".into()
    } else if let Some(variants) = message
        .strip_prefix("unknown variant `")
        .and_then(|r| r.split_once("expected "))
        .map(|(_, e)| e)
    {
        format!("must be one of {}", variants.replace("one of ", "").replace('`', ""))
    } else if [
        "input contains invalid characters",
        "premature end of input",
        "input is out of range",
        "trailing input",
        "input is not enough",
        "bad or unsupported format",
    ]
    .iter()
    .any(|m| message.contains(m))
    {
        "must be a date written YYYY-MM-DD (or a date-time in RFC 3339)".into()
    } else {
        message.to_owned()
    }
}

/// The OpenAPI schema of a string that takes one of `values` (for enums kept as text on the wire).
pub fn string_enum<'a>(
    values: impl IntoIterator<Item = &'a str>,
) -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::Type::String)
        .enum_values(Some(values.into_iter().map(str::to_owned).collect::<Vec<_>>()))
        .into()
}

/// The OpenAPI schema of a stored row's id as a caller sends it: a 32-bit whole number, 1 or more
/// (`#[schema(value_type = crate::web::Id)]` on `i32` fields the rules refuse at 0 or below).
pub struct Id;

impl utoipa::PartialSchema for Id {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::Type::Integer)
            .format(Some(utoipa::openapi::SchemaFormat::KnownFormat(
                utoipa::openapi::KnownFormat::Int32,
            )))
            .minimum(Some(1))
            .maximum(Some(i32::MAX))
            .into()
    }
}

impl utoipa::ToSchema for Id {}

/// The OpenAPI schema of a text that must not be blank (role names in a list, ...).
pub struct NonBlank;

impl utoipa::PartialSchema for NonBlank {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::Type::String)
            .min_length(Some(1))
            .max_length(Some(100))
            .into()
    }
}

impl utoipa::ToSchema for NonBlank {}

/// The OpenAPI schema of an e-mail address in a body: at most 254 characters, something
/// before one `@`, a dot inside the domain, white space only around it. Inlined where used
/// (`#[schema(inline, value_type = crate::web::Email)]`), so the document shows the bounds
/// on the field itself.
pub struct Email;

impl utoipa::PartialSchema for Email {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::Type::String)
            .max_length(Some(254))
            .pattern(Some(r"^[\t\n\r \u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]*[^@\s\u0000-\u001F\u007F-\u009F]+@[^@.\s\u0000-\u001F\u007F-\u009F][^@\s\u0000-\u001F\u007F-\u009F]*\.[^@\s\u0000-\u001F\u007F-\u009F]*[^@.\s\u0000-\u001F\u007F-\u009F][\t\n\r \u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]*$"))
            .into()
    }
}

impl utoipa::ToSchema for Email {}

// ---- dates ----

/// Dates outside these years are typing mistakes (`0000-01-01`, `26-01-01`, `9999-12-31`).
pub const MIN_YEAR: i32 = 1900;
pub const MAX_YEAR: i32 = 2100;
pub const DATE_RANGE: &str = "must be a date from 1900-01-01 to 2100-12-31";

pub fn plausible(date: NaiveDate) -> bool {
    (MIN_YEAR..=MAX_YEAR).contains(&date.year())
}

/// Exactly `YYYY-MM-DD`, a real calendar day, in 1900..=2100.
pub fn parse_date(text: &str) -> Result<NaiveDate, String> {
    let shaped = text.len() == 10
        && text
            .char_indices()
            .all(|(i, c)| if i == 4 || i == 7 { c == '-' } else { c.is_ascii_digit() });
    if !shaped {
        return Err("must be a date written YYYY-MM-DD".into());
    }
    // chrono's own ISO parser, as `reports::fields` reads stored days: `parse_from_str`
    // parses its strftime pattern again per call, and a report reads every form's dates.
    let date: NaiveDate = text.parse().map_err(|_| "is not a day of the calendar".to_owned())?;
    if plausible(date) {
        Ok(date)
    } else {
        Err(DATE_RANGE.into())
    }
}

/// An RFC 3339 date-time whose date is in 1900..=2100.
pub fn parse_datetime(text: &str) -> Result<DateTime<Utc>, String> {
    let at = DateTime::parse_from_rfc3339(text)
        .map_err(|_| "must be a date-time in RFC 3339 (2026-01-31T08:00:00Z)".to_owned())?;
    if plausible(at.date_naive()) {
        Ok(at.with_timezone(&Utc))
    } else {
        Err("must be a date-time from 1900 to 2100".into())
    }
}

/// serde: `#[serde(deserialize_with = "crate::web::date")]` on every date a caller sends.
pub fn date<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<NaiveDate, D::Error> {
    let text = String::deserialize(deserializer)?;
    parse_date(&text).map_err(serde::de::Error::custom)
}

/// serde: `#[serde(default, deserialize_with = "crate::web::opt_date")]`.
pub fn opt_date<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<NaiveDate>, D::Error> {
    match Option::<String>::deserialize(deserializer)? {
        Some(text) => parse_date(&text).map(Some).map_err(serde::de::Error::custom),
        None => Ok(None),
    }
}

/// serde: `#[serde(deserialize_with = "crate::web::datetime")]`.
pub fn datetime<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<DateTime<Utc>, D::Error> {
    let text = String::deserialize(deserializer)?;
    parse_datetime(&text).map_err(serde::de::Error::custom)
}

/// serde: `#[serde(default, deserialize_with = "crate::web::opt_datetime")]`.
pub fn opt_datetime<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<DateTime<Utc>>, D::Error> {
    match Option::<String>::deserialize(deserializer)? {
        Some(text) => parse_datetime(&text).map(Some).map_err(serde::de::Error::custom),
        None => Ok(None),
    }
}

/// A start after its end, as one field error on the end: a 422, since one field against
/// another is a rule no schema states (docs/api.md).
pub fn check_order<T: PartialOrd>(
    start: Option<T>,
    start_field: &str,
    end: Option<T>,
    end_field: &str,
) -> Result<(), ApiError> {
    match (start, end) {
        (Some(a), Some(b)) if b < a => {
            Err(ApiError::rule(end_field, format!("must not be before {start_field}")))
        }
        _ => Ok(()),
    }
}

/// Query string extractor: keys are matched case-insensitively (the struct's fields
/// must be declared lower case via `#[serde(rename_all = "lowercase")]`); list fields
/// take repeated keys and comma-separated values through [`list`].
pub struct Query<T>(pub T);

impl<T: DeserializeOwned + utoipa::IntoParams> FromRequest for Query<T> {
    type Error = ApiError;
    type Future = std::future::Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        // The documented spellings (`FiscalYearId`), to name a missing parameter as the caller reads it.
        let documented: Vec<String> = T::into_params(|| None).into_iter().map(|p| p.name).collect();
        std::future::ready(parse_query_named(req.query_string(), &documented).map(Query))
    }
}

pub fn parse_query<T: DeserializeOwned>(query: &str) -> Result<T, ApiError> {
    parse_query_named(query, &[])
}

/// Parses a query string case-insensitively; errors name the parameter as the caller spelled
/// it, or else as `documented` spells it.
fn parse_query_named<T: DeserializeOwned>(
    query: &str,
    documented: &[String],
) -> Result<T, ApiError> {
    let pairs: Vec<(String, String)> = serde_html_form::from_str(query)
        .map_err(|e| ApiError::bad_request(format!("Invalid query string: {e}")))?;
    let mut lowered = Vec::with_capacity(pairs.len());
    // The caller's own spelling of each key, to name it in errors.
    let mut spelled: Vec<(String, String)> = Vec::new();
    for (key, value) in pairs {
        if value.chars().any(is_forbidden_control) || key.chars().any(is_forbidden_control) {
            return Err(ApiError::bad_field(
                &key,
                "must not contain control characters (such as NUL)",
            ));
        }
        // Empty values mean "no filter", as HTML forms and the UI send them.
        if !value.trim().is_empty() {
            let low = key.to_ascii_lowercase();
            if !spelled.iter().any(|(l, _)| *l == low) {
                spelled.push((low.clone(), key));
            }
            lowered.push((low, value));
        }
    }
    let encoded = serde_html_form::to_string(&lowered)
        .map_err(|e| ApiError::bad_request(format!("Invalid query string: {e}")))?;
    let de = serde_html_form::Deserializer::from_bytes(encoded.as_bytes());
    serde_path_to_error::deserialize(de).map_err(|err| {
        let path = err.path().to_string();
        let message = err.into_inner().to_string();
        let name = |low: &str| {
            let spelled = spelled.iter().find(|(l, _)| l == low).map(|(_, k)| k);
            spelled
                .or_else(|| documented.iter().find(|d| d.eq_ignore_ascii_case(low)))
                .map_or_else(|| low.to_owned(), String::clone)
        };
        if let Some(field) = missing_field(&message) {
            return ApiError::bad_field(&name(field), "is required");
        }
        if let Some(field) =
            message.strip_prefix("duplicate field `").and_then(|r| r.strip_suffix('`'))
        {
            return ApiError::bad_field(&name(field), "must be given once");
        }
        let field = path.split(['.', '[']).next().unwrap_or(&path);
        if field.is_empty() || field == "?" {
            return ApiError::bad_request(format!(
                "Invalid query parameter: {}",
                plain_words(&message)
            ));
        }
        if message.starts_with(OUT_OF_RANGE) {
            // A number that parsed but lies outside its documented range (`Page`, `Size`) is
            // named as the document spells it, as the paging rule names it.
            let documented = documented.iter().find(|d| d.eq_ignore_ascii_case(field));
            return ApiError::bad_field(documented.map_or(field, String::as_str), message);
        }
        ApiError::bad_field(&name(field), plain_words(&message))
    })
}

/// For list query fields (`#[serde(default, deserialize_with = "crate::web::list")]`):
/// repeated keys and comma-separated values, so `Ids=1&Ids=2` and `Ids=1,2` agree.
/// Only list fields split on commas: a name filter may contain one.
pub fn list<'de, D, T>(deserializer: D) -> Result<Vec<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: std::str::FromStr,
    T::Err: std::fmt::Display,
{
    let raw = Vec::<String>::deserialize(deserializer)?;
    raw.iter()
        .flat_map(|value| value.split(','))
        .map(str::trim)
        .filter(|part| !part.is_empty())
        .map(|part| part.parse().map_err(|e| serde::de::Error::custom(format!("'{part}': {e}"))))
        .collect()
}

pub const DEFAULT_PAGE_SIZE: u64 = 25;
pub const MAX_PAGE_SIZE: u64 = 500;
/// Far beyond any list; keeps `(page - 1) × size` well inside 64 bits.
pub const MAX_PAGE: i64 = 1_000_000;

const OUT_OF_RANGE: &str = "must be between";

fn check_page(page: i64) -> Result<u64, String> {
    if (1..=MAX_PAGE).contains(&page) {
        Ok(page as u64)
    } else {
        Err(format!("{OUT_OF_RANGE} 1 and {MAX_PAGE}"))
    }
}

fn check_size(size: i64) -> Result<u64, String> {
    if (1..=MAX_PAGE_SIZE as i64).contains(&size) {
        Ok(size as u64)
    } else {
        Err(format!("{OUT_OF_RANGE} 1 and {MAX_PAGE_SIZE}"))
    }
}

/// serde: `#[serde(default, deserialize_with = "crate::web::page_number")]` on every `Page`
/// parameter, so a list, an export or any other paged route refuses the same numbers.
pub fn page_number<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    let page = Option::<i64>::deserialize(d)?;
    page.map(|p| check_page(p).map(|_| p)).transpose().map_err(serde::de::Error::custom)
}

/// serde: `#[serde(default, deserialize_with = "crate::web::page_size")]` on every `Size`
/// parameter, so a list, an export or any other row-limited route refuses the same sizes.
pub fn page_size<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    let size = Option::<i64>::deserialize(d)?;
    size.map(|s| check_size(s).map(|_| s)).transpose().map_err(serde::de::Error::custom)
}

/// A query struct with a page: its own parameters, then `Page` (1..=1 000 000) and `Size`
/// (1..=500), both optional, refused as they are parsed, and `paging()` with the defaults.
/// `paged! { described … }` gives the two their descriptions in the API document.
macro_rules! paged {
    (@with [$($page_doc:tt)*] [$($size_doc:tt)*]
        $(#[$meta:meta])* pub struct $name:ident { $($fields:tt)* }) => {
        $(#[$meta])*
        pub struct $name {
            $($fields)*
            $($page_doc)*
            #[param(rename = "Page", minimum = 1, maximum = 1000000)]
            #[serde(default, deserialize_with = "crate::web::page_number")]
            pub page: Option<i64>,
            $($size_doc)*
            #[param(rename = "Size", minimum = 1, maximum = 500)]
            #[serde(default, deserialize_with = "crate::web::page_size")]
            pub size: Option<i64>,
        }

        impl $name {
            /// The page asked for, the defaults filled in.
            pub fn paging(&self) -> Result<$crate::web::Paging, $crate::error::ApiError> {
                $crate::web::paging(self.page, self.size)
            }
        }
    };
    (described $($item:tt)*) => {
        $crate::web::paged!(@with [
            /// Page number, starting at 1.
        ] [
            /// Page size, 1 to 500 (default 25).
        ] $($item)*);
    };
    ($($item:tt)*) => {
        $crate::web::paged!(@with [] [] $($item)*);
    };
}
pub(crate) use paged;

paged! { described
    /// Only a page: `Page` and `Size`.
    #[derive(Debug, Clone, Copy, Default, Deserialize, IntoParams)]
    #[serde(rename_all = "lowercase")]
    #[into_params(parameter_in = Query)]
    pub struct PageQuery {}
}

/// A validated page request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Paging {
    pub page: u64,
    pub size: u64,
}

/// `Page` and `Size` checked, 1 and 25 when absent.
pub fn paging(page: Option<i64>, size: Option<i64>) -> Result<Paging, ApiError> {
    let mut errors = Checks::default();
    let page = check_page(page.unwrap_or(1)).map_err(|e| errors.add("Page", e));
    let size =
        check_size(size.unwrap_or(DEFAULT_PAGE_SIZE as i64)).map_err(|e| errors.add("Size", e));
    errors.finish()?;
    Ok(Paging { page: page.unwrap_or(1), size: size.unwrap_or(DEFAULT_PAGE_SIZE) })
}

impl Paging {
    pub fn offset(self) -> u64 {
        // Bounded by MAX_PAGE * MAX_PAGE_SIZE when built by `paging`; saturate otherwise.
        self.page.saturating_sub(1).saturating_mul(self.size).min(i64::MAX as u64)
    }

    /// Matches a list counts before it reports "at least": [`COUNT_BOUND`], or up to the
    /// end of the requested page when that lies further, so the page is inside the count.
    pub fn count_limit(self) -> u64 {
        self.count_limit_at(COUNT_BOUND)
    }

    /// The same with another bound, for a list whose every match is dear to count.
    pub fn count_limit_at(self, bound: u64) -> u64 {
        bound.max(self.offset() + self.size)
    }
}

/// The paged list shape every list answers with (docs/api.md).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Page<T> {
    pub items: Vec<T>,
    pub page: u64,
    pub size: u64,
    /// Matching items; a lower bound when `totalCountIsExact` is false.
    pub total_count: u64,
    /// False when the list stopped counting: at least `totalCount` items match (shown as
    /// "1,000+"). Lists count exactly up to [`COUNT_BOUND`] items, or to the end of the
    /// requested page when that lies further ([`Paging::count_limit`]).
    #[serde(default = "exact")]
    pub total_count_is_exact: bool,
}

fn exact() -> bool {
    true
}

impl<T> Page<T> {
    pub fn new(items: Vec<T>, paging: Paging, total_count: u64) -> Self {
        Self {
            items,
            page: paging.page,
            size: paging.size,
            total_count,
            total_count_is_exact: true,
        }
    }

    /// With a count that may have stopped at its bound.
    pub fn counted(items: Vec<T>, paging: Paging, count: Count) -> Self {
        Self {
            items,
            page: paging.page,
            size: paging.size,
            total_count: count.total,
            total_count_is_exact: count.exact,
        }
    }
}

/// How far past the requested page a list counts its matches. Counting every match of a
/// broad filter at a million rows costs more than the page itself; nobody pages through
/// a thousand rows, they narrow the filter. 1,000 rather than 10,000: counting to 10,001
/// took 3-30 ms a call on the benchmark's broad filters, to 1,001 a tenth of that
/// (docs/decisions-speed.md).
pub const COUNT_BOUND: u64 = 1_000;

/// A number of matches, exact or "at least".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Count {
    pub total: u64,
    pub exact: bool,
}

impl Count {
    pub fn exact(total: u64) -> Self {
        Self { total, exact: true }
    }

    /// From a count of at most `limit + 1` rows ([`Paging::count_limit`]).
    pub fn from_limited(found: u64, limit: u64) -> Self {
        if found > limit {
            Self { total: limit, exact: false }
        } else {
            Self::exact(found)
        }
    }
}

/// `SELECT COUNT(*) FROM (SELECT 1 FROM … LIMIT limit + 1)`: stops reading at the bound.
pub async fn count_at_most<E: sea_orm::EntityTrait>(
    db: &impl sea_orm::ConnectionTrait,
    select: sea_orm::Select<E>,
    limit: u64,
) -> Result<Count, ApiError> {
    use sea_orm::{sea_query::Expr, QuerySelect, QueryTrait};
    count_rows_at_most(db, select.select_only().expr(Expr::val(1)).into_query(), limit).await
}

/// [`count_at_most`] over a hand-built select (its rows are counted, not read).
pub async fn count_rows_at_most(
    db: &impl sea_orm::ConnectionTrait,
    mut inner: sea_orm::sea_query::SelectStatement,
    limit: u64,
) -> Result<Count, ApiError> {
    use sea_orm::sea_query::{Alias, Expr, ExprTrait, Query};
    inner.limit(limit + 1);
    let count = Query::select()
        .expr_as(Expr::val(1).count(), Alias::new("n"))
        .from_subquery(inner, Alias::new("bounded"))
        .to_owned();
    let found: i64 = match db.query_one(&count).await? {
        Some(row) => row.try_get("", "n")?,
        None => 0,
    };
    Ok(Count::from_limited(u64::try_from(found).unwrap_or(0), limit))
}

/// Where NULLs go for a sort direction: first ascending, last descending (SQLite's own
/// order, spelled out so PostgreSQL sorts the same).
pub fn nulls_for(order: &sea_orm::Order) -> sea_orm::sea_query::NullOrdering {
    use sea_orm::sea_query::NullOrdering;
    if matches!(order, sea_orm::Order::Asc) {
        NullOrdering::First
    } else {
        NullOrdering::Last
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_read_only_as_days_of_the_calendar() {
        assert_eq!(parse_date("2024-02-29"), Ok(NaiveDate::from_ymd_opt(2024, 2, 29).unwrap()));
        assert_eq!(parse_date("2100-12-31"), Ok(NaiveDate::from_ymd_opt(2100, 12, 31).unwrap()));
        for not_a_day in ["2025-02-29", "2025-13-01", "2025-00-10", "2025-04-31"] {
            assert_eq!(
                parse_date(not_a_day),
                Err("is not a day of the calendar".to_owned()),
                "{not_a_day}"
            );
        }
        for misshapen in
            ["2025-1-01", "25-01-01", "2025/01/01", "2025-01-01T00:00", "２０２５-01-01"]
        {
            assert_eq!(
                parse_date(misshapen),
                Err("must be a date written YYYY-MM-DD".to_owned()),
                "{misshapen}"
            );
        }
        assert_eq!(parse_date("1899-12-31"), Err(DATE_RANGE.to_owned()));
    }

    #[derive(Debug, Deserialize)]
    #[serde(rename_all = "lowercase")]
    struct Filters {
        email: Option<String>,
        #[serde(default, deserialize_with = "list")]
        roles: Vec<String>,
        #[serde(default, deserialize_with = "list")]
        ids: Vec<i32>,
        page: Option<i64>,
    }

    #[test]
    fn query_keys_are_case_insensitive_and_lists_split() {
        let f: Filters =
            parse_query("Email=a%40b.org&ROLES=Administrator,Coordinator&page=2").unwrap();
        assert_eq!(f.email.as_deref(), Some("a@b.org"));
        assert_eq!(f.roles, ["Administrator", "Coordinator"]);
        assert_eq!(f.page, Some(2));
        let f: Filters = parse_query("Roles=A&Roles=B&Email=").unwrap();
        assert_eq!(f.roles, ["A", "B"]);
        assert_eq!(f.email, None);
        let f: Filters = parse_query("IDS=1,2&ids=3").unwrap();
        assert_eq!(f.ids, [1, 2, 3]);
        let f: Filters = parse_query("ids=7").unwrap();
        assert_eq!(f.ids, [7]);
    }

    #[test]
    fn only_list_fields_split_on_commas() {
        let f: Filters = parse_query("email=Lopez,%20Ana").unwrap();
        assert_eq!(f.email.as_deref(), Some("Lopez, Ana"));
        assert!(parse_query::<Filters>("ids=1,x").is_err());
    }

    #[test]
    fn bad_query_values_are_400_naming_the_parameter() {
        for (query, named) in [
            ("Page=two", "Page"),
            ("page=99999999999999999999999", "page"),
            ("IDS=1,x", "IDS"),
            ("ids=4294967296", "ids"),
        ] {
            match parse_query::<Filters>(query).unwrap_err() {
                ApiError::BadRequest { errors, .. } => {
                    assert!(errors.contains_key(named), "{query}: {errors:?}")
                }
                other => panic!("{query}: {other:?}"),
            }
        }
    }

    #[test]
    fn paging_defaults_and_bounds() {
        assert_eq!(PageQuery::default().paging().unwrap(), Paging { page: 1, size: 25 });
        for (page, size) in [
            (Some(0), None),
            (None, Some(0)),
            (None, Some(501)),
            (Some(-3), Some(10)),
            (Some(i64::MAX - 1), Some(16)),
            (Some(MAX_PAGE + 1), None),
            (None, Some(i64::MIN)),
        ] {
            let err = PageQuery { page, size }.paging().unwrap_err();
            assert!(matches!(err, ApiError::BadRequest { .. }), "{page:?} {size:?}");
        }
        assert_eq!(PageQuery { page: Some(3), size: Some(500) }.paging().unwrap().offset(), 1000);
        let last =
            PageQuery { page: Some(MAX_PAGE), size: Some(MAX_PAGE_SIZE as i64) }.paging().unwrap();
        assert!(last.offset() < i64::MAX as u64);
    }

    #[test]
    fn counts_stop_at_the_bound_past_the_page() {
        let first = Paging { page: 1, size: 25 };
        assert_eq!(first.count_limit(), COUNT_BOUND);
        assert_eq!(Paging { page: 40, size: 25 }.count_limit(), COUNT_BOUND);
        assert_eq!(Paging { page: 51, size: 25 }.count_limit(), 1_275);
        assert_eq!(first.count_limit_at(100), 100);
        assert_eq!(Paging { page: 5, size: 25 }.count_limit_at(100), 125);
        assert_eq!(Count::from_limited(12, 100), Count { total: 12, exact: true });
        assert_eq!(Count::from_limited(100, 100), Count { total: 100, exact: true });
        assert_eq!(Count::from_limited(101, 100), Count { total: 100, exact: false });
        let page = Page::counted(vec![1], first, Count { total: 10_000, exact: false });
        let json = serde_json::to_value(&page).unwrap();
        assert_eq!(json["totalCount"], 10_000);
        assert_eq!(json["totalCountIsExact"], false);
        assert_eq!(
            serde_json::to_value(Page::new(vec![1], first, 1)).unwrap()["totalCountIsExact"],
            true
        );
    }

    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Body {
        email: String,
        roles: Vec<String>,
    }

    #[derive(Debug, Deserialize)]
    struct Whole {
        n: i64,
    }

    #[test]
    fn a_whole_number_reads_the_same_whatever_its_spelling() {
        for text in ["2122643706491769", "2122643706491769.0", "2.122643706491769e15"] {
            let body = format!(r#"{{"n": {text}}}"#);
            assert_eq!(parse_json::<Whole>(body.as_bytes()).unwrap().n, 2_122_643_706_491_769);
        }
        match parse_json::<Whole>(br#"{"n": 1e30}"#).unwrap_err() {
            ApiError::BadRequest { errors, .. } => {
                assert_eq!(errors["n"], ["is out of range for a whole number"])
            }
            other => panic!("{other:?}"),
        }
        match parse_json::<Whole>(br#"{"n": 2.5}"#).unwrap_err() {
            ApiError::BadRequest { errors, .. } => {
                assert_eq!(errors["n"], ["must be a whole number"])
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn json_errors_name_the_field() {
        match parse_json::<Body>(br#"{"roles": []}"#).unwrap_err() {
            ApiError::BadRequest { errors, .. } => assert!(errors.contains_key("email")),
            other => panic!("{other:?}"),
        }
        match parse_json::<Body>(br#"{"email": "x", "roles": [1]}"#).unwrap_err() {
            ApiError::BadRequest { errors, .. } => {
                assert!(errors.contains_key("roles[0]"), "{errors:?}")
            }
            other => panic!("{other:?}"),
        }
        assert!(parse_json::<Body>(b"{not json").is_err());
    }
}
