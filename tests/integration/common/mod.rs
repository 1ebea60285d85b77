//! Test harness: the real app on a real SQLite file in a temporary folder (or its own
//! PostgreSQL database: see `database`), served over TCP on a free port, and an HTTP
//! client that speaks to it.
#![allow(dead_code)]

pub mod database;
pub mod dates;
pub mod instance;
pub mod poppler;

use std::{
    net::TcpListener,
    sync::{Arc, Mutex},
};

use clap::Parser;
use mentorpay::{
    app,
    cli::Cli,
    mail::{Mail, Mailer},
    state::AppState,
};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

pub const ADMIN_EMAIL: &str = "admin@example.org";
pub const ADMIN_PASSWORD: &str = "admin password 123";
pub const JWT_SECRET: &str = "test secret that is long enough 0123456789";

pub struct TestApp {
    pub base: String,
    pub client: reqwest::Client,
    pub state: AppState,
    pub outbox: Arc<Mutex<Vec<Mail>>>,
    pub dir: Arc<tempfile::TempDir>,
}

pub struct Reply {
    pub status: StatusCode,
    pub headers: reqwest::header::HeaderMap,
    pub body: Value,
}

impl Reply {
    /// Asserts the problem body's shape (`{status, title, detail, errors?}`) and returns it.
    pub fn problem(&self, status: u16) -> &Value {
        assert_eq!(self.status.as_u16(), status, "body: {}", self.body);
        assert_eq!(self.body["status"], status, "{}", self.body);
        assert!(self.body["title"].is_string() && self.body["detail"].is_string(), "{}", self.body);
        &self.body
    }

    /// Refused input: a 400 (not what the OpenAPI document describes) or a 422 (a rule:
    /// one field against another, or against stored data), as a problem body.
    pub fn invalid(&self) -> &Value {
        let status = self.status.as_u16();
        assert!(status == 400 || status == 422, "status {status} body: {}", self.body);
        self.problem(status)
    }

    pub fn ok(&self) -> &Value {
        assert!(self.status.is_success(), "status {} body {}", self.status, self.body);
        &self.body
    }
}

/// Starts the app with the given extra flags on a new database.
pub async fn spawn_with(extra: &[&str]) -> TestApp {
    let dir = Arc::new(tempfile::tempdir().expect("temp dir"));
    spawn_in(dir, extra).await
}

pub async fn spawn() -> TestApp {
    spawn_with(&[]).await
}

/// Starts the app on the database in `dir` (a restart when it exists already).
pub async fn spawn_in(dir: Arc<tempfile::TempDir>, extra: &[&str]) -> TestApp {
    let db = database::url_for(dir.path(), "mentorpay.db").await;
    spawn_on(dir, &db, extra).await
}

/// Starts the app on the database at `db` (files in `dir`).
pub async fn spawn_on(dir: Arc<tempfile::TempDir>, db: &str, extra: &[&str]) -> TestApp {
    spawn_mailing(dir, db, extra, !extra.contains(&"--smtp-host")).await
}

/// Starts the app on a new database as an office without a mail relay runs it: its mail
/// goes to the server's log (nothing is captured).
pub async fn spawn_without_relay() -> TestApp {
    let dir = Arc::new(tempfile::tempdir().expect("temp dir"));
    let db = database::url_for(dir.path(), "mentorpay.db").await;
    spawn_mailing(dir, &db, &[], false).await
}

/// Starts the app; `capture`: its mail is kept in `outbox` instead of sent.
async fn spawn_mailing(
    dir: Arc<tempfile::TempDir>,
    db: &str,
    extra: &[&str],
    capture: bool,
) -> TestApp {
    // MENTORPAY_TEST_LOG=<filter> shows the server's log (e.g. the cause behind a 500).
    if let Ok(filter) = std::env::var("MENTORPAY_TEST_LOG") {
        let _ = tracing_subscriber::fmt()
            .with_env_filter(tracing_subscriber::EnvFilter::new(filter))
            .with_writer(std::io::stderr)
            .try_init();
    }
    let data = dir.path().join("data");
    let mut args = vec![
        "mentorpay",
        "--database-url",
        db,
        "--data-dir",
        data.to_str().unwrap(),
        "--jwt-secret",
        JWT_SECRET,
        "--admin-email",
        ADMIN_EMAIL,
        "--admin-password",
        ADMIN_PASSWORD,
        "--listen",
        "127.0.0.1:0",
    ];
    args.extend_from_slice(extra);
    let cli = Cli::try_parse_from(args).expect("test flags parse");
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().unwrap().port();
    let mut state = app::prepare(cli.config).await.expect("app prepares");
    let outbox = Arc::new(Mutex::new(Vec::new()));
    // Mail goes to the real relay a test names (notifications.rs), or to the log
    // (`spawn_without_relay`), else into `outbox`.
    if capture {
        state.mailer = Mailer::Capture(outbox.clone());
    }
    let server = app::serve(state.clone(), listener).expect("serve");
    actix_web::rt::spawn(server);
    TestApp {
        base: format!("http://127.0.0.1:{port}"),
        client: reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap(),
        state,
        outbox,
        dir,
    }
}

/// Runs `command` beside this test's server, as cron or an operator would, and waits for it
/// off the test's thread. The server's background work (the outbox worker) runs on that
/// thread: blocked while the worker is inside a write, it would keep the write lock the
/// command waits for, and the command would fail with "database is locked".
pub async fn beside(mut command: std::process::Command) -> std::process::Output {
    actix_web::rt::task::spawn_blocking(move || command.output().expect("the command runs"))
        .await
        .expect("the command's wait")
}

/// One call to the server at `base`; the answer's body parsed as JSON when it is.
pub async fn send(
    client: &reqwest::Client,
    base: &str,
    method: Method,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> Reply {
    let mut req = client.request(method, format!("{base}{path}"));
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    if let Some(b) = body {
        req = req.json(&b);
    }
    let res = req.send().await.expect("request");
    let status = res.status();
    let headers = res.headers().clone();
    let text = res.text().await.unwrap();
    let body = if text.is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&text).unwrap_or(Value::String(text))
    };
    Reply { status, headers, body }
}

impl TestApp {
    pub async fn call(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> Reply {
        send(&self.client, &self.base, method, path, token, body).await
    }

    pub async fn get(&self, path: &str, token: &str) -> Reply {
        self.call(Method::GET, path, Some(token), None).await
    }

    pub async fn post(&self, path: &str, token: Option<&str>, body: Value) -> Reply {
        self.call(Method::POST, path, token, Some(body)).await
    }

    pub async fn put(&self, path: &str, token: &str, body: Value) -> Reply {
        self.call(Method::PUT, path, Some(token), Some(body)).await
    }

    pub async fn delete(&self, path: &str, token: &str) -> Reply {
        self.call(Method::DELETE, path, Some(token), None).await
    }

    pub async fn login_reply(&self, email: &str, password: &str) -> Reply {
        self.post("/api/v1/identity/login", None, json!({"email": email, "password": password}))
            .await
    }

    /// Signs in and returns (access token, refresh token).
    pub async fn login(&self, email: &str, password: &str) -> (String, String) {
        let r = self.login_reply(email, password).await;
        let body = r.ok();
        (
            body["accessToken"].as_str().unwrap().to_owned(),
            body["refreshToken"].as_str().unwrap().to_owned(),
        )
    }

    /// Announces and uploads `bytes` as a receipt, as `token`; the file id.
    pub async fn uploaded(&self, token: &str, name: &str, kind: &str, bytes: &[u8]) -> String {
        let files =
            json!({"files": [{"fileName": name, "contentType": kind, "size": bytes.len()}]});
        let slot =
            self.post("/api/v1/fileupload/generate-upload-urls", Some(token), files).await.ok()[0]
                .clone();
        let res = self
            .client
            .put(format!("{}{}", self.base, slot["uploadUrl"].as_str().unwrap()))
            .header("Content-Type", kind)
            .body(bytes.to_vec())
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 204, "{}", res.text().await.unwrap());
        slot["fileId"].as_str().unwrap().to_owned()
    }

    /// `mentorpay remind --as-of AS_OF` on this app's database and files, as cron would run it
    /// beside the server (wait for it with `beside`, or poll a spawned one between awaits).
    pub fn remind(&self, as_of: &str) -> std::process::Command {
        let mut pass = std::process::Command::new(env!("CARGO_BIN_EXE_mentorpay"));
        pass.env_clear()
            .envs(dates::clock_env())
            .env("MENTORPAY_LOG", "warn")
            .args(["--database-url", &self.state.config.database_url])
            .args(["--data-dir", self.dir.path().join("data").to_str().unwrap()])
            .args(["remind", "--as-of", as_of]);
        pass
    }

    pub async fn admin_token(&self) -> String {
        self.login(ADMIN_EMAIL, ADMIN_PASSWORD).await.0
    }

    /// Creates a user with a password through the API and returns its id.
    pub async fn create_user(
        &self,
        admin: &str,
        email: &str,
        roles: &[&str],
        password: &str,
    ) -> i64 {
        let r = self
            .post(
                "/api/v1/identity/users",
                Some(admin),
                json!({"email": email, "firstName": "Test", "lastName": "User", "roles": roles, "password": password}),
            )
            .await;
        assert_eq!(r.status, 201, "{}", r.body);
        r.body["id"].as_i64().unwrap()
    }

    /// A Coordinator of `program` in fiscal year `fy` who signs in with `email` and `password`
    /// (a participant with a login and a coordinating participation): their access token.
    pub async fn coordinator_of(
        &self,
        admin: &str,
        email: &str,
        password: &str,
        program: i64,
        fy: i64,
    ) -> String {
        let r = self
            .post("/api/v1/participants", Some(admin), person("Cora", email, "Coordinator"))
            .await;
        let id = r.ok()["id"].as_i64().unwrap();
        self.post(
            &format!("/api/v1/participants/{id}/identity-user"),
            Some(admin),
            json!({"password": password}),
        )
        .await
        .ok();
        self.post(
            &format!("/api/v1/participants/{id}/participations"),
            Some(admin),
            taking(program, fy, "Coordinator"),
        )
        .await
        .ok();
        self.login(email, password).await.0
    }

    /// The last message sent to `to`.
    pub fn last_mail_to(&self, to: &str) -> Option<Mail> {
        self.outbox.lock().unwrap().iter().rev().find(|m| m.to == to).cloned()
    }

    /// The (email, token) pair of the set-password link in the last mail to `to`.
    pub fn link_in_mail(&self, to: &str) -> (String, String) {
        link_of(&self.last_mail_to(to).expect("a mail was sent"))
    }

    /// How many messages went to `to`.
    pub fn mails_to(&self, to: &str) -> usize {
        self.outbox.lock().unwrap().iter().filter(|m| m.to == to).count()
    }

    /// The (email, token) link of the `n`-th message to `to` (from 1), waited for up to ten
    /// seconds: invitations go through the outbox, whose worker sends them after the commit.
    pub async fn link_in_queued_mail(&self, to: &str, n: usize) -> (String, String) {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        loop {
            let nth = self.outbox.lock().unwrap().iter().filter(|m| m.to == to).nth(n - 1).cloned();
            if let Some(mail) = nth {
                return link_of(&mail);
            }
            assert!(std::time::Instant::now() < deadline, "no mail #{n} to {to}");
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
    }
}

/// The (email, token) pair of the set-password link in `mail`.
fn link_of(mail: &Mail) -> (String, String) {
    let start = mail.body.find("/set-password?").expect("link in mail");
    let query = mail.body[start + "/set-password?".len()..].split_whitespace().next().unwrap();
    let pairs: Vec<(String, String)> = serde_html_form::from_str(query).unwrap();
    let get = |k: &str| pairs.iter().find(|(key, _)| key == k).unwrap().1.clone();
    (get("email"), get("token"))
}

/// A participant body: an active payee with every required list filled.
pub fn person(first: &str, email: &str, role: &str) -> Value {
    json!({
        "firstName": first, "lastName": "Payee", "email": email, "phone": "(916) 555-0100",
        "address": "1 Capitol Mall, Sacramento", "status": "Active", "roleCode": role,
        "districtSetType": "Assembly", "districtId": 7, "caucusRegionId": 1,
        "workplaceSettingIds": [1], "languageIds": [1], "educationLevelIds": [3], "permitLevelIds": [2],
    })
}

/// A participation body for the whole of this fiscal year (`dates::Year::this`).
pub fn taking(program: i64, fy: i64, role: &str) -> Value {
    let year = dates::Year::this();
    json!({"mentorProgramId": program, "fiscalYearId": fy, "roleCode": role, "collegeId": 1, "startDate": year.start, "endDate": year.end})
}

/// The ids of a list call, sorted.
pub async fn ids(app: &TestApp, token: &str, path: &str) -> Vec<i64> {
    let mut ids: Vec<i64> = app
        .get(path, token)
        .await
        .ok()
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_i64().unwrap())
        .collect();
    ids.sort();
    ids
}
