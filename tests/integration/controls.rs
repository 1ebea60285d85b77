//! The ceiling on rights, tried the way an insider with an ordinary account would: nobody
//! grants a role or a permission she does not hold, only an Administrator touches an
//! Administrator's e-mail, roles or access, nobody changes her own roles, a Coordinator's
//! login for a participant never carries a password she chose nor reaches a program she does
//! not see, and a filter naming such a program is refused. Each refusal changes nothing.

use crate::common;

use common::*;
use serde_json::{json, Value};

const PW: &str = "insider password 1";
const USERS: &str = "/api/v1/identity/users";
const ROLES: &str = "/api/v1/identity/roles";

/// A role of these permissions, a user holding only it, and that user's token.
async fn insider(app: &TestApp, admin: &str, name: &str, permissions: &[&str]) -> (i64, String) {
    let role =
        app.post(ROLES, Some(admin), json!({"name": name, "permissions": permissions})).await;
    let role = role.ok()["id"].as_i64().unwrap();
    let email = format!("{}@example.org", name.to_lowercase());
    app.create_user(admin, &email, &[name], PW).await;
    (role, app.login(&email, PW).await.0)
}

async fn user_id(app: &TestApp, admin: &str, email: &str) -> i64 {
    app.get(&format!("{USERS}?Email={email}"), admin).await.ok()["items"][0]["id"].as_i64().unwrap()
}

fn account(email: &str, roles: &[&str]) -> Value {
    json!({"email": email, "firstName": "Test", "lastName": "User", "roles": roles, "isActive": true})
}

fn refused_saying(r: &Reply, words: &str) {
    let detail = r.problem(403)["detail"].as_str().unwrap().to_owned();
    assert!(detail.contains(words), "{detail}");
}

#[actix_web::test]
async fn a_user_editor_cannot_make_herself_or_anyone_administrator() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let (_, editor) = insider(
        &app,
        &admin,
        "Helpdesk",
        &["user:read", "user:edit", "user:create", "user:delete"],
    )
    .await;
    let me = user_id(&app, &admin, "helpdesk@example.org").await;

    // The attack: PUT her own user with roles Administrator.
    let r = app
        .put(&format!("{USERS}/{me}"), &editor, account("helpdesk@example.org", &["Administrator"]))
        .await;
    refused_saying(&r, "your own roles");
    // Nor another account, nor a new one.
    app.create_user(&admin, "plain@example.org", &["Helpdesk"], PW).await;
    let plain = user_id(&app, &admin, "plain@example.org").await;
    let r = app
        .put(&format!("{USERS}/{plain}"), &editor, account("plain@example.org", &["Administrator"]))
        .await;
    refused_saying(&r, "Only an Administrator");
    let r = app.post(USERS, Some(&editor), json!({"email": "boss@example.org", "firstName": "B", "lastName": "C", "roles": ["Administrator"]})).await;
    refused_saying(&r, "Only an Administrator");
    // A role holding more than she does is refused too; her own role is within reach.
    let r = app.post(USERS, Some(&editor), json!({"email": "fin@example.org", "firstName": "F", "lastName": "G", "roles": ["Coordinator"]})).await;
    refused_saying(&r, "permissions you do not hold");
    let r = app.post(USERS, Some(&editor), json!({"email": "peer@example.org", "firstName": "P", "lastName": "Q", "roles": ["Helpdesk"]})).await;
    assert_eq!(r.status, 201, "{}", r.body);

    // The Administrator's e-mail (the way to her password), roles and access stay out of reach.
    let first = user_id(&app, &admin, ADMIN_EMAIL).await;
    let r = app
        .put(&format!("{USERS}/{first}"), &editor, account("mine@example.org", &["Administrator"]))
        .await;
    refused_saying(&r, "Administrator's e-mail");
    let r = app.delete(&format!("{USERS}/{first}"), &editor).await;
    refused_saying(&r, "Administrator's e-mail, roles or access");
    // Nothing changed: she is no Administrator, the Administrator keeps her address.
    assert_eq!(app.get(&format!("{USERS}/{me}"), &admin).await.ok()["roles"], json!(["Helpdesk"]));
    let boss = app.get(&format!("{USERS}/{first}"), &admin).await;
    assert_eq!((&boss.body["email"], &boss.body["isActive"]), (&json!(ADMIN_EMAIL), &json!(true)));
    assert_eq!(
        app.get(&format!("{USERS}?Email=boss@example.org"), &admin).await.ok()["totalCount"],
        0
    );
    app.login(ADMIN_EMAIL, ADMIN_PASSWORD).await;
}

#[actix_web::test]
async fn a_role_editor_cannot_give_any_role_what_she_does_not_hold() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let (own, editor) = insider(
        &app,
        &admin,
        "Keeper",
        &["role:read", "role:edit", "role:create", "permission:read"],
    )
    .await;
    let every: Vec<Value> = app
        .get("/api/v1/identity/permissions", &editor)
        .await
        .ok()
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["code"].clone())
        .collect();

    // The attack: every permission added to her own role.
    let r = app
        .put(&format!("{ROLES}/{own}"), &editor, json!({"name": "Keeper", "permissions": every}))
        .await;
    refused_saying(&r, "permissions you do not hold");
    let r = app
        .post(ROLES, Some(&editor), json!({"name": "Payer", "permissions": ["request:approve"]}))
        .await;
    refused_saying(&r, "request:approve");
    // Taking away what she does not hold is above her too: the Coordinator role stays whole.
    let roles = app.get(ROLES, &admin).await.ok().clone();
    let coordinator =
        roles.as_array().unwrap().iter().find(|r| r["name"] == "Coordinator").unwrap();
    let id = coordinator["id"].as_i64().unwrap();
    let r = app
        .put(
            &format!("{ROLES}/{id}"),
            &editor,
            json!({"name": "Coordinator", "permissions": ["role:read"]}),
        )
        .await;
    refused_saying(&r, "permissions you do not hold");
    // Within her own rights she may work.
    let r = app
        .post(ROLES, Some(&editor), json!({"name": "Viewer", "permissions": ["role:read"]}))
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    // Nothing else changed.
    let after = app.get(ROLES, &admin).await.ok().clone();
    let find = |name: &str| after.as_array().unwrap().iter().find(|r| r["name"] == name).cloned();
    assert_eq!(find("Keeper").unwrap()["permissions"].as_array().unwrap().len(), 4);
    assert_eq!(find("Coordinator").unwrap()["permissions"], coordinator["permissions"]);
    assert!(find("Payer").is_none());
}

/// A program she coordinates, another she does not, this fiscal year; the office lets its
/// Coordinators create logins and mail their people.
async fn two_programs(app: &TestApp, admin: &str) -> (i64, i64, i64) {
    let roles = app.get(ROLES, admin).await.ok().clone();
    let role = roles.as_array().unwrap().iter().find(|r| r["name"] == "Coordinator").unwrap();
    let mut permissions = role["permissions"].as_array().unwrap().clone();
    permissions.extend([json!("coordinator:create"), json!("report:sendemail")]);
    let path = format!("{ROLES}/{}", role["id"]);
    app.put(&path, admin, json!({"name": "Coordinator", "permissions": permissions})).await.ok();
    let fy = app
        .post("/api/v1/system-settings/fiscal-years", Some(admin), dates::Year::this().body())
        .await;
    let fy = fy.ok()["id"].as_i64().unwrap();
    let programs = ids(app, admin, "/api/v1/mentor-programs").await;
    (fy, programs[0], programs[1])
}

#[actix_web::test]
async fn a_coordinator_creates_logins_only_inside_her_programs_and_never_with_a_password() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let (fy, mine, other) = two_programs(&app, &admin).await;
    let cora = app.coordinator_of(&admin, "cora@example.org", PW, mine, fy).await;

    // The attack: a mentor of her program who coordinates another one she does not see.
    let mut dual = person("Dee", "dee@example.org", "Coordinator");
    dual["participations"] = json!([taking(mine, fy, "Mentor"), taking(other, fy, "Coordinator")]);
    let dual =
        app.post("/api/v1/participants", Some(&admin), dual).await.ok()["id"].as_i64().unwrap();
    let login = format!("/api/v1/participants/{dual}/identity-user");
    let r = app.post(&login, Some(&cora), json!({"password": "chosen by cora 1"})).await;
    refused_saying(&r, "Only an Administrator can choose a password");
    let r = app.post(&login, Some(&cora), json!({})).await;
    refused_saying(&r, "which you do not coordinate");
    assert_eq!(
        app.get(&format!("{USERS}?Email=dee@example.org"), &admin).await.ok()["totalCount"],
        0
    );
    assert!(app.login_reply("dee@example.org", "chosen by cora 1").await.status == 401);

    // Inside her programs she creates the login, and the participant is sent the link.
    let mut own = person("Eve", "eve@example.org", "Mentor");
    own["participations"] = json!([taking(mine, fy, "Mentor")]);
    let own =
        app.post("/api/v1/participants", Some(&admin), own).await.ok()["id"].as_i64().unwrap();
    let r = app
        .post(&format!("/api/v1/participants/{own}/identity-user"), Some(&cora), json!({}))
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let (email, _token) = app.link_in_queued_mail("eve@example.org", 1).await;
    assert_eq!(email, "eve@example.org");
    // An Administrator still may set the password of someone in any program.
    let r = app.post(&login, Some(&admin), json!({"password": "chosen by admin 1"})).await;
    assert_eq!(r.status, 201, "{}", r.body);
}

#[actix_web::test]
async fn a_filter_on_a_program_she_does_not_see_is_refused_everywhere() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let (fy, mine, other) = two_programs(&app, &admin).await;
    let cora = app.coordinator_of(&admin, "cora@example.org", PW, mine, fy).await;
    // Someone she shares with the other program: its filter would reveal the membership.
    let mut shared = person("Sam", "sam@example.org", "Mentor");
    shared["participations"] = json!([taking(mine, fy, "Mentor"), taking(other, fy, "Mentor")]);
    app.post("/api/v1/participants", Some(&admin), shared).await.ok();
    for path in [
        "/api/v1/participants",
        "/api/v1/payment-requests/participant-list",
        "/api/v1/reports/participants",
        "/api/v1/reports/participants/emails",
        "/api/v1/reports/mentor-program-reimbursements",
    ] {
        let r = app.get(&format!("{path}?MentorProgramId={other}"), &cora).await;
        refused_saying(&r, "outside your scope");
        app.get(&format!("{path}?MentorProgramId={mine}"), &cora).await.ok();
        app.get(&format!("{path}?MentorProgramId={other}"), &admin).await.ok();
    }
}

#[actix_web::test]
async fn the_lists_say_what_the_caller_may_grant_so_the_screens_offer_only_that() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let held = ["user:read", "user:edit", "role:read", "role:edit", "permission:read"];
    let (_, editor) = insider(&app, &admin, "Helpdesk", &held).await;
    let roles = app.get(ROLES, &editor).await.ok().clone();
    let grantable = |name: &str| {
        roles.as_array().unwrap().iter().find(|r| r["name"] == name).unwrap()["grantable"].clone()
    };
    assert_eq!(grantable("Helpdesk"), json!(true), "{roles}");
    assert_eq!(grantable("Administrator"), json!(false));
    assert_eq!(grantable("Coordinator"), json!(false), "it holds permissions she does not");
    let permissions = app.get("/api/v1/identity/permissions", &editor).await.ok().clone();
    for p in permissions.as_array().unwrap() {
        let code = p["code"].as_str().unwrap();
        assert_eq!(p["grantable"], json!(held.contains(&code)), "{p}");
    }
    let first = user_id(&app, &admin, ADMIN_EMAIL).await;
    let peer = user_id(&app, &admin, "helpdesk@example.org").await;
    let locked = |token: &str, id: i64| {
        let app = &app;
        let token = token.to_owned();
        async move { app.get(&format!("{USERS}/{id}"), &token).await.ok()["locked"].clone() }
    };
    assert_eq!(locked(&editor, first).await, json!(true));
    assert_eq!(locked(&editor, peer).await, json!(false));
    assert_eq!(locked(&admin, first).await, json!(false));
    let list = app.get(&format!("{USERS}?Email={ADMIN_EMAIL}"), &editor).await.ok().clone();
    assert_eq!(list["items"][0]["locked"], json!(true), "{list}");
    // An Administrator may grant everything.
    let all = app.get(ROLES, &admin).await.ok().clone();
    assert!(all.as_array().unwrap().iter().all(|r| r["grantable"] == json!(true)), "{all}");
}
