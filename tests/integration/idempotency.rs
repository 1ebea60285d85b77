//! Safe retries (src/idempotency/): a money-moving POST sent again with the same
//! `Idempotency-Key` gets the first answer back, marked `Idempotent-Replayed: true`, and no
//! second effect; the key with another body is a 422, a malformed key a 400 naming the header;
//! requests at the same moment with one key have one effect; a key is the caller's own.

use crate::common::dates::{shifted, shifted_fy};
use crate::common::*;
use serde_json::{json, Value};

const HEADER: &str = "Idempotency-Key";
const REPLAYED: &str = "Idempotent-Replayed";

/// `POST path` as `token`, with `key` as the Idempotency-Key when given.
async fn keyed(app: &TestApp, path: &str, token: &str, key: Option<&str>, body: &Value) -> Reply {
    let mut req = app.client.post(format!("{}{path}", app.base)).bearer_auth(token).json(body);
    if let Some(key) = key {
        req = req.header(HEADER, key);
    }
    let res = req.send().await.expect("request");
    let status = res.status();
    let headers = res.headers().clone();
    let text = res.text().await.unwrap();
    let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
    Reply { status, headers, body }
}

async fn participant_count(app: &TestApp, token: &str) -> i64 {
    app.get("/api/v1/participants", token).await.ok()["totalCount"].as_i64().unwrap()
}

fn replayed(r: &Reply) -> bool {
    r.headers.get(REPLAYED).is_some_and(|v| v == "true")
}

#[actix_web::test]
async fn a_retry_with_the_key_gets_the_first_answer_and_creates_nothing_more() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let body = person("Rita", "rita@example.org", "Mentor");
    let first = keyed(&app, "/api/v1/participants", &admin, Some("save-1"), &body).await;
    assert_eq!(first.status, 201, "{}", first.body);
    assert!(!replayed(&first));
    let again = keyed(&app, "/api/v1/participants", &admin, Some("save-1"), &body).await;
    assert_eq!(again.status, first.status);
    assert_eq!(again.body, first.body);
    assert!(replayed(&again), "{:?}", again.headers);
    assert_eq!(
        again.headers.get("content-type"),
        first.headers.get("content-type"),
        "the kept headers come back"
    );
    assert_eq!(participant_count(&app, &admin).await, 1);

    // The same key with another body is refused, naming the header; nothing is created.
    let other = person("Rosa", "rosa@example.org", "Mentor");
    let r = keyed(&app, "/api/v1/participants", &admin, Some("save-1"), &other).await;
    assert!(r.problem(422)["errors"][HEADER].is_array(), "{}", r.body);
    // So is the key on another route.
    let r = keyed(&app, "/api/v1/payment-requests/F5", &admin, Some("save-1"), &body).await;
    r.problem(422);
    assert_eq!(participant_count(&app, &admin).await, 1);

    // A new key is a new request; without a key nothing changes from before.
    let r = keyed(&app, "/api/v1/participants", &admin, Some("save-2"), &other).await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert!(!replayed(&r));
    assert_eq!(participant_count(&app, &admin).await, 2);
}

#[actix_web::test]
async fn a_malformed_key_is_a_400_naming_the_header_and_changes_nothing() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let body = person("Rita", "rita@example.org", "Mentor");
    let long = "k".repeat(256);
    for key in ["", "has space", long.as_str()] {
        let r = keyed(&app, "/api/v1/participants", &admin, Some(key), &body).await;
        assert!(r.problem(400)["errors"][HEADER].is_array(), "{key:?}: {}", r.body);
    }
    let r = app
        .client
        .post(format!("{}/api/v1/participants", app.base))
        .bearer_auth(&admin)
        .header(HEADER, "one")
        .header(HEADER, "two")
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 400);
    assert_eq!(participant_count(&app, &admin).await, 0);
    // 255 visible characters are a key.
    let r = keyed(&app, "/api/v1/participants", &admin, Some(&"k".repeat(255)), &body).await;
    assert_eq!(r.status, 201, "{}", r.body);
}

#[actix_web::test]
async fn requests_at_the_same_moment_with_one_key_create_one_participant() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let body = person("Rita", "rita@example.org", "Mentor");
    let calls =
        (0..8).map(|_| keyed(&app, "/api/v1/participants", &admin, Some("double-click"), &body));
    let replies = futures_util::future::join_all(calls).await;
    let created: Vec<&Reply> = replies.iter().filter(|r| r.status == 201).collect();
    assert!(!created.is_empty());
    for r in &replies {
        assert!(r.status == 201 || r.status == 409, "{} {}", r.status, r.body);
        if r.status == 409 {
            r.problem(409);
        }
    }
    assert_eq!(created.iter().filter(|r| !replayed(r)).count(), 1, "one first answer");
    assert!(created.iter().all(|r| r.body == created[0].body));
    assert_eq!(participant_count(&app, &admin).await, 1);
    // Once it is answered, a retry is a replay.
    let r = keyed(&app, "/api/v1/participants", &admin, Some("double-click"), &body).await;
    assert!(r.status == 201 && replayed(&r), "{} {}", r.status, r.body);
}

#[actix_web::test]
async fn a_key_is_the_callers_own() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    app.create_user(&admin, "second@example.org", &["Administrator"], "second pass 123").await;
    let (second, _) = app.login("second@example.org", "second pass 123").await;
    let mine = person("Rita", "rita@example.org", "Mentor");
    let r = keyed(&app, "/api/v1/participants", &admin, Some("shared-key"), &mine).await;
    assert_eq!(r.status, 201, "{}", r.body);
    // Another user's same key is a key of their own: neither a replay of mine nor a 422.
    let theirs = person("Rosa", "rosa@example.org", "Mentor");
    let r = keyed(&app, "/api/v1/participants", &second, Some("shared-key"), &theirs).await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert!(!replayed(&r));
    assert_eq!(r.body["firstName"], "Rosa", "{}", r.body);
    assert_eq!(participant_count(&app, &admin).await, 2);
}

#[actix_web::test]
async fn a_retried_submit_is_answered_again_without_moving_the_request_twice() {
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
    let programs = app.get("/api/v1/mentor-programs", &admin).await;
    let program = programs.ok()[0]["id"].as_i64().unwrap();
    let mut payee = person("Pat", "pat@example.org", "Mentor");
    payee["participations"] = json!([taking(program, fy, "Mentor")]);
    let p = app.post("/api/v1/participants", Some(&admin), payee).await;
    let participation = p.ok()["participations"][0]["id"].as_i64().unwrap();
    let draft = json!({
        "participationId": participation, "description": "Seminar", "requestedAmount": 434.5,
        "details": {"seminarDate": shifted("2025-10-01"), "topic": "Play", "hours": 3},
    });
    let created = keyed(&app, "/api/v1/payment-requests/F5", &admin, Some("new-1"), &draft).await;
    assert!(created.status.is_success(), "{}", created.body);
    let again = keyed(&app, "/api/v1/payment-requests/F5", &admin, Some("new-1"), &draft).await;
    assert_eq!((again.status, &again.body), (created.status, &created.body));
    let list = app.get("/api/v1/payment-requests", &admin).await;
    assert_eq!(list.ok()["totalCount"], 1, "{}", list.body);

    let submit = format!("/api/v1/payment-requests/F5/{}/submit", created.body["id"]);
    let first = keyed(&app, &submit, &admin, Some("submit-1"), &json!({})).await;
    assert!(first.status.is_success(), "{}", first.body);
    let again = keyed(&app, &submit, &admin, Some("submit-1"), &json!({})).await;
    assert_eq!((again.status, &again.body), (first.status, &first.body));
    assert!(replayed(&again));
    // Without the key, the same call meets the request already moved: proof the retry did not run.
    let fresh = keyed(&app, &submit, &admin, None, &json!({})).await;
    fresh.problem(409);
}

#[actix_web::test]
async fn the_document_names_the_header_on_exactly_the_money_routes() {
    let app = spawn().await;
    let doc = app.client.get(format!("{}/api/v1/openapi.json", app.base)).send().await.unwrap();
    let doc: Value = doc.json().await.unwrap();
    let mut with_header = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let params = op["parameters"].as_array().cloned().unwrap_or_default();
            if params.iter().any(|p| p["name"] == HEADER && p["in"] == "header") {
                with_header.push(format!("{method} {path}"));
                assert!(op["responses"]["409"].is_object(), "{method} {path}");
            }
        }
    }
    with_header.sort();
    assert_eq!(
        with_header,
        [
            "post /api/v1/participants",
            "post /api/v1/participants/import",
            "post /api/v1/payment-requests/move-to-statuses/ready-for-processing/batch",
            "post /api/v1/payment-requests/{formType}",
            "post /api/v1/payment-requests/{formType}/{id}/approve",
            "post /api/v1/payment-requests/{formType}/{id}/submit",
            "post /api/v1/reports/vendor-payments",
        ]
    );
}
