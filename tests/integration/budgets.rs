//! Budget calls on the real app and a real SQLite file: list with totals, one year's
//! lines, one-line changes with versions, the all-or-nothing bulk update, permissions.

use crate::common;
use crate::common::dates::{shifted, shifted_fy};

use common::*;
use mentorpay::entities::{expense_account, fund, mentor_program};
use reqwest::Method;
use sea_orm::{ActiveModelTrait, Set};
use serde_json::{json, Value};

const COORD_EMAIL: &str = "coord@example.org";
const COORD_PASSWORD: &str = "coordinator pass 1";

/// Reference rows are written straight into the database: their API belongs to
/// another area. Returns (mentor program ids, fund ids, expense account ids).
async fn reference_rows(app: &TestApp) -> (Vec<i64>, Vec<i64>, Vec<i64>) {
    let now = mentorpay::clock::now();
    let db = &app.state.db;
    let mut out = (vec![], vec![], vec![]);
    for i in 0..2 {
        let mp = mentor_program::ActiveModel {
            name: Set(format!("Program {i}")),
            code: Set(Some(format!("TEST-MP{i}"))),
            is_active: Set(true),
            sort_order: Set(0),
            created_at: Set(now),
            ..Default::default()
        }
        .insert(db)
        .await
        .unwrap();
        let f = fund::ActiveModel {
            name: Set(format!("Fund {i}")),
            code: Set(Some(format!("TEST-F{i}"))),
            is_active: Set(true),
            sort_order: Set(0),
            created_at: Set(now),
            ..Default::default()
        }
        .insert(db)
        .await
        .unwrap();
        let ea = expense_account::ActiveModel {
            name: Set(format!("Account {i}")),
            code: Set(Some(format!("TEST-EA{i}"))),
            is_active: Set(true),
            sort_order: Set(0),
            created_at: Set(now),
            ..Default::default()
        }
        .insert(db)
        .await
        .unwrap();
        out.0.push(mp.id as i64);
        out.1.push(f.id as i64);
        out.2.push(ea.id as i64);
    }
    out
}

async fn fiscal_year(
    app: &TestApp,
    admin: &str,
    name: impl AsRef<str>,
    start: impl AsRef<str>,
    end: impl AsRef<str>,
) -> i64 {
    let (name, start, end) = (name.as_ref(), start.as_ref(), end.as_ref());
    let r = app
        .post(
            "/api/v1/system-settings/fiscal-years",
            Some(admin),
            json!({"name": name, "startDate": start, "endDate": end}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    r.body["id"].as_i64().unwrap()
}

fn line(mp: i64, f: i64, ea: i64, amount: Value) -> Value {
    json!({"mentorProgramId": mp, "fundId": f, "expenseAccountId": ea, "amount": amount})
}

fn errors(body: &Value) -> Vec<String> {
    body["errors"].as_object().map(|o| o.keys().cloned().collect()).unwrap_or_default()
}

struct World {
    app: TestApp,
    admin: String,
    coord: String,
    fy: i64,
    mp: Vec<i64>,
    f: Vec<i64>,
    ea: Vec<i64>,
}

async fn world() -> World {
    let app = spawn().await;
    let admin = app.admin_token().await;
    app.create_user(&admin, COORD_EMAIL, &["Coordinator"], COORD_PASSWORD).await;
    let (coord, _) = app.login(COORD_EMAIL, COORD_PASSWORD).await;
    let fy = fiscal_year(
        &app,
        &admin,
        shifted_fy("FY 2025-26"),
        shifted("2025-07-01"),
        shifted("2026-06-30"),
    )
    .await;
    let (mp, f, ea) = reference_rows(&app).await;
    World { app, admin, coord, fy, mp, f, ea }
}

#[actix_web::test]
async fn bulk_update_creates_and_changes_lines_and_totals_follow() {
    let w = world().await;
    let (app, admin) = (&w.app, &w.admin);
    let older = fiscal_year(
        app,
        admin,
        shifted_fy("FY 2024-25"),
        shifted("2024-07-01"),
        shifted("2025-06-30"),
    )
    .await;

    // A year without lines is listed with zero totals.
    let list = app.get("/api/v1/budgets", admin).await.ok().clone();
    assert_eq!(list.as_array().unwrap().len(), 2);
    assert_eq!(list[0]["name"], shifted_fy("FY 2025-26"));
    assert_eq!(list[0]["budgeted"], 0.0);

    let body = json!({"fiscalYearId": w.fy, "lines": [
        line(w.mp[0], w.f[0], w.ea[0], json!(1000.5)),
        line(w.mp[0], w.f[1], w.ea[0], json!(250)),
        line(w.mp[1], w.f[0], w.ea[1], json!(0.29)),
    ]});
    let detail = app.put("/api/v1/budgets/bulk-update", admin, body).await.ok().clone();
    assert_eq!(detail["fiscalYear"]["id"], w.fy);
    assert_eq!(detail["fiscalYear"]["name"], shifted_fy("FY 2025-26"));
    let lines = detail["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 3);
    let first = &lines[0];
    assert_eq!(first["mentorProgramId"], w.mp[0]);
    assert_eq!(first["budgeted"], 1000.5);
    // No payment request is approved in this test: remaining = budgeted.
    assert_eq!(first["approved"], 0.0);
    assert_eq!(first["remaining"], 1000.5);
    for key in ["id", "fundId", "expenseAccountId", "version"] {
        assert!(first[key].is_i64(), "{key}");
    }

    // A second bulk update changes one line and adds one; the others stay.
    let body = json!({"fiscalYearId": w.fy, "lines": [
        line(w.mp[0], w.f[0], w.ea[0], json!(2000)),
        line(w.mp[1], w.f[1], w.ea[1], json!(10)),
    ]});
    let detail = app.put("/api/v1/budgets/bulk-update", admin, body).await.ok().clone();
    assert_eq!(detail["lines"].as_array().unwrap().len(), 4);
    let got = app.get(&format!("/api/v1/budgets/{}", w.fy), admin).await.ok().clone();
    assert_eq!(got, detail);
    let amounts: Vec<f64> =
        got["lines"].as_array().unwrap().iter().map(|l| l["budgeted"].as_f64().unwrap()).collect();
    assert_eq!(amounts.iter().sum::<f64>(), 2000.0 + 250.0 + 0.29 + 10.0);

    // Totals per year, exact to the cent; query filters by name.
    let list = app.get("/api/v1/budgets", admin).await.ok().clone();
    assert_eq!(list[0]["fiscalYearId"], w.fy);
    assert_eq!(list[0]["budgeted"], 2260.29);
    assert_eq!(list[0]["approved"], 0.0);
    assert_eq!(list[0]["remaining"], 2260.29);
    assert_eq!(list[0]["startDate"], shifted("2025-07-01"));
    assert_eq!(list[0]["endDate"], shifted("2026-06-30"));
    assert_eq!(list[1]["fiscalYearId"], older);
    let found = app
        .get(&format!("/api/v1/budgets?query={}", &shifted("2024-07-01")[..4]), admin)
        .await
        .ok()
        .clone();
    assert_eq!(found.as_array().unwrap().len(), 1);
    assert_eq!(found[0]["fiscalYearId"], older);
    assert_eq!(
        app.get(&format!("/api/v1/budgets?Query=fy%20{}", &shifted("2025-07-01")[..4]), admin)
            .await
            .ok()
            .as_array()
            .unwrap()
            .len(),
        1
    );
    assert_eq!(app.get("/api/v1/budgets?query=nothing", admin).await.ok(), &json!([]));

    // Every change is in the activity log.
    use mentorpay::entities::activity_log;
    use sea_orm::EntityTrait;
    let log = activity_log::Entity::find().all(&app.state.db).await.unwrap();
    let created =
        log.iter().filter(|e| e.entity_type == "budget-line" && e.action == "created").count();
    let updated =
        log.iter().filter(|e| e.entity_type == "budget-line" && e.action == "updated").count();
    assert_eq!((created, updated), (4, 1));
}

#[actix_web::test]
async fn a_bad_line_changes_nothing() {
    let w = world().await;
    let (app, admin) = (&w.app, &w.admin);
    let good = json!({"fiscalYearId": w.fy, "lines": [line(w.mp[0], w.f[0], w.ea[0], json!(100))]});
    app.put("/api/v1/budgets/bulk-update", admin, good).await.ok();
    let before = app.get(&format!("/api/v1/budgets/{}", w.fy), admin).await.ok().clone();

    let ok_line = |amount: Value| line(w.mp[0], w.f[0], w.ea[0], amount);
    for (lines, field) in [
        (
            json!([
                ok_line(json!(5)),
                line(w.mp[1], w.f[0], w.ea[0], json!(1)),
                line(w.mp[1], w.f[1], w.ea[1], json!(1)),
                line(w.mp[0], 9999, w.ea[0], json!(1))
            ]),
            "lines[3].fundId",
        ),
        (
            json!([ok_line(json!(5)), line(9999, w.f[0], w.ea[0], json!(1))]),
            "lines[1].mentorProgramId",
        ),
        (
            json!([ok_line(json!(5)), line(w.mp[1], w.f[0], 9999, json!(1))]),
            "lines[1].expenseAccountId",
        ),
        (json!([ok_line(json!(5)), line(w.mp[1], w.f[0], w.ea[0], json!(-1))]), "lines[1].amount"),
        (
            json!([ok_line(json!(5)), line(w.mp[1], w.f[0], w.ea[0], json!(1.005))]),
            "lines[1].amount",
        ),
        (json!([ok_line(json!(5)), line(w.mp[1], w.f[0], w.ea[0], json!("1"))]), "lines[1].amount"),
        (json!([ok_line(json!(5)), ok_line(json!(6))]), "lines[1]"),
        (
            json!([ok_line(json!(5)), {"mentorProgramId": "one", "fundId": w.f[0], "expenseAccountId": w.ea[0], "amount": 1}]),
            "lines[1].mentorProgramId",
        ),
        (
            json!([ok_line(json!(5)), {"fundId": w.f[0], "expenseAccountId": w.ea[0], "amount": 1}]),
            "lines[1].mentorProgramId",
        ),
    ] {
        let r = app
            .put(
                "/api/v1/budgets/bulk-update",
                admin,
                json!({"fiscalYearId": w.fy, "lines": lines}),
            )
            .await;
        // Shape errors are 400; unknown ids, repeats and negative amounts are rules (422).
        let status = if errors(&r.body).iter().any(|f| f == field) { r.status.as_u16() } else { 0 };
        assert!(status == 400 || status == 422, "{field}: {}", r.body);
        let problem = r.problem(status);
        assert!(errors(problem).iter().any(|f| f == field), "{field}: {problem}");
    }
    let r = app
        .put(
            "/api/v1/budgets/bulk-update",
            admin,
            json!({"fiscalYearId": 9999, "lines": [ok_line(json!(5))]}),
        )
        .await;
    assert_eq!(errors(r.problem(422)), ["fiscalYearId"]);
    app.put("/api/v1/budgets/bulk-update", admin, json!({"lines": []})).await.problem(400);
    assert_eq!(app.get(&format!("/api/v1/budgets/{}", w.fy), admin).await.ok(), &before);
}

#[actix_web::test]
async fn one_line_is_changed_with_its_version() {
    let w = world().await;
    let (app, admin) = (&w.app, &w.admin);
    let body = json!({"fiscalYearId": w.fy, "lines": [line(w.mp[0], w.f[0], w.ea[0], json!(100))]});
    let detail = app.put("/api/v1/budgets/bulk-update", admin, body).await.ok().clone();
    let l = &detail["lines"][0];
    let id = l["id"].as_i64().unwrap();
    let version = l["version"].as_i64().unwrap();
    let path = format!("/api/v1/budgets/{id}");

    let changed =
        app.put(&path, admin, json!({"amount": 150.25, "version": version})).await.ok().clone();
    assert_eq!(changed["budgeted"], 150.25);
    assert_eq!(changed["remaining"], 150.25);
    assert_eq!(changed["version"], version + 1);
    // Based on the old version: 409, nothing changes.
    let stale = app.put(&path, admin, json!({"amount": 1, "version": version})).await;
    assert!(stale.problem(409)["errors"]["version"].is_array(), "{}", stale.body);
    // Without a version the change simply applies.
    assert_eq!(app.put(&path, admin, json!({"amount": 99.99})).await.ok()["budgeted"], 99.99);

    for (body, field) in [
        (json!({"amount": -1}), "amount"),
        (json!({"amount": 1.999}), "amount"),
        (json!({"amount": "5"}), "amount"),
        (json!({}), "amount"),
        (json!({"amount": 1, "version": "x"}), "version"),
    ] {
        let r = app.put(&path, admin, body.clone()).await;
        assert!(errors(r.problem(400)).iter().any(|f| f == field), "{body}: {}", r.body);
    }
    app.put("/api/v1/budgets/9999", admin, json!({"amount": 1})).await.problem(404);
    app.put("/api/v1/budgets/abc", admin, json!({"amount": 1})).await.problem(400);
    assert_eq!(
        app.get(&format!("/api/v1/budgets/{}", w.fy), admin).await.ok()["lines"][0]["budgeted"],
        99.99
    );
}

#[actix_web::test]
async fn budget_permissions_and_unknown_years() {
    let w = world().await;
    let (app, admin, coord) = (&w.app, &w.admin, &w.coord);
    let body = json!({"fiscalYearId": w.fy, "lines": [line(w.mp[0], w.f[0], w.ea[0], json!(100))]});
    let detail = app.put("/api/v1/budgets/bulk-update", admin, body.clone()).await.ok().clone();
    let id = detail["lines"][0]["id"].as_i64().unwrap();

    // Coordinators hold budget:read, not budget:edit.
    app.get("/api/v1/budgets", coord).await.ok();
    app.get(&format!("/api/v1/budgets/{}", w.fy), coord).await.ok();
    app.put("/api/v1/budgets/bulk-update", coord, body).await.problem(403);
    app.put(&format!("/api/v1/budgets/{id}"), coord, json!({"amount": 1})).await.problem(403);
    // A role without budget:read sees nothing.
    app.post("/api/v1/identity/roles", Some(admin), json!({"name": "Nobody", "permissions": []}))
        .await
        .ok();
    app.create_user(admin, "nobody@example.org", &["Nobody"], COORD_PASSWORD).await;
    let (nobody, _) = app.login("nobody@example.org", COORD_PASSWORD).await;
    app.get("/api/v1/budgets", &nobody).await.problem(403);
    app.get(&format!("/api/v1/budgets/{}", w.fy), &nobody).await.problem(403);
    app.call(Method::GET, "/api/v1/budgets", None, None).await.problem(401);

    app.get("/api/v1/budgets/9999", admin).await.problem(404);
    app.get("/api/v1/budgets/abc", admin).await.problem(400);
}

#[actix_web::test]
async fn the_openapi_document_lists_every_budget_route() {
    let app = spawn().await;
    let doc = app.call(Method::GET, "/api/v1/openapi.json", None, None).await;
    let paths = &doc.ok()["paths"];
    for (path, method) in [
        ("/api/v1/budgets", "get"),
        // One template name for both (OpenAPI forbids two names at one position).
        ("/api/v1/budgets/{id}", "get"),
        ("/api/v1/budgets/{id}", "put"),
        ("/api/v1/budgets/bulk-update", "put"),
    ] {
        assert!(paths[path][method].is_object(), "{method} {path}");
    }
}

#[actix_web::test]
async fn a_coordinator_sees_and_changes_only_its_programs_lines() {
    let w = world().await;
    let (app, admin) = (&w.app, &w.admin);
    let lines = json!({"fiscalYearId": w.fy, "lines": [line(w.mp[0], w.f[0], w.ea[0], json!(100)), line(w.mp[1], w.f[0], w.ea[0], json!(900))]});
    let all = app.put("/api/v1/budgets/bulk-update", admin, lines).await.ok().clone();
    let id_of = |mp: i64| {
        all["lines"].as_array().unwrap().iter().find(|l| l["mentorProgramId"] == mp).unwrap()["id"]
            .as_i64()
            .unwrap()
    };

    // A Coordinator of mp[0] (a participant with a Coordinator participation), in a role
    // that may also edit budgets.
    app.post(
        "/api/v1/identity/roles",
        Some(admin),
        json!({"name": "Budget coordinator", "permissions": ["budget:read", "budget:edit"]}),
    )
    .await
    .ok();
    let person = json!({
        "firstName": "Cora", "lastName": "Coord", "email": "cora@example.org", "status": "Active", "roleCode": "Coordinator",
        "participations": [{"mentorProgramId": w.mp[0], "fiscalYearId": w.fy, "roleCode": "Coordinator", "startDate": shifted("2025-07-01")}],
    });
    let r = app.post("/api/v1/participants", Some(admin), person).await;
    let pid = r.ok()["id"].as_i64().unwrap();
    app.post(
        &format!("/api/v1/participants/{pid}/identity-user"),
        Some(admin),
        json!({"password": COORD_PASSWORD}),
    )
    .await
    .ok();
    let users = app.get("/api/v1/identity/users?Email=cora@example.org", admin).await.ok().clone();
    let uid = users["items"][0]["id"].as_i64().unwrap_or_else(|| panic!("{users}"));
    let u = &users["items"][0];
    let change = json!({"email": u["email"], "firstName": u["firstName"], "lastName": u["lastName"], "roles": ["Budget coordinator"], "isActive": true});
    app.put(&format!("/api/v1/identity/users/{uid}"), admin, change).await.ok();
    let (cora, _) = app.login("cora@example.org", COORD_PASSWORD).await;

    let mine = app.get(&format!("/api/v1/budgets/{}", w.fy), &cora).await.ok().clone();
    let programs: Vec<i64> = mine["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["mentorProgramId"].as_i64().unwrap())
        .collect();
    assert_eq!(programs, [w.mp[0]]);
    let years = app.get("/api/v1/budgets", &cora).await.ok().clone();
    assert_eq!(years[0]["budgeted"].as_f64(), Some(100.0), "totals over its own lines: {years}");

    app.put(&format!("/api/v1/budgets/{}", id_of(w.mp[1])), &cora, json!({"amount": 1}))
        .await
        .problem(404);
    let other = json!({"fiscalYearId": w.fy, "lines": [line(w.mp[1], w.f[0], w.ea[0], json!(1))]});
    assert!(app.put("/api/v1/budgets/bulk-update", &cora, other).await.problem(403)["detail"]
        .as_str()
        .unwrap()
        .contains("lines[0].mentorProgramId"));
    app.put(&format!("/api/v1/budgets/{}", id_of(w.mp[0])), &cora, json!({"amount": 150}))
        .await
        .ok();
    let after = app.get(&format!("/api/v1/budgets/{}", w.fy), admin).await.ok().clone();
    let amounts: Vec<f64> = after["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["budgeted"].as_f64().unwrap())
        .collect();
    assert_eq!(amounts.iter().sum::<f64>(), 1050.0, "only its own line changed: {after}");
}
