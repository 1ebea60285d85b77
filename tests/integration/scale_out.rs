//! Scale-out on PostgreSQL: two instances of the binary on one database, on different
//! ports (as behind a load balancer), started at the same moment on an empty database.
//! A session begun on one is refreshed on the other, and eight simultaneous approvals of
//! one request split across both give exactly one winner. Runs in the PostgreSQL pass
//! (`scripts/postgres.sh run …`, part of `make test`); SQLite is one instance per file.

use crate::common;
use crate::common::dates::{shifted, shifted_fy};

use common::{database, instance::Instance, ADMIN_EMAIL, ADMIN_PASSWORD};
use reqwest::Method;
use serde_json::{json, Value};

const APPROVER: &str = "approver@example.org";
const APPROVER_PASSWORD: &str = "approver pass 123";

async fn ids(i: &Instance, token: &str, path: &str) -> Vec<i64> {
    let r = i.call(Method::GET, path, Some(token), None).await;
    let mut ids: Vec<i64> =
        r.ok().as_array().unwrap().iter().map(|x| x["id"].as_i64().unwrap()).collect();
    ids.sort();
    ids
}

async fn post(i: &Instance, path: &str, token: &str, body: Value) -> Value {
    let r = i.call(Method::POST, path, Some(token), Some(body)).await;
    assert!(r.status.is_success(), "{path}: {} {}", r.status, r.body);
    r.body
}

#[actix_web::test]
async fn two_instances_share_sessions_and_one_approval_wins() {
    if database::skip_on_sqlite(
        "several instances run on PostgreSQL (the PostgreSQL pass of make test runs this)",
    ) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let db = database::url_for(dir.path(), "mentorpay.db").await;
    let env = [("MENTORPAY_LOGIN_ATTEMPTS_PER_MINUTE", "1000")];
    // Both start on the empty database at once: one migrates and sets up, the other waits
    // for it (the start-up lock) instead of racing it.
    let mut a = Instance::launch(dir.path(), &db, &env);
    let mut b = Instance::launch(dir.path(), &db, &env);
    a.ready().await;
    b.ready().await;
    assert_ne!(a.base, b.base);

    // A session started on A works on B and is refreshed there; B's tokens work on A.
    let (access, refresh) = a.login(ADMIN_EMAIL, ADMIN_PASSWORD).await;
    b.call(Method::GET, "/api/v1/identity/permissions", Some(&access), None).await.ok();
    let r = b
        .call(
            Method::POST,
            "/api/v1/identity/refresh",
            None,
            Some(json!({"token": access, "refreshToken": refresh})),
        )
        .await;
    let (admin, refreshed) = (
        r.ok()["token"].as_str().unwrap().to_owned(),
        r.body["refreshToken"].as_str().unwrap().to_owned(),
    );
    a.call(Method::GET, "/api/v1/identity/permissions", Some(&admin), None).await.ok();

    // One request, submitted by the Administrator, approved by somebody else.
    let fy = post(
        &a,
        "/api/v1/system-settings/fiscal-years",
        &admin,
        json!({"name": shifted_fy("FY 2026-27"), "startDate": shifted("2026-07-01"), "endDate": shifted("2027-06-30")}),
    )
    .await;
    let program = ids(&a, &admin, "/api/v1/mentor-programs").await[0];
    let fund = ids(&b, &admin, "/api/v1/funds").await[0];
    let account = ids(&b, &admin, "/api/v1/expense-accounts").await[0];
    let payee = post(
        &b,
        "/api/v1/participants",
        &admin,
        json!({
            "firstName": "Pat", "lastName": "Payee", "email": "pat@example.org", "phone": "(916) 555-0100",
            "address": "1 Capitol Mall, Sacramento", "status": "Active", "roleCode": "Mentor",
            "districtSetType": "Assembly", "districtId": 7, "caucusRegionId": 1,
            "workplaceSettingIds": [1], "languageIds": [1], "educationLevelIds": [3], "permitLevelIds": [2],
            "participations": [{"mentorProgramId": program, "fiscalYearId": fy["id"], "roleCode": "Mentor", "collegeId": 1,
                "startDate": shifted("2026-07-01"), "endDate": shifted("2027-06-30")}],
        }),
    )
    .await;
    let participation = payee["participations"][0]["id"].as_i64().unwrap();
    let request = post(
        &a,
        "/api/v1/payment-requests/F5",
        &admin,
        json!({"participationId": participation, "description": "Seminar", "requestedAmount": 100,
            "details": {"seminarDate": shifted("2025-10-01"), "topic": "Play", "hours": 3}}),
    )
    .await;
    let url = format!("/api/v1/payment-requests/F5/{}", request["id"]);
    post(&b, &format!("{url}/submit"), &admin, json!({})).await;
    post(&a, "/api/v1/identity/users", &admin, json!({"email": APPROVER, "firstName": "Ada", "lastName": "Approver", "roles": ["Administrator"], "password": APPROVER_PASSWORD})).await;
    let (approver, _) = b.login(APPROVER, APPROVER_PASSWORD).await;
    let codes = a.call(Method::GET, "/api/v1/approval-codes", Some(&admin), None).await;
    let code = codes
        .ok()
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["paymentRequestType"] == "F5")
        .expect("an F5 approval code")["id"]
        .clone();
    let approval = json!({"approvedAmount": 75.5, "approvalCodeId": code, "fundId": fund, "expenseAccountId": account, "acknowledgeWarnings": true});

    // Eight at once, four through each instance: one 200, seven 409.
    let path = format!("{url}/approve");
    let calls = (0..8).map(|n| {
        let target = if n % 2 == 0 { &a } else { &b };
        target.call(Method::POST, &path, Some(&approver), Some(approval.clone()))
    });
    let replies = futures_util::future::join_all(calls).await;
    let mut statuses: Vec<u16> = replies.iter().map(|r| r.status.as_u16()).collect();
    statuses.sort();
    assert_eq!(
        statuses,
        [200, 409, 409, 409, 409, 409, 409, 409],
        "{:?}",
        replies.iter().map(|r| &r.body).collect::<Vec<_>>()
    );

    // Both instances read the one approval, logged once, counted once in the kept totals.
    for i in [&a, &b] {
        let r = i.call(Method::GET, &url, Some(&admin), None).await;
        assert_eq!(
            (r.ok()["formStatus"].as_str(), r.body["approvedAmount"].as_f64()),
            (Some("Approved"), Some(75.5))
        );
    }
    let log = b
        .call(
            Method::GET,
            &format!(
                "/api/v1/payment-requests/activity-log?PaymentRequestId={}&PaymentRequestType=F5",
                request["id"]
            ),
            Some(&admin),
            None,
        )
        .await;
    assert_eq!(
        log.ok().as_array().unwrap().iter().filter(|e| e["action"] == "approved").count(),
        1,
        "{}",
        log.body
    );
    let summary = a.call(Method::GET, "/api/v1/payment-requests/summary", Some(&admin), None).await;
    let approved = summary
        .ok()
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["formStatus"] == "Approved")
        .cloned()
        .expect("an Approved row");
    assert_eq!(
        (approved["count"].as_i64(), approved["approvedAmount"].as_f64()),
        (Some(1), Some(75.5)),
        "{}",
        summary.body
    );

    // Refresh tokens rotate across instances: the spent one, replayed on A, is refused and
    // ends that whole sign-in, on B too.
    a.call(
        Method::POST,
        "/api/v1/identity/refresh",
        None,
        Some(json!({"token": admin, "refreshToken": refresh})),
    )
    .await
    .problem(401);
    b.call(
        Method::POST,
        "/api/v1/identity/refresh",
        None,
        Some(json!({"token": admin, "refreshToken": refreshed})),
    )
    .await
    .problem(401);
}
