//! Time away and stand-ins on the real app: a window saved, read, replaced and cleared by its
//! owner and by an editor of users, each refusal naming its field and changing nothing, the
//! picker's list, and every change in the audit trail.

use crate::common;

use common::*;
use serde_json::{json, Value};

const MINE: &str = "/api/v1/identity/me/out-of-office";
const CANDIDATES: &str = "/api/v1/identity/users/stand-in-candidates";
const PASSWORD: &str = "stand in password 1";

fn window(from: i64, to: i64, stand_in: i64) -> Value {
    json!({"from": dates::days(from), "to": dates::days(to), "standInUserId": stand_in})
}

/// A role that approves (and reads) requests, and `n` users holding it: their ids and tokens.
async fn approvers(app: &TestApp, admin: &str, names: &[&str]) -> Vec<(i64, String)> {
    let r = app
        .post(
            "/api/v1/identity/roles",
            Some(admin),
            json!({"name": "Reviewer", "permissions": ["request:read", "request:approve"]}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let r = app
        .post(
            "/api/v1/identity/roles",
            Some(admin),
            json!({"name": "Clerk", "permissions": ["request:read"]}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let mut out = Vec::new();
    for name in names {
        let email = format!("{name}@example.org");
        let id = app.create_user(admin, &email, &["Reviewer"], PASSWORD).await;
        out.push((id, app.login(&email, PASSWORD).await.0));
    }
    out
}

fn field(r: &Reply, name: &str) {
    let body = r.problem(422);
    assert!(body["errors"][name].is_array(), "{name}: {body}");
}

#[actix_web::test]
async fn a_window_is_saved_read_replaced_and_cleared_with_its_trail() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let people = approvers(&app, &admin, &["ana", "bo"]).await;
    let (ana, ana_token) = (&people[0].0, &people[0].1);
    let bo = people[1].0;

    assert_eq!(app.get(MINE, ana_token).await.status, 404);
    let saved = app.put(MINE, ana_token, window(0, 5, bo)).await;
    let body = saved.ok();
    assert_eq!(body["standIn"]["id"], json!(bo), "{body}");
    assert_eq!(body["standIn"]["email"], json!("bo@example.org"));
    assert_eq!(body["to"], json!(dates::days(5)));
    assert_eq!(app.get(MINE, ana_token).await.ok(), body);

    // Replacing keeps one window; the editor of users sees and changes the same one.
    app.put(MINE, ana_token, window(1, 3, bo)).await.ok();
    let theirs = format!("/api/v1/identity/users/{ana}/out-of-office");
    assert_eq!(app.get(&theirs, &admin).await.ok()["from"], json!(dates::days(1)));
    assert_eq!(app.delete(&theirs, &admin).await.status, 204);
    assert_eq!(app.get(MINE, ana_token).await.status, 404);
    assert_eq!(app.delete(MINE, ana_token).await.status, 404);

    let trail =
        app.get(&format!("/api/v1/audit-log?EntityType=user&EntityId={ana}&Size=10"), &admin).await;
    let actions: Vec<&str> = trail.ok()["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|i| i["action"].as_str())
        .collect();
    assert_eq!(
        actions[..3],
        ["out-of-office-cleared", "out-of-office-set", "out-of-office-set"],
        "{actions:?}"
    );
}

#[actix_web::test]
async fn every_refusal_names_its_field_and_changes_nothing() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let people = approvers(&app, &admin, &["ana", "bo", "cy"]).await;
    let (ana, ana_token) = (people[0].0, &people[0].1);
    let (bo, bo_token) = (people[1].0, &people[1].1);
    let cy = people[2].0;
    let clerk = app.create_user(&admin, "clerk@example.org", &["Clerk"], PASSWORD).await;
    let gone = app.create_user(&admin, "gone@example.org", &["Reviewer"], PASSWORD).await;
    app.delete(&format!("/api/v1/identity/users/{gone}"), &admin).await.ok();

    field(&app.put(MINE, ana_token, window(0, 3, ana)).await, "standInUserId");
    field(&app.put(MINE, ana_token, window(0, 3, clerk)).await, "standInUserId");
    field(&app.put(MINE, ana_token, window(0, 3, gone)).await, "standInUserId");
    field(&app.put(MINE, ana_token, window(0, 3, 999_999)).await, "standInUserId");
    field(&app.put(MINE, ana_token, window(3, 1, bo)).await, "to");
    field(&app.put(MINE, ana_token, window(-5, -1, bo)).await, "to");
    assert_eq!(
        app.put(MINE, ana_token, json!({"from": "soon", "to": "later", "standInUserId": bo}))
            .await
            .status,
        400
    );
    assert_eq!(app.get(MINE, ana_token).await.status, 404, "nothing was saved");

    // No chains: Bo away in the window cannot stand in; Bo standing in cannot go away then.
    app.put(MINE, bo_token, window(2, 4, cy)).await.ok();
    field(&app.put(MINE, ana_token, window(0, 2, bo)).await, "standInUserId");
    app.put(MINE, ana_token, window(5, 8, bo)).await.ok();
    app.delete(MINE, bo_token).await;
    field(&app.put(MINE, bo_token, window(8, 9, cy)).await, "from");
    app.put(MINE, bo_token, window(9, 10, cy)).await.ok();

    // Someone without request:approve has nothing to hand over.
    let clerk_token = app.login("clerk@example.org", PASSWORD).await.0;
    field(&app.put(MINE, &clerk_token, window(0, 1, bo)).await, "standInUserId");
}

#[actix_web::test]
async fn the_picker_lists_active_approvers_and_an_editor_cannot_reach_an_administrator() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let people = approvers(&app, &admin, &["ana", "bo"]).await;
    app.create_user(&admin, "clerk@example.org", &["Clerk"], PASSWORD).await;
    let listed = app.get(&format!("{CANDIDATES}?Search=EXAMPLE.ORG"), &people[0].1).await;
    let emails: Vec<&str> =
        listed.ok().as_array().unwrap().iter().filter_map(|u| u["email"].as_str()).collect();
    assert!(emails.contains(&"bo@example.org") && emails.contains(&ADMIN_EMAIL), "{emails:?}");
    assert!(!emails.contains(&"ana@example.org") && !emails.contains(&"clerk@example.org"));
    let clerk = app.login("clerk@example.org", PASSWORD).await.0;
    assert_eq!(app.get(CANDIDATES, &clerk).await.status, 403);

    // An editor of users who is not an Administrator sets a reviewer's window, not an
    // Administrator's.
    let r = app
        .post(
            "/api/v1/identity/roles",
            Some(&admin),
            json!({"name": "Desk", "permissions": ["user:read", "user:edit"]}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    app.create_user(&admin, "desk@example.org", &["Desk"], PASSWORD).await;
    let desk = app.login("desk@example.org", PASSWORD).await.0;
    let (ana, bo) = (people[0].0, people[1].0);
    app.put(&format!("/api/v1/identity/users/{ana}/out-of-office"), &desk, window(0, 2, bo))
        .await
        .ok();
    let admin_id = app.get("/api/v1/identity/users?Email=admin", &admin).await.ok()["items"][0]
        ["id"]
        .as_i64()
        .unwrap();
    let r = app
        .put(&format!("/api/v1/identity/users/{admin_id}/out-of-office"), &desk, window(0, 2, bo))
        .await;
    r.problem(403);
}

#[actix_web::test]
async fn racing_saves_leave_one_window_and_racing_clears_one_winner() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let people = approvers(&app, &admin, &["ana", "bo", "cy"]).await;
    let (ana, ana_token) = (people[0].0, people[0].1.clone());
    let stand_ins = [people[1].0, people[2].0];
    let theirs = format!("/api/v1/identity/users/{ana}/out-of-office");
    let saves = (0..16).map(|i| {
        let (app, path, token) = (&app, &theirs, if i % 2 == 0 { &admin } else { &ana_token });
        let path = if i % 2 == 0 { path.as_str() } else { MINE };
        async move { app.put(path, token, window(0, 1 + i, stand_ins[i as usize % 2])).await }
    });
    let answers = futures_util::future::join_all(saves).await;
    assert!(
        answers.iter().all(|r| r.status == 200),
        "{:?}",
        answers.iter().map(|r| &r.body).collect::<Vec<_>>()
    );
    // The window that stands is the last one saved, whole (its stand-in and its days together).
    let now = app.get(MINE, &ana_token).await.ok().clone();
    assert!(answers.iter().any(|r| r.body == now), "{now}");

    let clears = (0..16).map(|_| async { app.delete(MINE, &ana_token).await.status.as_u16() });
    let mut statuses = futures_util::future::join_all(clears).await;
    statuses.sort();
    assert_eq!(statuses, [[204].as_slice(), &[404; 15]].concat());

    let trail = app
        .get(&format!("/api/v1/audit-log?EntityType=user&EntityId={ana}&Size=100"), &admin)
        .await;
    let count = |action: &str| {
        trail.ok()["items"].as_array().unwrap().iter().filter(|i| i["action"] == action).count()
    };
    assert_eq!((count("out-of-office-set"), count("out-of-office-cleared")), (16, 1));
}
