//! Input hygiene in the kernel, on the real app: oversized bodies (413), router errors
//! (404, 405) and parse errors as JSON problem bodies naming the field or parameter in
//! a caller's words, implausible dates and control characters refused with nothing
//! stored, and PUT taking back what GET gave.

use crate::common;
use crate::common::dates::{shifted, shifted_fy};

use common::*;
use reqwest::Method;
use serde_json::{json, Value};

fn person(email: &str) -> Value {
    json!({
        "firstName": "Ana", "lastName": "Lopez", "email": email, "status": "Active", "roleCode": "Mentor",
        "districtSetType": "Assembly", "districtId": 7, "caucusRegionId": 1,
        "workplaceSettingIds": [1], "languageIds": [1], "educationLevelIds": [3], "permitLevelIds": [2],
    })
}

async fn participant_count(app: &TestApp, admin: &str) -> i64 {
    app.get("/api/v1/participants", admin).await.ok()["totalCount"].as_i64().unwrap()
}

async fn fiscal_year(app: &TestApp, admin: &str) -> i64 {
    let r = app
        .post(
            "/api/v1/system-settings/fiscal-years",
            Some(admin),
            json!({"name": shifted_fy("FY 2026-27"), "startDate": shifted("2026-07-01"), "endDate": shifted("2027-06-30")}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    r.body["id"].as_i64().unwrap()
}

#[actix_web::test]
async fn oversized_bodies_are_413_problem_bodies() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let big = format!("{{\"firstName\": \"{}\"}}", "a".repeat(3 * 1024 * 1024));
    let r = app
        .client
        .post(format!("{}/api/v1/participants", app.base))
        .bearer_auth(&admin)
        .header("content-type", "application/json")
        .body(big)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 413);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["status"], 413);
    assert_eq!(body["title"], "Payload Too Large");
    assert_eq!(participant_count(&app, &admin).await, 0);
}

#[actix_web::test]
async fn router_errors_are_problem_bodies() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let r = app.call(Method::PATCH, "/api/v1/participants", Some(&admin), None).await;
    r.problem(405);
    let allow = r.headers.get("allow").unwrap().to_str().unwrap();
    assert!(allow.contains("GET") && allow.contains("POST"), "{allow}");
    // Fixed paths no longer fall through to `{formType}`: a wrong method is a 405.
    app.call(Method::POST, "/api/v1/payment-requests/summary", Some(&admin), Some(json!({})))
        .await
        .problem(405);
    app.call(Method::GET, "/api/v1/no-such-thing", Some(&admin), None).await.problem(404);
    // An id beyond 32 bits names the parameter.
    let r = app.get("/api/v1/participants/99999999999", &admin).await;
    assert_eq!(r.problem(400)["errors"]["id"][0], "must be a whole number from 1 to 2147483647");
    let r = app.get("/api/v1/participants/1/participations/x", &admin).await;
    assert!(
        r.status == 405 || r.problem(400)["errors"]["participationId"].is_array(),
        "{}",
        r.body
    );
}

#[actix_web::test]
async fn parse_errors_name_the_field_or_parameter_in_plain_words() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let r = app.get("/api/v1/participants?Page=two", &admin).await;
    let body = r.problem(400);
    assert_eq!(body["errors"]["Page"][0], "must be a whole number", "{body}");
    let r = app.get("/api/v1/participants?districtid=99999999999", &admin).await;
    assert!(r.problem(400)["errors"]["districtid"].is_array(), "{}", r.body);
    let r = app.get("/api/v1/participants?LanguageIds=1,x", &admin).await;
    assert!(r.problem(400)["errors"]["LanguageIds"].is_array(), "{}", r.body);
    let r = app.post("/api/v1/participants", Some(&admin), json!([])).await;
    let body = r.problem(400);
    assert_eq!(body["errors"]["body"][0], "must be a JSON object", "{body}");
    assert!(!body.to_string().contains("ParticipantBody"), "{body}");
    let mut p = person("a@example.org");
    p["districtId"] = json!("seven");
    let r = app.post("/api/v1/participants", Some(&admin), p).await;
    assert_eq!(
        r.problem(400)["errors"]["districtId"][0],
        "must be a whole number from -2147483648 to 2147483647"
    );
    let r = app.call(Method::POST, "/api/v1/participants", Some(&admin), None).await;
    assert!(r.problem(400)["detail"].as_str().unwrap().contains("JSON"), "{}", r.body);
}

#[actix_web::test]
async fn control_characters_are_refused_and_nothing_is_stored() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let mut p = person("nul@example.org");
    p["lastName"] = json!("Lo\u{0}pez");
    let r = app.post("/api/v1/participants", Some(&admin), p).await;
    assert!(
        r.problem(400)["errors"]["lastName"][0].as_str().unwrap().contains("control characters"),
        "{}",
        r.body
    );
    let r = app.get("/api/v1/participants?FullName=a%00b", &admin).await;
    assert!(r.problem(400)["errors"]["FullName"].is_array(), "{}", r.body);
    // Line breaks and tabs are text.
    let mut p = person("ok@example.org");
    p["address"] = json!("1 Main St\n\tSacramento");
    assert_eq!(app.post("/api/v1/participants", Some(&admin), p).await.status, 201);
    assert_eq!(participant_count(&app, &admin).await, 1);
}

#[actix_web::test]
async fn dates_must_be_plausible_and_in_order() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    for (start, end) in [
        ("0000-01-01".to_owned(), shifted("2027-06-30")),
        (shifted("2026-07-01"), "9999-12-31".to_owned()),
        ("26-01-01".to_owned(), shifted("2027-06-30")),
        ("2026-02-30".to_owned(), shifted("2027-06-30")),
    ] {
        let r = app
            .post(
                "/api/v1/system-settings/fiscal-years",
                Some(&admin),
                json!({"name": "Odd", "startDate": start, "endDate": end}),
            )
            .await;
        let body = r.problem(400);
        let field = if start == shifted("2026-07-01") { "endDate" } else { "startDate" };
        assert!(body["errors"][field].is_array(), "{start}..{end}: {body}");
    }
    let fy = fiscal_year(&app, &admin).await;
    let programs =
        app.get("/api/v1/mentor-programs", &admin).await.ok().as_array().unwrap().clone();
    let program = programs[0]["id"].as_i64().unwrap();
    let mut p = person("dates@example.org");
    p["participations"] = json!([{"mentorProgramId": program, "fiscalYearId": fy, "roleCode": "Mentor", "startDate": shifted("2026-07-01"), "endDate": "2126-06-30"}]);
    let r = app.post("/api/v1/participants", Some(&admin), p.clone()).await;
    assert!(r.problem(400)["errors"]["participations[0].endDate"].is_array(), "{}", r.body);
    p["participations"][0]["endDate"] = json!(shifted("2026-06-30"));
    let r = app.post("/api/v1/participants", Some(&admin), p).await;
    assert!(r.status == 400 || r.status == 422, "{}", r.body);
    assert_eq!(participant_count(&app, &admin).await, 0);
    // Query dates too.
    let r = app.get("/api/v1/payment-requests?ApprovedStart=0026-01-01", &admin).await;
    assert!(r.problem(400)["errors"]["ApprovedStart"].is_array(), "{}", r.body);
    let r = app
        .get("/api/v1/payment-requests?ApprovedStart=2026-02-01&ApprovedEnd=2026-01-01", &admin)
        .await;
    assert!(r.problem(422)["errors"]["ApprovedEnd"].is_array(), "{}", r.body);
}

#[actix_web::test]
async fn a_put_takes_back_what_its_get_returned() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let fy = fiscal_year(&app, &admin).await;
    let program = app.get("/api/v1/mentor-programs", &admin).await.ok()[0]["id"].as_i64().unwrap();
    let mut p = person("round@example.org");
    p["participations"] = json!([{"mentorProgramId": program, "fiscalYearId": fy, "roleCode": "Mentor", "startDate": shifted("2026-07-01")}]);
    let created = app.post("/api/v1/participants", Some(&admin), p).await.ok().clone();
    let id = created["id"].as_i64().unwrap();

    let mut read = app.get(&format!("/api/v1/participants/{id}"), &admin).await.ok().clone();
    read["phone"] = json!("(916) 555-0199");
    let r = app.put(&format!("/api/v1/participants/{id}"), &admin, read.clone()).await;
    assert_eq!(r.ok()["phone"], "(916) 555-0199");
    assert_eq!(
        r.body["participations"].as_array().unwrap().len(),
        1,
        "participations are read-only on PUT"
    );
    // Truly unknown fields are still refused, naming them.
    read["version"] = r.body["version"].clone();
    read["zzBogus"] = json!(1);
    let r = app.put(&format!("/api/v1/participants/{id}"), &admin, read).await;
    assert!(r.problem(400)["errors"]["zzBogus"].is_array(), "{}", r.body);

    // A participation read back.
    let participation = created["participations"][0].clone();
    let pid = participation["id"].as_i64().unwrap();
    let mut back = participation.clone();
    back["endDate"] = json!(shifted("2027-06-30"));
    let r = app.put(&format!("/api/v1/participants/{id}/participations/{pid}"), &admin, back).await;
    assert_eq!(r.ok()["endDate"], shifted("2027-06-30"));

    // A user and a role read back.
    let uid =
        app.create_user(&admin, "coord@example.org", &["Coordinator"], "coordinator pass 1").await;
    let mut user = app.get(&format!("/api/v1/identity/users/{uid}"), &admin).await.ok().clone();
    user["firstName"] = json!("Cora");
    assert_eq!(
        app.put(&format!("/api/v1/identity/users/{uid}"), &admin, user).await.ok()["firstName"],
        "Cora"
    );
    let role = app
        .post(
            "/api/v1/identity/roles",
            Some(&admin),
            json!({"name": "Readers", "permissions": ["participant:read"]}),
        )
        .await
        .ok()
        .clone();
    let mut role_back =
        app.get(&format!("/api/v1/identity/roles/{}", role["id"]), &admin).await.ok().clone();
    role_back["name"] = json!("Participant readers");
    assert_eq!(
        app.put(&format!("/api/v1/identity/roles/{}", role["id"]), &admin, role_back).await.ok()
            ["name"],
        "Participant readers"
    );

    // A payment request read back.
    let participation_id = participation["id"].as_i64().unwrap();
    let body = json!({"participationId": participation_id, "description": "Seminar", "requestedAmount": 100,
        "details": {"seminarDate": shifted("2026-10-01"), "topic": "Play", "hours": 3}});
    let r = app.post("/api/v1/payment-requests/F5", Some(&admin), body).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let mut request = r.body.clone();
    request["description"] = json!("Seminar on play");
    let r =
        app.put(&format!("/api/v1/payment-requests/F5/{}", request["id"]), &admin, request).await;
    assert_eq!(r.ok()["description"], "Seminar on play");
}
