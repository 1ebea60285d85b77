//! Payment requests on the real app and a real SQLite file: every form created with its
//! computed amount, bad input (nothing created), the whole workflow of one request,
//! permissions, coordinator scope, versions, soft delete, self-approval, concurrent
//! approvals charged once, the all-or-nothing batch, lists, summary and activity log.

use crate::common;
use crate::common::dates::{shifted, shifted_day, shifted_fy};

use common::*;
use reqwest::Method;
use serde_json::{json, Value};

const PR: &str = "/api/v1/payment-requests";
const APPROVER_EMAIL: &str = "approver@example.org";
const PASSWORD: &str = "approver pass 123";
const COORD_PW: &str = "coordinator pass 1";

/// Valid details of each form and the amount the server must compute (None: entered).
fn valid(form: &str, fy: i64) -> (Value, Option<f64>) {
    match form {
        "F1" => (
            json!({"collegeId": 1, "menteeName": "Ana", "courseCode": "CD 101", "placementStartDate": shifted("2025-09-01"), "placementEndDate": shifted("2025-12-15"), "hours": 12.5}),
            None,
        ),
        // F2 = sum of the items.
        "F2" => (
            json!({"items": [{"date": shifted("2025-10-01"), "description": "Books", "amount": 12.34}, {"date": shifted("2025-10-03"), "description": "Paper", "amount": 0.66}], "fileIds": []}),
            Some(13.0),
        ),
        // 22.5 miles × $0.70 (default mileage rate).
        "F3" => (
            json!({"travelPurposeId": 1, "transitTypeId": 2, "trips": [{"date": shifted("2025-10-01"), "from": "Fresno", "to": "Clovis", "miles": 12.5}, {"date": shifted("2025-10-02"), "from": "Clovis", "to": "Fresno", "miles": 10}]}),
            Some(15.75),
        ),
        "F4" => (
            json!({"trainingTypeId": 1, "institutionId": 1, "title": "Infant care", "startDate": shifted("2025-10-01"), "endDate": shifted("2025-10-02"), "hours": 8, "fee": 150}),
            None,
        ),
        "F5" => (json!({"seminarDate": shifted("2025-10-01"), "topic": "Play", "hours": 3}), None),
        "F6" => (
            json!({"activityType": "Workshop", "date": shifted("2025-10-01"), "hours": 2.25}),
            None,
        ),
        "F7" => (
            json!({"protegeName": "Bo", "siteName": "Sunrise", "startDate": shifted("2025-09-01"), "endDate": shifted("2026-05-31"), "placementEndDate": shifted("2026-06-30")}),
            None,
        ),
        "F8" => (
            json!({"institute": "Summer Institute", "startDate": shifted("2025-07-01"), "endDate": shifted("2025-07-03")}),
            None,
        ),
        // F9 = the invoice amount.
        "F9" => (
            json!({"vendorName": "Acme", "vendorAddress": "1 Main St", "invoiceNumber": "INV-7", "invoiceDate": shifted("2025-10-01"), "amount": 420.5}),
            Some(420.5),
        ),
        // 7.5 h × $22.40.
        "F10" => (
            json!({"jobCategoryId": 1, "date": shifted("2025-10-01"), "hours": 7.5, "hourlyRate": 22.4}),
            Some(168.0),
        ),
        // 2 nights × $129.99.
        "F11" => (
            json!({"nightlyRate": 129.99, "city": "Sacramento", "checkIn": shifted("2025-10-01"), "checkOut": shifted("2025-10-03")}),
            Some(259.98),
        ),
        // Default meal rates: breakfast $16 + lunch $19, then dinner $28.
        "F12" => (
            json!({"days": [{"date": shifted("2025-10-01"), "breakfast": true, "lunch": true, "dinner": false}, {"date": shifted("2025-10-02"), "dinner": true}]}),
            Some(63.0),
        ),
        "F13" => (
            json!({"collegeId": 1, "institutionId": 1, "courseCode": "ECE 1", "units": 3, "term": format!("Fall {}", &shifted("2025-09-01")[..4])}),
            None,
        ),
        "F14" => (
            json!({"bonusType": "Completion", "fiscalYearId": fy, "reason": "Completed the year"}),
            None,
        ),
        _ => unreachable!(),
    }
}

const FORMS: [&str; 14] =
    ["F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8", "F9", "F10", "F11", "F12", "F13", "F14"];

struct World {
    app: TestApp,
    admin: String,
    approver: String,
    coord: String,
    fy: i64,
    programs: Vec<i64>,
    fund: i64,
    account: i64,
    /// The payee's participations in programs[0] and programs[1].
    inside: i64,
    outside: i64,
}

async fn world() -> World {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let fy = app
        .post(
            "/api/v1/system-settings/fiscal-years",
            Some(&admin),
            json!({"name": shifted_fy("FY 2026-27"), "startDate": shifted("2026-07-01"), "endDate": shifted("2027-06-30")}),
        )
        .await;
    assert_eq!(fy.status, 201, "{}", fy.body);
    let fy = fy.body["id"].as_i64().unwrap();
    let programs = ids(&app, &admin, "/api/v1/mentor-programs").await;
    let fund = ids(&app, &admin, "/api/v1/funds").await[0];
    let account = ids(&app, &admin, "/api/v1/expense-accounts").await[0];

    let mut payee = person("Pat", "pat@example.org", "Mentor");
    payee["participations"] =
        json!([taking(programs[0], fy, "Mentor"), taking(programs[1], fy, "Mentor")]);
    let r = app.post("/api/v1/participants", Some(&admin), payee).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let parts = r.body["participations"].as_array().unwrap();
    let of = |program: i64| {
        parts.iter().find(|p| p["mentorProgramId"] == program).unwrap()["id"].as_i64().unwrap()
    };
    let (inside, outside) = (of(programs[0]), of(programs[1]));

    app.create_user(&admin, APPROVER_EMAIL, &["Administrator"], PASSWORD).await;
    let (approver, _) = app.login(APPROVER_EMAIL, PASSWORD).await;

    // A Coordinator of programs[0] only.
    let coord = app.coordinator_of(&admin, "cora@example.org", COORD_PW, programs[0], fy).await;
    World { app, admin, approver, coord, fy, programs, fund, account, inside, outside }
}

fn body(w: &World, form: &str, participation: i64) -> Value {
    let (details, computed) = valid(form, w.fy);
    let mut b = json!({"participationId": participation, "description": format!("{form} request"), "details": details});
    if computed.is_none() {
        b["requestedAmount"] = json!(100);
    }
    b
}

async fn create(w: &World, token: &str, form: &str, participation: i64) -> Value {
    let r = w.app.post(&format!("{PR}/{form}"), Some(token), body(w, form, participation)).await;
    assert_eq!(r.status, 201, "{form}: {}", r.body);
    r.body
}

fn url(r: &Value) -> String {
    format!("{PR}/{}/{}", r["formType"].as_str().unwrap(), r["id"])
}

async fn act(w: &World, token: &str, r: &Value, action: &str, body: Value) -> Reply {
    w.app.post(&format!("{}/{action}", url(r)), Some(token), body).await
}

async fn approval_code(w: &World, form: &str) -> i64 {
    let codes = w.app.get("/api/v1/approval-codes", &w.admin).await.ok().clone();
    codes
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["paymentRequestType"] == form)
        .unwrap_or_else(|| panic!("a code for {form}: {codes}"))["id"]
        .as_i64()
        .unwrap()
}

async fn approval(w: &World, form: &str, amount: f64) -> Value {
    json!({"approvedAmount": amount, "approvalCodeId": approval_code(w, form).await, "fundId": w.fund, "expenseAccountId": w.account})
}

async fn submitted(w: &World, form: &str, participation: i64) -> Value {
    let r = create(w, &w.admin, form, participation).await;
    act(w, &w.admin, &r, "submit", json!({})).await.ok().clone()
}

async fn approved(w: &World, form: &str, participation: i64) -> Value {
    approved_for(w, form, participation, 50.0).await
}

async fn approved_for(w: &World, form: &str, participation: i64, amount: f64) -> Value {
    let r = submitted(w, form, participation).await;
    let mut a = approval(w, form, amount).await;
    a["acknowledgeWarnings"] = json!(true);
    act(w, &w.approver, &r, "approve", a).await.ok().clone()
}

fn error_keys(body: &Value) -> Vec<String> {
    body["errors"].as_object().map(|o| o.keys().cloned().collect()).unwrap_or_default()
}

async fn total(w: &World) -> i64 {
    w.app.get(PR, &w.admin).await.ok()["totalCount"].as_i64().unwrap()
}

#[actix_web::test]
async fn every_form_is_created_with_its_amount() {
    let w = world().await;
    for form in FORMS {
        let r = create(&w, &w.admin, form, w.inside).await;
        let (_, computed) = valid(form, w.fy);
        let want = computed.unwrap_or(100.0);
        assert_eq!(r["requestedAmount"].as_f64(), Some(want), "{form}: {r}");
        assert_eq!(r["formType"], form);
        assert_eq!(r["formStatus"], "Draft");
        assert_eq!(r["version"], 1);
        assert_eq!(r["mentorProgramId"], w.programs[0]);
        assert!(r["approvedAmount"].is_null() && r["submittedOn"].is_null());
        assert!(r["availableActions"].as_array().unwrap().contains(&json!("submit")), "{r}");
        let got = w.app.get(&url(&r), &w.admin).await.ok().clone();
        assert_eq!(got["details"], r["details"], "{form}");
        assert_eq!(got["requestedAmount"].as_f64(), Some(want));
    }
    // The rate used is recorded in the details.
    let f3 = w.app.get(&format!("{PR}?FormType=F3"), &w.admin).await.ok()["items"][0].clone();
    let f3 = w.app.get(&url(&f3), &w.admin).await.ok().clone();
    assert_eq!(f3["details"]["mileageRate"].as_f64(), Some(0.7));
    // A computed form ignores a sent requestedAmount.
    let mut b = body(&w, "F10", w.inside);
    b["requestedAmount"] = json!(1);
    let r = w.app.post(&format!("{PR}/F10"), Some(&w.admin), b).await;
    assert_eq!(r.ok()["requestedAmount"].as_f64(), Some(168.0));
    assert_eq!(total(&w).await, 15);
    assert_eq!(
        w.app.get(&format!("{PR}/F1/1"), &w.admin).await.ok()["files"],
        Value::Null,
        "files only on F2"
    );
}

#[actix_web::test]
async fn bad_input_names_the_field_and_creates_nothing() {
    let w = world().await;
    let with = |form: &str, f: &dyn Fn(&mut Value)| {
        let mut b = body(&w, form, w.inside);
        f(&mut b);
        b
    };
    let cases: Vec<(&str, Value, u16, &str)> = vec![
        // Shape of the body: 400. The details are judged against the path's form type,
        // which no schema ties to the body: their shape errors are 422, like the rules.
        (
            "F3",
            with("F3", &|b| b["details"]["trips"][1]["miles"] = json!("ten")),
            422,
            "details.trips[1].miles",
        ),
        (
            "F6",
            with("F6", &|b| b["details"]["activityType"] = json!("Party")),
            422,
            "details.activityType",
        ),
        (
            "F14",
            with("F14", &|b| b["details"]["bonusType"] = json!("Huge")),
            422,
            "details.bonusType",
        ),
        ("F1", with("F1", &|b| b["details"]["hours"] = json!(true)), 422, "details.hours"),
        ("F1", with("F1", &|b| b["requestedAmount"] = json!(1.005)), 400, "requestedAmount"),
        ("F5", with("F5", &|b| b["details"]["surprise"] = json!(1)), 422, "details"),
        // Rules: limits, date order, references are 422.
        (
            "F3",
            with("F3", &|b| b["details"]["trips"][0]["miles"] = json!(600)),
            422,
            "details.trips[0].miles",
        ),
        ("F1", with("F1", &|b| b["details"]["hours"] = json!(250)), 422, "details.hours"),
        ("F1", with("F1", &|b| b["requestedAmount"] = json!(2600)), 422, "requestedAmount"),
        (
            "F1",
            with("F1", &|b| b["details"]["placementEndDate"] = json!(shifted("2025-08-01"))),
            422,
            "details.placementEndDate",
        ),
        (
            "F11",
            with("F11", &|b| b["details"]["checkOut"] = json!(shifted("2025-10-21"))),
            422,
            "details",
        ),
        ("F1", with("F1", &|b| b["details"]["collegeId"] = json!(99999)), 422, "details.collegeId"),
        ("F1", with("F1", &|b| b["participationId"] = json!(99999)), 422, "participationId"),
    ];
    for (form, b, status, field) in cases {
        let r = w.app.post(&format!("{PR}/{form}"), Some(&w.admin), b.clone()).await;
        let problem = r.problem(status);
        assert!(
            error_keys(problem).iter().any(|k| k.starts_with(field)),
            "{form} {b}: want {field}, got {problem}"
        );
    }
    // Unknown form type.
    w.app.post(&format!("{PR}/F15"), Some(&w.admin), body(&w, "F1", w.inside)).await.problem(404);
    assert_eq!(total(&w).await, 0, "nothing was created");
}

#[actix_web::test]
async fn one_request_through_the_whole_workflow() {
    let w = world().await;
    let (app, admin, approver) = (&w.app, &w.admin, &w.approver);
    let r = create(&w, admin, "F1", w.inside).await;
    let r = act(&w, admin, &r, "submit", json!({})).await.ok().clone();
    assert_eq!(r["formStatus"], "Submitted");
    assert_eq!(r["fiscalYearId"], w.fy);
    assert!(r["submittedOn"].is_string());
    let first_submission = r["submittedOn"].clone();
    // Wrong status: a submitted request is not submitted again.
    act(&w, admin, &r, "submit", json!({})).await.problem(409);

    // Send for revision needs a reason.
    assert!(error_keys(
        act(&w, approver, &r, "send-for-revision", json!({"reason": "  "})).await.problem(400)
    )
    .contains(&"reason".into()));
    act(&w, approver, &r, "send-for-revision", json!({})).await.problem(400);
    let r = act(&w, approver, &r, "send-for-revision", json!({"reason": "Hours missing"}))
        .await
        .ok()
        .clone();
    assert_eq!(r["formStatus"], "RevisionRequested");
    let r = act(&w, admin, &r, "submit", json!({})).await.ok().clone();
    assert_eq!(
        (r["formStatus"].as_str(), &r["submittedOn"]),
        (Some("Submitted"), &first_submission),
        "the first submission date stays"
    );

    // Nobody approves what they created or submitted.
    let good = approval(&w, "F1", 80.0).await;
    assert!(!r["availableActions"].as_array().unwrap().contains(&json!("approve")));
    let mut ack = good.clone();
    ack["acknowledgeWarnings"] = json!(true);
    assert!(error_keys(act(&w, admin, &r, "approve", ack.clone()).await.problem(422))
        .contains(&"approval".into()));
    let v = act(&w, admin, &r, "approve/validate", good.clone()).await.ok().clone();
    assert_eq!(v["errors"][0]["code"], "selfApproval", "{v}");

    // Validate: errors, then warnings.
    let mut bad = good.clone();
    bad["approvedAmount"] = json!(0);
    let v = act(&w, approver, &r, "approve/validate", bad).await.ok().clone();
    assert_eq!(v["errors"][0]["code"], "amountNotPositive", "{v}");
    let mut bad = good.clone();
    bad["approvedAmount"] = json!(100.01);
    assert_eq!(
        act(&w, approver, &r, "approve/validate", bad.clone()).await.ok()["errors"][0]["code"],
        "amountAboveRequested"
    );
    let mut other_code = good.clone();
    other_code["approvalCodeId"] = json!(approval_code(&w, "F3").await);
    assert_eq!(
        act(&w, approver, &r, "approve/validate", other_code).await.ok()["errors"][0]["code"],
        "approvalCodeOtherType"
    );
    let v = act(&w, approver, &r, "approve/validate", good.clone()).await.ok().clone();
    assert_eq!(v["errors"], json!([]), "{v}");
    let warnings: Vec<&str> =
        v["warnings"].as_array().unwrap().iter().map(|i| i["code"].as_str().unwrap()).collect();
    // No budget line in the year; last year's placement ended long before today's submission.
    assert!(warnings.contains(&"noBudgetLine") && warnings.contains(&"lateSubmission"), "{v}");
    // Errors and unacknowledged warnings are 422, nothing changes.
    assert!(error_keys(act(&w, approver, &r, "approve", bad).await.problem(422))
        .contains(&"approvedAmount".into()));
    assert!(error_keys(act(&w, approver, &r, "approve", good.clone()).await.problem(422))
        .contains(&"acknowledgeWarnings".into()));
    assert_eq!(app.get(&url(&r), admin).await.ok()["formStatus"], "Submitted");

    let mut ack = good.clone();
    ack["acknowledgeWarnings"] = json!(true);
    ack["comment"] = json!("Fine");
    let r = act(&w, approver, &r, "approve", ack.clone()).await.ok().clone();
    assert_eq!(
        (r["formStatus"].as_str(), r["approvedAmount"].as_f64()),
        (Some("Approved"), Some(80.0))
    );
    assert!(r["approvedAt"].is_string());
    act(&w, approver, &r, "approve", ack.clone()).await.problem(409);
    let r = act(&w, approver, &r, "move-back-to-submitted", json!({})).await.ok().clone();
    assert_eq!(r["formStatus"], "Submitted");
    assert!(r["approvedAmount"].is_null(), "the approval no longer stands");
    let r = act(&w, approver, &r, "approve", ack).await.ok().clone();
    assert_eq!(r["formStatus"], "Approved");
    let r = act(&w, approver, &r, "move-to-ready-for-processing", json!({})).await.ok().clone();
    assert_eq!(r["formStatus"], "ReadyForProcessing");
    act(&w, approver, &r, "move-back-to-submitted", json!({})).await.problem(409);
    // Edits and deletes are over.
    let mut edit = body(&w, "F1", w.inside);
    edit["version"] = r["version"].clone();
    assert_eq!(app.put(&url(&r), admin, edit).await.status, 409);
    app.delete(&url(&r), admin).await.problem(409);

    // Activity log, newest first, with the reason and comment.
    let log_url = format!("{PR}/activity-log?PaymentRequestId={}&PaymentRequestType=F1", r["id"]);
    let log = app.get(&log_url, admin).await.ok().clone();
    let actions: Vec<&str> =
        log.as_array().unwrap().iter().map(|e| e["action"].as_str().unwrap()).collect();
    assert_eq!(
        actions,
        [
            "moved-to-ready-for-processing",
            "approved",
            "moved-back-to-submitted",
            "approved",
            "submitted",
            "sent-for-revision",
            "submitted",
            "created"
        ]
    );
    assert_eq!(log[5]["comment"], "Hours missing");
    assert_eq!(log[3]["comment"], "Fine");
    assert_eq!(log[0]["fromStatus"], "Approved");
    app.get(
        &format!("{PR}/activity-log?PaymentRequestId={}&PaymentRequestType=F2", r["id"]),
        admin,
    )
    .await
    .problem(404);
}

#[actix_web::test]
async fn permissions_scope_versions_and_soft_delete() {
    let w = world().await;
    let (app, admin, coord) = (&w.app, &w.admin, &w.coord);
    // The Coordinator creates and submits inside its program, never outside.
    let mine = create(&w, coord, "F5", w.inside).await;
    let r = app.post(&format!("{PR}/F5"), Some(coord), body(&w, "F5", w.outside)).await;
    assert!(r.status == 403 || r.status == 404, "{}", r.body);
    let theirs = create(&w, admin, "F5", w.outside).await;
    app.get(&url(&theirs), coord).await.problem(404);
    act(&w, coord, &theirs, "submit", json!({})).await.problem(404);
    assert_eq!(app.get(PR, coord).await.ok()["totalCount"], 1);
    // Missing permission: a Coordinator does not approve (403 before anything else).
    let mine = act(&w, coord, &mine, "submit", json!({})).await.ok().clone();
    act(&w, coord, &mine, "approve", approval(&w, "F5", 10.0).await).await.problem(403);
    act(&w, coord, &mine, "move-to-ready-for-processing", json!({})).await.problem(403);
    // The form type in the path must be the request's.
    app.get(&format!("{PR}/F6/{}", mine["id"]), admin).await.problem(404);
    app.get(&format!("{PR}/F1/99999",), admin).await.problem(404);
    app.get(&format!("{PR}/F1/abc"), admin).await.problem(400);

    // Edit with versions.
    let d = create(&w, admin, "F1", w.inside).await;
    let mut edit = body(&w, "F1", w.inside);
    app.put(&url(&d), admin, edit.clone()).await.invalid();
    edit["version"] = json!(1);
    edit["requestedAmount"] = json!(120);
    let after = app.put(&url(&d), admin, edit.clone()).await.ok().clone();
    assert_eq!(
        (after["version"].as_i64(), after["requestedAmount"].as_f64()),
        (Some(2), Some(120.0))
    );
    app.put(&url(&d), admin, edit.clone()).await.problem(409);
    edit["version"] = json!(2);
    edit["requestedAmount"] = json!(99999);
    assert!(error_keys(app.put(&url(&d), admin, edit).await.problem(422))
        .contains(&"requestedAmount".into()));
    assert_eq!(app.get(&url(&d), admin).await.ok()["version"], 2, "nothing changed");

    // Soft delete: drafts only.
    app.delete(&url(&mine), admin).await.problem(409);
    let r = app.delete(&url(&d), admin).await;
    assert_eq!(r.status, 204, "{}", r.body);
    app.get(&url(&d), admin).await.problem(404);
    app.delete(&url(&d), admin).await.problem(404);
    assert_eq!(app.get(&format!("{PR}?FormType=F1"), admin).await.ok()["totalCount"], 0);
    // Its history stays readable.
    let log = app
        .get(
            &format!("{PR}/activity-log?PaymentRequestId={}&PaymentRequestType=F1", d["id"]),
            admin,
        )
        .await
        .ok()
        .clone();
    assert_eq!(log[0]["action"], "deleted");

    app.call(Method::GET, PR, None, None).await.problem(401);
}

#[actix_web::test]
async fn eight_simultaneous_approvals_charge_the_budget_once() {
    let w = world().await;
    let line = json!({"mentorProgramId": w.programs[0], "fundId": w.fund, "expenseAccountId": w.account, "amount": 1000});
    w.app
        .put(
            "/api/v1/budgets/bulk-update",
            &w.admin,
            json!({"fiscalYearId": w.fy, "lines": [line]}),
        )
        .await
        .ok();
    let r = submitted(&w, "F1", w.inside).await;
    let mut a = approval(&w, "F1", 75.5).await;
    a["acknowledgeWarnings"] = json!(true);
    let path = format!("{}/approve", url(&r));
    let calls = (0..8).map(|_| w.app.post(&path, Some(&w.approver), a.clone()));
    let replies = futures_util::future::join_all(calls).await;
    let mut statuses: Vec<u16> = replies.iter().map(|r| r.status.as_u16()).collect();
    statuses.sort();
    assert_eq!(
        statuses,
        [200, 409, 409, 409, 409, 409, 409, 409],
        "{:?}",
        replies.iter().map(|r| &r.body).collect::<Vec<_>>()
    );
    let budget = w.app.get(&format!("/api/v1/budgets/{}", w.fy), &w.admin).await.ok().clone();
    assert_eq!(budget["lines"][0]["approved"].as_f64(), Some(75.5), "{budget}");
    assert_eq!(budget["lines"][0]["remaining"].as_f64(), Some(924.5));
    let log = w
        .app
        .get(
            &format!("{PR}/activity-log?PaymentRequestId={}&PaymentRequestType=F1", r["id"]),
            &w.admin,
        )
        .await
        .ok()
        .clone();
    assert_eq!(log.as_array().unwrap().iter().filter(|e| e["action"] == "approved").count(), 1);
    // Approved in ReadyForProcessing still counts; back to Submitted it does not.
    let r = w.app.get(&url(&r), &w.admin).await.ok().clone();
    let r = act(&w, &w.approver, &r, "move-back-to-submitted", json!({})).await.ok().clone();
    let budget = w.app.get(&format!("/api/v1/budgets/{}", w.fy), &w.admin).await.ok().clone();
    assert_eq!(budget["lines"][0]["approved"].as_f64(), Some(0.0));
    // Over budget is a warning.
    let mut big = approval(&w, "F1", 100.0).await;
    big["acknowledgeWarnings"] = json!(true);
    act(&w, &w.approver, &r, "approve", big).await.ok();
    let list = w.app.get("/api/v1/budgets", &w.admin).await.ok().clone();
    assert_eq!(list[0]["approved"].as_f64(), Some(100.0));
}

#[actix_web::test]
async fn batch_ready_for_processing_is_all_or_nothing() {
    let w = world().await;
    let a = approved(&w, "F1", w.inside).await;
    let b = approved(&w, "F5", w.inside).await;
    let s = submitted(&w, "F6", w.inside).await;
    const BATCH: &str = "/api/v1/payment-requests/move-to-statuses/ready-for-processing/batch";
    let r = w
        .app
        .post(BATCH, Some(&w.approver), json!({"ids": [a["id"], b["id"], s["id"], 99999]}))
        .await;
    let detail = r.problem(409)["detail"].as_str().unwrap().to_owned();
    assert!(detail.contains(&s["id"].to_string()) && detail.contains("99999"), "{detail}");
    assert!(!detail.contains(&format!("{} (", a["id"])), "{detail}");
    for x in [&a, &b] {
        assert_eq!(
            w.app.get(&url(x), &w.admin).await.ok()["formStatus"],
            "Approved",
            "nothing moved"
        );
    }
    w.app.post(BATCH, Some(&w.approver), json!({"ids": []})).await.problem(400);
    w.app.post(BATCH, Some(&w.coord), json!({"ids": [a["id"]]})).await.problem(403);
    let r = w.app.post(BATCH, Some(&w.approver), json!({"ids": [b["id"], a["id"], a["id"]]})).await;
    let mut moved: Vec<i64> =
        r.ok()["moved"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect();
    moved.sort();
    assert_eq!(moved, [a["id"].as_i64().unwrap(), b["id"].as_i64().unwrap()]);
    for x in [&a, &b] {
        assert_eq!(w.app.get(&url(x), &w.admin).await.ok()["formStatus"], "ReadyForProcessing");
    }
    w.app.post(BATCH, Some(&w.approver), json!({"ids": [a["id"]]})).await.problem(409);
}

#[actix_web::test]
async fn lists_filter_sort_and_page_and_the_summary_adds_up() {
    let w = world().await;
    let (app, admin) = (&w.app, &w.admin);
    let a = approved(&w, "F1", w.inside).await; // 100 requested, 50 approved
    let _s = submitted(&w, "F3", w.inside).await; // 15.75
    let _d = create(&w, admin, "F9", w.outside).await; // 420.50, other program
    let _e = create(&w, admin, "F2", w.inside).await; // 13.00
    let list = |q: &str| {
        let q = q.to_owned();
        async move {
            let page = app.get(&format!("{PR}?{q}"), admin).await;
            let page = page.ok().clone();
            page
        }
    };
    let forms = |page: &Value| -> Vec<String> {
        page["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["formType"].as_str().unwrap().to_owned())
            .collect()
    };
    let all = list("").await;
    assert_eq!(
        (all["totalCount"].as_i64(), all["page"].as_i64(), all["size"].as_i64()),
        (Some(4), Some(1), Some(25))
    );
    assert_eq!(forms(&all), ["F2", "F9", "F3", "F1"], "newest first");
    assert!(
        all["items"][0]["availableActions"].is_array() && all["items"][0].get("details").is_none()
    );
    assert_eq!(forms(&list(&format!("MentorProgramId={}", w.programs[1])).await), ["F9"]);
    assert_eq!(forms(&list(&format!("ParticipationId={}", w.outside)).await), ["F9"]);
    assert_eq!(forms(&list("FormStatus=Draft").await), ["F2", "F9"]);
    assert_eq!(forms(&list("formstatus=Submitted,Approved").await), ["F3", "F1"]);
    assert_eq!(forms(&list("FormStatus=Approved&FormStatus=Draft").await), ["F2", "F9", "F1"]);
    assert_eq!(forms(&list("FormType=F1,F9").await), ["F9", "F1"]);
    let today = mentorpay::clock::now().date_naive();
    assert_eq!(forms(&list(&format!("ApprovedStart={today}&ApprovedEnd={today}")).await), ["F1"]);
    assert_eq!(list(&format!("ApprovedEnd={}", today.pred_opt().unwrap())).await["totalCount"], 0);
    assert_eq!(forms(&list(&format!("PlacementEndDate={}", shifted("2025-12-31"))).await), ["F1"]);
    assert_eq!(forms(&list("IsApprovedAmountSortedAscending=false&FormType=F1,F3").await)[0], "F1");
    assert_eq!(
        forms(&list("IsSubmittedOnSortedAscending=true&FormStatus=Submitted,Approved").await).len(),
        2
    );
    let page2 = list("Size=3&Page=2").await;
    assert_eq!((forms(&page2), page2["totalCount"].as_i64()), (vec!["F1".to_owned()], Some(4)));
    for bad in [
        "FormStatus=Lost",
        "FormType=F99",
        "Size=0",
        "Page=0",
        "Size=501",
        "ApprovedStart=yesterday",
        "MentorProgramId=x",
    ] {
        app.get(&format!("{PR}?{bad}"), admin).await.problem(400);
    }
    // Coordinators see their programs only.
    assert_eq!(app.get(PR, &w.coord).await.ok()["totalCount"], 3);

    // Summary: one entry per status, counts and sums.
    let s = app.get(&format!("{PR}/summary"), admin).await.ok().clone();
    let of = |s: &Value, status: &str| {
        s.as_array().unwrap().iter().find(|e| e["formStatus"] == status).unwrap().clone()
    };
    assert_eq!(s.as_array().unwrap().len(), 6);
    assert_eq!(
        (of(&s, "Draft")["count"].as_i64(), of(&s, "Draft")["requestedAmount"].as_f64()),
        (Some(2), Some(433.5))
    );
    assert_eq!(
        (of(&s, "Approved")["count"].as_i64(), of(&s, "Approved")["approvedAmount"].as_f64()),
        (Some(1), Some(50.0))
    );
    assert_eq!(of(&s, "Submitted")["requestedAmount"].as_f64(), Some(15.75));
    assert_eq!(of(&s, "Processed")["count"], 0);
    let s = app
        .get(&format!("{PR}/summary?mentorProgramId={}", w.programs[1]), admin)
        .await
        .ok()
        .clone();
    assert_eq!(of(&s, "Draft")["count"], 1);
    let s = app.get(&format!("{PR}/summary"), &w.coord).await.ok().clone();
    assert_eq!(of(&s, "Draft")["count"], 1);
    // The fixed paths are not taken for form types.
    app.get(&format!("{PR}/types"), admin).await.ok();
    app.get(&format!("{PR}/participant-list"), admin).await.ok();
    let _ = a;
}

#[actix_web::test]
async fn the_openapi_document_lists_every_request_call() {
    let app = spawn().await;
    let doc = app.call(Method::GET, "/api/v1/openapi.json", None, None).await.ok().clone();
    let paths = &doc["paths"];
    for (path, method) in [
        ("/api/v1/payment-requests", "get"),
        ("/api/v1/payment-requests/summary", "get"),
        ("/api/v1/payment-requests/activity-log", "get"),
        ("/api/v1/payment-requests/move-to-statuses/ready-for-processing/batch", "post"),
        ("/api/v1/payment-requests/{formType}", "post"),
        ("/api/v1/payment-requests/{formType}/{id}", "get"),
        ("/api/v1/payment-requests/{formType}/{id}", "put"),
        ("/api/v1/payment-requests/{formType}/{id}", "delete"),
        ("/api/v1/payment-requests/{formType}/{id}/submit", "post"),
        ("/api/v1/payment-requests/{formType}/{id}/move-to-draft", "post"),
        ("/api/v1/payment-requests/{formType}/{id}/send-for-revision", "post"),
        ("/api/v1/payment-requests/{formType}/{id}/approve/validate", "post"),
        ("/api/v1/payment-requests/{formType}/{id}/approve", "post"),
        ("/api/v1/payment-requests/{formType}/{id}/move-back-to-submitted", "post"),
        ("/api/v1/payment-requests/{formType}/{id}/move-to-ready-for-processing", "post"),
        ("/api/v1/payment-requests/F2/{id}/files/{fileId}", "get"),
        ("/api/v1/payment-requests/F2/{id}/files/{fileId}", "delete"),
    ] {
        assert!(paths[path][method].is_object(), "{method} {path}");
    }
}

const PDF: &[u8] = b"%PDF-1.7\n1 0 obj\n<<>>\nendobj\n%%EOF\n";

/// Announces and uploads one PDF as `token`; returns its file id.
async fn uploaded(w: &World, token: &str, name: &str) -> String {
    uploaded_as(w, token, name, "application/pdf", PDF).await
}

/// Announces and uploads `bytes` of type `ty` as `token`; returns its file id.
async fn uploaded_as(w: &World, token: &str, name: &str, ty: &str, bytes: &[u8]) -> String {
    w.app.uploaded(token, name, ty, bytes).await
}

/// A 1×1 PNG.
const PNG: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00, 0x90, 0x77, 0x53,
    0xde, 0x00, 0x00, 0x00, 0x0c, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0xf8, 0xcf, 0xc0, 0x00,
    0x00, 0x03, 0x01, 0x01, 0x00, 0xc9, 0xfe, 0x92, 0xef, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e,
    0x44, 0xae, 0x42, 0x60, 0x82,
];
/// A JPEG's start (the server reads the first bytes only).
const JPEG: &[u8] = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00\xff\xd9";
/// A HEIC's start: a receipt type no browser shows.
const HEIC: &[u8] = b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic";

#[actix_web::test]
async fn images_and_pdfs_are_previewed_inline_under_a_policy_without_script() {
    let w = world().await;
    let (app, admin) = (&w.app, &w.admin);
    let png = uploaded_as(&w, admin, "till.png", "image/png", PNG).await;
    let jpeg = uploaded_as(&w, admin, "photo.jpg", "image/jpeg", JPEG).await;
    let pdf = uploaded(&w, admin, "invoice.pdf").await;
    let heic = uploaded_as(&w, admin, "phone.heic", "image/heic", HEIC).await;
    let mut b = body(&w, "F2", w.inside);
    b["details"]["fileIds"] = json!([png, jpeg, pdf, heic]);
    let r = app.post(&format!("{PR}/F2"), Some(admin), b).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let r = r.body;
    let preview = |file: &str| format!("{}/files/{file}/preview", url(&r));

    // The Coordinator of the request's program sees each previewable type inline.
    for (file, ty, bytes, name) in [
        (&png, "image/png", PNG, "till.png"),
        (&jpeg, "image/jpeg", JPEG, "photo.jpg"),
        (&pdf, "application/pdf", PDF, "invoice.pdf"),
    ] {
        let res = app
            .client
            .get(format!("{}{}", app.base, preview(file)))
            .bearer_auth(&w.coord)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 200, "{ty}");
        let h = res.headers().clone();
        assert_eq!(h["content-type"], ty);
        assert_eq!(h["content-disposition"], format!("inline; filename=\"{name}\""));
        assert_eq!(h["x-content-type-options"], "nosniff");
        assert_eq!(h["x-frame-options"], "SAMEORIGIN");
        let csp = h["content-security-policy"].to_str().unwrap();
        assert!(csp.starts_with("default-src 'none'"), "{csp}");
        assert!(csp.contains("sandbox") && csp.contains("frame-ancestors 'self'"), "{csp}");
        assert!(!csp.contains("script-src") && !csp.contains("unsafe"), "{csp}");
        assert_eq!(res.bytes().await.unwrap().as_ref(), bytes, "{ty}");
    }
    // A HEIC is refused, naming the file: the page offers its download instead.
    let refused = app.get(&preview(&heic), &w.coord).await.problem(422).clone();
    assert!(refused["errors"]["fileId"][0].as_str().unwrap().contains("download"), "{refused}");
    // Its download still works.
    app.client
        .get(format!("{}{}/files/{heic}", app.base, url(&r)))
        .bearer_auth(&w.coord)
        .send()
        .await
        .unwrap()
        .error_for_status()
        .unwrap();
    // Bytes changed behind the server's back since the upload's check are not shown as a JPEG.
    let stored = app.dir.path().join("data/uploads/receipts").join(&jpeg);
    std::fs::write(&stored, b"<html><script>alert(1)</script></html>").unwrap();
    let refused = app.get(&preview(&jpeg), &w.coord).await.problem(422).clone();
    assert!(refused["errors"]["fileId"].is_array(), "{refused}");
    // Without a token, 401.
    app.call(Method::GET, &preview(&png), None, None).await.problem(401);
    // A file of another request, or none, on this request's path: 404.
    app.get(&format!("{}/files/{}/preview", url(&r), uuid::Uuid::new_v4()), admin)
        .await
        .problem(404);

    // Another program's request: 404 to this Coordinator, whatever the file.
    let other = uploaded(&w, admin, "elsewhere.pdf").await;
    let mut b = body(&w, "F2", w.outside);
    b["details"]["fileIds"] = json!([other]);
    let o = app.post(&format!("{PR}/F2"), Some(admin), b).await;
    assert_eq!(o.status, 201, "{}", o.body);
    let o = o.body;
    app.get(&format!("{}/files/{other}/preview", url(&o)), &w.coord).await.problem(404);
    app.get(&format!("{}/files/{other}/preview", url(&o)), admin).await.ok();
}

#[actix_web::test]
async fn list_rows_carry_their_receipt_count() {
    let w = world().await;
    let (app, admin) = (&w.app, &w.admin);
    let (a, b) = (uploaded(&w, admin, "a.pdf").await, uploaded(&w, admin, "b.pdf").await);
    let mut two = body(&w, "F2", w.inside);
    two["details"]["fileIds"] = json!([a, b]);
    let two = app.post(&format!("{PR}/F2"), Some(admin), two).await;
    assert_eq!(two.status, 201, "{}", two.body);
    let two = two.body;
    let none = create(&w, admin, "F2", w.inside).await;
    let other_form = create(&w, admin, "F3", w.inside).await;
    let count_of = |list: &Value, r: &Value| {
        let rows = list["items"].as_array().unwrap();
        rows.iter().find(|row| row["id"] == r["id"]).unwrap()["receiptCount"].as_i64().unwrap()
    };
    let list = app.get(PR, admin).await.ok().clone();
    assert_eq!(count_of(&list, &two), 2);
    assert_eq!(count_of(&list, &none), 0);
    assert_eq!(count_of(&list, &other_form), 0);
    // A removed receipt no longer counts.
    app.delete(&format!("{}/files/{a}", url(&two)), admin).await.ok();
    let list = app.get(&format!("{PR}?FormType=F2"), &w.coord).await.ok().clone();
    assert_eq!(count_of(&list, &two), 1);

    // Each row's count reads the files' request index, never a scan of every receipt
    // (SQLite's plan; PostgreSQL plans from its statistics).
    use mentorpay::entities::payment_request as pr;
    use sea_orm::{ColumnTrait, DbBackend, EntityTrait, QueryFilter, QuerySelect, QueryTrait};
    let db = &app.state.db;
    if db.get_database_backend() == DbBackend::Sqlite {
        let ids: Vec<i32> = (1..=25).collect();
        let sql = pr::Entity::find()
            .select_only()
            .expr(mentorpay::payment_requests::store::files::receipt_count())
            .filter(pr::Column::Id.is_in(ids))
            .build(DbBackend::Sqlite)
            .to_string();
        let plan = crate::common::database::sqlite_plan(db, &sql).await;
        assert!(
            plan.iter().any(|d| d.starts_with("SEARCH") && d.contains("ix_uploaded_files_request")),
            "{plan:?}"
        );
        assert!(!plan.iter().any(|d| d.starts_with("SCAN")), "{plan:?}");
    }
}

#[actix_web::test]
async fn receipts_are_attached_downloaded_and_removed() {
    let w = world().await;
    let (app, admin) = (&w.app, &w.admin);
    let (a, b) = (uploaded(&w, admin, "a.pdf").await, uploaded(&w, admin, "b.pdf").await);
    let foreign = uploaded(&w, &w.approver, "c.pdf").await;
    let mut body = body(&w, "F2", w.inside);
    // Another user's file, or one listed twice, is refused; nothing is created.
    body["details"]["fileIds"] = json!([a, foreign]);
    assert!(error_keys(
        app.post(&format!("{PR}/F2"), Some(admin), body.clone()).await.problem(422)
    )
    .iter()
    .any(|k| k.starts_with("details.fileIds")));
    body["details"]["fileIds"] = json!([a, a]);
    app.post(&format!("{PR}/F2"), Some(admin), body.clone()).await.problem(422);
    assert_eq!(total(&w).await, 0);
    body["details"]["fileIds"] = json!([a, b]);
    let r = app.post(&format!("{PR}/F2"), Some(admin), body.clone()).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let r = r.body;
    let names: Vec<&str> =
        r["files"].as_array().unwrap().iter().map(|f| f["fileName"].as_str().unwrap()).collect();
    assert_eq!(names, ["a.pdf", "b.pdf"]);
    // A file belongs to one request only.
    app.post(&format!("{PR}/F2"), Some(admin), body.clone()).await.problem(422);

    let res = app
        .client
        .get(format!("{}{}/files/{a}", app.base, url(&r)))
        .bearer_auth(admin)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-type"], "application/pdf");
    assert_eq!(res.bytes().await.unwrap().as_ref(), PDF);
    app.get(&format!("{}/files/{foreign}", url(&r)), admin).await.problem(404);

    let after = app.delete(&format!("{}/files/{a}", url(&r)), admin).await.ok().clone();
    assert_eq!(after["files"].as_array().unwrap().len(), 1);
    assert_eq!(after["details"]["fileIds"], json!([b]));
    assert_eq!(after["version"], 2);
    app.get(&format!("{}/files/{a}", url(&r)), admin).await.problem(404);
    assert!(!app.dir.path().join("data/uploads/receipts").join(&a).exists(), "the bytes are gone");

    // Submitted: the receipts are frozen for a Coordinator (approvers may still edit);
    // moved back to draft they can change again.
    let s = act(&w, admin, &after, "submit", json!({})).await.ok().clone();
    app.delete(&format!("{}/files/{b}", url(&s)), &w.coord).await.problem(409);
    let d = act(&w, admin, &s, "move-to-draft", json!({})).await.ok().clone();
    assert_eq!(d["formStatus"], "Draft");
    act(&w, admin, &d, "move-to-draft", json!({})).await.problem(409);
    let mut edit = body.clone();
    edit["details"]["fileIds"] = json!([]);
    edit["version"] = d["version"].clone();
    let e = app.put(&url(&d), admin, edit).await.ok().clone();
    assert_eq!(e["files"], json!([]));
    // Out of scope, the request and its files are 404.
    app.get(&format!("{}/files/{b}", url(&r)), &w.coord).await.problem(404);
}

#[actix_web::test]
async fn seeded_requests_read_back_through_the_api() {
    let w = world().await;
    let (app, admin) = (&w.app, &w.admin);
    let earlier = app
        .post(
            "/api/v1/system-settings/fiscal-years",
            Some(admin),
            json!({"name": shifted_fy("FY 2025-26"), "startDate": shifted("2025-07-01"), "endDate": shifted("2026-06-30")}),
        )
        .await;
    let earlier = earlier.ok()["id"].as_i64().unwrap() as i32;
    mentorpay::demo::seed::participants(&app.state.db, 50).await.unwrap();
    let report = mentorpay::demo::seed::requests(&app.state.db, 2_500).await.unwrap();
    assert_eq!(report.requests, 2_500);
    assert_eq!(total(&w).await, 2_500);
    let summary = app.get(&format!("{PR}/summary"), admin).await.ok().clone();
    let counts: Vec<i64> =
        summary.as_array().unwrap().iter().map(|s| s["count"].as_i64().unwrap()).collect();
    assert_eq!(counts.iter().sum::<i64>(), 2_500);
    assert!(counts.iter().all(|c| *c > 0), "every status is seeded: {summary}");
    // Every form reads back (its details parse) and each one is there.
    for form in FORMS {
        let page = app.get(&format!("{PR}?FormType={form}&Size=5&FormStatus=Approved&IsApprovedAmountSortedAscending=false"), admin).await.ok().clone();
        assert!(page["totalCount"].as_i64().unwrap() > 0, "{form}");
        for item in page["items"].as_array().unwrap() {
            let r = app.get(&url(item), admin).await.ok().clone();
            assert!(
                r["approvedAmount"].as_f64().unwrap() > 0.0 && r["approvalCodeId"].is_i64(),
                "{r}"
            );
        }
    }
    // Approved seeded requests are charged to their year's budget lines.
    let charged =
        mentorpay::budgets::store::approved_by_line(&app.state.db, earlier).await.unwrap();
    assert!(!charged.is_empty() && charged.values().all(|c| *c > 0));
}

#[actix_web::test]
async fn lists_sort_by_each_key_both_ways() {
    let w = world().await;
    let f1 = approved_for(&w, "F1", w.inside, 60.0).await; // placement ends in December of last year
    let f7 = approved_for(&w, "F7", w.inside, 30.0).await; // placement ends on last year's last day
    let ids = |page: &Value| -> Vec<i64> {
        page["items"].as_array().unwrap().iter().map(|i| i["id"].as_i64().unwrap()).collect()
    };
    let (a, b) = (f1["id"].as_i64().unwrap(), f7["id"].as_i64().unwrap());
    for (q, want) in [
        ("IsApprovedAmountSortedAscending=true", [b, a]),
        ("IsApprovedAmountSortedAscending=false", [a, b]),
        ("IsPlacementEndDateSortedAscending=true", [a, b]),
        ("IsPlacementEndDateSortedAscending=false", [b, a]),
        // Same submission day: the number breaks the tie, in the order's direction.
        ("IsSubmittedOnSortedAscending=true", [a, b]),
        ("IsSubmittedOnSortedAscending=false", [b, a]),
    ] {
        assert_eq!(ids(w.app.get(&format!("{PR}?{q}"), &w.admin).await.ok()), want, "{q}");
    }
    assert_eq!(
        w.app.get(&format!("{PR}?IsApprovedAmountSortedAscending=maybe"), &w.admin).await.status,
        400
    );
}

#[actix_web::test]
async fn a_coordinator_reads_the_rates_its_forms_are_computed_with() {
    let w = world().await;
    let (app, admin, coord) = (&w.app, &w.admin, &w.coord);
    // Settings themselves stay closed to a Coordinator; the rates a form uses do not.
    app.get("/api/v1/system-settings/general", coord).await.problem(403);
    let general = app.get("/api/v1/system-settings/general", admin).await.ok().clone();
    let mut changed = general.clone();
    changed["mileageRate"] = json!(0.81);
    changed["mealRates"]["lunch"] = json!(17.25);
    changed.as_object_mut().unwrap().remove("id");
    app.put(&format!("/api/v1/system-settings/general/{}", general["id"]), admin, changed)
        .await
        .ok();
    let rates = app.get(&format!("{PR}/rates"), coord).await.ok().clone();
    assert_eq!(rates["mileageRate"], json!(0.81));
    assert_eq!(rates["mealRates"]["lunch"], json!(17.25));
    assert_eq!(rates["mealRates"]["breakfast"], general["mealRates"]["breakfast"]);
    // And a saved F3 uses exactly that rate.
    let f3 = create(&w, coord, "F3", w.inside).await;
    assert_eq!(f3["details"]["mileageRate"], json!(0.81));
    app.call(Method::GET, &format!("{PR}/rates"), None, None).await.problem(401);
}

/// The summary and program/status counts come from totals kept by database triggers; a
/// recount from the rows themselves must agree after every kind of change.
async fn assert_totals_match_a_recount(w: &World) {
    let (app, admin) = (&w.app, &w.admin);
    let all_forms = FORMS.join(",");
    for program in [None, Some(w.programs[0]), Some(w.programs[1])] {
        let filter = program.map(|p| format!("MentorProgramId={p}&")).unwrap_or_default();
        let summary = app
            .get(&format!("{PR}/summary?{}", filter.trim_end_matches('&')), admin)
            .await
            .ok()
            .clone();
        for entry in summary.as_array().unwrap() {
            let status = entry["formStatus"].as_str().unwrap();
            // A form-type filter makes the list count rows instead of reading the totals.
            let rows = app
                .get(
                    &format!("{PR}?{filter}FormStatus={status}&FormType={all_forms}&Size=500"),
                    admin,
                )
                .await
                .ok()
                .clone();
            let kept =
                app.get(&format!("{PR}?{filter}FormStatus={status}&Size=1"), admin).await.ok()
                    ["totalCount"]
                    .clone();
            assert_eq!(entry["count"], rows["totalCount"], "{status} in {program:?}");
            assert_eq!(kept, rows["totalCount"], "{status} in {program:?}");
            let sum = |key: &str| {
                rows["items"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|i| (i[key].as_f64().unwrap_or(0.0) * 100.0).round() as i64)
                    .sum::<i64>()
            };
            let cents = |v: &Value| (v.as_f64().unwrap() * 100.0).round() as i64;
            assert_eq!(
                (cents(&entry["requestedAmount"]), cents(&entry["approvedAmount"])),
                (sum("requestedAmount"), sum("approvedAmount")),
                "{status} in {program:?}"
            );
        }
    }
}

#[actix_web::test]
async fn the_kept_totals_follow_every_change() {
    let w = world().await;
    let (app, admin) = (&w.app, &w.admin);
    assert_totals_match_a_recount(&w).await;
    let draft = create(&w, admin, "F5", w.inside).await;
    let _other = create(&w, admin, "F9", w.outside).await;
    let sent_back = submitted(&w, "F6", w.inside).await;
    act(&w, admin, &sent_back, "send-for-revision", json!({"reason": "Add the date"})).await.ok();
    let moved_back = approved_for(&w, "F1", w.inside, 80.0).await;
    act(&w, admin, &moved_back, "move-back-to-submitted", json!({})).await.ok();
    let ready = approved_for(&w, "F4", w.inside, 60.0).await;
    let batched = approved_for(&w, "F7", w.outside, 70.5).await;
    act(&w, admin, &ready, "move-to-ready-for-processing", json!({})).await.ok();
    app.post(
        "/api/v1/payment-requests/move-to-statuses/ready-for-processing/batch",
        Some(&w.approver),
        json!({"ids": [batched["id"]]}),
    )
    .await
    .ok();
    assert_totals_match_a_recount(&w).await;
    // An edit that changes the amount, and a deletion.
    let mut edit = body(&w, "F5", w.inside);
    edit["requestedAmount"] = json!(123.45);
    edit["version"] = draft["version"].clone();
    app.put(&url(&draft), admin, edit).await.ok();
    assert_totals_match_a_recount(&w).await;
    assert_eq!(app.delete(&url(&draft), admin).await.status, 204);
    assert_totals_match_a_recount(&w).await;
    // Seeded rows are counted too (the triggers see every insert).
    mentorpay::demo::seed::participants(&app.state.db, 20).await.unwrap();
    let earlier = app
        .post(
            "/api/v1/system-settings/fiscal-years",
            Some(admin),
            json!({"name": shifted_fy("FY 2025-26"), "startDate": shifted("2025-07-01"), "endDate": shifted("2026-06-30")}),
        )
        .await;
    earlier.ok();
    mentorpay::demo::seed::requests(&app.state.db, 300).await.unwrap();
    assert_totals_match_a_recount(&w).await;
}

#[actix_web::test]
async fn receipts_never_attached_are_removed_after_a_day() {
    let w = world().await;
    let (app, admin) = (&w.app, &w.admin);
    let (kept, left) =
        (uploaded(&w, admin, "kept.pdf").await, uploaded(&w, admin, "left.pdf").await);
    let mut b = body(&w, "F2", w.inside);
    b["details"]["fileIds"] = json!([kept]);
    let r = app.post(&format!("{PR}/F2"), Some(admin), b).await.ok().clone();
    let purge = |hours: i64| {
        mentorpay::payment_requests::store::files::purge_unattached(
            &app.state.db,
            &app.state.files,
            mentorpay::clock::now() + chrono::Duration::hours(hours),
        )
    };
    let stored = |id: &str| app.dir.path().join("data/uploads/receipts").join(id).exists();
    // Within the day nothing goes: the form holding it may still be saved.
    assert_eq!(purge(23).await.unwrap(), 0);
    assert!(stored(&left));
    assert_eq!(purge(25).await.unwrap(), 1);
    assert!(!stored(&left) && stored(&kept), "only the unattached file's bytes are gone");
    assert_eq!(purge(25).await.unwrap(), 0, "once");
    // Removed, it can no longer be attached; the attached one still downloads.
    let mut b = body(&w, "F2", w.inside);
    b["details"]["fileIds"] = json!([left]);
    assert!(error_keys(app.post(&format!("{PR}/F2"), Some(admin), b).await.problem(422))
        .iter()
        .any(|k| k.starts_with("details.fileIds")));
    let res = app
        .client
        .get(format!("{}{}/files/{kept}", app.base, url(&r)))
        .bearer_auth(admin)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
}

#[actix_web::test]
async fn submit_validate_warns_of_a_late_submission_and_changes_nothing() {
    let w = world().await;
    // Trips on last year's 1 and 2 October; F3's window is 60 days: long over today.
    let late = create(&w, &w.coord, "F3", w.inside).await;
    let v = act(&w, &w.coord, &late, "submit/validate", json!({})).await.ok().clone();
    assert_eq!(v["errors"], json!([]), "{v}");
    assert_eq!(v["warnings"].as_array().unwrap().len(), 1, "{v}");
    assert_eq!(v["warnings"][0]["code"], "lateSubmission");
    let message = v["warnings"][0]["message"].as_str().unwrap();
    let (window, ended) = (shifted_day("2025-12-01"), shifted_day("2025-10-02"));
    let words = format!(
        "after the 60-day submission window that ended {} (the activity ended {})",
        window.format("%b %-d, %Y"),
        ended.format("%b %-d, %Y")
    );
    assert!(message.contains(&words), "{message}");
    // A dry run: still a draft at the same version, nothing logged.
    let after = w.app.get(&url(&late), &w.coord).await.ok().clone();
    assert_eq!((&after["formStatus"], &after["version"]), (&json!("Draft"), &late["version"]));

    // Today's seminar is inside the window; F14 has no activity dates, so no window.
    let mut today = body(&w, "F5", w.inside);
    today["details"]["seminarDate"] = json!(mentorpay::clock::now().date_naive().to_string());
    let on_time = w.app.post(&format!("{PR}/F5"), Some(&w.coord), today).await.ok().clone();
    assert_eq!(
        act(&w, &w.coord, &on_time, "submit/validate", json!({})).await.ok()["warnings"],
        json!([])
    );
    let bonus = create(&w, &w.coord, "F14", w.inside).await;
    assert_eq!(
        act(&w, &w.coord, &bonus, "submit/validate", json!({})).await.ok()["warnings"],
        json!([])
    );

    // The same rule as the submit it precedes: scope, status, permission.
    let elsewhere = create(&w, &w.admin, "F3", w.outside).await;
    act(&w, &w.coord, &elsewhere, "submit/validate", json!({})).await.problem(404);
    let sent = act(&w, &w.coord, &late, "submit", json!({})).await.ok().clone();
    act(&w, &w.coord, &sent, "submit/validate", json!({})).await.problem(409);
    w.app.post(&format!("{}/submit/validate", url(&late)), None, json!({})).await.problem(401);
    // The approver is told the same thing.
    let v = act(&w, &w.approver, &sent, "approve/validate", approval(&w, "F3", 10.0).await)
        .await
        .ok()
        .clone();
    let approver_sees: Vec<&Value> = v["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["code"] == "lateSubmission")
        .collect();
    assert_eq!(approver_sees[0]["message"].as_str(), Some(message), "{v}");
}

/// Edits `r` as `token`: its body with `change` applied, at its current version.
async fn edit_as(w: &World, token: &str, r: &Value, change: &dyn Fn(&mut Value)) -> Value {
    let form = r["formType"].as_str().unwrap();
    let participation = r["participationId"].as_i64().unwrap();
    let mut b = body(w, form, participation);
    b["version"] = r["version"].clone();
    change(&mut b);
    w.app.put(&url(r), token, b).await.ok().clone()
}

#[actix_web::test]
async fn an_approver_who_changes_what_is_paid_or_to_whom_cannot_approve_it() {
    let w = world().await;
    let third = "third@example.org";
    w.app.create_user(&w.admin, third, &["Administrator"], PASSWORD).await;
    let (third, _) = w.app.login(third, PASSWORD).await;
    let mut ack = approval(&w, "F1", 2500.0).await;
    ack["acknowledgeWarnings"] = json!(true);

    // The attack: an F1 raised to 2,500.00 by the approver, then approved by her.
    let r = submitted(&w, "F1", w.inside).await;
    let raised = edit_as(&w, &w.approver, &r, &|b| b["requestedAmount"] = json!(2500)).await;
    assert_eq!(raised["requestedAmount"], 2500.0);
    let v = act(&w, &w.approver, &raised, "approve/validate", ack.clone()).await.ok().clone();
    assert_eq!(v["errors"][0]["code"], "editedByApprover", "{v}");
    assert!(v["errors"][0]["message"].as_str().unwrap().contains("another approver"), "{v}");
    act(&w, &w.approver, &raised, "approve", ack.clone()).await.problem(422);
    let still = w.app.get(&url(&r), &w.admin).await.ok().clone();
    assert_eq!(still["formStatus"], "Submitted");
    // Another approver, who changed nothing, may.
    act(&w, &third, &raised, "approve", ack.clone()).await.ok();

    // Moving a request to another payee is as material.
    let mut ack = approval(&w, "F5", 100.0).await;
    ack["acknowledgeWarnings"] = json!(true);
    let r = submitted(&w, "F5", w.inside).await;
    let moved = edit_as(&w, &w.approver, &r, &|b| b["participationId"] = json!(w.outside)).await;
    assert_eq!(moved["participationId"], w.outside);
    let refused = act(&w, &w.approver, &moved, "approve", ack.clone()).await;
    assert!(refused.problem(422).to_string().contains("another approver"), "{}", refused.body);

    // A description alone changes neither: its editor may still approve.
    let r = submitted(&w, "F5", w.inside).await;
    let worded =
        edit_as(&w, &w.approver, &r, &|b| b["description"] = json!("Seminar, spelled out")).await;
    act(&w, &w.approver, &worded, "approve", ack.clone()).await.ok();

    // Sent back and submitted again by its requester, the edited request is a new proposal.
    let r = submitted(&w, "F5", w.inside).await;
    let edited = edit_as(&w, &w.approver, &r, &|b| b["requestedAmount"] = json!(90)).await;
    let back =
        act(&w, &w.approver, &edited, "send-for-revision", json!({"reason": "Check the amount"}))
            .await
            .ok()
            .clone();
    let again = act(&w, &w.admin, &back, "submit", json!({})).await.ok().clone();
    let mut ack90 = ack.clone();
    ack90["approvedAmount"] = json!(90);
    act(&w, &w.approver, &again, "approve", ack90).await.ok();
}
