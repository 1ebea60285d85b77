//! The built UI, embedded in the binary: hashed files cached for a year, index.html
//! never cached, deep links answered with index.html (SPA fallback). Most files are embedded
//! gzipped (`name.gz`, frontend/build.mjs): sent as they are to a client that accepts gzip,
//! unpacked for one that does not.

use std::{borrow::Cow, path::Path};

use actix_web::{http::header, web, HttpRequest, HttpResponse};
use rust_embed::RustEmbed;

use crate::{error::ApiError, state::AppState};

#[derive(RustEmbed)]
#[folder = "$OUT_DIR/ui"]
struct Ui;

const INDEX: &str = "index.html";

/// esbuild names every built file `name-HASH.ext` (frontend/build.mjs); those never change.
fn is_hashed(path: &str) -> bool {
    let stem = Path::new(path).file_stem().and_then(|s| s.to_str()).unwrap_or("");
    stem.rsplit_once('-')
        .is_some_and(|(_, hash)| hash.len() >= 8 && hash.chars().all(|c| c.is_ascii_alphanumeric()))
}

/// A UI file as kept: as built, or gzipped.
enum Stored {
    Plain(Cow<'static, [u8]>),
    Gzipped(Cow<'static, [u8]>),
}

async fn load(state: &AppState, path: &str) -> Option<Stored> {
    match &state.config.ui_dir {
        Some(dir) => {
            if path.split('/').any(|part| part == ".." || part.starts_with('.')) {
                return None;
            }
            tokio::fs::read(dir.join(path)).await.ok().map(|b| Stored::Plain(Cow::Owned(b)))
        }
        None => match Ui::get(path) {
            Some(f) => Some(Stored::Plain(f.data)),
            None => Ui::get(&format!("{path}.gz")).map(|f| Stored::Gzipped(f.data)),
        },
    }
}

/// Whether the client takes gzip (`Accept-Encoding`, a `q=0` refusing it).
fn accepts_gzip(req: &HttpRequest) -> bool {
    let Some(accepted) = req.headers().get(header::ACCEPT_ENCODING) else { return false };
    accepted.to_str().unwrap_or("").split(',').any(|item| {
        let mut parts = item.split(';').map(str::trim);
        let coding = parts.next().unwrap_or("");
        let weight = parts
            .find_map(|p| p.strip_prefix("q="))
            .map_or(1.0, |q| q.trim().parse::<f32>().unwrap_or(0.0));
        (coding.eq_ignore_ascii_case("gzip") || coding == "*") && weight > 0.0
    })
}

fn file_response(req: &HttpRequest, path: &str, stored: Stored) -> HttpResponse {
    let (body, gzipped) = match stored {
        Stored::Plain(body) => (body, false),
        Stored::Gzipped(body) if accepts_gzip(req) => (body, true),
        Stored::Gzipped(body) => {
            let mut plain = Vec::new();
            use std::io::Read;
            if let Err(e) = flate2::read::GzDecoder::new(&body[..]).read_to_end(&mut plain) {
                tracing::error!(path, error = %e, "an embedded UI file does not unpack");
                return HttpResponse::InternalServerError().finish();
            }
            (Cow::Owned(plain), false)
        }
    };
    let mime = mime_guess::from_path(path).first_or_octet_stream();
    let cache = if path == INDEX {
        "no-cache"
    } else if is_hashed(path) {
        "public, max-age=31536000, immutable"
    } else {
        "public, max-age=3600"
    };
    let mut response = HttpResponse::Ok();
    response
        .insert_header((header::CONTENT_TYPE, mime.essence_str().to_owned()))
        .insert_header((header::CACHE_CONTROL, cache))
        .insert_header((header::VARY, "Accept-Encoding"));
    if gzipped {
        // Already compressed: the compression middleware leaves a response with an encoding.
        response.insert_header((header::CONTENT_ENCODING, "gzip"));
    }
    response.body(body.into_owned())
}

/// Default service: UI files, the SPA fallback, and JSON 404s under /api.
pub async fn serve(req: HttpRequest, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let path = req.path().trim_start_matches('/');
    if path == "api" || path.starts_with("api/") {
        return Err(ApiError::NotFound(format!("No API route {} {}.", req.method(), req.path())));
    }
    if req.method() != actix_web::http::Method::GET && req.method() != actix_web::http::Method::HEAD
    {
        return Err(ApiError::NotFound("Not found.".into()));
    }
    let wanted = if path.is_empty() { INDEX } else { path };
    if let Some(body) = load(&state, wanted).await {
        return Ok(file_response(&req, wanted, body));
    }
    // A missing file (e.g. a chunk of an older build) must fail, so the UI can offer a reload;
    // anything else is a client-side route.
    if Path::new(wanted).extension().is_some() {
        return Ok(HttpResponse::NotFound()
            .insert_header((header::CACHE_CONTROL, "no-cache"))
            .body("Not found"));
    }
    let index = load(&state, INDEX)
        .await
        .ok_or_else(|| ApiError::Internal("index.html missing from the UI build".into()))?;
    Ok(file_response(&req, INDEX, index))
}

/// The API docs page, built with the UI into `docs/`.
pub async fn serve_docs(
    req: HttpRequest,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let file = req.match_info().query("file");
    let file = if file.is_empty() { "index.html" } else { file };
    let path = format!("docs/{file}");
    match load(&state, &path).await {
        Some(body) => {
            let mut response = file_response(&req, &path, body);
            // Not hashed, but tied to the binary: revalidate rather than cache for a year.
            response
                .headers_mut()
                .insert(header::CACHE_CONTROL, header::HeaderValue::from_static("no-cache"));
            Ok(response)
        }
        None => Err(ApiError::NotFound(
            "The API docs page is part of the UI build, which this binary lacks.".into(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashed_names() {
        assert!(is_hashed("main-5XK2J7QD.js"));
        assert!(is_hashed("chunks/LoginPage-ABCDEFGH.js"));
        assert!(!is_hashed("index.html"));
        assert!(!is_hashed("favicon.svg"));
        assert!(!is_hashed("my-page.js"));
    }

    #[test]
    fn gzip_is_taken_unless_refused() {
        use actix_web::test::TestRequest;
        let taking = |value: &str| {
            accepts_gzip(
                &TestRequest::default()
                    .insert_header((header::ACCEPT_ENCODING, value))
                    .to_http_request(),
            )
        };
        assert!(taking("gzip, deflate, br"));
        assert!(taking("br;q=1.0, GZIP;q=0.5"));
        assert!(taking("*"));
        assert!(!taking("gzip;q=0, deflate"));
        assert!(!taking("gzip; q=0.0"));
        assert!(!taking("identity"));
        assert!(!accepts_gzip(&TestRequest::default().to_http_request()));
    }

    #[test]
    fn the_ui_is_embedded() {
        assert!(Ui::get(INDEX).is_some(), "build.rs always produces index.html");
    }
}
