//! Backups: `mentorpay backup FILE` taken while clients keep writing
//! gives a consistent copy (integrity_check ok, kept totals equal a recount); restored as
//! the README says — the copy in place of `mentorpay.db` and the `--data-dir` folder next
//! to it — a fresh start serves the same data: counts, totals, one record of each kind
//! and a receipt's bytes.

use crate::common;
use crate::common::dates::{shifted, shifted_fy};
use crate::support;

use std::{
    path::Path,
    process::Command,
    sync::{
        atomic::{AtomicBool, AtomicUsize, Ordering},
        Arc,
    },
};

use common::*;
use reqwest::Method;
use sea_orm::{ConnectionTrait, Statement};
use serde_json::{json, Value};

const PR: &str = "/api/v1/payment-requests";
const PASSWORD: &str = "backup test pass 1";
const PDF: &[u8] = b"%PDF-1.7\n1 0 obj\n<<>>\nendobj\n%%EOF\n";

fn person(key: &str) -> Value {
    json!({
        "firstName": "Pat", "lastName": key, "email": format!("{key}@example.org"), "phone": "(916) 555-0100",
        "address": "1 Capitol Mall, Sacramento", "status": "Active", "roleCode": "Mentor",
        "districtSetType": "Assembly", "districtId": 7, "caucusRegionId": 1,
        "workplaceSettingIds": [1], "languageIds": [1], "educationLevelIds": [3], "permitLevelIds": [2],
    })
}

fn request(payee: i64, amount: i64) -> Value {
    json!({"participationId": payee, "description": "Seminar", "requestedAmount": amount, "details": {"seminarDate": shifted("2026-10-01"), "topic": "Play", "hours": 3}})
}

async fn ok(app: &TestApp, token: &str, method: Method, path: &str, body: Value) -> Value {
    let r = app
        .call(method.clone(), path, Some(token), if body.is_null() { None } else { Some(body) })
        .await;
    assert!(r.status.is_success(), "{method} {path}: {} {}", r.status, r.body);
    r.body
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

async fn count(db: &sea_orm::DatabaseConnection, sql: &str) -> i64 {
    let row = db
        .query_one_raw(Statement::from_string(db.get_database_backend(), sql))
        .await
        .unwrap()
        .unwrap();
    row.try_get_by_index::<i64>(0).unwrap()
}

/// A record of each kind, read through the API: what a restore must give back unchanged.
async fn records(app: &TestApp, token: &str, paths: &[String]) -> Vec<Value> {
    let mut out = Vec::new();
    for p in paths {
        out.push(ok(app, token, Method::GET, p, Value::Null).await);
    }
    out
}

#[actix_web::test]
async fn a_backup_under_write_load_restores_the_same_data() {
    if support::skip_on_postgres(
        "`mentorpay backup` copies the SQLite file; PostgreSQL uses pg_dump",
    ) {
        return;
    }
    let app = spawn_with(&["--login-attempts-per-minute", "10000"]).await;
    let admin = app.admin_token().await;
    let fy = ok(
        &app,
        &admin,
        Method::POST,
        "/api/v1/system-settings/fiscal-years",
        json!({"name": shifted_fy("FY 2026-27"), "startDate": shifted("2026-07-01"), "endDate": shifted("2027-06-30")}),
    )
    .await["id"]
        .as_i64()
        .unwrap();
    let programs = ok(&app, &admin, Method::GET, "/api/v1/mentor-programs", Value::Null).await;
    let program = programs[0]["id"].as_i64().unwrap();
    let fund = ok(&app, &admin, Method::GET, "/api/v1/funds", Value::Null).await[0]["id"]
        .as_i64()
        .unwrap();
    let account = ok(&app, &admin, Method::GET, "/api/v1/expense-accounts", Value::Null).await[0]
        ["id"]
        .as_i64()
        .unwrap();
    let codes = ok(&app, &admin, Method::GET, "/api/v1/approval-codes", Value::Null).await;
    let code = codes.as_array().unwrap().iter().find(|c| c["paymentRequestType"] == "F5").unwrap()
        ["id"]
        .as_i64()
        .unwrap();

    // One record of each kind before the load starts.
    let mut payee = person("payee");
    payee["participations"] = json!([{"mentorProgramId": program, "fiscalYearId": fy, "roleCode": "Mentor", "collegeId": 1, "startDate": shifted("2026-07-01"), "endDate": shifted("2027-06-30")}]);
    let payee = ok(&app, &admin, Method::POST, "/api/v1/participants", payee).await;
    let participation = payee["participations"][0]["id"].as_i64().unwrap();
    let approver_id =
        app.create_user(&admin, "approver@example.org", &["Administrator"], PASSWORD).await;
    let (approver, _) = app.login("approver@example.org", PASSWORD).await;
    let role = ok(
        &app,
        &admin,
        Method::POST,
        "/api/v1/identity/roles",
        json!({"name": "Auditor", "permissions": ["report:read"]}),
    )
    .await;
    ok(
        &app,
        &admin,
        Method::PUT,
        "/api/v1/system-settings/notification-banners",
        json!([{"message": "Year end", "severity": "Info", "isActive": true}]),
    )
    .await;
    let line = json!({"mentorProgramId": program, "fundId": fund, "expenseAccountId": account, "amount": 5000});
    ok(
        &app,
        &admin,
        Method::PUT,
        "/api/v1/budgets/bulk-update",
        json!({"fiscalYearId": fy, "lines": [line]}),
    )
    .await;
    let approval = json!({"approvedAmount": 40, "approvalCodeId": code, "fundId": fund, "expenseAccountId": account, "acknowledgeWarnings": true});
    let mut requests = Vec::new();
    for steps in [
        &[][..],
        &["submit"],
        &["submit", "approve"],
        &["submit", "approve", "move-to-ready-for-processing"],
    ] {
        let r =
            ok(&app, &admin, Method::POST, &format!("{PR}/F5"), request(participation, 100)).await;
        let url = format!("{PR}/F5/{}", r["id"]);
        for step in steps {
            let (token, body) =
                if *step == "submit" { (&admin, json!({})) } else { (&approver, approval.clone()) };
            ok(&app, token, Method::POST, &format!("{url}/{step}"), body).await;
        }
        requests.push(url);
    }
    let file_id = app.uploaded(&admin, "receipt.pdf", "application/pdf", PDF).await;
    let f2 = json!({"participationId": participation, "description": "Books", "details": {"items": [{"date": shifted("2026-10-01"), "description": "Books", "amount": 12.5}], "fileIds": [file_id]}});
    let f2 = ok(&app, &admin, Method::POST, &format!("{PR}/F2"), f2).await;
    let f2_url = format!("{PR}/F2/{}", f2["id"]);
    let mut paths = vec![
        format!("/api/v1/participants/{}", payee["id"]),
        format!("/api/v1/identity/users/{approver_id}"),
        format!("/api/v1/identity/roles/{}", role["id"]),
        format!("/api/v1/budgets/{fy}"),
        "/api/v1/system-settings/fiscal-years".to_owned(),
        "/api/v1/system-settings/notification-banners".to_owned(),
        "/api/v1/system-settings/general".to_owned(),
        f2_url.clone(),
    ];
    paths.extend(requests.iter().cloned());
    let before = records(&app, &admin, &paths).await;

    // Write load: participants and requests created and moved until the backup is done.
    let done = Arc::new(AtomicBool::new(false));
    let during = Arc::new(AtomicUsize::new(0));
    let load = futures_util::future::join_all((0..8).map(|c| {
        let (app, admin, approver, done, during, approval) =
            (&app, &admin, &approver, done.clone(), during.clone(), approval.clone());
        async move {
            let mut n = 0;
            while !done.load(Ordering::Relaxed) {
                n += 1;
                let p = app
                    .post("/api/v1/participants", Some(admin), person(&format!("load{c}n{n}")))
                    .await;
                assert_eq!(p.status, 201, "{}", p.body);
                let r = app
                    .post(&format!("{PR}/F5"), Some(admin), request(participation, 100 + n))
                    .await;
                assert_eq!(r.status, 201, "{}", r.body);
                let url = format!("{PR}/F5/{}", r.body["id"]);
                app.post(&format!("{url}/submit"), Some(admin), json!({})).await.ok();
                app.post(&format!("{url}/approve"), Some(approver), approval.clone()).await.ok();
                during.fetch_add(4, Ordering::Relaxed);
            }
        }
    }));
    let backup_file = app.dir.path().join("backup.db");
    let database_url =
        format!("sqlite://{}?mode=rwc", app.dir.path().join("mentorpay.db").display());
    let backup = {
        let (done, during, backup_file) = (done.clone(), during.clone(), backup_file.clone());
        async move {
            // Let the load run a little first, so the copy is taken mid-stream.
            actix_web::rt::time::sleep(std::time::Duration::from_millis(300)).await;
            let at_start = during.load(Ordering::Relaxed);
            let status = actix_web::rt::task::spawn_blocking(move || {
                Command::new(env!("CARGO_BIN_EXE_mentorpay"))
                    .env_clear()
                    .envs(crate::common::dates::clock_env())
                    .env("MENTORPAY_DATABASE_URL", database_url)
                    .env("MENTORPAY_LOG", "warn")
                    .arg("backup")
                    .arg(&backup_file)
                    .status()
                    .unwrap()
            })
            .await
            .unwrap();
            // Keep writing a moment longer: the copy must not see what follows.
            actix_web::rt::time::sleep(std::time::Duration::from_millis(100)).await;
            done.store(true, Ordering::Relaxed);
            (status, at_start)
        }
    };
    let ((status, at_start), _) = futures_util::future::join(backup, load).await;
    assert!(status.success(), "backup failed");
    assert!(!app.dir.path().join("backup.db.partial").exists(), "the partial file was renamed");
    let again = Command::new(env!("CARGO_BIN_EXE_mentorpay"))
        .env_clear()
        .envs(crate::common::dates::clock_env())
        .env("MENTORPAY_LOG", "warn")
        .arg("backup")
        .arg(&backup_file)
        .output()
        .unwrap();
    assert!(!again.status.success(), "a backup never overwrites a file");
    assert!(at_start > 0, "the load was running when the backup started");

    // The copy is consistent on its own.
    let copy = support::open_sqlite(&backup_file).await;
    support::integrity_ok(&copy).await.unwrap();
    support::totals_match_recount(&copy).await.unwrap();
    let people = count(&copy, "SELECT COUNT(*) FROM participants WHERE deleted_at IS NULL").await;
    let live_requests =
        count(&copy, "SELECT COUNT(*) FROM payment_requests WHERE deleted_at IS NULL").await;
    let orphans = count(&copy, "SELECT COUNT(*) FROM payment_requests r WHERE NOT EXISTS (SELECT 1 FROM participations p WHERE p.id = r.participation_id)").await;
    copy.close().await.unwrap();
    assert_eq!(orphans, 0);
    let now_people =
        app.get("/api/v1/participants", &admin).await.ok()["totalCount"].as_i64().unwrap();
    assert!(
        people > 2 && people < now_people,
        "the copy is a moment of the load: {people} of {now_people} participants"
    );

    // Restore as documented: the copy as mentorpay.db, the data folder beside it.
    let restored_dir = Arc::new(tempfile::tempdir().unwrap());
    std::fs::copy(&backup_file, restored_dir.path().join("mentorpay.db")).unwrap();
    copy_dir(&app.dir.path().join("data"), &restored_dir.path().join("data"));
    let restored = spawn_in(restored_dir, &[]).await;
    let token = restored.admin_token().await;
    assert_eq!(
        restored.get("/api/v1/participants", &token).await.ok()["totalCount"].as_i64(),
        Some(people)
    );
    assert_eq!(restored.get(PR, &token).await.ok()["totalCount"].as_i64(), Some(live_requests));
    let summary = restored.get(&format!("{PR}/summary"), &token).await.ok().clone();
    let summed: i64 =
        summary.as_array().unwrap().iter().map(|s| s["count"].as_i64().unwrap()).sum();
    assert_eq!(summed, live_requests, "{summary}");
    let after = records(&restored, &token, &paths).await;
    for ((path, b), a) in paths.iter().zip(&before).zip(&after) {
        if path.starts_with("/api/v1/budgets/") {
            // The load approved more against the line: compare what the load did not touch.
            assert_eq!(b["lines"][0]["budgeted"], a["lines"][0]["budgeted"], "{path}");
            continue;
        }
        assert_eq!(b, a, "{path} differs after the restore");
    }
    let receipt = restored
        .client
        .get(format!("{}{f2_url}/files/{file_id}", restored.base))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(receipt.status(), 200);
    assert_eq!(
        receipt.bytes().await.unwrap().as_ref(),
        PDF,
        "the receipt's bytes came back with --data-dir"
    );
    // And the restored office keeps working.
    let r = restored.post("/api/v1/participants", Some(&token), person("after-restore")).await;
    assert_eq!(r.status, 201, "{}", r.body);
}
