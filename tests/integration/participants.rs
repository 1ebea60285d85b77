//! Participants on the real app: create, read, list (filters, sorting, paging), edit
//! with versions, soft delete, participations, Coordinator logins, the payee picker,
//! bad input (nothing changed) and coordinator scope.

use crate::common;
use crate::common::dates::{shifted, shifted_fy};

use common::*;
use mentorpay::entities::activity_log;
use reqwest::Method;
use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};
use serde_json::{json, Value};

const COORD_PW: &str = "coordinator pass 1";

/// A new app with fiscal year 2026-27 (id 1), which every participation below names.
async fn spawn_with_fiscal_year() -> TestApp {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let r = app
        .post(
            "/api/v1/system-settings/fiscal-years",
            Some(&admin),
            json!({"name": shifted_fy("2026-27"), "startDate": shifted("2026-07-01"), "endDate": shifted("2027-06-30")}),
        )
        .await;
    assert_eq!(r.ok()["id"], 1);
    app
}

fn person(first: &str, last: &str, email: &str) -> Value {
    json!({
        "firstName": first, "lastName": last, "email": email, "phone": "(916) 555-0100",
        "address": "1 Capitol Mall, Sacramento", "status": "Active", "roleCode": "Mentor",
        "districtSetType": "Assembly", "districtId": 7, "caucusRegionId": 1,
        "workplaceSettingIds": [1, 2], "languageIds": [1], "educationLevelIds": [3], "permitLevelIds": [2],
    })
}

fn taking(program: i64, role: &str) -> Value {
    json!({"mentorProgramId": program, "fiscalYearId": 1, "roleCode": role, "collegeId": 1, "startDate": shifted("2026-07-01"), "endDate": shifted("2027-06-30")})
}

async fn program_ids(app: &TestApp, token: &str) -> Vec<i64> {
    let r = app.get("/api/v1/mentor-programs", token).await;
    let mut ids: Vec<i64> =
        r.ok().as_array().unwrap().iter().map(|p| p["id"].as_i64().unwrap()).collect();
    ids.sort();
    ids
}

async fn create(app: &TestApp, token: &str, body: Value) -> Value {
    let r = app.post("/api/v1/participants", Some(token), body).await;
    assert_eq!(r.status, 201, "{}", r.body);
    r.body
}

async fn total(app: &TestApp, token: &str) -> i64 {
    app.get("/api/v1/participants?ShowDeleted=true", token).await.ok()["totalCount"]
        .as_i64()
        .unwrap()
}

async fn activity(app: &TestApp, entity_type: &str, action: &str) -> u64 {
    activity_log::Entity::find()
        .filter(activity_log::Column::EntityType.eq(entity_type))
        .filter(activity_log::Column::Action.eq(action))
        .count(&app.state.db)
        .await
        .unwrap()
}

fn names(page: &Value) -> Vec<String> {
    page["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["fullName"].as_str().unwrap().to_owned())
        .collect()
}

#[actix_web::test]
async fn create_read_and_list() {
    let app = spawn_with_fiscal_year().await;
    let admin = app.admin_token().await;
    let programs = program_ids(&app, &admin).await;
    let mut body = person(" Ana ", "Núñez", "Ana@Example.org");
    body["participations"] = json!([taking(programs[0], "Mentor")]);
    let created = create(&app, &admin, body).await;
    assert_eq!(created["fullName"], "Ana Núñez");
    assert_eq!(created["email"], "ana@example.org");
    assert_eq!(created["version"], 1);
    assert_eq!(created["workplaceSettingIds"], json!([1, 2]));
    assert_eq!(created["participations"].as_array().unwrap().len(), 1);
    assert_eq!(created["participations"][0]["startDate"], shifted("2026-07-01"));
    assert!(created["identityUserId"].is_null());
    let id = created["id"].as_i64().unwrap();
    let got = app.get(&format!("/api/v1/participants/{id}"), &admin).await;
    assert_eq!(got.ok()["email"], "ana@example.org");
    let page = app.get("/api/v1/participants", &admin).await;
    assert_eq!(
        (page.ok()["totalCount"].as_i64(), page.body["page"].as_i64(), page.body["size"].as_i64()),
        (Some(1), Some(1), Some(25))
    );
    assert_eq!(activity(&app, "participant", "created").await, 1);
    assert_eq!(activity(&app, "participation", "created").await, 1);
    app.get("/api/v1/participants/99999", &admin).await.problem(404);
    app.get("/api/v1/participants/abc", &admin).await.problem(400);
    // The enum lists are not shadowed by /participants/{id}.
    app.get("/api/v1/participants/roles", &admin).await.ok();
}

#[actix_web::test]
async fn filters_sorting_and_paging() {
    let app = spawn_with_fiscal_year().await;
    let admin = app.admin_token().await;
    let programs = program_ids(&app, &admin).await;
    let rows = [
        ("Carla", "Diaz", "Active", "Mentor", "Senate", 3, 1, programs[0]),
        ("ana", "Lopez", "Inactive", "DirectorMentor", "Assembly", 7, 2, programs[1]),
        ("Bea", "Kim", "Pending", "Mentor", "Assembly", 7, 3, programs[0]),
        ("Dana", "Anaya", "Active", "Coordinator", "Congressional", 12, 2, programs[2]),
    ];
    for (first, last, status, role, set, district, language, program) in rows {
        let mut b = person(first, last, &format!("{}@example.org", first.to_lowercase()));
        b["status"] = json!(status);
        b["roleCode"] = json!(role);
        b["districtSetType"] = json!(set);
        b["districtId"] = json!(district);
        b["languageIds"] = json!([language]);
        b["participations"] = json!([taking(program, role)]);
        create(&app, &admin, b).await;
    }
    let get = |q: &str| {
        let app = &app;
        let admin = admin.clone();
        let q = q.to_owned();
        async move { app.get(&format!("/api/v1/participants?{q}"), &admin).await }
    };
    assert_eq!(
        names(get("").await.ok()),
        ["ana Lopez", "Bea Kim", "Carla Diaz", "Dana Anaya"],
        "by name, case-insensitive"
    );
    assert_eq!(names(get("FullName=ANA").await.ok()), ["ana Lopez", "Dana Anaya"]);
    // A comma is part of a name filter, not a list separator.
    assert_eq!(get("FullName=Lopez,%20Ana").await.ok()["totalCount"], 0);
    assert_eq!(names(get("Status=active").await.ok()), ["Carla Diaz", "Dana Anaya"]);
    assert_eq!(names(get("RoleCode=Mentor").await.ok()), ["Bea Kim", "Carla Diaz"]);
    assert_eq!(
        names(get("DistrictSetType=Assembly&DistrictId=7").await.ok()),
        ["ana Lopez", "Bea Kim"]
    );
    assert_eq!(
        names(get(&format!("MentorProgramId={}", programs[0])).await.ok()),
        ["Bea Kim", "Carla Diaz"]
    );
    assert_eq!(names(get("LanguageIds=2").await.ok()), ["ana Lopez", "Dana Anaya"]);
    assert_eq!(names(get("LanguageIds=1,3").await.ok()), ["Bea Kim", "Carla Diaz"]);
    assert_eq!(
        names(get("WorkplaceSettingIds=2&EducationLevelIds=3&PermitLevelIds=2").await.ok()).len(),
        4
    );
    assert_eq!(names(get("PermitLevelIds=5").await.ok()).len(), 0);
    assert_eq!(
        names(get("SortBy=email&SortDescending=true").await.ok()),
        ["Dana Anaya", "Carla Diaz", "Bea Kim", "ana Lopez"]
    );
    assert_eq!(names(get("SortBy=status").await.ok())[0], "Carla Diaz");
    assert_eq!(names(get("SortBy=roleCode&SortDescending=true").await.ok())[0], "Bea Kim");
    assert_eq!(names(get("SortBy=updatedAt&SortDescending=true").await.ok())[0], "Dana Anaya");
    let page = get("Size=3&Page=2").await;
    assert_eq!(
        (names(page.ok()), page.body["totalCount"].as_i64()),
        (vec!["Dana Anaya".to_owned()], Some(4))
    );
    assert_eq!(names(get("Page=9").await.ok()).len(), 0);
    for (q, field) in [
        ("Page=0", "Page"),
        ("Size=501", "Size"),
        ("Size=0", "Size"),
        ("SortBy=salary", "SortBy"),
        ("Status=Retired", "Status"),
        ("RoleCode=Boss", "RoleCode"),
        ("DistrictSetType=County", "DistrictSetType"),
        ("LanguageIds=0", "LanguageIds"),
    ] {
        assert!(get(q).await.problem(400)["errors"][field].is_array(), "{q}");
    }
    get("DistrictId=abc").await.problem(400);
    get("SortDescending=maybe").await.problem(400);
}

#[actix_web::test]
async fn bad_input_is_400_naming_the_field_and_changes_nothing() {
    let app = spawn_with_fiscal_year().await;
    let admin = app.admin_token().await;
    create(&app, &admin, person("Ana", "Lee", "ana@example.org")).await;
    let before = total(&app, &admin).await;
    let logged = activity(&app, "participant", "created").await;
    let cases: Vec<(Value, &str)> = vec![
        (json!({"status": "Retired"}), "status"),
        (json!({"roleCode": "Boss"}), "roleCode"),
        (json!({"districtSetType": "County"}), "districtSetType"),
        (json!({"districtId": "seven"}), "districtId"),
        (json!({"districtId": 81}), "districtId"),
        (json!({"email": "not an email"}), "email"),
        (json!({"firstName": 5}), "firstName"),
        (json!({"languageIds": "1"}), "languageIds"),
        (json!({"languageIds": [1, 9999]}), "languageIds"),
        (json!({"workplaceSettingIds": [9999]}), "workplaceSettingIds"),
        (json!({"educationLevelIds": [9999]}), "educationLevelIds"),
        (json!({"permitLevelIds": [7]}), "permitLevelIds"),
        (json!({"caucusRegionId": 9999}), "caucusRegionId"),
        (json!({"phone": "call me"}), "phone"),
        (
            json!({"participations": [{"mentorProgramId": 1, "fiscalYearId": 0, "roleCode": "Mentor", "startDate": shifted("2026-07-01")}]}),
            "participations[0].fiscalYearId",
        ),
        (
            json!({"participations": [{"mentorProgramId": 1, "fiscalYearId": 1, "roleCode": "Mentor", "startDate": "2026-13-01"}]}),
            "participations[0].startDate",
        ),
        (
            json!({"participations": [{"mentorProgramId": 9999, "fiscalYearId": 1, "roleCode": "Mentor", "startDate": shifted("2026-07-01")}]}),
            "participations[0].mentorProgramId",
        ),
        (
            json!({"participations": [{"mentorProgramId": 1, "fiscalYearId": 77, "roleCode": "Mentor", "startDate": shifted("2026-07-01")}]}),
            "participations[0].fiscalYearId",
        ),
        (json!({"version": 3}), "version"),
    ];
    for (patch, field) in cases {
        let mut body = person("Bo", "Chan", "bo@example.org");
        for (k, v) in patch.as_object().unwrap() {
            body[k] = v.clone();
        }
        let r = app.post("/api/v1/participants", Some(&admin), body).await;
        assert!(r.invalid()["errors"][field].is_array(), "{patch} -> {}", r.body);
    }
    let mut missing = person("Bo", "Chan", "bo@example.org");
    missing.as_object_mut().unwrap().remove("lastName");
    assert!(app.post("/api/v1/participants", Some(&admin), missing).await.problem(400)["errors"]
        ["lastName"]
        .is_array());
    // Duplicate e-mail (any case) among live participants: 409.
    app.post("/api/v1/participants", Some(&admin), person("Other", "Ana", "ANA@example.org"))
        .await
        .problem(409);
    assert_eq!(total(&app, &admin).await, before);
    assert_eq!(activity(&app, "participant", "created").await, logged);
}

#[actix_web::test]
async fn edits_carry_their_version() {
    let app = spawn_with_fiscal_year().await;
    let admin = app.admin_token().await;
    let p = create(&app, &admin, person("Ana", "Lee", "ana@example.org")).await;
    create(&app, &admin, person("Bo", "Chan", "bo@example.org")).await;
    let id = p["id"].as_i64().unwrap();
    let url = format!("/api/v1/participants/{id}");
    let mut body = person("Ana", "Lee-Park", "ana@example.org");
    body["version"] = json!(1);
    body["languageIds"] = json!([2, 3]);
    body["districtSetType"] = Value::Null;
    body["districtId"] = Value::Null;
    let r = app.put(&url, &admin, body.clone()).await;
    assert_eq!(
        (r.ok()["fullName"].as_str(), r.body["version"].as_i64()),
        (Some("Ana Lee-Park"), Some(2))
    );
    assert_eq!(r.body["languageIds"], json!([2, 3]));
    assert!(r.body["districtSetType"].is_null());
    // Based on version 1 again: stale, which names `version` (what tells it from the
    // other conflicts).
    body["lastName"] = json!("Other");
    assert!(app.put(&url, &admin, body.clone()).await.problem(409)["errors"]["version"].is_array());
    assert_eq!(app.get(&url, &admin).await.ok()["lastName"], "Lee-Park");
    // Missing version, taken e-mail, unknown id.
    let mut no_version = body.clone();
    no_version.as_object_mut().unwrap().remove("version");
    assert!(app.put(&url, &admin, no_version).await.invalid()["errors"]["version"].is_array());
    body["version"] = json!(2);
    body["email"] = json!("bo@example.org");
    assert!(app.put(&url, &admin, body.clone()).await.problem(409).get("errors").is_none());
    app.put("/api/v1/participants/99999", &admin, body).await.problem(404);
    assert_eq!(activity(&app, "participant", "updated").await, 1);
}

#[actix_web::test]
async fn deletion_is_soft() {
    let app = spawn_with_fiscal_year().await;
    let admin = app.admin_token().await;
    let programs = program_ids(&app, &admin).await;
    let mut body = person("Ana", "Lee", "ana@example.org");
    body["participations"] = json!([taking(programs[0], "Mentor")]);
    let p = create(&app, &admin, body).await;
    let id = p["id"].as_i64().unwrap();
    let participation = p["participations"][0]["id"].as_i64().unwrap();
    assert_eq!(app.delete(&format!("/api/v1/participants/{id}"), &admin).await.status, 204);
    app.get(&format!("/api/v1/participants/{id}"), &admin).await.problem(404);
    app.delete(&format!("/api/v1/participants/{id}"), &admin).await.problem(404);
    let mut edit = person("Ana", "Lee", "ana@example.org");
    edit["version"] = json!(1);
    app.put(&format!("/api/v1/participants/{id}"), &admin, edit).await.problem(404);
    assert_eq!(app.get("/api/v1/participants", &admin).await.ok()["totalCount"], 0);
    let picker = app.get("/api/v1/payment-requests/participant-list", &admin).await;
    assert_eq!(picker.ok().as_array().unwrap().len(), 0);
    // Only the picker with ShowDeleted=true still lists it.
    let picker =
        app.get("/api/v1/payment-requests/participant-list?ShowDeleted=true", &admin).await;
    let list = picker.ok().as_array().unwrap();
    assert_eq!(
        (list.len(), list[0]["participationId"].as_i64(), list[0]["isDeleted"].as_bool()),
        (1, Some(participation), Some(true))
    );
    // The e-mail is free again.
    create(&app, &admin, person("Ana", "Lee", "ana@example.org")).await;
    assert_eq!(activity(&app, "participant", "deleted").await, 1);
}

#[actix_web::test]
async fn participations_are_added_changed_and_removed() {
    let app = spawn_with_fiscal_year().await;
    let admin = app.admin_token().await;
    let programs = program_ids(&app, &admin).await;
    let p = create(&app, &admin, person("Ana", "Lee", "ana@example.org")).await;
    let id = p["id"].as_i64().unwrap();
    let base = format!("/api/v1/participants/{id}/participations");
    let r = app.post(&base, Some(&admin), taking(programs[1], "DirectorMentor")).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let pid = r.body["id"].as_i64().unwrap();
    assert_eq!(
        (r.body["mentorProgramId"].as_i64(), r.body["roleCode"].as_str()),
        (Some(programs[1]), Some("DirectorMentor"))
    );
    // The program filter follows every change of the participations.
    let in_program = |program: i64| {
        let (app, admin) = (&app, &admin);
        async move {
            app.get(&format!("/api/v1/participants?MentorProgramId={program}"), admin).await.ok()
                ["totalCount"]
                .as_i64()
                .unwrap()
        }
    };
    assert_eq!((in_program(programs[1]).await, in_program(programs[2]).await), (1, 0));
    let mut changed = taking(programs[2], "Mentor");
    changed["endDate"] = Value::Null;
    changed["collegeId"] = Value::Null;
    let r = app.put(&format!("{base}/{pid}"), &admin, changed).await;
    assert_eq!(
        (r.ok()["mentorProgramId"].as_i64(), r.body["endDate"].is_null()),
        (Some(programs[2]), true)
    );
    assert_eq!((in_program(programs[1]).await, in_program(programs[2]).await), (0, 1));
    for (patch, field) in [
        (json!({"fiscalYearId": 0}), "fiscalYearId"),
        (json!({"fiscalYearId": "2025"}), "fiscalYearId"),
        (json!({"roleCode": "Boss"}), "roleCode"),
        (json!({"mentorProgramId": 9999}), "mentorProgramId"),
        (json!({"collegeId": 9999}), "collegeId"),
        (json!({"endDate": shifted("2026-01-01")}), "endDate"),
        (json!({"startDate": "July 1"}), "startDate"),
    ] {
        let mut body = taking(programs[0], "Mentor");
        for (k, v) in patch.as_object().unwrap() {
            body[k] = v.clone();
        }
        assert!(
            app.post(&base, Some(&admin), body.clone()).await.invalid()["errors"][field].is_array(),
            "{patch}"
        );
        assert!(
            app.put(&format!("{base}/{pid}"), &admin, body).await.invalid()["errors"][field]
                .is_array(),
            "{patch}"
        );
    }
    let got = app.get(&format!("/api/v1/participants/{id}"), &admin).await;
    assert_eq!(got.ok()["participations"].as_array().unwrap().len(), 1);
    assert_eq!(app.delete(&format!("{base}/{pid}"), &admin).await.status, 204);
    assert_eq!(in_program(programs[2]).await, 0);
    app.delete(&format!("{base}/{pid}"), &admin).await.problem(404);
    app.put(&format!("{base}/99999"), &admin, taking(programs[0], "Mentor")).await.problem(404);
    let got = app.get(&format!("/api/v1/participants/{id}"), &admin).await;
    assert_eq!(got.ok()["participations"].as_array().unwrap().len(), 0);
    app.post(
        "/api/v1/participants/99999/participations",
        Some(&admin),
        taking(programs[0], "Mentor"),
    )
    .await
    .problem(404);
    assert_eq!(activity(&app, "participation", "created").await, 1);
    assert_eq!(activity(&app, "participation", "updated").await, 1);
    assert_eq!(activity(&app, "participation", "deleted").await, 1);
}

#[actix_web::test]
async fn the_payee_picker_filters_participations() {
    let app = spawn_with_fiscal_year().await;
    let admin = app.admin_token().await;
    let programs = program_ids(&app, &admin).await;
    let mut a = person("Ana", "Lee", "ana@example.org");
    a["participations"] =
        json!([taking(programs[0], "Mentor"), taking(programs[1], "DirectorMentor")]);
    let a = create(&app, &admin, a).await;
    let mut b = person("Bo", "Chan", "bo@example.org");
    b["participations"] = json!([taking(programs[0], "DirectorMentor")]);
    create(&app, &admin, b).await;
    let list = |q: &str| {
        let (app, admin, q) = (&app, admin.clone(), q.to_owned());
        async move { app.get(&format!("/api/v1/payment-requests/participant-list?{q}"), &admin).await }
    };
    assert_eq!(list("").await.ok().as_array().unwrap().len(), 3);
    let r = list(&format!("MentorProgramId={}", programs[0])).await;
    let names: Vec<_> =
        r.ok().as_array().unwrap().iter().map(|i| i["fullName"].as_str().unwrap()).collect();
    assert_eq!(names, ["Ana Lee", "Bo Chan"]);
    assert_eq!(list("RoleType=DirectorMentor").await.ok().as_array().unwrap().len(), 2);
    let first = a["participations"][0]["id"].as_i64().unwrap();
    let r = list(&format!("ParticipationIds={first}&FormType=F1&FormId=3")).await;
    assert_eq!(r.ok().as_array().unwrap().len(), 1);
    assert_eq!(r.body[0]["participantId"], a["id"]);
    list("FormType=F99").await.problem(400);
    list("RoleType=Boss").await.problem(400);
    list("ShowDeleted=perhaps").await.problem(400);
}

#[actix_web::test]
async fn coordinator_logins_are_created_once() {
    let app = spawn_with_fiscal_year().await;
    let admin = app.admin_token().await;
    let p = create(&app, &admin, person("Ana", "Lee", "ana@example.org")).await;
    let id = p["id"].as_i64().unwrap();
    let url = format!("/api/v1/participants/{id}/identity-user");
    assert!(app.post(&url, Some(&admin), json!({"password": "short"})).await.problem(400)
        ["errors"]["password"]
        .is_array());
    let r = app.post(&url, Some(&admin), json!({"password": COORD_PW})).await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(
        (r.body["roles"].clone(), r.body["participantId"].as_i64()),
        (json!(["Coordinator"]), Some(id))
    );
    app.post(&url, Some(&admin), json!({})).await.problem(409);
    app.login("ana@example.org", COORD_PW).await;
    assert_eq!(
        app.get(&format!("/api/v1/participants/{id}"), &admin).await.ok()["identityUserId"],
        r.body["id"]
    );
    // Without a password the set-password link is mailed.
    let q = create(&app, &admin, person("Bo", "Chan", "bo@example.org")).await;
    let r = app
        .post(&format!("/api/v1/participants/{}/identity-user", q["id"]), Some(&admin), json!({}))
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    app.link_in_queued_mail("bo@example.org", 1).await;
    app.post("/api/v1/participants/99999/identity-user", Some(&admin), json!({}))
        .await
        .problem(404);
}

#[actix_web::test]
async fn coordinators_see_only_their_programs() {
    let app = spawn_with_fiscal_year().await;
    let admin = app.admin_token().await;
    let programs = program_ids(&app, &admin).await;
    let (mine, other) = (programs[0], programs[1]);
    // The coordinator participant, its login, and its Coordinator participation in `mine`.
    let mut c = person("Cora", "Coord", "cora@example.org");
    c["roleCode"] = json!("Coordinator");
    let c = create(&app, &admin, c).await;
    let cid = c["id"].as_i64().unwrap();
    app.post(
        &format!("/api/v1/participants/{cid}/identity-user"),
        Some(&admin),
        json!({"password": COORD_PW}),
    )
    .await
    .ok();
    let (coord, _) = app.login("cora@example.org", COORD_PW).await;
    // Before it coordinates anything it sees nothing.
    assert_eq!(app.get("/api/v1/participants", &coord).await.ok()["totalCount"], 0);
    app.post(
        &format!("/api/v1/participants/{cid}/participations"),
        Some(&admin),
        taking(mine, "Coordinator"),
    )
    .await
    .ok();

    let mut inside = person("In", "Side", "in@example.org");
    inside["participations"] = json!([taking(mine, "Mentor")]);
    let inside = create(&app, &admin, inside).await;
    let mut outside = person("Out", "Side", "out@example.org");
    outside["participations"] = json!([taking(other, "Mentor")]);
    let outside = create(&app, &admin, outside).await;
    let out_id = outside["id"].as_i64().unwrap();

    let page = app.get("/api/v1/participants", &coord).await;
    assert_eq!(names(page.ok()), ["Cora Coord", "In Side"]);
    // Filtering by a program she does not coordinate would list the people she shares
    // with it: refused, as in the picker, the reports and the e-mail list.
    app.get(&format!("/api/v1/participants?MentorProgramId={other}"), &coord).await.problem(403);
    app.get(&format!("/api/v1/payment-requests/participant-list?MentorProgramId={other}"), &coord)
        .await
        .problem(403);
    app.get(&format!("/api/v1/participants/{}", inside["id"]), &coord).await.ok();
    // Out of scope: 404 for reading, changing, deleting, adding participations, logins.
    app.get(&format!("/api/v1/participants/{out_id}"), &coord).await.problem(404);
    let mut edit = person("Out", "Changed", "out@example.org");
    edit["version"] = json!(1);
    app.put(&format!("/api/v1/participants/{out_id}"), &coord, edit).await.problem(404);
    app.post(
        &format!("/api/v1/participants/{out_id}/participations"),
        Some(&coord),
        taking(mine, "Mentor"),
    )
    .await
    .problem(404);
    let out_participation = outside["participations"][0]["id"].as_i64().unwrap();
    app.put(
        &format!("/api/v1/participants/{out_id}/participations/{out_participation}"),
        &coord,
        taking(mine, "Mentor"),
    )
    .await
    .problem(404);
    assert_eq!(
        app.get(&format!("/api/v1/participants/{out_id}"), &admin).await.ok()["lastName"],
        "Side"
    );
    // Creating into another program: 403; without a program: 422; into its own: 201.
    let mut body = person("New", "One", "new@example.org");
    body["participations"] = json!([taking(other, "Mentor")]);
    app.post("/api/v1/participants", Some(&coord), body.clone()).await.problem(403);
    body["participations"] = json!([]);
    app.post("/api/v1/participants", Some(&coord), body.clone()).await.problem(422);
    body["participations"] = json!([taking(mine, "Mentor")]);
    let new = create(&app, &coord, body).await;
    app.post(
        &format!("/api/v1/participants/{}/participations", new["id"]),
        Some(&coord),
        taking(other, "Mentor"),
    )
    .await
    .problem(403);
    // The picker is scoped too.
    let picker = app.get("/api/v1/payment-requests/participant-list", &coord).await;
    assert!(picker.ok().as_array().unwrap().iter().all(|i| i["mentorProgramId"] == mine));
    assert_eq!(picker.body.as_array().unwrap().len(), 3);
    assert_eq!(
        app.get("/api/v1/payment-requests/participant-list?ShowDeleted=true", &coord)
            .await
            .ok()
            .as_array()
            .unwrap()
            .len(),
        3
    );
    assert_eq!(total(&app, &admin).await, 4);
}

#[actix_web::test]
async fn unlinked_users_see_no_participants() {
    let app = spawn_with_fiscal_year().await;
    let admin = app.admin_token().await;
    let programs = program_ids(&app, &admin).await;
    let mut p = person("Ana", "Lee", "ana@example.org");
    p["participations"] = json!([taking(programs[0], "Coordinator")]);
    let p = create(&app, &admin, p).await;
    // A Coordinator-role user without a participant link.
    app.create_user(&admin, "loose@example.org", &["Coordinator"], COORD_PW).await;
    let (loose, _) = app.login("loose@example.org", COORD_PW).await;
    assert_eq!(app.get("/api/v1/participants", &loose).await.ok()["totalCount"], 0);
    app.get(&format!("/api/v1/participants/{}", p["id"]), &loose).await.problem(404);
    assert_eq!(
        app.get("/api/v1/payment-requests/participant-list", &loose)
            .await
            .ok()
            .as_array()
            .unwrap()
            .len(),
        0
    );
    let mut body = person("New", "One", "new@example.org");
    body["participations"] = json!([taking(programs[0], "Mentor")]);
    app.post("/api/v1/participants", Some(&loose), body).await.problem(403);
    // Missing permissions are 403 (Coordinators may not delete or create logins).
    app.delete(&format!("/api/v1/participants/{}", p["id"]), &loose).await.problem(403);
    app.post(&format!("/api/v1/participants/{}/identity-user", p["id"]), Some(&loose), json!({}))
        .await
        .problem(403);
    app.call(Method::GET, "/api/v1/participants", None, None).await.problem(401);
}

#[actix_web::test]
async fn the_openapi_document_lists_every_participant_call() {
    let app = spawn_with_fiscal_year().await;
    let r = app.call(Method::GET, "/api/v1/openapi.json", None, None).await;
    let paths = &r.ok()["paths"];
    for (path, methods) in [
        ("/api/v1/participants", &["get", "post"][..]),
        ("/api/v1/participants/{id}", &["get", "put", "delete"][..]),
        ("/api/v1/participants/{id}/participations", &["post"][..]),
        ("/api/v1/participants/{id}/participations/{participationId}", &["put", "delete"][..]),
        ("/api/v1/participants/{id}/identity-user", &["post"][..]),
        ("/api/v1/payment-requests/participant-list", &["get"][..]),
    ] {
        for m in methods {
            assert!(paths[path][m].is_object(), "{m} {path}");
        }
    }
}

#[actix_web::test]
async fn enumeration_messages_name_the_values_in_words() {
    let app = spawn_with_fiscal_year().await;
    let admin = app.admin_token().await;
    let programs = program_ids(&app, &admin).await;
    let roles = "must be one of Mentor, Director mentor, Coordinator, Administrator";
    for (patch, field, message) in [
        (json!({"roleCode": "Boss"}), "roleCode", roles),
        (json!({"status": "Retired"}), "status", "must be one of Active, Inactive, Pending"),
        (
            json!({"districtSetType": "County"}),
            "districtSetType",
            "must be one of Assembly, Senate, Congressional",
        ),
        (
            json!({"participations": [taking(programs[0], "Boss")]}),
            "participations[0].roleCode",
            roles,
        ),
    ] {
        let mut body = person("Bo", "Chan", "bo@example.org");
        for (k, v) in patch.as_object().unwrap() {
            body[k] = v.clone();
        }
        let r = app.post("/api/v1/participants", Some(&admin), body).await;
        assert_eq!(r.invalid()["errors"][field], json!([message]), "{patch} -> {}", r.body);
    }
    // Query filters too.
    let r = app.get("/api/v1/participants?RoleCode=Boss", &admin).await;
    assert_eq!(r.problem(400)["errors"]["RoleCode"], json!([roles]));
    let r = app.get("/api/v1/payment-requests/participant-list?RoleType=Boss", &admin).await;
    assert_eq!(r.problem(400)["errors"]["RoleType"], json!([roles]));
}

#[actix_web::test]
async fn the_payee_list_carries_the_participant_status() {
    let app = spawn_with_fiscal_year().await;
    let admin = app.admin_token().await;
    let programs = program_ids(&app, &admin).await;
    for (first, email, status) in [
        ("Act", "act@example.org", "Active"),
        ("Ina", "ina@example.org", "Inactive"),
        ("Pen", "pen@example.org", "Pending"),
    ] {
        let mut body = person(first, "Payee", email);
        body["status"] = json!(status);
        body["participations"] = json!([taking(programs[0], "Mentor")]);
        create(&app, &admin, body).await;
    }
    let list = app
        .get(
            &format!("/api/v1/payment-requests/participant-list?MentorProgramId={}", programs[0]),
            &admin,
        )
        .await;
    let mut seen: Vec<(String, String)> = list
        .ok()
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["lastName"] == "Payee")
        .map(|p| {
            (p["fullName"].as_str().unwrap().to_owned(), p["status"].as_str().unwrap().to_owned())
        })
        .collect();
    seen.sort();
    let want: Vec<(String, String)> =
        [("Act Payee", "Active"), ("Ina Payee", "Inactive"), ("Pen Payee", "Pending")]
            .iter()
            .map(|(n, s)| ((*n).to_owned(), (*s).to_owned()))
            .collect();
    assert_eq!(seen, want);
}

#[actix_web::test]
async fn only_active_reference_items_can_be_named() {
    let app = spawn_with_fiscal_year().await;
    let admin = app.admin_token().await;
    // These lists are kept by installation scripts, not the API: retired in the database.
    use sea_orm::ConnectionTrait;
    app.state.db.execute_unprepared("UPDATE caucus_regions SET is_active = false WHERE id = 1; UPDATE languages SET is_active = false WHERE id = 2").await.unwrap();
    let before = total(&app, &admin).await;
    let mut body = person("Bo", "Chan", "bo@example.org");
    body["languageIds"] = json!([1, 2]);
    let r = app.post("/api/v1/participants", Some(&admin), body).await;
    let errors = &r.invalid()["errors"];
    assert_eq!(errors["caucusRegionId"][0], "is not a known, active entry (id 1)", "{}", r.body);
    assert_eq!(errors["languageIds"][0], "is not a known, active entry (id 2)", "{}", r.body);
    assert_eq!(total(&app, &admin).await, before);
    // Active again, the same body is taken.
    app.state
        .db
        .execute_unprepared("UPDATE caucus_regions SET is_active = true WHERE id = 1")
        .await
        .unwrap();
    let mut body = person("Bo", "Chan", "bo@example.org");
    body["languageIds"] = json!([1]);
    create(&app, &admin, body).await;
}
