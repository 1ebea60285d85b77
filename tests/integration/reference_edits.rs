//! Renaming and deactivating funds, expense accounts, mentor programs (with their colleges)
//! and approval codes (docs/decisions-reference.md), and the money checks of
//! the screens that set a new year up: negative or malformed amounts are field errors.

use crate::common;
use crate::common::dates::{shifted, shifted_fy};

use common::*;
use mentorpay::entities::activity_log;
use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};
use serde_json::{json, Value};

async fn find(app: &TestApp, token: &str, path: &str, id: i64) -> Value {
    let list = app.get(path, token).await.ok().clone();
    list.as_array().unwrap().iter().find(|i| i["id"] == id).cloned().unwrap_or(Value::Null)
}

async fn logged(app: &TestApp, entity_type: &str, action: &str) -> u64 {
    activity_log::Entity::find()
        .filter(activity_log::Column::EntityType.eq(entity_type))
        .filter(activity_log::Column::Action.eq(action))
        .count(&app.state.db)
        .await
        .unwrap()
}

#[actix_web::test]
async fn a_new_fund_is_renamed_then_deactivated_and_stays_listed() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let created = app
        .post(
            "/api/v1/funds",
            Some(&admin),
            json!({"name": "FY27 one-time grant", "code": "OTG27"}),
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let id = created.body["id"].as_i64().unwrap();

    let renamed = app
        .put(&format!("/api/v1/funds/{id}"), &admin, json!({"name": "  One-time grant 2026-27 "}))
        .await
        .ok()
        .clone();
    assert_eq!(renamed["name"], "One-time grant 2026-27");
    assert_eq!(renamed["code"], "OTG27", "the code never changes");
    assert_eq!(renamed["isActive"], true);
    assert_eq!(logged(&app, "fund", "updated").await, 1);

    let off = app
        .put(&format!("/api/v1/funds/{id}"), &admin, json!({"isActive": false}))
        .await
        .ok()
        .clone();
    assert_eq!(off["isActive"], false);
    assert_eq!(logged(&app, "fund", "deactivated").await, 1);
    // Still listed (old records show it); pickers leave it out by isActive.
    assert_eq!(find(&app, &admin, "/api/v1/funds", id).await["isActive"], false);
    let on = app
        .put(&format!("/api/v1/funds/{id}"), &admin, json!({"isActive": true}))
        .await
        .ok()
        .clone();
    assert_eq!(on["isActive"], true);
    assert_eq!(logged(&app, "fund", "reactivated").await, 1);
}

#[actix_web::test]
async fn a_program_gets_new_colleges_and_a_new_name() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let created = app
        .post(
            "/api/v1/mentor-programs",
            Some(&admin),
            json!({"name": "Pilot", "code": "PILOT", "collegeIds": [1, 2]}),
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let id = created.body["id"].as_i64().unwrap();
    app.put(
        &format!("/api/v1/mentor-programs/{id}"),
        &admin,
        json!({"name": "Pilot program", "collegeIds": [3, 2, 3]}),
    )
    .await
    .ok();
    let colleges =
        app.get(&format!("/api/v1/colleges?MentorProgramId={id}"), &admin).await.ok().clone();
    let mut ids: Vec<i64> =
        colleges.as_array().unwrap().iter().map(|c| c["id"].as_i64().unwrap()).collect();
    ids.sort();
    assert_eq!(ids, [2, 3]);
    assert_eq!(find(&app, &admin, "/api/v1/mentor-programs", id).await["name"], "Pilot program");

    // An unknown college refuses the whole change.
    let r = app
        .put(
            &format!("/api/v1/mentor-programs/{id}"),
            &admin,
            json!({"name": "Changed", "collegeIds": [99999]}),
        )
        .await;
    assert!(r.problem(422)["errors"]["collegeIds"].is_array(), "{}", r.body);
    assert_eq!(find(&app, &admin, "/api/v1/mentor-programs", id).await["name"], "Pilot program");
    assert_eq!(
        app.get(&format!("/api/v1/colleges?MentorProgramId={id}"), &admin)
            .await
            .ok()
            .as_array()
            .unwrap()
            .len(),
        2
    );
}

#[actix_web::test]
async fn bad_edits_name_the_field_and_unknown_ids_are_404() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    for (body, field) in [
        (json!({}), "name"),
        (json!({"name": "  "}), "name"),
        (json!({"collegeIds": [1]}), "collegeIds"),
    ] {
        let r = app.put("/api/v1/expense-accounts/1", &admin, body.clone()).await;
        assert!(r.problem(400)["errors"][field].is_array(), "{body}: {}", r.body);
    }
    let r = app.put("/api/v1/expense-accounts/1", &admin, json!({"code": "NEW"})).await;
    r.problem(400);
    app.put("/api/v1/expense-accounts/99999", &admin, json!({"name": "X"})).await.problem(404);
    app.put("/api/v1/approval-codes/99999", &admin, json!({"isActive": false})).await.problem(404);
    assert_eq!(logged(&app, "expenseAccount", "updated").await, 0);
}

#[actix_web::test]
async fn each_edit_needs_its_lists_create_permission() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    app.create_user(&admin, "coord@example.org", &["Coordinator"], "coordinator pass 1").await;
    let (coordinator, _) = app.login("coord@example.org", "coordinator pass 1").await;
    for path in [
        "/api/v1/funds/1",
        "/api/v1/expense-accounts/1",
        "/api/v1/mentor-programs/1",
        "/api/v1/approval-codes/1",
    ] {
        app.put(path, &coordinator, json!({"name": "Taken over"})).await.problem(403);
        app.call(reqwest::Method::PUT, path, None, Some(json!({"name": "X"}))).await.problem(401);
    }
    // Lists without a POST have no PUT either.
    let r = app.put("/api/v1/languages/1", &admin, json!({"name": "X"})).await;
    assert!(r.status == 404 || r.status == 405, "{} {}", r.status, r.body);

    let code = app
        .put("/api/v1/approval-codes/1", &admin, json!({"name": "Placement stipend (standard)"}))
        .await
        .ok()
        .clone();
    assert_eq!(code["name"], "Placement stipend (standard)");
    assert_eq!(code["paymentRequestType"], "F1");
}

#[actix_web::test]
async fn budget_amounts_and_the_mileage_rate_refuse_negative_or_malformed_money() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let year = app
        .post(
            "/api/v1/system-settings/fiscal-years",
            Some(&admin),
            json!({"name": shifted_fy("FY 2030-31"), "startDate": shifted("2030-07-01"), "endDate": shifted("2031-06-30")}),
        )
        .await;
    assert_eq!(year.status, 201, "{}", year.body);
    let fy = year.body["id"].as_i64().unwrap();
    for amount in [json!(-5), json!(0.725), json!("12")] {
        let r = app
            .put(
                "/api/v1/budgets/bulk-update",
                &admin,
                json!({"fiscalYearId": fy, "lines": [{"mentorProgramId": 1, "fundId": 1, "expenseAccountId": 1, "amount": amount}]}),
            )
            .await;
        let body = r.invalid();
        let field = body["errors"].as_object().unwrap().keys().next().cloned().unwrap_or_default();
        assert!(field.contains("amount"), "{amount}: {body}");
    }
    let lines = app.get(&format!("/api/v1/budgets/{fy}"), &admin).await.ok()["lines"].clone();
    assert_eq!(lines.as_array().unwrap().len(), 0, "nothing saved");

    let general = app.get("/api/v1/system-settings/general", &admin).await.ok().clone();
    let mut body = general.clone();
    body["mileageRate"] = json!(0.725);
    let r =
        app.put(&format!("/api/v1/system-settings/general/{}", general["id"]), &admin, body).await;
    assert!(r.invalid()["errors"]["mileageRate"].is_array(), "{}", r.body);
    assert_eq!(
        app.get("/api/v1/system-settings/general", &admin).await.ok()["mileageRate"],
        general["mileageRate"]
    );
}

#[actix_web::test]
async fn each_caller_learns_its_own_programs() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let mine = app.get("/api/v1/mentor-programs/mine", &admin).await.ok().clone();
    assert_eq!(mine["all"], true);

    // A Coordinator login without a participant link sees nothing, and is told so.
    app.create_user(&admin, "unlinked@example.org", &["Coordinator"], "unlinked pass 123").await;
    let (unlinked, _) = app.login("unlinked@example.org", "unlinked pass 123").await;
    let mine = app.get("/api/v1/mentor-programs/mine", &unlinked).await.ok().clone();
    assert_eq!(mine, json!({"all": false, "linkedToParticipant": false, "mentorProgramIds": []}));

    // A linked Coordinator: the programs it coordinates.
    let year = app
        .post(
            "/api/v1/system-settings/fiscal-years",
            Some(&admin),
            json!({"name": shifted_fy("FY 2026-27"), "startDate": shifted("2026-07-01"), "endDate": shifted("2027-06-30")}),
        )
        .await;
    let fy = year.body["id"].as_i64().unwrap();
    let person = app
        .post(
            "/api/v1/participants",
            Some(&admin),
            json!({"firstName": "Cora", "lastName": "Linked", "email": "cora@example.org", "status": "Active", "roleCode": "Coordinator",
                   "participations": [{"mentorProgramId": 2, "fiscalYearId": fy, "roleCode": "Coordinator", "startDate": shifted("2026-07-01")}]}),
        )
        .await;
    assert_eq!(person.status, 201, "{}", person.body);
    let id = person.body["id"].as_i64().unwrap();
    let login = app
        .post(
            &format!("/api/v1/participants/{id}/identity-user"),
            Some(&admin),
            json!({"password": "linked pass 1234"}),
        )
        .await;
    assert_eq!(login.status, 201, "{}", login.body);
    let (linked, _) = app.login("cora@example.org", "linked pass 1234").await;
    let mine = app.get("/api/v1/mentor-programs/mine", &linked).await.ok().clone();
    assert_eq!(mine, json!({"all": false, "linkedToParticipant": true, "mentorProgramIds": [2]}));
    app.call(reqwest::Method::GET, "/api/v1/mentor-programs/mine", None, None).await.problem(401);
}
