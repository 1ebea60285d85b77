//! The permission matrix, built from the route table itself (`app::route_table()`):
//! every route × (anonymous, a user without permissions, a Coordinator, an
//! Administrator, a custom role holding exactly that route's permission), each with no
//! body, an invalid body and a wrong-shaped one. Sign-in is checked first (401), then
//! the permission (403), and only then the body: a caller without the permission gets
//! the same 403 whatever it sends, and learns nothing of the body's schema.

use crate::common;

use std::collections::BTreeSet;

use common::*;
use mentorpay::{
    auth::{permissions::COORDINATOR_DEFAULTS, Permission},
    routes::{Access, RouteSpec},
};
use reqwest::Method;
use serde_json::{json, Value};

const PASSWORD: &str = "matrix password 123";

/// A concrete path: ids that exist nowhere, a real form type, so nothing is changed.
fn concrete(spec: &RouteSpec) -> String {
    spec.full_path()
        .replace("{formType}", "F1")
        .replace("{fileId}", "00000000-0000-0000-0000-000000000000")
        .split('/')
        .map(|seg| if seg.starts_with('{') { "999999" } else { seg })
        .collect::<Vec<_>>()
        .join("/")
}

/// What is sent: nothing, then (for writes) an unknown field and a list for an object.
fn bodies(spec: &RouteSpec) -> Vec<Option<Value>> {
    if spec.method == actix_web::http::Method::POST || spec.method == actix_web::http::Method::PUT {
        vec![None, Some(json!({"zzBogus": 1})), Some(json!([]))]
    } else {
        vec![None]
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Expect {
    Unauthorized,
    Forbidden,
    /// Past the guard: a 2xx or a 4xx other than 401/403 (404 for the unknown ids, 400
    /// for the bad bodies...), never a 5xx.
    Through,
    /// Past sign-in; the handler may still narrow (banners without ActiveOnly).
    SignedIn,
}

fn check(who: &str, spec: &RouteSpec, body: &Option<Value>, expect: Expect, reply: &Reply) {
    let status = reply.status.as_u16();
    let what =
        format!("{who}: {} {} body {body:?} -> {status} {}", spec.method, spec.path, reply.body);
    assert!(status < 500, "{what}");
    match expect {
        Expect::Unauthorized => assert_eq!(status, 401, "{what}"),
        Expect::Forbidden => {
            assert_eq!(status, 403, "{what}");
            let text = reply.body.to_string();
            assert!(
                !text.contains("zzBogus") && !text.contains("expected"),
                "a 403 must not describe the body: {what}"
            );
        }
        Expect::Through => assert!(status != 401 && status != 403, "{what}"),
        Expect::SignedIn => assert!(status != 401, "{what}"),
    }
    if !reply.status.is_success() {
        assert_eq!(reply.body["status"], status, "every error is a problem body: {what}");
    }
}

async fn user_with_role(app: &TestApp, admin: &str, email: &str, role: &str) -> String {
    app.create_user(admin, email, &[role], PASSWORD).await;
    app.login(email, PASSWORD).await.0
}

#[actix_web::test]
async fn every_route_checks_sign_in_then_permission_before_reading_the_body() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let table = mentorpay::app::route_table().specs();
    assert!(table.len() > 60, "the table holds every route ({})", table.len());

    let r = app
        .post("/api/v1/identity/roles", Some(&admin), json!({"name": "Nothing", "permissions": []}))
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let r = app
        .post("/api/v1/identity/roles", Some(&admin), json!({"name": "Holder", "permissions": []}))
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let holder_role = r.body["id"].as_i64().unwrap();
    let nobody = user_with_role(&app, &admin, "nobody@example.org", "Nothing").await;
    let coordinator = user_with_role(&app, &admin, "coordinator@example.org", "Coordinator").await;
    let holder = user_with_role(&app, &admin, "holder@example.org", "Holder").await;
    let coordinator_grants: BTreeSet<Permission> = COORDINATOR_DEFAULTS.iter().copied().collect();

    let mut granted: Option<Vec<Permission>> = None;
    let mut checked = 0;
    for spec in &table {
        let path = concrete(spec);
        // The holder's role holds exactly what this route needs (a change is seen on the next call).
        let grant = spec.access.minimal_grant();
        if granted.as_ref() != Some(&grant) {
            let codes: Vec<&str> = grant.iter().map(|p| p.code()).collect();
            let r = app
                .put(
                    &format!("/api/v1/identity/roles/{holder_role}"),
                    &admin,
                    json!({"name": "Holder", "permissions": codes}),
                )
                .await;
            assert_eq!(r.status, 200, "{}", r.body);
            granted = Some(grant);
        }
        let (anonymous, without, coordinator_expect) = match spec.access {
            Access::Public => (Expect::SignedIn, Expect::SignedIn, Expect::SignedIn),
            Access::SignedIn => (Expect::Unauthorized, Expect::SignedIn, Expect::SignedIn),
            access => (
                Expect::Unauthorized,
                Expect::Forbidden,
                if access.allows(&coordinator_grants) {
                    Expect::Through
                } else {
                    Expect::Forbidden
                },
            ),
        };
        let public_or =
            |e: Expect| if spec.access == Access::Public { Expect::SignedIn } else { e };
        for body in bodies(spec) {
            let method = Method::from_bytes(spec.method.as_str().as_bytes()).unwrap();
            let holder_expect = if spec.access == Access::SignedIn {
                Expect::SignedIn
            } else {
                public_or(Expect::Through)
            };
            let callers = [
                ("anonymous", None, anonymous),
                ("no permission", Some(nobody.as_str()), without),
                ("Coordinator", Some(coordinator.as_str()), coordinator_expect),
                ("Administrator", Some(admin.as_str()), public_or(Expect::Through)),
                ("exact holder", Some(holder.as_str()), holder_expect),
            ];
            for (who, token, expect) in callers {
                check(
                    who,
                    spec,
                    &body,
                    expect,
                    &app.call(method.clone(), &path, token, body.clone()).await,
                );
            }
            checked += 5;
        }
    }
    assert!(checked > 500, "{checked} calls");
}

#[actix_web::test]
async fn a_forbidden_caller_gets_the_same_403_whatever_it_sends() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let coordinator = user_with_role(&app, &admin, "coordinator@example.org", "Coordinator").await;
    // The case: an invalid body to a write route a Coordinator may not use.
    let mut answers = Vec::new();
    for body in [
        json!({"zzBogus": 1}),
        json!([]),
        json!({"email": "x@example.org", "firstName": "A", "lastName": "B", "roles": []}),
    ] {
        let r = app.post("/api/v1/identity/users", Some(&coordinator), body).await;
        answers.push(r.problem(403).clone());
    }
    let raw = app
        .client
        .post(format!("{}/api/v1/identity/users", app.base))
        .bearer_auth(&coordinator)
        .header("content-type", "application/json")
        .body("{not json")
        .send()
        .await
        .unwrap();
    assert_eq!(raw.status(), 403);
    answers.push(raw.json().await.unwrap());
    assert!(answers.windows(2).all(|w| w[0] == w[1]), "{answers:?}");
    assert_eq!(answers[0]["detail"], "You do not have the permission user:create.");
}

/// A participant the Administrator creates in a program no one coordinates.
async fn out_of_scope_participant(app: &TestApp, admin: &str) -> i64 {
    let body = json!({
        "firstName": "Out", "lastName": "Of Scope", "email": "out.of.scope@example.org", "phone": "(916) 555-0100",
        "address": "1 Capitol Mall, Sacramento", "status": "Active", "roleCode": "Mentor",
        "districtSetType": "Assembly", "districtId": 7, "caucusRegionId": 1,
        "workplaceSettingIds": [1, 2], "languageIds": [1], "educationLevelIds": [3], "permitLevelIds": [2],
    });
    let r = app.post("/api/v1/participants", Some(admin), body).await;
    assert_eq!(r.status, 201, "{}", r.body);
    r.body["id"].as_i64().unwrap()
}

/// Scope before body: on every route whose path names an entity of a program (the table's
/// `scoped` routes), a Coordinator holding the permission but not the scope gets 404
/// whatever body it sends, and learns nothing of the body's schema; in scope (the
/// Administrator), the same bodies reach the body checks (400).
#[actix_web::test]
async fn an_id_outside_the_callers_scope_is_refused_before_the_body_is_read() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    // A Coordinator linked to no participant: no program is in its scope.
    let coordinator = user_with_role(&app, &admin, "coordinator@example.org", "Coordinator").await;
    let coordinator_grants: BTreeSet<Permission> = COORDINATOR_DEFAULTS.iter().copied().collect();
    let participant = out_of_scope_participant(&app, &admin).await;

    let table = mentorpay::app::route_table().specs();
    let scoped: Vec<&RouteSpec> = table.iter().filter(|s| s.scoped.is_some()).collect();
    for path in [
        "/participants/{id}",
        "/payment-requests/{formType}/{id}",
        "/payment-requests/F2/{id}/files/{fileId}",
        "/budgets/{id}",
    ] {
        assert!(scoped.iter().any(|s| s.path == path), "{path} is scoped in the table");
    }
    // GET /budgets/{id} names a fiscal year, not a program's line: not scoped.
    assert!(table.iter().any(|s| s.path == "/budgets/{id}"
        && s.method == actix_web::http::Method::GET
        && s.scoped.is_none()));
    let mut checked = 0;
    for spec in scoped.iter().filter(|s| s.access.allows(&coordinator_grants)) {
        let method = Method::from_bytes(spec.method.as_str().as_bytes()).unwrap();
        // A real participant outside the scope where the path names one; elsewhere ids that exist nowhere.
        let path = if spec.path.starts_with("/participants/{id}") {
            concrete(spec).replacen("999999", &participant.to_string(), 1)
        } else {
            concrete(spec)
        };
        for body in bodies(spec) {
            let r = app.call(method.clone(), &path, Some(&coordinator), body.clone()).await;
            let what = format!(
                "Coordinator: {} {path} body {body:?} -> {} {}",
                spec.method, r.status, r.body
            );
            assert_eq!(r.status, 404, "{what}");
            let text = r.body.to_string();
            assert!(
                !text.contains("zzBogus") && !text.contains("expected"),
                "a scope refusal must not describe the body: {what}"
            );
            checked += 1;
        }
    }
    assert!(checked >= 10, "{checked} calls");

    // In scope, the same invalid bodies are read and refused as bodies (400).
    for (method, path) in [
        (Method::PUT, format!("/api/v1/participants/{participant}")),
        (Method::POST, format!("/api/v1/participants/{participant}/participations")),
    ] {
        for body in [json!({"zzBogus": 1}), json!([])] {
            let r = app.call(method.clone(), &path, Some(&admin), Some(body.clone())).await;
            assert_eq!(r.status, 400, "Administrator: {method} {path} {body} -> {}", r.body);
        }
    }
    // A scoped route beyond the Coordinator's defaults: a budget editor without programs.
    let r = app
        .post(
            "/api/v1/identity/roles",
            Some(&admin),
            json!({"name": "Budget editor", "permissions": ["budget:edit"]}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let editor = user_with_role(&app, &admin, "budget.editor@example.org", "Budget editor").await;
    for body in [json!({"zzBogus": 1}), json!([])] {
        let r = app.put("/api/v1/budgets/999999", &editor, body.clone()).await;
        assert_eq!(r.status, 404, "budget editor: PUT /budgets/999999 {body} -> {}", r.body);
        assert_eq!(
            app.put("/api/v1/budgets/999999", &admin, body).await.status,
            400,
            "in scope the body is read"
        );
    }
    // Out of scope with a path id that does not parse is still the path's 400 (path before scope).
    app.call(
        Method::PUT,
        "/api/v1/participants/abc",
        Some(&coordinator),
        Some(json!({"zzBogus": 1})),
    )
    .await
    .problem(400);
    // And nothing changed: the participant is as the Administrator created it.
    let p = app.get(&format!("/api/v1/participants/{participant}"), &admin).await;
    assert_eq!(p.ok()["lastName"], "Of Scope");
}
