//! Every reference-list call on the real app: seeded content, filters, creation,
//! duplicates, bad input (nothing changed), permissions and the OpenAPI document.

use crate::common;

use common::*;
use mentorpay::entities::activity_log;
use reqwest::Method;
use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};
use serde_json::{json, Value};

const LISTS: &[&str] = &[
    "/caucus-regions",
    "/colleges",
    "/education-levels",
    "/languages",
    "/permit-levels",
    "/workplace-settings",
    "/expense-accounts",
    "/funds",
    "/mentor-programs",
    "/approval-codes",
    "/payment-requests/types",
    "/payment-requests/institutions",
    "/payment-requests/job-categories",
    "/payment-requests/travel-purposes",
    "/payment-requests/transit-types",
    "/payment-requests/training-types",
    "/participants/roles",
    "/participants/statuses",
    "/participants/distric-types",
];

fn items(v: &Value) -> &Vec<Value> {
    v.as_array().unwrap_or_else(|| panic!("a plain array: {v}"))
}

fn names(v: &Value) -> Vec<String> {
    items(v).iter().map(|i| i["name"].as_str().unwrap().to_owned()).collect()
}

async fn count(app: &TestApp, token: &str, path: &str) -> usize {
    items(app.get(&format!("/api/v1{path}"), token).await.ok()).len()
}

async fn activity(app: &TestApp, entity_type: &str) -> u64 {
    activity_log::Entity::find()
        .filter(activity_log::Column::EntityType.eq(entity_type))
        .count(&app.state.db)
        .await
        .unwrap()
}

#[actix_web::test]
async fn every_list_is_a_plain_array_of_items() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    for path in LISTS {
        let r = app.get(&format!("/api/v1{path}"), &admin).await;
        let list = items(r.ok());
        assert!(!list.is_empty(), "{path} is seeded");
        for item in list {
            assert!(
                item["id"].is_i64() && item["name"].is_string() && item["isActive"].is_boolean(),
                "{path}: {item}"
            );
        }
    }
}

#[actix_web::test]
async fn seeded_lists_hold_the_real_data() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    assert_eq!(count(&app, &admin, "/colleges").await, 116);
    let permits = app.get("/api/v1/permit-levels", &admin).await;
    assert_eq!(
        names(permits.ok()),
        [
            "Assistant",
            "Associate Teacher",
            "Teacher",
            "Master Teacher",
            "Site Supervisor",
            "Program Director"
        ]
    );
    let languages = names(app.get("/api/v1/languages", &admin).await.ok());
    for l in [
        "English",
        "Spanish",
        "Cantonese",
        "Mandarin",
        "Vietnamese",
        "Tagalog",
        "Korean",
        "Armenian",
        "Hmong",
        "Punjabi",
    ] {
        assert!(languages.contains(&l.to_owned()), "{l}");
    }
    let settings = names(app.get("/api/v1/workplace-settings", &admin).await.ok());
    assert!(
        settings.contains(&"Transitional Kindergarten".to_owned())
            && settings.contains(&"Early Head Start".to_owned())
    );
    let types = app.get("/api/v1/payment-requests/types", &admin).await;
    let types = items(types.ok());
    assert_eq!(types.len(), 14);
    assert_eq!(
        (types[0]["code"].as_str(), types[0]["name"].as_str()),
        (Some("F1"), Some("Placement stipend"))
    );
    assert_eq!(types[13]["code"], "F14");
    let roles: Vec<_> = items(app.get("/api/v1/participants/roles", &admin).await.ok())
        .iter()
        .map(|r| r["code"].clone())
        .collect();
    assert_eq!(
        roles,
        [json!("Mentor"), json!("DirectorMentor"), json!("Coordinator"), json!("Administrator")]
    );
    let statuses: Vec<_> = items(app.get("/api/v1/participants/statuses", &admin).await.ok())
        .iter()
        .map(|r| r["code"].clone())
        .collect();
    assert_eq!(statuses, [json!("Active"), json!("Inactive"), json!("Pending")]);
    let districts: Vec<_> = items(app.get("/api/v1/participants/distric-types", &admin).await.ok())
        .iter()
        .map(|r| r["code"].clone())
        .collect();
    assert_eq!(districts, [json!("Assembly"), json!("Senate"), json!("Congressional")]);
    // Lists without codes leave `code` out.
    let languages = app.get("/api/v1/languages", &admin).await;
    assert!(items(languages.ok())[0].get("code").is_none());
    let funds = app.get("/api/v1/funds", &admin).await;
    assert!(items(funds.ok()).iter().all(|f| f["code"].is_string()));
}

#[actix_web::test]
async fn filters_narrow_the_lists() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    assert_eq!(names(app.get("/api/v1/caucus-regions?query=BAY", &admin).await.ok()), ["Bay Area"]);
    assert_eq!(
        count(&app, &admin, "/caucus-regions?query=").await,
        count(&app, &admin, "/caucus-regions").await
    );
    assert_eq!(count(&app, &admin, "/caucus-regions?query=%25").await, 0, "wildcards are literal");

    let programs = app.get("/api/v1/mentor-programs", &admin).await;
    let dmp =
        items(programs.ok()).iter().find(|p| p["code"] == "DMP").unwrap()["id"].as_i64().unwrap();
    let colleges = app.get(&format!("/api/v1/colleges?MentorProgramId={dmp}"), &admin).await;
    assert_eq!(items(colleges.ok()).len(), 8);
    assert!(names(colleges.ok()).contains(&"Cabrillo College".to_owned()));
    assert_eq!(count(&app, &admin, "/colleges?mentorprogramid=99999").await, 0);
    app.get("/api/v1/colleges?MentorProgramId=abc", &admin).await.problem(400);

    let f1 = app.get("/api/v1/approval-codes?PaymentRequestType=F1", &admin).await;
    assert_eq!(items(f1.ok()).len(), 2);
    assert!(items(f1.ok()).iter().all(|c| c["paymentRequestType"] == "F1"));
    assert_eq!(count(&app, &admin, "/approval-codes?PaymentRequestType=f14").await, 1);
    assert_eq!(count(&app, &admin, "/approval-codes").await, 15);
    let r = app.get("/api/v1/approval-codes?PaymentRequestType=F99", &admin).await;
    assert!(r.problem(400)["errors"]["PaymentRequestType"].is_array());
}

#[actix_web::test]
async fn funds_and_accounts_are_created_with_unique_codes() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    for path in ["/funds", "/expense-accounts"] {
        let before = count(&app, &admin, path).await;
        let r = app
            .post(
                &format!("/api/v1{path}"),
                Some(&admin),
                json!({"name": "Lottery", "code": "LOT-1"}),
            )
            .await;
        assert_eq!(r.status, 201, "{}", r.body);
        assert_eq!(
            (r.body["name"].as_str(), r.body["code"].as_str(), r.body["isActive"].as_bool()),
            (Some("Lottery"), Some("LOT-1"), Some(true))
        );
        assert!(r.body["id"].is_i64());
        // Same code in another case: 409, nothing added.
        app.post(
            &format!("/api/v1{path}"),
            Some(&admin),
            json!({"name": "Other", "code": "lot-1"}),
        )
        .await
        .problem(409);
        assert_eq!(count(&app, &admin, path).await, before + 1);
    }
    assert_eq!(activity(&app, "fund").await, 1);
    assert_eq!(activity(&app, "expenseAccount").await, 1);
}

#[actix_web::test]
async fn bad_bodies_are_400_naming_the_field_and_change_nothing() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let before = count(&app, &admin, "/funds").await;
    for (body, field) in [
        (json!({"code": "X"}), "name"),
        (json!({"name": "X"}), "code"),
        (json!({"name": 5, "code": "X"}), "name"),
        (json!({"name": "X", "code": ["X"]}), "code"),
        (json!({"name": " ", "code": "X"}), "name"),
        (json!({"name": "X", "code": "has space"}), "code"),
        (json!({"name": "X", "code": "X", "collegeIds": [1]}), "collegeIds"),
        (json!({"name": "X", "code": "X", "paymentRequestType": "F1"}), "paymentRequestType"),
    ] {
        let r = app.post("/api/v1/funds", Some(&admin), body.clone()).await;
        assert!(r.problem(400)["errors"][field].is_array(), "{body} -> {}", r.body);
    }
    // Unknown fields are refused too (a typo must not be dropped silently).
    app.post("/api/v1/funds", Some(&admin), json!({"name": "X", "code": "X", "colour": "red"}))
        .await
        .problem(400);
    assert_eq!(count(&app, &admin, "/funds").await, before);
    assert_eq!(activity(&app, "fund").await, 0);
}

#[actix_web::test]
async fn mentor_programs_carry_their_colleges() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let colleges = app.get("/api/v1/colleges", &admin).await;
    let ids: Vec<i64> =
        items(colleges.ok()).iter().take(3).map(|c| c["id"].as_i64().unwrap()).collect();
    let r = app
        .post(
            "/api/v1/mentor-programs",
            Some(&admin),
            json!({"name": "Infant Toddler Mentors", "code": "ITM", "collegeIds": ids}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.body["id"].as_i64().unwrap();
    let linked = app.get(&format!("/api/v1/colleges?MentorProgramId={id}"), &admin).await;
    let mut linked: Vec<i64> =
        items(linked.ok()).iter().map(|c| c["id"].as_i64().unwrap()).collect();
    linked.sort();
    assert_eq!(linked, ids);
    // Without colleges is fine; unknown colleges are a 422 (a rule on stored data) and nothing is created.
    let before = count(&app, &admin, "/mentor-programs").await;
    let r = app
        .post(
            "/api/v1/mentor-programs",
            Some(&admin),
            json!({"name": "X", "code": "X1", "collegeIds": [1, 99999]}),
        )
        .await;
    assert!(r.problem(422)["errors"]["collegeIds"].is_array());
    app.post("/api/v1/mentor-programs", Some(&admin), json!({"name": "X", "code": "ITM"}))
        .await
        .problem(409);
    assert_eq!(count(&app, &admin, "/mentor-programs").await, before);
    app.post("/api/v1/mentor-programs", Some(&admin), json!({"name": "Plain", "code": "PLAIN"}))
        .await
        .ok();
    assert_eq!(activity(&app, "mentorProgram").await, 2);
}

#[actix_web::test]
async fn approval_codes_belong_to_a_form_type() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let r = app
        .post(
            "/api/v1/approval-codes",
            Some(&admin),
            json!({"code": "TM-RUR", "name": "Rural mileage", "paymentRequestType": "f3"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.body["paymentRequestType"], "F3");
    assert_eq!(count(&app, &admin, "/approval-codes?PaymentRequestType=F3").await, 2);
    for body in [
        json!({"code": "A1", "name": "A"}),
        json!({"code": "A1", "name": "A", "paymentRequestType": "F15"}),
    ] {
        assert!(app.post("/api/v1/approval-codes", Some(&admin), body).await.problem(400)
            ["errors"]["paymentRequestType"]
            .is_array());
    }
    app.post(
        "/api/v1/approval-codes",
        Some(&admin),
        json!({"code": "TM-RUR", "name": "Again", "paymentRequestType": "F1"}),
    )
    .await
    .problem(409);
    assert_eq!(count(&app, &admin, "/approval-codes").await, 16);
}

#[actix_web::test]
async fn each_call_checks_its_permission() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    for path in LISTS {
        app.call(Method::GET, &format!("/api/v1{path}"), None, None).await.problem(401);
    }
    // An Auditor role holding nothing but user:read.
    app.post(
        "/api/v1/identity/roles",
        Some(&admin),
        json!({"name": "Auditor", "permissions": ["user:read"]}),
    )
    .await
    .ok();
    app.create_user(&admin, "auditor@example.org", &["Auditor"], "auditor password 1").await;
    let (auditor, _) = app.login("auditor@example.org", "auditor password 1").await;
    for path in [
        "/caucus-regions",
        "/colleges",
        "/funds",
        "/expense-accounts",
        "/mentor-programs",
        "/workplace-settings",
        "/payment-requests/institutions",
        "/payment-requests/job-categories",
        "/payment-requests/travel-purposes",
        "/payment-requests/transit-types",
        "/payment-requests/training-types",
        "/participants/roles",
        "/participants/statuses",
        "/participants/distric-types",
    ] {
        app.get(&format!("/api/v1{path}"), &auditor).await.problem(403);
    }
    for path in [
        "/education-levels",
        "/languages",
        "/permit-levels",
        "/approval-codes",
        "/payment-requests/types",
    ] {
        app.get(&format!("/api/v1{path}"), &auditor).await.ok();
    }
    // A Coordinator reads every list but creates none.
    app.create_user(&admin, "coord@example.org", &["Coordinator"], "coordinator pass 1").await;
    let (coord, _) = app.login("coord@example.org", "coordinator pass 1").await;
    for path in LISTS {
        app.get(&format!("/api/v1{path}"), &coord).await.ok();
    }
    for path in ["/funds", "/expense-accounts", "/mentor-programs"] {
        app.post(&format!("/api/v1{path}"), Some(&coord), json!({"name": "N", "code": "N"}))
            .await
            .problem(403);
    }
    app.post(
        "/api/v1/approval-codes",
        Some(&coord),
        json!({"name": "N", "code": "N", "paymentRequestType": "F1"}),
    )
    .await
    .problem(403);
}

#[actix_web::test]
async fn the_openapi_document_lists_every_reference_call() {
    let app = spawn().await;
    let r = app.call(Method::GET, "/api/v1/openapi.json", None, None).await;
    let paths = &r.ok()["paths"];
    for path in LISTS {
        assert!(paths[format!("/api/v1{path}")]["get"].is_object(), "{path}");
    }
    for path in ["/funds", "/expense-accounts", "/mentor-programs", "/approval-codes"] {
        assert!(paths[format!("/api/v1{path}")]["post"].is_object(), "{path}");
    }
    assert!(paths["/api/v1/funds"]["put"].is_null());
    assert!(r.body["components"]["schemas"]["RefItem"].is_object());
}

/// The form rules the UI reads name real fields of each form, real lists and real rates.
#[actix_web::test]
async fn form_types_carry_the_rules_the_form_pages_read() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let types = app.get("/api/v1/payment-requests/types", &admin).await;
    let rates = app.get("/api/v1/payment-requests/rates", &admin).await;
    let rates = rates.ok();
    let doc = app.call(Method::GET, "/api/v1/openapi.json", None, None).await;
    let schemas = &doc.ok()["components"]["schemas"];
    let mut uses_colleges = Vec::new();
    for t in items(types.ok()) {
        let code = t["code"].as_str().unwrap();
        let form = &t["form"];
        let details = &schemas[format!("{code}Details")];
        let required = details["required"].as_array().unwrap();
        for r in form["references"].as_array().unwrap() {
            let field = r["field"].as_str().unwrap();
            assert!(details["properties"][field].is_object(), "{code}.{field}");
            assert_eq!(r["optional"], json!(!required.contains(&r["field"])), "{code}.{field}");
            if r["list"] == "colleges" {
                uses_colleges.push(code.to_owned());
            }
        }
        let entered = form["amount"]["rule"] == "entered";
        assert_eq!(form["amountSource"] == "Entered", entered, "{code}");
        // A rate from settings is one the rates call gives.
        for setting in [&form["amount"]["setting"], &form["amount"]["rate"]["setting"]] {
            if let Some(name) = setting.as_str() {
                assert!(rates[name].is_number() || rates[name].is_object(), "{code}: {name}");
            }
        }
        assert_eq!(form["receipts"].is_object(), code == "F2", "{code}");
    }
    assert_eq!(uses_colleges, ["F1", "F13"]);
    // Only the form types carry rules.
    let funds = app.get("/api/v1/funds", &admin).await;
    assert!(items(funds.ok()).iter().all(|f| f.get("form").is_none()));
    assert!(schemas["FormRules"]["properties"]["amount"].is_object());
}
