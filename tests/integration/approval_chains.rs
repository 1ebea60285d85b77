//! Approval chains on the real app: a form's rule by amount (one step for a small amount,
//! three for a large one), each refusal of who may take a step, the amount lowered then
//! refused when raised, a revision that restarts the chain, a rule edit that leaves a
//! request in flight alone, two approvers racing on one step, the scope of named programs
//! and `program:readall`, WaitingForMe and the mails to the next step's approvers.

use std::time::{Duration, Instant};

use crate::common::dates::{shifted, shifted_fy};
use crate::common::*;
use serde_json::{json, Value};

const PR: &str = "/api/v1/payment-requests";
const RULES: &str = "/api/v1/system-settings/approval-rules";
const PASSWORD: &str = "chain pass 12345";

struct World {
    app: TestApp,
    admin: String,
    programs: Vec<i64>,
    code: i64,
    fund: i64,
    account: i64,
    /// The payee's participations in programs[0] and programs[1].
    inside: i64,
    outside: i64,
    lead: (i64, String),
    lead2: (i64, String),
    finance: (i64, String),
    director: (i64, String),
    /// Holds both Program lead and Finance.
    both: (i64, String),
}

async fn role(app: &TestApp, admin: &str, name: &str, extra: &[&str]) {
    let mut permissions = vec!["request:read", "request:approve"];
    permissions.extend_from_slice(extra);
    app.post(
        "/api/v1/identity/roles",
        Some(admin),
        json!({"name": name, "permissions": permissions}),
    )
    .await
    .ok();
}

async fn user(
    w: &TestApp,
    admin: &str,
    email: &str,
    roles: &[&str],
    programs: &[i64],
) -> (i64, String) {
    let r = w
        .post(
            "/api/v1/identity/users",
            Some(admin),
            json!({"email": email, "firstName": email.split('@').next().unwrap(), "lastName": "Staff",
                   "roles": roles, "password": PASSWORD, "mentorProgramIds": programs}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.body["mentorProgramIds"], json!(programs));
    let id = r.body["id"].as_i64().unwrap();
    (id, w.login(email, PASSWORD).await.0)
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
    let fy = fy.ok()["id"].as_i64().unwrap();
    let programs = ids(&app, &admin, "/api/v1/mentor-programs").await;
    let fund = ids(&app, &admin, "/api/v1/funds").await[0];
    let account = ids(&app, &admin, "/api/v1/expense-accounts").await[0];
    let codes = app.get("/api/v1/approval-codes", &admin).await.ok().clone();
    let code = codes.as_array().unwrap().iter().find(|c| c["paymentRequestType"] == "F1").unwrap()
        ["id"]
        .as_i64()
        .unwrap();
    let mut payee = person("Pat", "pat@example.org", "Mentor");
    payee["participations"] =
        json!([taking(programs[0], fy, "Mentor"), taking(programs[1], fy, "Mentor")]);
    let r = app.post("/api/v1/participants", Some(&admin), payee).await;
    let parts = r.ok()["participations"].as_array().unwrap().clone();
    let of = |program: i64| {
        parts.iter().find(|p| p["mentorProgramId"] == program).unwrap()["id"].as_i64().unwrap()
    };
    let (inside, outside) = (of(programs[0]), of(programs[1]));
    role(&app, &admin, "Program lead", &[]).await;
    role(&app, &admin, "Finance", &[]).await;
    role(&app, &admin, "Director", &["program:readall"]).await;
    let p0 = [programs[0]];
    let lead = user(&app, &admin, "lead@example.org", &["Program lead"], &p0).await;
    let lead2 = user(&app, &admin, "lead2@example.org", &["Program lead"], &p0).await;
    let finance = user(&app, &admin, "finance@example.org", &["Finance"], &p0).await;
    let director = user(&app, &admin, "director@example.org", &["Director"], &[]).await;
    let both = user(&app, &admin, "both@example.org", &["Program lead", "Finance"], &p0).await;
    World {
        app,
        admin,
        programs,
        code,
        fund,
        account,
        inside,
        outside,
        lead,
        lead2,
        finance,
        director,
        both,
    }
}

fn three_steps() -> Value {
    json!({"steps": [
        {"name": "Program review", "role": "Program lead", "fromAmount": 0},
        {"name": "Finance review", "role": "Finance", "fromAmount": 100},
        {"name": "Director", "role": "director", "fromAmount": 1000},
    ]})
}

async fn submitted(w: &World, participation: i64, amount: f64) -> Value {
    let body = json!({"participationId": participation, "description": "Mentoring", "requestedAmount": amount,
        "details": {"collegeId": 1, "menteeName": "Ana", "courseCode": "CD 101",
                    "placementStartDate": shifted("2025-09-01"), "placementEndDate": shifted("2025-12-15"), "hours": 12.5}});
    let r = w.app.post(&format!("{PR}/F1"), Some(&w.admin), body).await.ok().clone();
    w.app.post(&format!("{PR}/F1/{}/submit", r["id"]), Some(&w.admin), json!({})).await.ok().clone()
}

fn proposal(w: &World, amount: f64) -> Value {
    json!({"approvedAmount": amount, "approvalCodeId": w.code, "fundId": w.fund,
           "expenseAccountId": w.account, "acknowledgeWarnings": true})
}

async fn approve(w: &World, token: &str, r: &Value, body: Value) -> Reply {
    w.app.post(&format!("{PR}/F1/{}/approve", r["id"]), Some(token), body).await
}

async fn get(w: &World, r: &Value) -> Value {
    w.app.get(&format!("{PR}/F1/{}", r["id"]), &w.admin).await.ok().clone()
}

fn states(r: &Value) -> Vec<String> {
    r["approval"]["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["state"].as_str().unwrap().to_owned())
        .collect()
}

async fn waiting(w: &World, token: &str) -> Vec<i64> {
    steps_noted(&w.app).await;
    let page = w.app.get(&format!("{PR}?WaitingForMe=true"), token).await.ok().clone();
    page["items"].as_array().unwrap().iter().map(|i| i["id"].as_i64().unwrap()).collect()
}

/// Every request's note of its current step, which the database keeps and the waiting list
/// reads, says what its steps say.
async fn steps_noted(app: &TestApp) {
    use sea_orm::{ConnectionTrait, Statement};
    let current = |column: &str| {
        format!(
            "(SELECT s.{column} FROM request_steps s \
             WHERE s.payment_request_id = p.id AND s.state = 'current')"
        )
    };
    let sql = format!(
        "SELECT COUNT(*) FROM payment_requests p \
         WHERE p.current_step_role IS DISTINCT FROM {} \
         OR p.current_step_index IS DISTINCT FROM {}",
        current("role"),
        current("step_index")
    );
    let db = &app.state.db;
    let row = db
        .query_one_raw(Statement::from_string(db.get_database_backend(), sql))
        .await
        .unwrap()
        .unwrap();
    let off: i64 = row.try_get_by_index(0).unwrap();
    assert_eq!(off, 0, "requests whose note of the current step is not their steps'");
}

/// Waits for the outbox to hand a mail to `to` whose subject names request `id`.
async fn mail_about(w: &World, to: &str, id: i64) -> String {
    let started = Instant::now();
    loop {
        let found = w
            .app
            .outbox
            .lock()
            .unwrap()
            .iter()
            .find(|m| m.to == to && m.subject.contains(&format!("#{id} ")))
            .cloned();
        if let Some(m) = found {
            return m.subject;
        }
        assert!(started.elapsed() < Duration::from_secs(20), "no mail to {to} about #{id}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn mails_to(w: &World, to: &str, id: i64) -> usize {
    w.app
        .outbox
        .lock()
        .unwrap()
        .iter()
        .filter(|m| m.to == to && m.subject.contains(&format!("#{id} ")))
        .count()
}

#[actix_web::test]
async fn a_chain_by_amount_is_taken_step_by_step() {
    let w = world().await;
    // The default: one Administrator step on every form.
    let rules = w.app.get(RULES, &w.admin).await.ok().clone();
    assert_eq!(rules.as_array().unwrap().len(), 14);
    assert_eq!(
        rules[0],
        json!({"formType": "F1", "steps": [{"name": "Approval", "role": "Administrator", "fromAmount": 0.0}]})
    );
    let saved = w.app.put(&format!("{RULES}/F1"), &w.admin, three_steps()).await.ok().clone();
    assert_eq!(saved["steps"][2]["role"], "Director", "spelt as the role is stored");
    for (amount, count) in [(50.0, 1), (100.0, 2), (1500.0, 3)] {
        let mut body = three_steps();
        body["amount"] = json!(amount);
        let tried = w.app.post(&format!("{RULES}/F1/try"), Some(&w.admin), body).await.ok().clone();
        assert_eq!(tried["steps"].as_array().unwrap().len(), count, "{amount}");
    }

    // A small amount: the one step.
    let small = submitted(&w, w.inside, 50.0).await;
    assert_eq!(states(&small), ["current"]);
    let done = approve(&w, &w.lead.1, &small, proposal(&w, 50.0)).await.ok().clone();
    assert_eq!(done["formStatus"], "Approved");
    assert_eq!(done["approval"]["steps"][0]["by"]["id"], w.lead.0);

    // A large one: three steps, each for its role.
    let large = submitted(&w, w.inside, 1500.0).await;
    let id = large["id"].as_i64().unwrap();
    assert_eq!(states(&large), ["current", "waiting", "waiting"]);
    let subject = mail_about(&w, "lead@example.org", id).await;
    assert!(subject.ends_with("was submitted for approval"), "{subject}");
    assert_eq!(mails_to(&w, "finance@example.org", id), 0, "the later steps' approvers wait");
    assert!(waiting(&w, &w.lead.1).await.contains(&id));
    assert!(!waiting(&w, &w.finance.1).await.contains(&id));

    let v = w
        .app
        .post(&format!("{PR}/F1/{id}/approve/validate"), Some(&w.lead.1), proposal(&w, 1400.0))
        .await
        .ok()
        .clone();
    assert_eq!(
        v["step"],
        json!({"name": "Program review", "role": "Program lead", "index": 0, "count": 3})
    );
    assert_eq!(v["final"], false);
    // Not her step: the 403 names it.
    let refused = approve(&w, &w.finance.1, &large, proposal(&w, 1400.0)).await;
    assert_eq!(
        refused.problem(403)["detail"],
        "Step 1, Program review, is for the role Program lead."
    );

    let after_one = approve(&w, &w.both.1, &large, proposal(&w, 1400.0)).await.ok().clone();
    assert_eq!(after_one["formStatus"], "Submitted");
    assert_eq!(after_one["approvedAmount"], Value::Null, "only the last step approves");
    assert_eq!(states(&after_one), ["done", "current", "waiting"]);
    assert_eq!(after_one["approval"]["steps"][0]["approvedAmount"], 1400.0);
    assert_eq!(after_one["approval"]["steps"][0]["by"]["email"], "both@example.org");
    mail_about(&w, "finance@example.org", id).await;

    // She approved step 1: step 2 is not hers, though she holds Finance.
    let again = approve(&w, &w.both.1, &large, proposal(&w, 1400.0)).await;
    assert!(
        again.problem(403)["detail"]
            .as_str()
            .unwrap()
            .starts_with("Step 2, Finance review, is for the role Finance"),
        "{}",
        again.body
    );
    // The lead no longer: the step moved on.
    let lead = approve(&w, &w.lead.1, &large, proposal(&w, 1400.0)).await;
    assert_eq!(lead.problem(403)["detail"], "Step 2, Finance review, is for the role Finance.");
    assert!(waiting(&w, &w.finance.1).await.contains(&id));
    assert!(!waiting(&w, &w.both.1).await.contains(&id));
    // Home's count is the list's: exact while it is small.
    let page =
        w.app.get(&format!("{PR}?WaitingForMe=true&Size=1"), &w.finance.1).await.ok().clone();
    assert_eq!(
        (page["totalCount"].as_i64(), page["totalCountIsExact"].as_bool()),
        (Some(1), Some(true)),
        "{page}"
    );

    // Raising the amount above the step before is refused; lowering it is fine.
    let raised = approve(&w, &w.finance.1, &large, proposal(&w, 1450.0)).await;
    assert!(raised.problem(422)["errors"]["approvedAmount"].is_array(), "{}", raised.body);
    let two = approve(&w, &w.finance.1, &large, proposal(&w, 1300.0)).await.ok().clone();
    assert_eq!(states(&two), ["done", "done", "current"]);
    mail_about(&w, "director@example.org", id).await;

    // The last step approves, at most what Finance approved.
    let raised = approve(&w, &w.director.1, &large, proposal(&w, 1350.0)).await;
    raised.problem(422);
    let last = approve(&w, &w.director.1, &large, proposal(&w, 1250.0)).await.ok().clone();
    assert_eq!(
        (last["formStatus"].as_str(), last["approvedAmount"].as_f64()),
        (Some("Approved"), Some(1250.0))
    );
    assert_eq!(states(&last), ["done", "done", "done"]);

    // Every step is in the activity log and the audit trail.
    let log = w
        .app
        .get(&format!("{PR}/activity-log?PaymentRequestId={id}&PaymentRequestType=F1"), &w.admin)
        .await
        .ok()
        .clone();
    let actions: Vec<&str> = log["items"]
        .as_array()
        .or(log.as_array())
        .unwrap()
        .iter()
        .map(|e| e["action"].as_str().unwrap())
        .collect();
    assert_eq!(actions.iter().filter(|a| **a == "step-approved").count(), 2, "{log}");
    assert!(actions.contains(&"approved"), "{log}");
    let audit = w.app.get("/api/v1/audit-log?Size=500", &w.admin).await.ok().to_string();
    assert!(audit.contains("Step 1 of 3, Program review, approved by both Staff"), "{audit}");
    assert!(audit.contains("Step 3 of 3, Director, approved by director Staff"), "{audit}");
}

#[actix_web::test]
async fn a_revision_restarts_the_chain_and_a_rule_edit_leaves_requests_in_flight() {
    let w = world().await;
    w.app.put(&format!("{RULES}/F1"), &w.admin, three_steps()).await.ok();
    let r = submitted(&w, w.inside, 1500.0).await;
    approve(&w, &w.lead.1, &r, proposal(&w, 1500.0)).await.ok();

    // The office changes the rule: the request keeps the chain it was given.
    let one = json!({"steps": [{"name": "Sign-off", "role": "Finance", "fromAmount": 0}]});
    w.app.put(&format!("{RULES}/F1"), &w.admin, one).await.ok();
    let still = get(&w, &r).await;
    assert_eq!(states(&still), ["done", "current", "waiting"]);
    assert_eq!(still["approval"]["steps"][1]["name"], "Finance review");

    // Sent back at step 2: the next submission starts at step 1 of the rule in force.
    let id = r["id"].as_i64().unwrap();
    w.app
        .post(
            &format!("{PR}/F1/{id}/send-for-revision"),
            Some(&w.admin),
            json!({"reason": "Dates"}),
        )
        .await
        .ok();
    assert_eq!(get(&w, &r).await["approval"], Value::Null);
    let again =
        w.app.post(&format!("{PR}/F1/{id}/submit"), Some(&w.admin), json!({})).await.ok().clone();
    assert_eq!(states(&again), ["current"]);
    assert_eq!(again["approval"]["steps"][0]["name"], "Sign-off");
    // The lead's earlier approval no longer counts; Finance signs off alone.
    let done = approve(&w, &w.finance.1, &again, proposal(&w, 1500.0)).await.ok().clone();
    assert_eq!(done["formStatus"], "Approved");

    // Moved back to submitted: the chain starts over too.
    let back = w
        .app
        .post(&format!("{PR}/F1/{id}/move-back-to-submitted"), Some(&w.admin), json!({}))
        .await
        .ok()
        .clone();
    assert_eq!(states(&back), ["current"]);
    assert_eq!(back["approval"]["steps"][0]["by"], Value::Null);
}

#[actix_web::test]
async fn two_approvers_racing_on_one_step_one_wins() {
    let w = world().await;
    w.app.put(&format!("{RULES}/F1"), &w.admin, three_steps()).await.ok();
    let r = submitted(&w, w.inside, 1500.0).await;
    let mut body = proposal(&w, 1500.0);
    body["step"] = json!(0);
    let (a, b) = tokio::join!(
        approve(&w, &w.lead.1, &r, body.clone()),
        approve(&w, &w.lead2.1, &r, body.clone())
    );
    let mut statuses = [a.status.as_u16(), b.status.as_u16()];
    statuses.sort_unstable();
    assert_eq!(statuses, [200, 409], "{} / {}", a.body, b.body);
    let now = get(&w, &r).await;
    assert_eq!(states(&now), ["done", "current", "waiting"]);
    // Late for a step taken: a 409 naming it, whoever calls.
    let late = approve(&w, &w.finance.1, &r, body).await;
    assert!(
        late.problem(409)["detail"].as_str().unwrap().contains("Step 1 was taken meanwhile"),
        "{}",
        late.body
    );
}

#[actix_web::test]
async fn rules_are_checked_as_the_contract_says() {
    let w = world().await;
    let f1 = format!("{RULES}/F1");
    let put = |body: Value| w.app.put(&f1, &w.admin, body);
    let step =
        |name: &str, role: &str, from: f64| json!({"name": name, "role": role, "fromAmount": from});
    for (body, field) in [
        (json!({"steps": []}), "steps"),
        (json!({"steps": vec![step("a", "Finance", 0.0); 6]}), "steps"),
        (json!({"steps": [step(" ", "Finance", 0.0)]}), "steps[0].name"),
        (json!({"steps": [step(&"x".repeat(101), "Finance", 0.0)]}), "steps[0].name"),
        (json!({"steps": [step("a", "", 0.0)]}), "steps[0].role"),
        (
            json!({"steps": [step("a", "Finance", 0.0), step("b", "Finance", -1.0)]}),
            "steps[1].fromAmount",
        ),
    ] {
        let r = put(body).await;
        assert!(r.problem(400)["errors"][field].is_array(), "{field}: {}", r.body);
    }
    for (body, field) in [
        (json!({"steps": [step("a", "Nobody", 0.0)]}), "steps[0].role"),
        (json!({"steps": [step("a", "Coordinator", 0.0)]}), "steps[0].role"),
        (json!({"steps": [step("a", "Finance", 5.0)]}), "steps[0].fromAmount"),
        (
            json!({"steps": [step("a", "Finance", 0.0), step("A", "Director", 5.0)]}),
            "steps[1].name",
        ),
    ] {
        let r = put(body.clone()).await;
        assert!(r.problem(422)["errors"][field].is_array(), "{field}: {}", r.body);
        let mut tried = body;
        tried["amount"] = json!(10);
        let r = w.app.post(&format!("{RULES}/F1/try"), Some(&w.admin), tried).await;
        assert!(r.problem(422)["errors"][field].is_array(), "try {field}: {}", r.body);
    }
    w.app.put(&format!("{RULES}/F99"), &w.admin, three_steps()).await.problem(404);
    // Nothing was saved; a reader of settings may try but not save.
    let rules = w.app.get(RULES, &w.admin).await.ok().clone();
    assert_eq!(rules[0]["steps"][0]["name"], "Approval");
    w.app.put(&format!("{RULES}/F1"), &w.lead.1, three_steps()).await.problem(403);
    // The change is audited with before and after.
    w.app.put(&format!("{RULES}/F1"), &w.admin, three_steps()).await.ok();
    let audit = w.app.get("/api/v1/audit-log?Size=500", &w.admin).await.ok().to_string();
    assert!(audit.contains("approval-rule-updated") && audit.contains("Finance review"), "{audit}");
}

#[actix_web::test]
async fn named_programs_and_program_readall_decide_what_staff_see() {
    let w = world().await;
    w.app.put(&format!("{RULES}/F1"), &w.admin, three_steps()).await.ok();
    let elsewhere = submitted(&w, w.outside, 1500.0).await;
    let url = format!("{PR}/F1/{}", elsewhere["id"]);
    // Named on programs[0] only: programs[1]'s request is not there for her.
    w.app.get(&url, &w.lead.1).await.problem(404);
    // The Director's role holds program:readall.
    w.app.get(&url, &w.director.1).await.ok();
    // Giving the lead programs[1] lets her see it.
    let mut lead =
        w.app.get(&format!("/api/v1/identity/users/{}", w.lead.0), &w.admin).await.ok().clone();
    lead["mentorProgramIds"] = json!([w.programs[0], w.programs[1]]);
    let saved = w
        .app
        .put(&format!("/api/v1/identity/users/{}", w.lead.0), &w.admin, lead.clone())
        .await
        .ok()
        .clone();
    assert_eq!(saved["mentorProgramIds"], json!([w.programs[0], w.programs[1]]));
    w.app.get(&url, &w.lead.1).await.ok();
    // Left out, they stay.
    let mut unnamed = lead.clone();
    unnamed.as_object_mut().unwrap().remove("mentorProgramIds");
    let kept = w
        .app
        .put(&format!("/api/v1/identity/users/{}", w.lead.0), &w.admin, unnamed)
        .await
        .ok()
        .clone();
    assert_eq!(kept["mentorProgramIds"], json!([w.programs[0], w.programs[1]]));
    // An unknown program is a 422 naming it.
    let mut bad = lead.clone();
    bad["mentorProgramIds"] = json!([w.programs[0], 999_999]);
    let r = w.app.put(&format!("/api/v1/identity/users/{}", w.lead.0), &w.admin, bad).await;
    assert!(r.problem(422)["errors"]["mentorProgramIds[1]"].is_array(), "{}", r.body);
    // Nobody names a program she does not see herself.
    w.app.post("/api/v1/identity/roles", Some(&w.admin), json!({"name": "Staff desk", "permissions": ["user:create", "user:read", "user:edit", "request:read", "role:create"]})).await.ok();
    let desk = user(&w.app, &w.admin, "desk@example.org", &["Staff desk"], &[w.programs[0]]).await;
    let r = w
        .app
        .post(
            "/api/v1/identity/users",
            Some(&desk.1),
            json!({"email": "new@example.org", "firstName": "N", "lastName": "U",
        "roles": ["Staff desk"], "password": PASSWORD, "mentorProgramIds": [w.programs[1]]}),
        )
        .await;
    assert!(r.problem(422)["errors"]["mentorProgramIds[0]"].is_array(), "{}", r.body);
    // program:readall is listed, and granted no further than held.
    let perms = w.app.get("/api/v1/identity/permissions", &w.admin).await.ok().to_string();
    assert!(perms.contains("program:readall"));
    let r = w
        .app
        .post(
            "/api/v1/identity/roles",
            Some(&desk.1),
            json!({"name": "Sees all", "permissions": ["program:readall"]}),
        )
        .await;
    assert_eq!(r.status, 403, "{}", r.body);
}

#[actix_web::test]
async fn a_stand_in_takes_the_absent_approvers_step_on_her_behalf() {
    let w = world().await;
    w.app.put(&format!("{RULES}/F1"), &w.admin, three_steps()).await.ok();
    // Finance is away; the second program lead stands in.
    let away = json!({"from": crate::common::dates::today(), "to": crate::common::dates::days(3),
                      "standInUserId": w.lead2.0});
    w.app.put("/api/v1/identity/me/out-of-office", &w.finance.1, away).await.ok();

    let large = submitted(&w, w.inside, 1500.0).await;
    let id = large["id"].as_i64().unwrap();
    approve(&w, &w.lead.1, &large, proposal(&w, 1400.0)).await.ok();
    // The step's mail goes to the stand-in, not to the absent approver.
    mail_about(&w, "lead2@example.org", id).await;
    assert_eq!(mails_to(&w, "finance@example.org", id), 0);
    assert!(waiting(&w, &w.lead2.1).await.contains(&id));
    let page = w.app.get(&format!("{PR}/F1/{id}"), &w.lead2.1).await.ok().clone();
    assert!(page["availableActions"].as_array().unwrap().contains(&json!("approve")), "{page}");

    let after = approve(&w, &w.lead2.1, &large, proposal(&w, 1400.0)).await.ok().clone();
    let step = &after["approval"]["steps"][1];
    assert_eq!(
        (step["by"]["id"].as_i64(), step["onBehalfOf"]["id"].as_i64()),
        (Some(w.lead2.0), Some(w.finance.0))
    );
    let log = w
        .app
        .get(&format!("{PR}/activity-log?PaymentRequestId={id}&PaymentRequestType=F1"), &w.admin)
        .await;
    assert!(log.body.to_string().contains("on behalf of finance Staff"), "{}", log.body);
    // She took step 2 for Finance: step 3 is still the Director's alone.
    assert_eq!(states(&after), ["done", "done", "current"]);

    // Back in the office: the stand-in's reach ends with the window.
    w.app.delete("/api/v1/identity/me/out-of-office", &w.finance.1).await;
    let next = submitted(&w, w.inside, 1500.0).await;
    approve(&w, &w.lead.1, &next, proposal(&w, 1400.0)).await.ok();
    let refused = approve(&w, &w.lead2.1, &next, proposal(&w, 1400.0)).await;
    refused.problem(403);
    assert!(!waiting(&w, &w.lead2.1).await.contains(&next["id"].as_i64().unwrap()));
}

/// Runs `mentorpay remind --as-of` the office's `day` at noon UTC on the world's database, as
/// cron would beside the server; the three counts it prints (reminded, escalated, mails).
async fn remind(w: &World, day: chrono::NaiveDate) -> (u32, u32, u32) {
    let out = crate::common::beside(w.app.remind(&format!("{day}T12:00:00Z"))).await;
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    let n: Vec<u32> =
        text.split(|c: char| !c.is_ascii_digit()).filter_map(|t| t.parse().ok()).collect();
    assert_eq!(n.len(), 3, "{text}");
    (n[0], n[1], n[2])
}

/// Waits until `to` has had `n` mails whose subject starts with `start` and names #`id`.
async fn mails_like(w: &World, to: &str, start: &str, id: i64, n: usize) {
    let started = Instant::now();
    let count = || {
        w.app
            .outbox
            .lock()
            .unwrap()
            .iter()
            .filter(|m| m.to == to && m.subject.starts_with(start))
            .filter(|m| m.subject.contains(&format!("#{id} ")))
            .count()
    };
    while count() < n {
        assert!(started.elapsed() < Duration::from_secs(20), "{to}: {} of {n} {start}", count());
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // Nothing more comes after a moment.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(count(), n, "{to}: {start} #{id}");
}

#[actix_web::test]
async fn a_step_waiting_too_long_reminds_once_a_day_and_escalates_once() {
    use crate::common::dates::days;
    let w = world().await;
    w.app.put(&format!("{RULES}/F1"), &w.admin, three_steps()).await.ok();
    let mut general = w.app.get("/api/v1/system-settings/general", &w.admin).await.ok().clone();
    general["reminderDays"] = json!(2);
    general["escalationDays"] = json!(4);
    general["timeZone"] = json!("UTC");
    let path = format!("/api/v1/system-settings/general/{}", general["id"]);
    w.app.put(&path, &w.admin, general).await.ok();
    // "both" reads a daily digest: reminded there, not by mail.
    w.app.put("/api/v1/identity/me/notifications", &w.both.1, json!({"mode": "daily"})).await.ok();
    // The first program lead is away from the fourth day on: her stand-in hears for her then.
    let away = json!({"from": days(4), "to": days(30), "standInUserId": w.lead2.0});
    w.app.put("/api/v1/identity/me/out-of-office", &w.lead.1, away).await.ok();

    let r = submitted(&w, w.inside, 1500.0).await;
    let id = r["id"].as_i64().unwrap();
    // Not yet longer than two days: nothing.
    assert_eq!(remind(&w, days(2)).await, (0, 0, 0));
    // Three days: the step's approvers who read mail at once (both program leads), once.
    assert_eq!(remind(&w, days(3)).await, (1, 0, 2));
    assert_eq!(remind(&w, days(3)).await, (0, 0, 0), "a second pass the same day sends nothing");
    mails_like(&w, "lead@example.org", "Reminder: ", id, 1).await;
    mails_like(&w, "lead2@example.org", "Reminder: ", id, 1).await;
    let reminder = w
        .app
        .outbox
        .lock()
        .unwrap()
        .iter()
        .find(|m| m.to == "lead@example.org" && m.subject.starts_with("Reminder"))
        .cloned()
        .unwrap();
    assert_eq!(
        reminder.subject,
        format!("Reminder: Placement stipend request F1 #{id} has waited 3 days for approval")
    );
    assert!(reminder.body.contains("at the approval step Program review"), "{}", reminder.body);
    // Day four: the away lead's reminder goes to her stand-in, who hears once.
    assert_eq!(remind(&w, days(4)).await, (1, 0, 1));
    mails_like(&w, "lead2@example.org", "Reminder: ", id, 2).await;
    // Past four days: escalated to the Administrator, once; reminders go on daily.
    assert_eq!(remind(&w, days(5)).await, (1, 1, 2));
    assert_eq!(remind(&w, days(5)).await, (0, 0, 0));
    assert_eq!(remind(&w, days(6)).await, (1, 0, 1));
    mails_like(&w, "admin@example.org", "Escalation: ", id, 1).await;
    mails_like(&w, "lead@example.org", "Reminder: ", id, 1).await;
    mails_like(&w, "lead2@example.org", "Reminder: ", id, 4).await;
    assert_eq!(mails_to(&w, "both@example.org", id), 0, "the digest reader gets no mail");
    assert_eq!(mails_to(&w, "finance@example.org", id), 0, "later steps' approvers wait");

    // Each reminder and the escalation are on the request's record, by the application.
    let log = w
        .app
        .get(&format!("{PR}/activity-log?PaymentRequestId={id}&PaymentRequestType=F1"), &w.admin)
        .await
        .ok()
        .clone();
    let actions: Vec<&str> =
        log.as_array().unwrap().iter().map(|e| e["action"].as_str().unwrap()).collect();
    assert_eq!(actions.iter().filter(|a| **a == "approval-reminded").count(), 4, "{log}");
    assert_eq!(actions.iter().filter(|a| **a == "approval-escalated").count(), 1, "{log}");
    // Said in words, as the audit trail shows them.
    let escalated = log.as_array().unwrap().iter().find(|e| e["action"] == "approval-escalated");
    assert_eq!(
        escalated.unwrap()["data"],
        json!({"step": "1. Program review (Program lead)", "daysWaiting": 5, "peopleMailed": 1}),
        "{log}"
    );

    // The step taken, the next one waits from now: its own count starts again.
    approve(&w, &w.lead2.1, &r, proposal(&w, 1400.0)).await.ok();
    assert_eq!(remind(&w, days(2)).await, (0, 0, 0));
    assert_eq!(remind(&w, days(3)).await, (1, 0, 1));
    mails_like(&w, "finance@example.org", "Reminder: ", id, 1).await;
    // A request no longer waiting reminds nobody.
    w.app
        .post(
            &format!("{PR}/F1/{id}/send-for-revision"),
            Some(&w.admin),
            json!({"reason": "Receipt"}),
        )
        .await
        .ok();
    assert_eq!(remind(&w, days(9)).await, (0, 0, 0));
}

/// What waits for a caller reads the current step from the request's own note of it, and
/// probes the steps only for an earlier step she (or the person she stands in for) took: one
/// probe per person, answered from an index alone, never from the steps' rows.
#[actix_web::test]
async fn waiting_for_me_probes_the_steps_once_per_person_from_an_index() {
    use mentorpay::auth::scope::Scope;
    use mentorpay::payment_requests::{dto::ListQuery, store::list};
    use sea_orm::DbBackend;
    let app = spawn().await;
    let db = &app.state.db;
    if db.get_database_backend() != DbBackend::Sqlite {
        return; // PostgreSQL plans from its statistics.
    }
    let taker = |user_id, programs| list::Taker {
        user_id,
        roles: vec!["Administrator".into(), "Finance".into()],
        approves: true,
        programs,
    };
    let waiting =
        list::WaitingFor { user_id: 7, takers: vec![taker(7, None), taker(9, Some(vec![1, 2]))] };
    let query = ListQuery::default();
    let filter = list::ListFilter {
        query: &query,
        scope: &Scope::All,
        statuses: &[],
        forms: &[],
        waiting_for: Some(&waiting),
    };
    let sql = DbBackend::Sqlite.build(&list::matching_ids(&filter)).to_string();
    let steps: Vec<String> = crate::common::database::sqlite_plan(db, &sql)
        .await
        .into_iter()
        .filter(|d| d.contains("request_steps"))
        .collect();
    assert_eq!(steps.len(), 2, "one probe for each of the two people: {steps:?}");
    assert!(
        steps.iter().all(|d| d.contains("USING COVERING INDEX ix_request_steps_taken")),
        "{steps:?}"
    );
}
