//! People in the loop, through a real SMTP server (aiosmtpd, tests/smtp/sink.py, installed into
//! .venv-test by `make test`): who hears of which move of a request, each mail's parts and link,
//! each user's mode, a relay that refuses for good, and an outbox that neither loses nor repeats
//! a mail over a relay outage and a SIGKILL of the server.

use crate::common::dates::{shifted, shifted_fy};
use std::{
    io::{BufRead, BufReader},
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
    sync::Arc,
    time::{Duration, Instant},
};

use crate::common::{self, database, instance::Instance, *};
use reqwest::Method;
use serde_json::{json, Value};

const PUBLIC_URL: &str = "https://mentorpay.agency.example";
const APPROVER: &str = "approver@example.org";
const PASSWORD: &str = "approver pass 123";

/// The SMTP server, listening until dropped; what it received, one message a line.
struct Sink {
    child: Child,
    out: PathBuf,
}

impl Sink {
    fn start(port: u16, out: &Path) -> Sink {
        let python = Path::new(env!("CARGO_MANIFEST_DIR")).join(".venv-test/bin/python");
        assert!(
            python.exists(),
            "{} is missing: `make test-venv` installs aiosmtpd",
            python.display()
        );
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/smtp/sink.py");
        let mut child = Command::new(python)
            .arg(script)
            .arg(port.to_string())
            .arg(out)
            .stdout(Stdio::piped())
            .spawn()
            .expect("start the SMTP server");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        assert_eq!(line.trim(), "ready", "the SMTP server did not start");
        Sink { child, out: out.to_owned() }
    }

    fn received(&self) -> Vec<Value> {
        std::fs::read_to_string(&self.out)
            .unwrap_or_default()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    /// Waits until `n` messages arrived (at most 30 s), then a little longer to catch repeats.
    async fn expect(&self, n: usize) -> Vec<Value> {
        let started = Instant::now();
        while self.received().len() < n {
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "{} of {n} mails arrived: {:#?}",
                self.received().len(),
                self.received()
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        tokio::time::sleep(Duration::from_millis(2500)).await;
        let got = self.received();
        assert_eq!(got.len(), n, "more mails than expected: {got:#?}");
        got
    }
}

impl Drop for Sink {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// Flags of a server that sends through the relay on `port`, retrying after a second.
fn smtp_flags(port: &str) -> Vec<&str> {
    vec![
        "--smtp-host",
        "127.0.0.1",
        "--smtp-port",
        port,
        "--smtp-security",
        "none",
        "--public-url",
        PUBLIC_URL,
        "--mail-retry-seconds",
        "1",
    ]
}

/// The same flags as the environment of a server started as a process.
fn smtp_env(port: &str) -> Vec<(String, String)> {
    smtp_flags(port)
        .chunks(2)
        .map(|kv| {
            let key = format!(
                "MENTORPAY_{}",
                kv[0].trim_start_matches("--").replace('-', "_").to_uppercase()
            );
            (key, kv[1].to_owned())
        })
        .collect()
}

async fn call(
    c: &reqwest::Client,
    base: &str,
    m: Method,
    path: &str,
    t: &str,
    b: Option<Value>,
) -> Value {
    let r = send(c, base, m, path, Some(t), b).await;
    r.ok().clone()
}

/// A fiscal year, a payee with a participation in the first program, and a second
/// Administrator (an approver of every program). Returns the participation's id.
async fn world(c: &reqwest::Client, base: &str, admin: &str) -> i64 {
    let fy = call(
        c,
        base,
        Method::POST,
        "/api/v1/system-settings/fiscal-years",
        admin,
        Some(json!({"name": shifted_fy("FY 2026-27"), "startDate": shifted("2026-07-01"), "endDate": shifted("2027-06-30")})),
    )
    .await;
    let programs = call(c, base, Method::GET, "/api/v1/mentor-programs", admin, None).await;
    let program = programs[0]["id"].as_i64().unwrap();
    let mut payee = person("Pat", "pat@example.org", "Mentor");
    payee["participations"] = json!([taking(program, fy["id"].as_i64().unwrap(), "Mentor")]);
    let p = call(c, base, Method::POST, "/api/v1/participants", admin, Some(payee)).await;
    call(c, base, Method::POST, "/api/v1/identity/users", admin, Some(json!({
        "email": APPROVER, "firstName": "Alma", "lastName": "Approver", "roles": ["Administrator"], "password": PASSWORD,
    }))).await;
    p["participations"][0]["id"].as_i64().unwrap()
}

/// A new F5 request, submitted by `token`: its path.
async fn submitted(c: &reqwest::Client, base: &str, token: &str, participation: i64) -> String {
    let r = call(
        c,
        base,
        Method::POST,
        "/api/v1/payment-requests/F5",
        token,
        Some(json!({
            "participationId": participation, "description": "Seminar", "requestedAmount": 434.5,
            "details": {"seminarDate": shifted("2025-10-01"), "topic": "Play", "hours": 3},
        })),
    )
    .await;
    let path = format!("/api/v1/payment-requests/F5/{}", r["id"]);
    call(c, base, Method::POST, &format!("{path}/submit"), token, Some(json!({}))).await;
    path
}

fn to(mail: &Value) -> String {
    mail["to"][0].as_str().unwrap().to_owned()
}

fn subject(mail: &Value) -> String {
    let data = mail["data"].as_str().unwrap();
    data.lines().find_map(|l| l.strip_prefix("Subject: ")).unwrap_or_default().to_owned()
}

#[actix_web::test]
async fn each_move_reaches_the_right_people_once_with_text_html_and_a_link() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let sink = Sink::start(port, &dir.path().join("mails.jsonl"));
    let port = port.to_string();
    let app = spawn_with(&smtp_flags(&port)).await;
    let (c, base) = (&app.client, app.base.as_str());
    let admin = app.admin_token().await;
    let participation = world(c, base, &admin).await;
    // A holder of request:approve who sees no program (no linked participant): never told.
    call(
        c,
        base,
        Method::POST,
        "/api/v1/identity/roles",
        &admin,
        Some(
            json!({"name": "Program approver", "permissions": ["request:read", "request:approve"]}),
        ),
    )
    .await;
    app.create_user(&admin, "scopeless@example.org", &["Program approver"], PASSWORD).await;
    let (approver, _) = app.login(APPROVER, PASSWORD).await;

    // Submitted by the Administrator: the other approver hears, the actor does not.
    let path = submitted(c, base, &admin, participation).await;
    let mails = sink.expect(1).await;
    assert_eq!(to(&mails[0]), APPROVER);
    let id = path.rsplit('/').next().unwrap();
    assert_eq!(
        subject(&mails[0]),
        format!("Seminar attendance request F5 #{id} was submitted for approval")
    );
    let data = mails[0]["data"].as_str().unwrap();
    assert!(data.contains("Form: Seminar attendance"), "the form by its name: {data}");
    // The MIME boundary is random text and may hold "F5" by chance: it is not the mail's words.
    let boundary = data.split("boundary=\"").nth(1).and_then(|b| b.split('"').next()).unwrap();
    let words = data.replace(boundary, "").replace("/F5/", "").replace(&format!("F5 #{id}"), "");
    assert!(!words.contains("F5"), "no form code outside the reference and link: {data}");
    assert!(data.contains("multipart/alternative"), "{data}");
    assert!(
        data.contains("Content-Type: text/plain") && data.contains("Content-Type: text/html"),
        "{data}"
    );
    assert!(data.contains("Pat Payee") && data.contains("$434.50"), "{data}");
    assert!(data.contains(&format!("{PUBLIC_URL}/payment-request/F5/{id}/details")), "{data}");
    assert!(data.contains("Message-ID: <outbox-"), "{data}");

    // Sent back by the approver, with the reason: the creator hears.
    call(
        c,
        base,
        Method::POST,
        &format!("{path}/send-for-revision"),
        &approver,
        Some(json!({"reason": "The receipt is missing"})),
    )
    .await;
    let mails = sink.expect(2).await;
    assert_eq!(to(&mails[1]), common::ADMIN_EMAIL);
    assert!(subject(&mails[1]).ends_with("was sent back for revision"));
    assert!(mails[1]["data"].as_str().unwrap().contains("The receipt is missing"));
    assert!(mails[1]["data"].as_str().unwrap().contains("Alma Approver"));

    // The creator turns mail off: the approval tells nobody.
    let off = call(
        c,
        base,
        Method::PUT,
        "/api/v1/identity/me/notifications",
        &admin,
        Some(json!({"mode": "off"})),
    )
    .await;
    assert_eq!(off["mode"], "off");
    let mine = call(c, base, Method::GET, "/api/v1/identity/me/notifications", &admin, None).await;
    assert_eq!(mine["mode"], "off");
    call(c, base, Method::POST, &format!("{path}/submit"), &admin, Some(json!({}))).await;
    let mails = sink.expect(3).await;
    assert_eq!(to(&mails[2]), APPROVER, "resubmitted: the approver hears again");
    let codes = call(c, base, Method::GET, "/api/v1/approval-codes", &admin, None).await;
    let code = codes.as_array().unwrap().iter().find(|x| x["paymentRequestType"] == "F5").unwrap()
        ["id"]
        .clone();
    let fund = call(c, base, Method::GET, "/api/v1/funds", &admin, None).await[0]["id"].clone();
    let account =
        call(c, base, Method::GET, "/api/v1/expense-accounts", &admin, None).await[0]["id"].clone();
    call(c, base, Method::POST, &format!("{path}/approve"), &approver, Some(json!({
        "approvedAmount": 400, "approvalCodeId": code, "fundId": fund, "expenseAccountId": account, "acknowledgeWarnings": true,
    }))).await;
    sink.expect(3).await;

    // Back on: released for processing tells the creator, with the approved amount.
    call(
        c,
        base,
        Method::PUT,
        "/api/v1/identity/me/notifications",
        &admin,
        Some(json!({"mode": "instant"})),
    )
    .await;
    call(c, base, Method::POST, &format!("{path}/move-to-ready-for-processing"), &approver, None)
        .await;
    let mails = sink.expect(4).await;
    assert_eq!(to(&mails[3]), common::ADMIN_EMAIL);
    assert!(subject(&mails[3]).ends_with("was released for processing"));
    assert!(mails[3]["data"].as_str().unwrap().contains("$400.00"));

    // The outbox shows every mail as sent through the relay.
    let outbox =
        call(c, base, Method::GET, "/api/v1/system-settings/outbox?Status=sent", &admin, None)
            .await;
    assert_eq!(outbox["totalCount"], 4, "{outbox}");
    assert_eq!(outbox["waiting"], 0);
    assert!(outbox["items"].as_array().unwrap().iter().all(|m| m["deliveredBy"] == "smtp"));
    let bad = send(
        c,
        base,
        Method::PUT,
        "/api/v1/identity/me/notifications",
        Some(&admin),
        Some(json!({"mode": "weekly"})),
    )
    .await;
    bad.invalid();
    let (coordinatorless, _) = app.login("scopeless@example.org", PASSWORD).await;
    let denied =
        send(c, base, Method::GET, "/api/v1/system-settings/outbox", Some(&coordinatorless), None)
            .await;
    denied.problem(403);
}

#[actix_web::test]
async fn a_mail_the_relay_refuses_for_good_is_failed_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let sink = Sink::start(port, &dir.path().join("mails.jsonl"));
    let port = port.to_string();
    let app = spawn_with(&smtp_flags(&port)).await;
    let (c, base) = (&app.client, app.base.as_str());
    let admin = app.admin_token().await;
    let participation = world(c, base, &admin).await;
    app.create_user(&admin, "nobody@refuse.example", &["Administrator"], PASSWORD).await;
    submitted(c, base, &admin, participation).await;
    // The approver's mail arrives; the refused one is failed, once, with the relay's words.
    let mails = sink.expect(1).await;
    assert_eq!(to(&mails[0]), APPROVER);
    let failed =
        call(c, base, Method::GET, "/api/v1/system-settings/outbox?Status=failed", &admin, None)
            .await;
    assert_eq!(failed["totalCount"], 1, "{failed}");
    let mail = &failed["items"][0];
    assert_eq!(mail["recipient"], "nobody@refuse.example");
    assert_eq!(mail["attempts"], 1);
    assert!(mail["lastError"].as_str().unwrap().contains("No such mailbox"), "{mail}");
}

#[actix_web::test]
async fn mails_wait_for_the_relay_and_survive_sigkill_exactly_once() {
    let dir = Arc::new(tempfile::tempdir().unwrap());
    let db = database::url_for(dir.path(), "mentorpay.db").await;
    let port = free_port();
    let port_text = port.to_string();
    let vars = smtp_env(&port_text);
    let vars: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();

    // The relay is down: the actions answer at once, their mails wait and are retried.
    let server = Instance::start(dir.path(), &db, &vars).await;
    let (c, base) = (&server.client, server.base.clone());
    let (admin, _) = server.login(common::ADMIN_EMAIL, common::ADMIN_PASSWORD).await;
    let participation = world(c, &base, &admin).await;
    let (approver, _) = server.login(APPROVER, PASSWORD).await;
    let path = submitted(c, &base, &admin, participation).await;
    call(
        c,
        &base,
        Method::POST,
        &format!("{path}/send-for-revision"),
        &approver,
        Some(json!({"reason": "Dates"})),
    )
    .await;
    let started = Instant::now();
    loop {
        let page = call(
            c,
            &base,
            Method::GET,
            "/api/v1/system-settings/outbox?Status=pending",
            &admin,
            None,
        )
        .await;
        let tried = page["items"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["attempts"].as_i64() >= Some(2))
            .count();
        if page["totalCount"] == 2 && tried == 2 {
            assert!(page["items"][0]["lastError"].is_string(), "{page}");
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(30), "not retried: {page}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }

    // Killed without warning; the relay comes back, then the server: each mail once.
    let mut server = server;
    server.kill();
    let sink = Sink::start(port, &dir.path().join("mails.jsonl"));
    let server = Instance::start(dir.path(), &db, &vars).await;
    let mails = sink.expect(2).await;
    let mut recipients: Vec<String> = mails.iter().map(to).collect();
    recipients.sort();
    assert_eq!(recipients, [common::ADMIN_EMAIL.to_owned(), APPROVER.to_owned()]);
    let (admin, _) = server.login(common::ADMIN_EMAIL, common::ADMIN_PASSWORD).await;
    let sent = call(
        &server.client,
        &server.base,
        Method::GET,
        "/api/v1/system-settings/outbox?Status=sent",
        &admin,
        None,
    )
    .await;
    assert_eq!(sent["totalCount"], 2, "{sent}");
}

#[actix_web::test]
async fn without_a_relay_mails_go_to_the_log_and_the_outbox_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let db = database::url_for(dir.path(), "mentorpay.db").await;
    let server = Instance::start(dir.path(), &db, &[("MENTORPAY_PUBLIC_URL", PUBLIC_URL)]).await;
    let (c, base) = (&server.client, server.base.clone());
    let (admin, _) = server.login(common::ADMIN_EMAIL, common::ADMIN_PASSWORD).await;
    let participation = world(c, &base, &admin).await;
    let path = submitted(c, &base, &admin, participation).await;
    let started = Instant::now();
    loop {
        let sent =
            call(c, &base, Method::GET, "/api/v1/system-settings/outbox?Status=sent", &admin, None)
                .await;
        if sent["totalCount"] == 1 {
            assert_eq!(sent["items"][0]["recipient"], APPROVER);
            assert_eq!(sent["items"][0]["deliveredBy"], "log");
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(20), "{sent}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let id = path.rsplit('/').next().unwrap();
    let log = server.log_text();
    assert!(log.contains(&format!("{PUBLIC_URL}/payment-request/F5/{id}/details")), "{log}");
}

/// A time zone whose local hour now is between 2 and 21 (so a test that runs for minutes stays
/// within one local day, past that hour), with that hour.
fn zone_past_an_hour() -> (String, i64) {
    use chrono::Timelike;
    (-12..=12)
        .map(|offset: i32| {
            // Etc/GMT-5 is five hours ahead of UTC: the sign reads the other way.
            let name = match offset {
                0 => "UTC".to_owned(),
                o if o > 0 => format!("Etc/GMT-{o}"),
                o => format!("Etc/GMT+{}", -o),
            };
            let zone: chrono_tz::Tz = name.parse().unwrap();
            (name, i64::from(mentorpay::clock::now().with_timezone(&zone).hour()))
        })
        .find(|(_, hour)| (2..=21).contains(hour))
        .unwrap()
}

/// Saves the digest's hour and time zone in the general settings (the rest as they are).
async fn digest_at(c: &reqwest::Client, base: &str, admin: &str, hour: i64, zone: &str) -> Reply {
    let mut g = call(c, base, Method::GET, "/api/v1/system-settings/general", admin, None).await;
    g["digestHour"] = json!(hour);
    g["timeZone"] = json!(zone);
    let path = format!("/api/v1/system-settings/general/{}", g["id"]);
    send(c, base, Method::PUT, &path, Some(admin), Some(g)).await
}

#[actix_web::test]
async fn the_daily_digest_lists_what_waits_once_a_day_over_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = database::url_for(dir.path(), "mentorpay.db").await;
    let port = free_port();
    let sink = Sink::start(port, &dir.path().join("mails.jsonl"));
    let vars = smtp_env(&port.to_string());
    let vars: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let server = Instance::start(dir.path(), &db, &vars).await;
    let (c, base) = (&server.client, server.base.clone());
    let (admin, _) = server.login(common::ADMIN_EMAIL, common::ADMIN_PASSWORD).await;

    // The digest hour is still to come today (the hour after this one, or 23 if that is past).
    let (zone, hour) = zone_past_an_hour();
    digest_at(c, &base, &admin, hour + 1, &zone).await.ok();
    let participation = world(c, &base, &admin).await;
    let (approver, _) = server.login(APPROVER, PASSWORD).await;
    app_user(c, &base, &admin, "idle@example.org").await;
    let (idle, _) = server.login("idle@example.org", PASSWORD).await;
    for token in [&admin, &approver, &idle] {
        let daily = json!({"mode": "daily"});
        call(c, &base, Method::PUT, "/api/v1/identity/me/notifications", token, Some(daily)).await;
    }
    // Two submitted by the Administrator, one of them sent back: on the daily digest, nobody
    // hears at once.
    let first = submitted(c, &base, &admin, participation).await;
    let second = submitted(c, &base, &admin, participation).await;
    let reason = json!({"reason": "Dates"});
    let back = format!("{second}/send-for-revision");
    call(c, &base, Method::POST, &back, &approver, Some(reason)).await;
    sink.expect(0).await;

    // Bad values are refused by name and change nothing.
    let bad = digest_at(c, &base, &admin, 24, &zone).await;
    assert!(bad.problem(400)["errors"]["digestHour"].is_array(), "{}", bad.body);
    let bad = digest_at(c, &base, &admin, hour, "Mars/Olympus_Mons").await;
    assert!(bad.problem(422)["errors"]["timeZone"].is_array(), "{}", bad.body);
    let g = call(c, &base, Method::GET, "/api/v1/system-settings/general", &admin, None).await;
    assert_eq!((g["digestHour"].as_i64(), g["timeZone"].as_str()), (Some(hour + 1), Some(&*zone)));

    // The hour has come: each user for whom something waits gets one digest; the idle user none.
    digest_at(c, &base, &admin, hour, &zone).await.ok();
    let mails = sink.expect(2).await;
    let by = |who: &str| {
        mails.iter().find(|m| to(m) == who).unwrap_or_else(|| panic!("{who}: {mails:#?}"))
    };
    let id = |path: &str| path.rsplit('/').next().unwrap().to_owned();
    // Her own request is not hers to approve (nobody approves what she created or submitted).
    let mine = by(common::ADMIN_EMAIL);
    assert_eq!(subject(mine), "MentorPay: 0 to approve, 1 sent back to you");
    // Quoted-printable: long lines are folded with a trailing "=".
    let unfold = |m: &Value| m["data"].as_str().unwrap().replace("=\r\n", "").replace("=\n", "");
    let data = unfold(mine);
    assert!(
        data.contains(&format!("{PUBLIC_URL}/payment-request/F5/{}/details", id(&second))),
        "{data}"
    );
    assert!(data.contains("Your requests sent back for revision (1)"), "{data}");
    assert!(!data.contains(&format!("#{} ", id(&first))), "{data}");
    let theirs = by(APPROVER);
    assert_eq!(subject(theirs), "MentorPay: 1 to approve, 0 sent back to you");
    let data = unfold(theirs);
    assert!(
        data.contains(&format!("Seminar attendance request F5 #{} for Pat Payee", id(&first))),
        "{data}"
    );
    assert!(!data.contains(&format!("#{} ", id(&second))), "{data}");

    // Restarted the same day: nothing more.
    let mut server = server;
    server.kill();
    let server = Instance::start(dir.path(), &db, &vars).await;
    tokio::time::sleep(Duration::from_secs(3)).await;
    sink.expect(2).await;
    let (admin, _) = server.login(common::ADMIN_EMAIL, common::ADMIN_PASSWORD).await;
    let sent = call(
        &server.client,
        &server.base,
        Method::GET,
        "/api/v1/system-settings/outbox?Status=sent",
        &admin,
        None,
    )
    .await;
    assert_eq!(sent["totalCount"], 2, "{sent}");
}

/// A user who may read requests and act on none: nothing ever waits for them.
async fn app_user(c: &reqwest::Client, base: &str, admin: &str, email: &str) {
    let reader = json!({"name": "Reader", "permissions": ["request:read"]});
    call(c, base, Method::POST, "/api/v1/identity/roles", admin, Some(reader)).await;
    call(c, base, Method::POST, "/api/v1/identity/users", admin, Some(json!({
        "email": email, "firstName": "Ida", "lastName": "Idle", "roles": ["Reader"], "password": PASSWORD,
    }))).await;
}

#[actix_web::test]
async fn two_instances_on_postgresql_drain_one_outbox_each_mail_once() {
    if database::skip_on_sqlite("several instances share one database on PostgreSQL only") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let db = database::url_for(dir.path(), "mentorpay.db").await;
    let port = free_port();
    let sink = Sink::start(port, &dir.path().join("mails.jsonl"));
    let vars = smtp_env(&port.to_string());
    let vars: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let mut a = Instance::launch(dir.path(), &db, &vars);
    let mut b = Instance::launch(dir.path(), &db, &vars);
    a.ready().await;
    b.ready().await;
    let (admin, _) = a.login(common::ADMIN_EMAIL, common::ADMIN_PASSWORD).await;
    let (digest_hour, zone) = {
        let (zone, hour) = zone_past_an_hour();
        (hour + 1, zone)
    };
    digest_at(&a.client, &a.base, &admin, digest_hour, &zone).await.ok();
    let participation = world(&a.client, &a.base, &admin).await;
    // A third Administrator on the daily digest: both servers find it due at the same moment.
    a.call(Method::POST, "/api/v1/identity/users", Some(&admin), Some(json!({
        "email": "daily@example.org", "firstName": "Dee", "lastName": "Daily", "roles": ["Administrator"], "password": PASSWORD,
    }))).await.ok();
    let (daily, _) = b.login("daily@example.org", PASSWORD).await;
    let mode = json!({"mode": "daily"});
    b.call(Method::PUT, "/api/v1/identity/me/notifications", Some(&daily), Some(mode)).await.ok();

    // Forty submissions, half through each server: forty mails to the approver, queued while
    // both workers poll the one outbox.
    const N: usize = 40;
    for i in 0..N {
        let server = if i % 2 == 0 { &a } else { &b };
        submitted(&server.client, &server.base, &admin, participation).await;
    }
    digest_at(&b.client, &b.base, &admin, digest_hour - 1, &zone).await.ok();
    let mails = sink.expect(N + 1).await;
    let mut ids: Vec<String> = mails
        .iter()
        .map(|m| {
            let data = m["data"].as_str().unwrap();
            data.lines().find_map(|l| l.strip_prefix("Message-ID: ")).unwrap().to_owned()
        })
        .collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), N + 1, "a mail arrived twice");
    assert_eq!(mails.iter().filter(|m| to(m) == APPROVER).count(), N);
    let digests: Vec<_> = mails.iter().filter(|m| to(m) == "daily@example.org").collect();
    assert_eq!(digests.len(), 1, "one digest: {digests:#?}");
    assert_eq!(subject(digests[0]), format!("MentorPay: {N} to approve, 0 sent back to you"));
    let sent =
        b.call(Method::GET, "/api/v1/system-settings/outbox?Status=sent", Some(&admin), None).await;
    assert_eq!(sent.ok()["totalCount"], N + 1);
}

/// A relay that greets each connection and then says nothing more, as a relay that hangs
/// mid-conversation does; each accepted connection is reported on the channel and held open.
async fn stalling_relay(listener: tokio::net::TcpListener) -> tokio::sync::mpsc::Receiver<()> {
    use tokio::io::AsyncWriteExt;
    let (accepted, rx) = tokio::sync::mpsc::channel(16);
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((mut socket, _)) = listener.accept().await {
            let _ = socket.write_all(b"220 stall.example ESMTP\r\n").await;
            held.push(socket);
            let _ = accepted.send(()).await;
        }
    });
    rx
}

#[actix_web::test]
async fn a_mail_whose_sender_died_mid_send_is_sent_once_after_its_lease() {
    const LEASE: &str = "6";
    let dir = Arc::new(tempfile::tempdir().unwrap());
    let db = database::url_for(dir.path(), "mentorpay.db").await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let stalled_port = listener.local_addr().unwrap().port().to_string();
    let mut accepted = stalling_relay(listener).await;
    let with_lease = |port: &str| {
        let mut vars = smtp_env(port);
        vars.push(("MENTORPAY_MAIL_LEASE_SECONDS".into(), LEASE.into()));
        vars
    };
    let vars = with_lease(&stalled_port);
    let vars: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let mut server = Instance::start(dir.path(), &db, &vars).await;
    let (c, base) = (&server.client, server.base.clone());
    let (admin, _) = server.login(common::ADMIN_EMAIL, common::ADMIN_PASSWORD).await;
    let participation = world(c, &base, &admin).await;
    submitted(c, &base, &admin, participation).await;

    // The worker took the mail to the relay, which stalls: the server dies mid-send.
    tokio::time::timeout(Duration::from_secs(20), accepted.recv())
        .await
        .expect("the worker reached the relay")
        .unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    server.kill();
    let killed = Instant::now();

    // Back with a working relay: until the lease lapses the mail waits, listed as pending
    // and counted as waiting alike.
    let port = free_port();
    let sink = Sink::start(port, &dir.path().join("mails.jsonl"));
    let vars = with_lease(&port.to_string());
    let vars: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let server = Instance::start(dir.path(), &db, &vars).await;
    let (c, base) = (&server.client, server.base.clone());
    let (admin, _) = server.login(common::ADMIN_EMAIL, common::ADMIN_PASSWORD).await;
    let outbox = |status: &'static str| {
        let (admin, base) = (admin.clone(), base.clone());
        async move {
            let path = format!("/api/v1/system-settings/outbox?Status={status}");
            call(c, &base, Method::GET, &path, &admin, None).await
        }
    };
    let pending = outbox("pending").await;
    // (A machine so slow that the restart outlasted the lease has nothing to show here.)
    if killed.elapsed() < Duration::from_secs(4) {
        assert_eq!(pending["totalCount"], 1, "{pending}");
        assert_eq!(pending["waiting"], 1, "{pending}");
        assert_eq!(pending["items"][0]["status"], "sending", "{pending}");
        assert!(pending["items"][0]["nextAttemptAt"].is_string(), "{pending}");
    }

    // After the lease: sent once, through the working relay, on its second attempt.
    let mails = sink.expect(1).await;
    assert_eq!(to(&mails[0]), APPROVER);
    let sent = outbox("sent").await;
    assert_eq!(sent["totalCount"], 1, "{sent}");
    assert_eq!(sent["items"][0]["attempts"], 2, "{sent}");
    assert_eq!(sent["waiting"], 0, "{sent}");
    assert_eq!(outbox("pending").await["totalCount"], 0);
}
