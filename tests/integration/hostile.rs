//! What hostile testing tried, each against the real app over HTTP: requests for a deleted
//! participant (also racing the delete), paging limits on exports, bodies of the wrong
//! shape, whole numbers spelled as floats, hidden characters in names, start-up settings the
//! settings screen would refuse, sums beyond an amount's bound, a participant shared with
//! another program, and bodies that trickle.

use crate::common::dates::{shifted, shifted_fy};
use std::time::Duration;

use crate::common;

use common::*;
use reqwest::Method;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const PR: &str = "/api/v1/payment-requests";
const COORD_PW: &str = "coordinator pass 1";

struct World {
    app: TestApp,
    admin: String,
    coord: String,
    fy: i64,
    programs: Vec<i64>,
}

/// An Administrator, a fiscal year, and a Coordinator of the first program only.
async fn world() -> World {
    world_with(&[]).await
}

async fn world_with(flags: &[&str]) -> World {
    let app = spawn_with(flags).await;
    let admin = app.admin_token().await;
    let fy = app
        .post(
            "/api/v1/system-settings/fiscal-years",
            Some(&admin),
            json!({"name": shifted_fy("FY 2026-27"), "startDate": shifted("2026-07-01"), "endDate": shifted("2027-06-30")}),
        )
        .await;
    let fy = fy.ok()["id"].as_i64().unwrap();
    let programs = ids(&app, &admin, "/api/v1/mentor-programs").await;
    let coord = app.coordinator_of(&admin, "cora@example.org", COORD_PW, programs[0], fy).await;
    World { app, admin, coord, fy, programs }
}

/// A payee taking part in `programs`; its id and its participations' ids in that order.
async fn payee(w: &World, email: &str, programs: &[i64]) -> (i64, Vec<i64>) {
    let mut p = person("Pat", email, "Mentor");
    p["participations"] = programs.iter().map(|m| taking(*m, w.fy, "Mentor")).collect();
    let r = w.app.post("/api/v1/participants", Some(&w.admin), p).await;
    let body = r.ok();
    let parts = body["participations"].as_array().unwrap();
    let of = |m: &i64| {
        parts.iter().find(|p| p["mentorProgramId"] == *m).unwrap()["id"].as_i64().unwrap()
    };
    (body["id"].as_i64().unwrap(), programs.iter().map(of).collect())
}

fn f2(participation: i64, description: &str) -> Value {
    json!({"participationId": participation, "description": description, "details": {
        "items": [{"date": shifted("2026-10-01"), "description": "Books", "amount": 12.34}], "fileIds": []}})
}

fn error_keys(body: &Value) -> Vec<String> {
    body["errors"].as_object().map(|o| o.keys().cloned().collect()).unwrap_or_default()
}

#[actix_web::test]
async fn a_deleted_participant_takes_no_new_or_submitted_requests() {
    let w = world().await;
    let (pid, parts) = payee(&w, "pat@example.org", &[w.programs[0]]).await;
    let draft = w.app.post(&format!("{PR}/F2"), Some(&w.admin), f2(parts[0], "before")).await;
    let draft = draft.ok().clone();
    w.app.delete(&format!("/api/v1/participants/{pid}"), &w.admin).await.ok();

    let r = w.app.post(&format!("{PR}/F2"), Some(&w.admin), f2(parts[0], "after")).await;
    assert_eq!(error_keys(r.problem(422)), ["participationId"]);
    assert_eq!(
        r.body["errors"]["participationId"][0],
        "is no longer open for requests (its participation ended or was removed): choose the payee again"
    );
    let submit = format!("{PR}/F2/{}/submit", draft["id"]);
    let r = w.app.post(&submit, Some(&w.admin), json!({})).await;
    assert_eq!(error_keys(r.problem(422)), ["participationId"]);
    let mut edit = f2(parts[0], "edited");
    edit["version"] = draft["version"].clone();
    let r = w.app.put(&format!("{PR}/F2/{}", draft["id"]), &w.admin, edit).await;
    assert_eq!(error_keys(r.problem(422)), ["participationId"]);
    // Nothing changed: the draft is still the draft it was.
    let got = w.app.get(&format!("{PR}/F2/{}", draft["id"]), &w.admin).await;
    assert_eq!(got.ok()["formStatus"], "Draft", "{}", got.body);
    assert_eq!(got.body["version"], draft["version"]);
    assert_eq!(got.body["description"], "before");
}

#[actix_web::test]
async fn a_delete_racing_creates_leaves_no_request_made_after_it() {
    let w = world().await;
    for round in 0..4 {
        let (pid, parts) = payee(&w, &format!("race{round}@example.org"), &[w.programs[0]]).await;
        let creates = (0..7).map(|i| {
            let body = f2(parts[0], &format!("race {round}.{i}"));
            let (app, admin) = (&w.app, &w.admin);
            async move { app.post(&format!("{PR}/F2"), Some(admin), body).await.status.as_u16() }
        });
        let delete = async {
            tokio::time::sleep(Duration::from_millis(5 * round)).await;
            w.app.delete(&format!("/api/v1/participants/{pid}"), &w.admin).await.status.as_u16()
        };
        let (statuses, deleted) =
            futures_util::future::join(futures_util::future::join_all(creates), delete).await;
        assert_eq!(deleted, 204);
        assert!(statuses.iter().all(|s| *s == 201 || *s == 422), "{statuses:?}");
    }
    // Every request was created before its participant's deletion, by the database's clock.
    use sea_orm::{ConnectionTrait, Statement};
    let db = &w.app.state.db;
    let late = db
        .query_one_raw(Statement::from_string(
            db.get_database_backend(),
            "SELECT COUNT(*) AS n FROM payment_requests r JOIN participants p \
             ON p.id = r.participant_id WHERE r.created_at > p.deleted_at",
        ))
        .await
        .unwrap()
        .unwrap()
        .try_get::<i64>("", "n")
        .unwrap();
    assert_eq!(late, 0);
}

#[actix_web::test]
async fn every_paged_or_row_limited_route_refuses_the_same_sizes() {
    let w = world().await;
    let bonuses = format!("/api/v1/reports/bonuses/{}/Csv/retrieve?Size=501", w.fy);
    for path in [
        "/api/v1/reports/payment-requests-details/retrieve?ReportFormat=Csv&Size=99999999",
        "/api/v1/reports/participants/retrieve?ReportFormat=Csv&Size=501",
        "/api/v1/reports/participants?Size=501",
        "/api/v1/reports/approvals-by-accounts/retrieve?ReportFormat=Csv&Size=0",
        "/api/v1/reports/payment-requests/F9/Csv/retrieve?Size=501",
        &bonuses,
        "/api/v1/participants?Size=501",
        "/api/v1/payment-requests?Size=99999999",
        "/api/v1/identity/users?Size=-1",
        "/api/v1/reports/vendor-payments/history?Size=501",
    ] {
        let r = w.app.get(path, &w.admin).await;
        assert_eq!(error_keys(r.problem(400)), ["Size"], "{path}");
    }
    let r = w
        .app
        .get("/api/v1/reports/payment-requests-details/retrieve?ReportFormat=Csv&Page=0", &w.admin)
        .await;
    assert_eq!(error_keys(r.problem(400)), ["Page"]);
    let r = w
        .app
        .get(
            "/api/v1/reports/payment-requests-details/retrieve?ReportFormat=Csv&Size=500",
            &w.admin,
        )
        .await;
    assert_eq!(r.status, 200);
}

#[actix_web::test]
async fn a_body_of_the_wrong_shape_is_refused_before_use() {
    let w = world().await;
    let (pid, _) = payee(&w, "pat@example.org", &[w.programs[0]]).await;
    let login = format!("/api/v1/participants/{pid}/identity-user");
    for body in [json!([null]), json!(["a password long enough"]), json!("text"), json!(3)] {
        let r = w.app.post(&login, Some(&w.admin), body.clone()).await;
        assert_eq!(error_keys(r.problem(400)), ["body"], "{body}");
    }
    // A nested object sent as a list is named where it is.
    let mut p = person("Nested", "nested@example.org", "Mentor");
    p["participations"] = json!([[w.programs[0], w.fy, "Mentor", 1, shifted("2026-07-01"), null]]);
    let r = w.app.post("/api/v1/participants", Some(&w.admin), p).await;
    assert_eq!(error_keys(r.problem(400)), ["participations[0]"]);
    // Nothing was created: still no login, and the right shape still works.
    let got = w.app.get(&format!("/api/v1/participants/{pid}"), &w.admin).await;
    assert_eq!(got.ok()["identityUserId"], Value::Null);
    w.app.post(&login, Some(&w.admin), json!({})).await.ok();
}

#[actix_web::test]
async fn a_whole_number_is_read_the_same_whatever_its_spelling() {
    let w = world().await;
    let vp = "/api/v1/reports/vendor-payments";
    // No request is ready: any count but 0 is "the preview changed" (409), not a bad number.
    for count in [json!(100), json!(100.0), json!(1e2), json!(2122643706491769.0_f64)] {
        let body = json!({"fiscalYearId": w.fy, "startDate": shifted("2026-07-01"), "endDate": shifted("2026-07-31"),
            "expectedCount": count, "expectedTotal": 0});
        let r = w.app.post(vp, Some(&w.admin), body.clone()).await;
        assert_eq!(r.status, 409, "{body} {}", r.body);
    }
    let body = json!({"fiscalYearId": w.fy, "startDate": shifted("2026-07-01"), "endDate": shifted("2026-07-31"),
        "expectedCount": 100.5, "expectedTotal": 0});
    let r = w.app.post(vp, Some(&w.admin), body).await;
    assert_eq!(r.problem(400)["errors"]["expectedCount"][0], "must be a whole number");
    let body = json!({"fiscalYearId": w.fy, "startDate": shifted("2026-07-01"), "endDate": shifted("2026-07-31"),
        "expectedCount": 1e30, "expectedTotal": 0});
    let r = w.app.post(vp, Some(&w.admin), body).await;
    assert_eq!(r.problem(400)["errors"]["expectedCount"][0], "is out of range for a whole number");
}

#[actix_web::test]
async fn names_emails_and_codes_refuse_hidden_characters_and_exports_drop_them() {
    let w = world().await;
    for (field, value) in [
        ("firstName", "Ann\u{202E}gpj.exe"),
        ("lastName", "Smith\u{200B}"),
        ("email", "pat\u{2066}@example.org"),
    ] {
        let mut p = person("Pat", "hidden@example.org", "Mentor");
        p[field] = json!(value);
        let r = w.app.post("/api/v1/participants", Some(&w.admin), p).await;
        assert_eq!(error_keys(r.problem(422)), [field], "{value:?}");
    }
    let r = w
        .app
        .post("/api/v1/funds", Some(&w.admin), json!({"name": "Fund", "code": "F\u{200D}1"}))
        .await;
    assert_eq!(error_keys(r.problem(422)), ["code"]);
    let r = w
        .app
        .post(
            "/api/v1/identity/users",
            Some(&w.admin),
            json!({"email": "u@example.org", "firstName": "\u{FEFF}Eve", "lastName": "User",
                "roles": ["Administrator"], "password": "a password long enough"}),
        )
        .await;
    assert_eq!(error_keys(r.problem(422)), ["firstName"]);

    // Free text keeps them; the export shows it without them.
    let (_, parts) = payee(&w, "pat@example.org", &[w.programs[0]]).await;
    let r =
        w.app.post(&format!("{PR}/F2"), Some(&w.admin), f2(parts[0], "Ann\u{202E}gpj.exe")).await;
    assert_eq!(r.ok()["description"], "Ann\u{202E}gpj.exe");
    let csv = w
        .app
        .client
        .get(format!(
            "{}/api/v1/reports/payment-requests-details/retrieve?ReportFormat=Csv",
            w.app.base
        ))
        .bearer_auth(&w.admin)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(csv.contains("Anngpj.exe"), "{csv}");
    assert!(!csv.contains('\u{202E}'));
}

#[actix_web::test]
async fn start_up_settings_obey_the_settings_screen_rule() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}?mode=rwc", dir.path().join("m.db").display());
    let data = dir.path().join("data");
    let cli = <mentorpay::cli::Cli as clap::Parser>::try_parse_from([
        "mentorpay",
        "--database-url",
        &db,
        "--data-dir",
        data.to_str().unwrap(),
        "--access-token-ttl",
        "86400",
    ])
    .unwrap();
    let refused = mentorpay::app::prepare(cli.config).await.err().expect("refused to start");
    assert!(refused.to_string().contains("--refresh-token-ttl"), "{refused}");

    // What it starts with, the settings screen saves unchanged.
    let app = spawn_with(&["--access-token-ttl", "86400", "--refresh-token-ttl", "86400"]).await;
    let admin = app.admin_token().await;
    let general = app.get("/api/v1/system-settings/general", &admin).await.ok().clone();
    let path = format!("/api/v1/system-settings/general/{}", general["id"]);
    app.put(&path, &admin, general).await.ok();
}

#[actix_web::test]
async fn budget_sums_stay_inside_what_the_document_says() {
    let w = world().await;
    let fund = ids(&w.app, &w.admin, "/api/v1/funds").await[0];
    let accounts = ids(&w.app, &w.admin, "/api/v1/expense-accounts").await;
    let line = |account: i64| {
        json!({"mentorProgramId": w.programs[0], "fundId": fund, "expenseAccountId": account,
            "amount": 9_999_999_999.99})
    };
    let body = json!({"fiscalYearId": w.fy, "lines": [line(accounts[0]), line(accounts[1])]});
    w.app.put("/api/v1/budgets/bulk-update", &w.admin, body).await.ok();
    let list = w.app.get("/api/v1/budgets", &w.admin).await.ok().clone();
    let budgeted = list[0]["budgeted"].as_f64().unwrap();
    assert_eq!(budgeted, 19_999_999_999.98);

    let doc = w.app.call(Method::GET, "/api/v1/openapi.json", None, None).await.body;
    let schemas = &doc["components"]["schemas"];
    let field = &schemas["BudgetSummaryDto"]["properties"]["budgeted"];
    let field = match field["$ref"].as_str() {
        Some(r) => &schemas[r.rsplit('/').next().unwrap()],
        None => field,
    };
    assert!(field["maximum"].as_f64().unwrap() >= budgeted, "{field}");
}

#[actix_web::test]
async fn a_coordinator_sees_only_her_programs_participations() {
    let w = world().await;
    let (pid, parts) = payee(&w, "shared@example.org", &[w.programs[0], w.programs[1]]).await;
    let mine = w.app.get(&format!("/api/v1/participants/{pid}"), &w.coord).await.ok().clone();
    let shown: Vec<&Value> = mine["participations"].as_array().unwrap().iter().collect();
    assert_eq!(shown.len(), 1, "{mine}");
    assert_eq!(shown[0]["id"], parts[0]);
    let listed = w.app.get("/api/v1/participants?Size=100", &w.coord).await.ok().clone();
    let row = listed["items"].as_array().unwrap().iter().find(|p| p["id"] == pid).unwrap();
    assert_eq!(row["participations"].as_array().unwrap().len(), 1);
    // The Administrator still sees both.
    let all = w.app.get(&format!("/api/v1/participants/{pid}"), &w.admin).await.ok().clone();
    assert_eq!(all["participations"].as_array().unwrap().len(), 2);
}

#[actix_web::test]
async fn a_trickling_body_is_cut_off_with_a_problem() {
    let app = spawn_with(&["--body-timeout", "1"]).await;
    let address = app.base.trim_start_matches("http://").to_owned();
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    stream
        .write_all(
            b"POST /api/v1/identity/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
              Content-Length: 100\r\n\r\n{",
        )
        .await
        .unwrap();
    let trickle = async {
        for _ in 0..40 {
            tokio::time::sleep(Duration::from_millis(250)).await;
            if stream.write_all(b" ").await.is_err() {
                break;
            }
        }
    };
    let _ = tokio::time::timeout(Duration::from_secs(3), trickle).await;
    let mut answer = Vec::new();
    let read = async {
        let mut buf = [0u8; 4096];
        while !String::from_utf8_lossy(&answer).contains("\"status\":408") {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => answer.extend_from_slice(&buf[..n]),
            }
        }
    };
    let _ = tokio::time::timeout(Duration::from_secs(5), read).await;
    let text = String::from_utf8_lossy(&answer);
    assert!(text.starts_with("HTTP/1.1 408"), "{text}");
    assert!(text.contains("\"status\":408"), "{text}");
}

/// What the server answers to `head` sent as is on a fresh connection: status and body.
async fn raw_answer(app: &TestApp, head: &[u8]) -> (u16, String, String) {
    let addr = app.base.trim_start_matches("http://").to_owned();
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    // The server may answer and close before it has read everything sent.
    let _ = stream.write_all(head).await;
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut answer)).await;
    let text = String::from_utf8_lossy(&answer).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    (status, head.to_lowercase(), body.to_owned())
}

#[actix_web::test]
async fn requests_the_http_layer_refuses_get_a_problem_body_too() {
    let app = spawn().await;
    let long_query = format!(
        "GET /api/v1/funds?q={} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        "a".repeat(100 * 1024)
    );
    let huge_header = format!(
        "GET /api/v1/funds HTTP/1.1\r\nHost: x\r\nX-Filler: {}\r\nConnection: close\r\n\r\n",
        "b".repeat(200 * 1024)
    );
    let garbled = "GET /api/v1/funds HTTP/1.1\r\nHo st: x\r\n\r\n".to_owned();
    for (sent, status, words) in [
        (long_query, 400, "longer than 65,534 characters"),
        (huge_header, 431, "headers are too large"),
        (garbled, 400, "could not be read"),
    ] {
        let (got, head, body) = raw_answer(&app, sent.as_bytes()).await;
        assert_eq!(got, status, "{head}\n{body}");
        assert!(head.contains("content-type: application/problem+json"), "{head}");
        let problem: Value = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body}"));
        assert_eq!(problem["status"], status);
        assert!(problem["detail"].as_str().unwrap().contains(words), "{problem}");
    }
    // The server goes on serving.
    app.get("/api/v1/funds", &app.admin_token().await).await.ok();
}

#[actix_web::test]
async fn a_request_without_a_payee_is_refused_with_its_other_problems_at_once() {
    let w = world().await;
    let mut body = f2(0, "no payee");
    body["details"]["items"][0]["amount"] = json!(0);
    let r = w.app.post(&format!("{PR}/F2"), Some(&w.admin), body).await;
    let problem = r.problem(422);
    // The item's amount, the total it makes and the payee, in one answer.
    assert_eq!(
        error_keys(problem),
        ["details.items[0].amount", "participationId", "requestedAmount"]
    );
    assert_eq!(problem["errors"]["participationId"][0], "is required");
}
