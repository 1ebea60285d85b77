//! `/api/v1/health` answers 503 with a problem body while the database is unreachable and
//! 200 again once it is back, without a restart of MentorPay.
//! - SQLite: the database's folder goes away (an unmounted or moved volume) and comes back.
//! - PostgreSQL: the server itself is stopped and started again (a cluster of the test's own,
//!   so the other tests running meanwhile keep theirs).

use crate::common;

use std::{
    path::Path,
    process::Command,
    sync::Arc,
    time::{Duration, Instant},
};

use common::{database, spawn, spawn_on, TestApp};

async fn health(app: &TestApp) -> (u16, serde_json::Value) {
    let r =
        app.client.get(format!("{}/api/v1/health", app.base)).send().await.expect("health answers");
    (r.status().as_u16(), r.json().await.expect("a JSON body"))
}

/// Polls health until it answers `status` (the pool notices a change on its next use).
async fn until(app: &TestApp, status: u16) -> serde_json::Value {
    let started = Instant::now();
    loop {
        let (got, body) = health(app).await;
        if got == status {
            return body;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "health still answers {got}, not {status}: {body}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

fn assert_unavailable(body: &serde_json::Value) {
    assert_eq!(body["status"], 503, "{body}");
    assert_eq!(body["title"], "Service Unavailable", "{body}");
    assert!(body["detail"].as_str().unwrap().contains("database"), "{body}");
}

#[actix_web::test]
async fn health_is_503_while_the_sqlite_folder_is_gone() {
    if database::skip_on_postgres(
        "the SQLite file's folder; health_follows_a_postgresql_restart covers PostgreSQL",
    ) {
        return;
    }
    let app = spawn().await;
    let (status, body) = health(&app).await;
    assert_eq!((status, body["database"].as_str()), (200, Some("ok")), "{body}");

    let folder = app.dir.path().to_owned();
    let away = folder.with_extension("away");
    std::fs::rename(&folder, &away).unwrap();
    let (status, body) = health(&app).await;
    std::fs::rename(&away, &folder).unwrap();
    assert_eq!(status, 503, "{body}");
    assert_unavailable(&body);

    let (status, body) = health(&app).await;
    assert_eq!((status, body["status"].as_str()), (200, Some("ok")), "back: {body}");
}

/// `scripts/postgres.sh start|stop DIR`: a cluster of this test's own; prints its URL.
fn cluster(action: &str, dir: &Path) -> Result<String, String> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/postgres.sh");
    let out = Command::new("bash")
        .arg(script)
        .arg(action)
        .arg(dir)
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!("postgres.sh {action}: {}", String::from_utf8_lossy(&out.stderr)));
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

#[actix_web::test]
async fn health_follows_a_postgresql_restart() {
    if database::skip_on_sqlite(
        "stops and starts a PostgreSQL server (the PostgreSQL pass of make test runs this)",
    ) {
        return;
    }
    let dir = Arc::new(tempfile::tempdir().unwrap());
    let pg = tempfile::tempdir().unwrap();
    let url = cluster("start", pg.path()).unwrap();
    struct Stop<'a>(&'a Path);
    impl Drop for Stop<'_> {
        fn drop(&mut self) {
            let _ = cluster("stop", self.0);
        }
    }
    let _stop = Stop(pg.path());

    let app = spawn_on(dir, &url, &[]).await;
    assert_eq!(health(&app).await.0, 200);
    cluster("stop", pg.path()).unwrap();
    let down = until(&app, 503).await;
    assert_unavailable(&down);
    cluster("start", pg.path()).unwrap();
    let up = until(&app, 200).await;
    assert_eq!(up["database"], "ok");
    // And the API works again on the same pool.
    let admin = app.admin_token().await;
    assert!(app.get("/api/v1/identity/permissions", &admin).await.status.is_success());
}
