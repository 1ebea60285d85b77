//! Upgrades: a database written by the first release's migrations
//! (`tests/fixtures/upgrade-000032.db`, migrations 000001..000032 as of commit dd70ad6,
//! with data of every kind and a receipt in `upgrade-000032-data/`) opens with the
//! current binary, migrates on start and serves its data; and a migration that was
//! released is never edited (`tests/fixtures/migrations.sha256`, see docs/decisions-database.md).

use crate::common;
use crate::common::dates::{shifted, shifted_fy};
use crate::support;

use std::{path::Path, sync::Arc};

use common::*;
use migration::MigratorTrait;
use sea_orm::{ConnectionTrait, DatabaseConnection, Statement};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

const FIXTURE: &str = "tests/fixtures/upgrade-000032.db";
const FIXTURE_DATA: &str = "tests/fixtures/upgrade-000032-data";
const MANIFEST: &str = "tests/fixtures/migrations.sha256";
const PR: &str = "/api/v1/payment-requests";
const PDF: &[u8] = b"%PDF-1.7\n1 0 obj\n<<>>\nendobj\n%%EOF\n";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
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

async fn strings(db: &DatabaseConnection, sql: &str) -> Vec<String> {
    let rows =
        db.query_all_raw(Statement::from_string(db.get_database_backend(), sql)).await.unwrap();
    rows.iter().map(|r| r.try_get_by_index::<String>(0).unwrap()).collect()
}

async fn int(db: &DatabaseConnection, sql: &str) -> i64 {
    let row = db
        .query_one_raw(Statement::from_string(db.get_database_backend(), sql))
        .await
        .unwrap()
        .unwrap();
    row.try_get_by_index::<i64>(0).unwrap()
}

/// The manifest: (file name, SHA-256) of every released migration.
fn manifest() -> Vec<(String, String)> {
    std::fs::read_to_string(root().join(MANIFEST))
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (hash, file) = l.split_once("  ").expect("`<sha256>  <file>` lines");
            (file.trim().to_owned(), hash.trim().to_owned())
        })
        .collect()
}

#[test]
fn released_migrations_are_never_edited() {
    let list = std::fs::read_to_string(root().join("migrations/src/lib.rs")).unwrap();
    let released = manifest();
    assert!(released.len() >= 11, "the manifest lists the released migrations");
    for (file, hash) in released {
        let path = root().join("migrations/src").join(&file);
        let bytes = std::fs::read(&path).unwrap_or_else(|_| {
            panic!("released migration {file} was removed; migrations are forward-only")
        });
        let actual = hex::encode(Sha256::digest(&bytes));
        assert_eq!(
            actual, hash,
            "released migration {file} was edited. Databases in the field have run the old text; \
             undo the edit and add a new migration instead (docs/decisions-database.md, \"Migrations\")"
        );
        let module = file.trim_end_matches(".rs");
        assert!(
            list.contains(module),
            "released migration {module} is no longer in migrations/src/lib.rs"
        );
    }
}

#[actix_web::test]
async fn a_first_release_database_migrates_on_start_and_serves_its_data() {
    if support::skip_on_postgres("the fixture is a SQLite file of the first release") {
        return;
    }
    let dir = Arc::new(tempfile::tempdir().unwrap());
    std::fs::copy(root().join(FIXTURE), dir.path().join("mentorpay.db")).unwrap();
    copy_dir(&root().join(FIXTURE_DATA), &dir.path().join("data"));

    // What the old database holds, read before the new binary touches it.
    let old = support::open_sqlite(&dir.path().join("mentorpay.db")).await;
    let applied_then = strings(&old, "SELECT version FROM seaql_migrations ORDER BY version").await;
    let released: Vec<String> =
        manifest().into_iter().map(|(f, _)| f.trim_end_matches(".rs").to_owned()).collect();
    assert!(
        applied_then.iter().all(|m| released.contains(m)),
        "the fixture ran only released migrations: {applied_then:?}"
    );
    let people = int(&old, "SELECT COUNT(*) FROM participants WHERE deleted_at IS NULL").await;
    let requests =
        int(&old, "SELECT COUNT(*) FROM payment_requests WHERE deleted_at IS NULL").await;
    let lines = int(&old, "SELECT COUNT(*) FROM budget_lines").await;
    let statuses = strings(
        &old,
        "SELECT DISTINCT status FROM payment_requests WHERE deleted_at IS NULL ORDER BY status",
    )
    .await;
    let mut samples = Vec::new();
    for status in &statuses {
        let sql = format!("SELECT form_type || '/' || id || '/' || requested_cents FROM payment_requests WHERE status = '{status}' AND deleted_at IS NULL ORDER BY id LIMIT 1");
        samples.push((status.clone(), strings(&old, &sql).await.remove(0)));
    }
    let participant = strings(&old, "SELECT id || '/' || last_name FROM participants WHERE deleted_at IS NULL ORDER BY id LIMIT 1").await.remove(0);
    let receipt = strings(&old, "SELECT payment_request_id || '/' || id FROM uploaded_files WHERE payment_request_id IS NOT NULL AND deleted_at IS NULL LIMIT 1").await.remove(0);
    old.close().await.unwrap();
    assert!(
        people > 0 && requests > 0 && lines > 0 && statuses.len() >= 5,
        "the fixture holds data of every kind"
    );

    // Start the current binary's app on it: it migrates first.
    let app = spawn_in(dir, &[]).await;
    let applied_now =
        strings(&app.state.db, "SELECT version FROM seaql_migrations ORDER BY version").await;
    for m in migration::Migrator::migrations() {
        assert!(
            applied_now.contains(&m.name().to_owned()),
            "{} was not applied on start",
            m.name()
        );
    }
    support::integrity_ok(&app.state.db).await.unwrap();
    support::totals_match_recount(&app.state.db).await.unwrap();
    // The window figures (window_totals) were filled from the requests already there.
    assert!(support::window_figures_match_recount(&app.state.db).await.unwrap() > 0);
    window_reports_match_grouping(&app.state.db).await;
    // The triggers replaced on the way (the kept report totals) leave exactly those a new
    // database holds.
    assert_eq!(
        strings(
            &app.state.db,
            "SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name"
        )
        .await,
        mentorpay::db::derived::triggers(sea_orm::DbBackend::Sqlite)
    );

    // The fixture's Administrator still signs in; its data reads back through the API.
    let token = app.admin_token().await;
    assert_eq!(
        app.get("/api/v1/participants", &token).await.ok()["totalCount"].as_i64(),
        Some(people)
    );
    assert_eq!(app.get(PR, &token).await.ok()["totalCount"].as_i64(), Some(requests));
    let summary = app.get(&format!("{PR}/summary"), &token).await.ok().clone();
    assert_eq!(
        summary.as_array().unwrap().iter().map(|s| s["count"].as_i64().unwrap()).sum::<i64>(),
        requests
    );
    // Names stored before migration 000130 sort and are searched by their folded form, and
    // the search index rebuilt by 000131 finds them without their accents.
    let names = app
        .state
        .db
        .query_all_raw(Statement::from_string(
            app.state.db.get_database_backend(),
            "SELECT full_name, sort_name FROM participants",
        ))
        .await
        .unwrap();
    let names: Vec<(String, String)> = names
        .iter()
        .map(|r| (r.try_get("", "full_name").unwrap(), r.try_get("", "sort_name").unwrap()))
        .collect();
    assert!(names.iter().any(|(full, _)| !full.is_ascii()), "the fixture holds accented names");
    for (full, sorted) in &names {
        assert_eq!(sorted, &mentorpay::participants::rules::fold(full), "{full}");
    }
    let hernandez = names.iter().filter(|(_, sorted)| sorted.contains("hernandez")).count();
    assert!(hernandez > 0);
    assert_eq!(
        app.get("/api/v1/participants?FullName=HERNANDEZ", &token).await.ok()["totalCount"]
            .as_u64(),
        Some(hernandez as u64)
    );
    let (pid, last_name) = participant.split_once('/').unwrap();
    assert_eq!(
        app.get(&format!("/api/v1/participants/{pid}"), &token).await.ok()["lastName"],
        last_name
    );
    for (status, sample) in &samples {
        let parts: Vec<&str> = sample.split('/').collect();
        let r = app.get(&format!("{PR}/{}/{}", parts[0], parts[1]), &token).await.ok().clone();
        assert_eq!(r["formStatus"], status.as_str(), "{sample}");
        assert_eq!(
            (r["requestedAmount"].as_f64().unwrap() * 100.0).round() as i64,
            parts[2].parse::<i64>().unwrap(),
            "{sample}"
        );
    }
    // Approved requests take their payee as it stood at the upgrade; others have none.
    let db = &app.state.db;
    let approved =
        int(db, "SELECT COUNT(*) FROM payment_requests WHERE approved_at IS NOT NULL").await;
    assert!(approved > 0, "the fixture holds approved requests");
    let copied = "SELECT COUNT(*) FROM payment_requests r JOIN participants p ON p.id = r.participant_id \
        WHERE r.approved_at IS NOT NULL AND ((r.form_type <> 'F9' AND r.payee_name = p.full_name AND r.payee_email = p.email) \
        OR (r.form_type = 'F9' AND r.payee_name = TRIM(json_extract(r.details, '$.vendorName')) AND r.payee_email IS NULL))";
    assert_eq!(int(db, copied).await, approved);
    let unapproved = "SELECT COUNT(*) FROM payment_requests WHERE approved_at IS NULL AND payee_name IS NOT NULL";
    assert_eq!(int(db, unapproved).await, 0);
    let budgets = app.get("/api/v1/budgets", &token).await.ok().clone();
    assert!(!budgets.as_array().unwrap().is_empty(), "{budgets}");
    let users = app
        .get("/api/v1/identity/users?Email=fixture.coordinator%40example.org", &token)
        .await
        .ok()
        .clone();
    assert_eq!(users["totalCount"], 1, "{users}");
    let roles = app.get("/api/v1/identity/roles", &token).await.ok().clone();
    assert!(roles.as_array().unwrap().iter().any(|r| r["name"] == "Fixture auditor"), "{roles}");
    let banners =
        app.get("/api/v1/system-settings/notification-banners", &token).await.ok().clone();
    assert!(
        banners.as_array().unwrap().iter().any(|b| b["message"] == "Fixture banner"),
        "{banners}"
    );
    let (rid, file) = receipt.split_once('/').unwrap();
    let bytes = app
        .client
        .get(format!("{}{PR}/F2/{rid}/files/{file}", app.base))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(bytes.status(), 200);
    assert_eq!(bytes.bytes().await.unwrap().as_ref(), PDF);
    // And it takes new writes.
    let fy = app.get("/api/v1/system-settings/fiscal-years", &token).await.ok()[0]["id"].clone();
    let r = app
        .post(
            "/api/v1/system-settings/fiscal-years",
            Some(&token),
            json!({"name": shifted_fy("FY 2040-41"), "startDate": shifted("2040-07-01"), "endDate": shifted("2041-06-30")}),
        )
        .await;
    assert_eq!(r.status, 201, "{} (latest year {fy})", r.body);
}

/// Approvals by request type and by accounts over a window wider than the fixture's requests
/// answer from the window figures as grouping the requests does, in UTC and west of it.
async fn window_reports_match_grouping(db: &DatabaseConnection) {
    use mentorpay::{
        auth::scope::Scope,
        reports::{
            approvals_by_accounts::{self, ApprovalsByAccounts},
            approvals_by_request_type::{self, ApprovalsByRequestType},
            query::ReportQuery,
            runner::GroupedReport,
        },
    };
    for offset in [0, 480] {
        let f = ReportQuery {
            startdate: chrono::NaiveDate::from_ymd_opt(1900, 1, 1),
            enddate: chrono::NaiveDate::from_ymd_opt(2100, 12, 31),
            minutesoffset: Some(offset),
            ..Default::default()
        }
        .filters()
        .unwrap();
        let kept = ApprovalsByRequestType::rows(db, &f, &Scope::All).await.unwrap();
        assert_eq!(
            kept,
            approvals_by_request_type::grouped_rows(db, &f, &Scope::All).await.unwrap()
        );
        let kept = ApprovalsByAccounts::rows(db, &f, &Scope::All).await.unwrap();
        assert_eq!(kept, approvals_by_accounts::grouped_rows(db, &f, &Scope::All).await.unwrap());
    }
}

/// Builds the fixture. Run once, at the release whose migrations it records (it was run at
/// dd70ad6, migrations 000001..000032); never again, or it would record newer ones:
/// `cargo test --test integration -- --ignored upgrade::build_the_fixture`.
#[actix_web::test]
#[ignore = "builds tests/fixtures/upgrade-000032.db; run only at a release"]
async fn build_the_fixture() {
    let app = spawn().await;
    mentorpay::demo::world::load(&app.state).await.unwrap().expect("a new database");
    let db = &app.state.db;
    let admin = app.admin_token().await;
    let ok = |r: Reply| -> Value { r.ok().clone() };
    let coordinator = json!({"email": "fixture.coordinator@example.org", "firstName": "Fix", "lastName": "Ture", "roles": ["Coordinator"], "password": "fixture password 1"});
    ok(app.post("/api/v1/identity/users", Some(&admin), coordinator).await);
    ok(app
        .post(
            "/api/v1/identity/roles",
            Some(&admin),
            json!({"name": "Fixture auditor", "permissions": ["report:read"]}),
        )
        .await);
    ok(app
        .put(
            "/api/v1/system-settings/notification-banners",
            &admin,
            json!([{"message": "Fixture banner", "severity": "Info", "isActive": true}]),
        )
        .await);
    ok(app
        .post(
            "/api/v1/system-settings/block-coordinator-login",
            Some(&admin),
            json!({"isBlocked": false}),
        )
        .await);
    let file = app.uploaded(&admin, "receipt.pdf", "application/pdf", PDF).await;
    let participation = app.get("/api/v1/payment-requests/participant-list", &admin).await.ok()[0]
        ["participationId"]
        .clone();
    let f2 = json!({"participationId": participation, "description": "Books", "details": {"items": [{"date": shifted("2026-10-01"), "description": "Books", "amount": 12.5}], "fileIds": [file]}});
    ok(app.post(&format!("{PR}/F2"), Some(&admin), f2).await);
    let target = root().join(FIXTURE);
    let _ = std::fs::remove_file(&target);
    db.execute_unprepared(&format!("VACUUM INTO '{}'", target.display())).await.unwrap();
    let _ = std::fs::remove_dir_all(root().join(FIXTURE_DATA));
    copy_dir(&app.dir.path().join("data"), &root().join(FIXTURE_DATA));
}
