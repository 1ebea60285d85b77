//! Pure rules of a key and of "the same request": no database.

use actix_web::http::header::{HeaderMap, CONTENT_TYPE};
use sha2::{Digest, Sha256};

use super::HEADER;
use crate::error::ApiError;

/// The longest key accepted.
pub const MAX_CHARS: usize = 255;

/// The caller's key: none when the header is absent; a 400 naming the header when it is sent
/// twice, empty, longer than [`MAX_CHARS`] or holds anything but visible ASCII.
pub fn from_headers(headers: &HeaderMap) -> Result<Option<String>, ApiError> {
    let mut values = headers.get_all(HEADER);
    let Some(value) = values.next() else { return Ok(None) };
    if values.next().is_some() {
        return Err(ApiError::bad_field(HEADER, "must be sent once"));
    }
    parse(value.as_bytes()).map(Some)
}

fn parse(raw: &[u8]) -> Result<String, ApiError> {
    let visible = raw.iter().all(|b| (0x21..=0x7e).contains(b));
    if raw.is_empty() || raw.len() > MAX_CHARS || !visible {
        return Err(ApiError::bad_field(
            HEADER,
            format!("must be 1 to {MAX_CHARS} visible ASCII characters (no spaces)"),
        ));
    }
    Ok(String::from_utf8_lossy(raw).into_owned())
}

/// What makes two requests the same: method, path with query, and body, as SHA-256 hex. A
/// multipart body's boundary is left out, since a browser draws a new one for each send of
/// the same form.
pub fn request_hash(method: &str, path: &str, headers: &HeaderMap, body: &[u8]) -> String {
    let boundary = headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .filter(|v| v.trim_start().to_ascii_lowercase().starts_with("multipart/"))
        .and_then(boundary_of);
    let mut hash = Sha256::new();
    hash.update(method.as_bytes());
    hash.update(b"\n");
    hash.update(path.as_bytes());
    hash.update(b"\n");
    match boundary {
        Some(b) if !b.is_empty() => hash.update(without(body, b.as_bytes())),
        _ => hash.update(body),
    }
    hex::encode(hash.finalize())
}

/// The `boundary` parameter of a multipart content type, unquoted.
fn boundary_of(content_type: &str) -> Option<String> {
    content_type.split(';').skip(1).find_map(|param| {
        let (name, value) = param.split_once('=')?;
        name.trim().eq_ignore_ascii_case("boundary").then(|| value.trim().trim_matches('"').into())
    })
}

/// `body` with every occurrence of `needle` removed.
fn without(body: &[u8], needle: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len());
    let mut i = 0;
    while i < body.len() {
        if body[i..].starts_with(needle) {
            i += needle.len();
        } else {
            out.push(body[i]);
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::http::header::HeaderValue;

    #[test]
    fn keys_are_one_to_255_visible_ascii_characters() {
        let long = "k".repeat(MAX_CHARS);
        let too_long = "k".repeat(MAX_CHARS + 1);
        for (raw, ok) in [
            ("a", true),
            ("3f6c1e2a-7b4d-4c1e-9a0b-2d5e8f1a3c7b", true),
            ("!~{}[]:;", true),
            (long.as_str(), true),
            ("", false),
            (too_long.as_str(), false),
            ("has space", false),
            ("tab\there", false),
            ("é", false),
        ] {
            assert_eq!(parse(raw.as_bytes()).is_ok(), ok, "{raw:?}");
        }
        let error = parse(b"").unwrap_err();
        assert!(
            matches!(&error, ApiError::BadRequest { errors, .. } if errors.contains_key(HEADER))
        );
    }

    #[test]
    fn the_header_is_optional_and_sent_once() {
        let mut headers = HeaderMap::new();
        assert!(from_headers(&headers).unwrap().is_none());
        headers.insert(HEADER.parse().unwrap(), HeaderValue::from_static("k1"));
        assert_eq!(from_headers(&headers).unwrap().as_deref(), Some("k1"));
        headers.append(HEADER.parse().unwrap(), HeaderValue::from_static("k2"));
        assert!(from_headers(&headers).is_err());
    }

    #[test]
    fn the_same_request_is_method_path_and_body_without_the_multipart_boundary() {
        let json = HeaderMap::new();
        let base = request_hash("POST", "/api/v1/participants", &json, b"{\"a\":1}");
        assert_eq!(base, request_hash("POST", "/api/v1/participants", &json, b"{\"a\":1}"));
        assert_ne!(base, request_hash("POST", "/api/v1/participants", &json, b"{\"a\":2}"));
        assert_ne!(base, request_hash("POST", "/api/v1/other", &json, b"{\"a\":1}"));
        assert_ne!(base, request_hash("PUT", "/api/v1/participants", &json, b"{\"a\":1}"));

        let form = |boundary: &str| {
            let mut headers = HeaderMap::new();
            let value = format!("multipart/form-data; boundary={boundary}");
            headers.insert(CONTENT_TYPE, HeaderValue::from_str(&value).unwrap());
            let body = format!("--{boundary}\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\nrows\r\n--{boundary}--\r\n");
            (headers, body)
        };
        let (h1, b1) = form("----WebKitFormBoundaryAAAA");
        let (h2, b2) = form("----WebKitFormBoundaryBBBB");
        let first = request_hash("POST", "/p", &h1, b1.as_bytes());
        assert_eq!(first, request_hash("POST", "/p", &h2, b2.as_bytes()));
        let (h3, b3) = form("----WebKitFormBoundaryCCCC");
        let other = b3.replace("rows", "other rows");
        assert_ne!(first, request_hash("POST", "/p", &h3, other.as_bytes()));
        assert_eq!(boundary_of("multipart/form-data; boundary=\"x y\""), Some("x y".into()));
    }
}
