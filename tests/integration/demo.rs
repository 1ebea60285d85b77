//! `mentorpay demo`: a newcomer's database shows a living app, loading twice changes nothing,
//! and every demo record obeys the rules the API would hold it to.

use crate::common;

use common::*;
use mentorpay::{
    budgets,
    entities::{budget_line, participant, participation, payment_request as pr},
    forms::{self, Details},
    identity,
    money::Money,
    participants::{
        self,
        dto::{ParticipantBody, ParticipationBody},
    },
    payment_requests::{
        approval::{self, Proposal},
        store::facts as store,
        workflow::{Action, Status},
    },
};
use sea_orm::EntityTrait;
use serde_json::json;

#[actix_web::test]
async fn the_demo_world_fills_every_screen_once() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let loaded = mentorpay::demo::world::load(&app.state)
        .await
        .unwrap()
        .expect("an empty database takes the demo");
    assert_eq!((loaded.participants, loaded.requests), (200, 600));
    assert!(loaded.budget_lines > 0);

    // Two demo Coordinators join the seeded participants.
    assert_eq!(app.get("/api/v1/participants?Size=1", &admin).await.ok()["totalCount"], 202);
    let summary = app.get("/api/v1/payment-requests/summary", &admin).await.ok().clone();
    let counts: Vec<i64> =
        summary.as_array().unwrap().iter().map(|s| s["count"].as_i64().unwrap()).collect();
    assert_eq!(counts.iter().sum::<i64>(), 600);
    assert!(counts.iter().all(|c| *c > 0), "requests in every status: {summary}");

    let years = app.get("/api/v1/budgets", &admin).await.ok().clone();
    let years = years.as_array().unwrap_or_else(|| panic!("{years}")).clone();
    assert_eq!(years.len(), 2, "{years:?}");
    for y in &years {
        let id = y["fiscalYearId"].as_i64().unwrap();
        assert!(
            y["approved"].as_f64().unwrap() > 0.0 && y["remaining"].as_f64().unwrap() > 0.0,
            "{y}"
        );
        let detail = app.get(&format!("/api/v1/budgets/{id}"), &admin).await.ok().clone();
        let lines = detail["lines"].as_array().unwrap();
        assert!(!lines.is_empty(), "{detail}");
        for line in lines {
            assert!(line["remaining"].as_f64().unwrap() > 0.0, "room left on every line: {line}");
            assert!(line["approved"].as_f64().unwrap() > 0.0, "{line}");
        }
    }

    // Every Processed request was paid in a vendor payment report of the history, and
    // requests wait to be paid in both years.
    let processed = summary.as_array().unwrap().iter().find(|s| s["formStatus"] == "Processed");
    let processed = processed.unwrap()["count"].as_i64().unwrap();
    let history =
        app.get("/api/v1/reports/vendor-payments/history?Size=100", &admin).await.ok().clone();
    let paid: i64 =
        history["totals"].as_array().unwrap().iter().map(|y| y["rowCount"].as_i64().unwrap()).sum();
    assert!(processed > 0 && paid == processed, "{processed} processed, {paid} paid: {history}");
    let ready = app.get("/api/v1/reports/vendor-payments/ready", &admin).await.ok().clone();
    assert_eq!(ready.as_array().unwrap().len(), 2, "{ready}");
    let some =
        app.get("/api/v1/payment-requests?FormStatus=Processed&Size=5", &admin).await.ok().clone();
    for r in some["items"].as_array().unwrap() {
        let path =
            format!("/api/v1/payment-requests/{}/{}", r["formType"].as_str().unwrap(), r["id"]);
        let detail = app.get(&path, &admin).await.ok().clone();
        assert!(detail["vendorPaymentReportId"].is_i64(), "{detail}");
    }

    // A second load (or one on real data) writes nothing.
    assert!(mentorpay::demo::world::load(&app.state).await.unwrap().is_none());
    assert_eq!(app.get("/api/v1/payment-requests?Size=1", &admin).await.ok()["totalCount"], 600);
}

#[actix_web::test]
async fn the_printed_coordinator_signs_in_and_the_administrator_approves_its_request() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let loaded = mentorpay::demo::world::load(&app.state).await.unwrap().unwrap();
    let (email, link) = loaded.coordinator.expect("a Coordinator login is printed");
    let query = &link[link.find("/set-password?").unwrap() + "/set-password?".len()..];
    let pairs: Vec<(String, String)> = serde_html_form::from_str(query).unwrap();
    let token = &pairs.iter().find(|(k, _)| k == "token").unwrap().1;
    let password = "demo coordinator 123";
    app.post(
        "/api/v1/identity/user/set-password",
        None,
        json!({"email": email, "token": token, "password": password}),
    )
    .await
    .ok();
    let (coordinator, _) = app.login(&email, password).await;

    // It sees only its programs' requests, and the Administrator can approve what it submitted.
    let own = app
        .get("/api/v1/payment-requests?Size=500&FormStatus=Submitted", &coordinator)
        .await
        .ok()
        .clone();
    let all = app
        .get("/api/v1/payment-requests?Size=500&FormStatus=Submitted", &admin)
        .await
        .ok()
        .clone();
    let (own_n, all_n) = (own["totalCount"].as_i64().unwrap(), all["totalCount"].as_i64().unwrap());
    assert!(0 < own_n && own_n < all_n, "{own_n} of {all_n}");
    let item = &own["items"][0];
    let path =
        format!("/api/v1/payment-requests/{}/{}", item["formType"].as_str().unwrap(), item["id"]);
    let full = app.get(&path, &admin).await.ok().clone();
    assert!(full["availableActions"].as_array().unwrap().iter().any(|a| a == "approve"), "{full}");
    let log = app
        .get(
            &format!(
                "/api/v1/payment-requests/activity-log?PaymentRequestId={}&PaymentRequestType={}",
                item["id"],
                item["formType"].as_str().unwrap()
            ),
            &admin,
        )
        .await
        .ok()
        .clone();
    let actions: Vec<&str> =
        log.as_array().unwrap().iter().map(|e| e["action"].as_str().unwrap()).collect();
    assert_eq!(actions, ["submitted", "created"], "newest first: {log}");
}

/// The status a logged action leads from and to, as the workflow defines it.
fn action_named(name: &str) -> Option<Action> {
    Some(match name {
        "submitted" => Action::Submit,
        "sent-for-revision" => Action::SendForRevision,
        "approved" => Action::Approve,
        "moved-to-ready-for-processing" => Action::MoveToReadyForProcessing,
        "processed" => Action::Process,
        "moved-to-draft" => Action::MoveToDraft,
        "moved-back-to-submitted" => Action::MoveBackToSubmitted,
        _ => return None,
    })
}

#[actix_web::test]
async fn every_demo_record_obeys_the_rules_the_api_holds_it_to() {
    let app = spawn().await;
    mentorpay::demo::world::load(&app.state).await.unwrap().unwrap();
    let db = &app.state.db;
    let rates = store::rates(db).await.unwrap();

    for r in pr::Entity::find().all(db).await.unwrap() {
        let form = r.form_type;
        let status = r.status;
        let limits = store::limits(db, form).await.unwrap();
        let mut details = Details::from_stored(form, &r.details).unwrap();
        let entered = Some(Money(r.requested_cents));
        let e = forms::evaluate(&mut details, entered, &rates, &limits).unwrap_or_else(|errors| {
            panic!("request {} ({form:?}) breaks its form: {errors:?}", r.id)
        });
        assert_eq!(e.requested_amount.cents(), r.requested_cents, "request {}", r.id);
        let mut errors = Default::default();
        forms::check_description(r.description.as_deref(), &mut errors);
        assert!(errors.is_empty(), "request {}: {errors:?}", r.id);

        let creator = r.created_by.expect("a creator");
        assert_eq!(
            identity::store::first_role(db, creator).await.unwrap().as_deref(),
            Some("Coordinator"),
            "request {}",
            r.id
        );
        if status != Status::Draft {
            let submitted = r.submitted_on.expect("submitted on");
            assert!(
                mentorpay::settings::store::fiscal_year_covering(db, submitted)
                    .await
                    .unwrap()
                    .is_some(),
                "request {}",
                r.id
            );
            assert_eq!(r.submitted_by, Some(creator));
        }
        if matches!(status, Status::Approved | Status::ReadyForProcessing | Status::Processed) {
            let proposal = Proposal {
                approved_amount: Money(r.approved_cents.expect("approved amount")),
                approval_code_id: r.approval_code_id.expect("approval code"),
                fund_id: r.fund_id.expect("fund"),
                expense_account_id: r.expense_account_id.expect("expense account"),
            };
            // Judged as the approve call judges it, by the approver it names.
            let ground =
                store::approval_ground(db, &r, &proposal, r.approved_by.expect("approver"))
                    .await
                    .unwrap();
            let verdict = approval::assess(&proposal, &ground.facts);
            assert!(
                verdict.errors.is_empty(),
                "request {} could not have been approved: {:?}",
                r.id,
                verdict.errors
            );
        } else {
            assert!(r.approved_cents.is_none() && r.approved_at.is_none(), "request {}", r.id);
        }

        // Its history leads, step by step through the workflow, to where it stands.
        let mut log = mentorpay::payment_requests::store::activity(db, r.id).await.unwrap();
        log.reverse();
        assert_eq!(log.first().map(|e| e.action.as_str()), Some("created"), "request {}", r.id);
        let mut at = Status::Draft;
        for entry in &log[1..] {
            let action = action_named(&entry.action)
                .unwrap_or_else(|| panic!("unknown action {}", entry.action));
            assert!(
                action.sources(|_| true).contains(&at),
                "request {}: {} from {at:?}",
                r.id,
                entry.action
            );
            assert_eq!(entry.from_status.as_deref(), Some(at.as_str()));
            at = action.target().unwrap();
            assert_eq!(entry.to_status.as_deref(), Some(at.as_str()));
            if action == Action::SendForRevision {
                assert!(
                    entry.comment.as_deref().is_some_and(|c| !c.is_empty()),
                    "a reason is required"
                );
            }
        }
        assert_eq!(at, status, "request {}: its history ends where it stands", r.id);
    }

    for p in participant::Entity::find().all(db).await.unwrap() {
        let body: ParticipantBody = serde_json::from_value(json!({
            "firstName": p.first_name, "lastName": p.last_name, "email": p.email, "phone": p.phone, "address": p.address,
            "status": p.status, "roleCode": p.role_code, "districtSetType": p.district_set_type, "districtId": p.district_id,
            "caucusRegionId": p.caucus_region_id,
        }))
        .unwrap();
        participants::rules::check_participant(&body)
            .unwrap_or_else(|e| panic!("participant {}: {e:?}", p.id));
    }
    for t in participation::Entity::find().all(db).await.unwrap() {
        let body: ParticipationBody = serde_json::from_value(json!({
            "mentorProgramId": t.mentor_program_id, "fiscalYearId": t.fiscal_year_id, "roleCode": t.role_code,
            "collegeId": t.college_id, "startDate": t.start_date, "endDate": t.end_date,
        }))
        .unwrap();
        let mut checks = mentorpay::error::Checks::default();
        let clean = participants::rules::check_participation("", &body, &mut checks);
        let clean = clean.unwrap_or_else(|| panic!("participation {}: {:?}", t.id, checks.0));
        participants::store::check_participation_refs(db, "", &clean, &mut checks).await.unwrap();
        assert!(checks.0.is_empty(), "participation {}: {:?}", t.id, checks.0);
    }
    for line in budget_line::Entity::find().all(db).await.unwrap() {
        budgets::rules::check_amount("amount", Money(line.amount_cents)).unwrap();
    }
}
