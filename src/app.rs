//! Assembles the server: middleware, every area's routes, the UI, background upkeep.

use std::{
    net::TcpListener,
    sync::Arc,
    time::{Duration, Instant},
};

use actix_web::{
    body::MessageBody,
    dev::{Server, ServiceRequest, ServiceResponse},
    http::header::{self, HeaderValue},
    middleware::{from_fn, Compress, DefaultHeaders, Next},
    web, App, Error, HttpServer,
};

use crate::{
    assets,
    auth::{callers::CallerCache, throttle::LoginThrottle, tokens::TokenKeys},
    budgets,
    config::Config,
    db,
    drain::{self, Counted, InFlight},
    identity,
    mail::Mailer,
    openapi, participants, reference,
    routes::{self, Routes},
    settings,
    state::AppState,
    system,
    web::heavy::Heavy,
};

/// No origin but our own; the UI needs inline styles (Mantine) but never inline script.
/// `frame-src blob:`: a receipt's PDF is fetched with the bearer token and shown from an
/// object URL the UI makes itself, typed by the preview route (an image or a PDF, never HTML).
const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; \
font-src 'self' data:; connect-src 'self'; frame-src 'self' blob:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

fn security_headers() -> DefaultHeaders {
    DefaultHeaders::new()
        .add((header::CONTENT_SECURITY_POLICY, CSP))
        .add((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .add((header::X_FRAME_OPTIONS, "DENY"))
        // no-referrer: set-password links carry a token in the address.
        .add((header::REFERRER_POLICY, "no-referrer"))
        .add(("Permissions-Policy", "camera=(), microphone=(), geolocation=()"))
        .add(("Cross-Origin-Opener-Policy", "same-origin"))
}

/// One log line per request, without the query string (set-password links carry a
/// token there); API answers are never cached (they carry tokens and personal data).
/// Each request is counted in flight (see `drain`) until its answer is sent.
async fn log_and_no_store(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, Error> {
    let guard = req.app_data::<web::Data<InFlight>>().map(|f| f.enter());
    let started = Instant::now();
    let method = req.method().clone();
    let path = req.path().to_owned();
    let mut res = next.call(req).await?;
    if path.starts_with("/api/v1") {
        res.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    let status = res.status().as_u16();
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    if status >= 500 {
        tracing::error!(target: "http", %method, %path, status, ms, "request");
    } else {
        tracing::info!(target: "http", %method, %path, status, ms, "request");
    }
    Ok(match guard {
        Some(guard) => {
            res.map_body(|_, body| Counted::new(body.boxed(), guard)).map_into_boxed_body()
        }
        None => res.map_into_boxed_body(),
    })
}

/// Everything a request can reach, ready before the first request.
pub async fn prepare(config: Config) -> anyhow::Result<AppState> {
    check_flags(&config)?;
    let db = db::connect(&config.database_url).await?;
    let startup = db::StartupLock::take(&db).await?;
    identity::bootstrap::ensure_builtin_roles(&db).await?;
    settings::store::ensure_defaults(&db).await?;
    let secret = identity::bootstrap::jwt_secret(&db, config.jwt_secret.as_deref()).await?;
    let sole_writer = db.get_database_backend() == sea_orm::DatabaseBackend::Sqlite;
    let keys =
        TokenKeys::new(&secret, config.access_token_ttl as i64, config.refresh_token_ttl as i64);
    let state = AppState {
        db,
        keys,
        login_throttle: Arc::new(LoginThrottle::new(config.login_attempts_per_minute)),
        mailer: Mailer::from_config(&config)?,
        files: crate::file_store::FileStore::local(&config.data_dir, &secret)?,
        heavy: crate::web::heavy::Gates::new(config.heavy_shares()),
        config: Arc::new(config),
        grants: Arc::default(),
        callers: Arc::new(CallerCache::new(sole_writer)),
        years: Arc::default(),
    };
    identity::bootstrap::ensure_first_admin(&state).await?;
    startup.release().await?;
    Ok(state)
}

/// What clap's ranges cannot say: the flags must make settings the settings screen would
/// save, or the first save of the unchanged screen is refused.
fn check_flags(config: &Config) -> anyhow::Result<()> {
    let (access, refresh) = (config.access_token_ttl, config.refresh_token_ttl);
    if !settings::rules::lifetimes_agree(access as i64, refresh as i64) {
        anyhow::bail!(
            "--refresh-token-ttl ({refresh} s) must not be shorter than --access-token-ttl ({access} s)"
        );
    }
    config.sso.check_ldap()
}

/// The route table: every API route of every area with the access it needs (routes.rs).
pub fn route_table() -> Routes {
    let mut r = Routes::new();
    system::configure(&mut r);
    identity::configure(&mut r);
    // Reference lists first: `/participants/roles` must not be taken for `/participants/{id}`.
    reference::configure(&mut r);
    participants::configure(&mut r);
    settings::configure(&mut r);
    budgets::configure(&mut r);
    crate::payment_requests::configure(&mut r);
    crate::reports::configure(&mut r);
    crate::vendor_payments::configure(&mut r);
    crate::packets::configure(&mut r);
    crate::notifications::configure(&mut r);
    crate::audit_log::configure(&mut r);
    // Every read under /reports/ scans many rows (the catalogue `/reports` is a short list),
    // and every file (an export, a packet) is built from many.
    r.heavy(|path| path.starts_with("/reports/") || Heavy::of(path) == Heavy::Export);
    r
}

/// The API routes of every area, under /api/v1, each behind its access guard.
fn api(cfg: &mut web::ServiceConfig) {
    route_table().register(cfg);
}

pub fn configure(state: web::Data<AppState>) -> impl Fn(&mut web::ServiceConfig) + Clone {
    move |cfg: &mut web::ServiceConfig| {
        let body_timeout = Duration::from_secs(state.config.body_timeout);
        let vendor_payments =
            (crate::vendor_payments::INFO, crate::vendor_payments::export::columns());
        cfg.app_data(state.clone())
            .app_data(web::Data::new(crate::reports::catalogue::Catalogue::with(vec![
                vendor_payments,
            ])))
            .app_data(crate::web::BodyTimeout(body_timeout))
            .app_data(web::PathConfig::default().error_handler(routes::path_error))
            .service(web::redirect("/api/docs", "/api/docs/"))
            .route("/api/docs/{file:.*}", web::get().to(assets::serve_docs))
            .route(
                "/api/v1/openapi.json",
                web::get().to(|| async { openapi::response(openapi::json(route_table)) }),
            )
            .service(web::scope("/api/v1").configure(api))
            .default_service(web::to(assets::serve));
    }
}

/// Starts serving on `listener`; the returned server runs until stopped. Stop signals
/// are left to the caller (`drain::run_until_stopped`, which `serve_until_stopped` uses).
pub fn serve(state: AppState, listener: TcpListener) -> anyhow::Result<Server> {
    Ok(serve_counted(state, listener, InFlight::default())?.0)
}

/// Serves until SIGTERM or Ctrl-C, then lets every request in flight finish.
pub async fn serve_until_stopped(state: AppState, listener: TcpListener) -> anyhow::Result<()> {
    let in_flight = InFlight::default();
    let (server, background) = serve_counted(state, listener, in_flight.clone())?;
    drain::run_until_stopped(server, in_flight).await?;
    background.end().await;
    Ok(())
}

fn serve_counted(
    state: AppState,
    listener: TcpListener,
    in_flight: InFlight,
) -> anyhow::Result<(Server, drain::Background)> {
    let stop = drain::Stop::default();
    let background = drain::Background {
        tasks: vec![
            spawn_upkeep(state.clone(), stop.clone()),
            crate::notifications::worker::spawn(
                state.clone(),
                crate::payment_requests::commands::may_take_current,
                stop.clone(),
            ),
        ],
        stop,
    };
    let state = web::Data::new(state);
    let in_flight = web::Data::new(in_flight);
    let routes = configure(state);
    let server = HttpServer::new(move || {
        App::new()
            .app_data(in_flight.clone())
            .wrap(Compress::default())
            .wrap(security_headers())
            .wrap(from_fn(log_and_no_store))
            .configure(routes.clone())
    })
    .listen(listener)?
    .disable_signals()
    .shutdown_timeout(drain::GRACE.as_secs())
    .run();
    Ok((server, background))
}

/// Hourly: drop spent tokens, idle throttle keys, receipts never attached to a request and
/// idempotent answers kept longer than a day.
fn spawn_upkeep(state: AppState, stop: drain::Stop) -> tokio::task::JoinHandle<()> {
    actix_web::rt::spawn(async move {
        const EVERY: Duration = Duration::from_secs(3600);
        loop {
            state.login_throttle.forget_idle();
            purge(&state).await;
            if !stop.pause(EVERY).await {
                break;
            }
        }
    })
}

/// One pass of the upkeep's deletions. It writes like a request that may write
/// (auth::callers), for as long as it writes and no longer: a token held across the hour's
/// pause would keep every cached read off for good.
async fn purge(state: &AppState) {
    let _writing = state.callers.writing();
    if let Err(e) = identity::store::purge_expired_tokens(&state.db, crate::clock::now()).await {
        tracing::warn!(error = %e, "token purge failed");
    }
    match crate::payment_requests::store::files::purge_unattached(
        &state.db,
        &state.files,
        crate::clock::now(),
    )
    .await
    {
        Ok(0) => {}
        Ok(n) => tracing::info!(removed = n, "removed receipts never attached to a request"),
        Err(e) => tracing::warn!(error = %e, "receipt purge failed"),
    }
    if let Err(e) = crate::idempotency::store::purge_expired(&state.db, crate::clock::now()).await {
        tracing::warn!(error = %e, "purge of kept idempotent answers failed");
    }
}
