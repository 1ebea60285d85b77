//! Inviting people from the user screens: a Coordinator is invited with her participant, so
//! she sees her programs; what the link promises is what the mail says; without a relay the
//! inviter is handed the link and the outbox shows the mail as written to the log; an
//! invitation sent again kills the link before it; and nobody else may do any of it.

use crate::common;

use std::time::{Duration, Instant};

use common::*;
use mentorpay::entities::{activity_log, audit_log, outbox_mail};
use reqwest::Method;
use sea_orm::EntityTrait;
use serde_json::{json, Value};

const USERS: &str = "/api/v1/identity/users";
const OUTBOX: &str = "/api/v1/system-settings/outbox";
const PASSWORD: &str = "chosen by her 123";

/// A fiscal year of today and two programs: (fiscal year, her program, another one).
async fn world(app: &TestApp, admin: &str) -> (i64, i64, i64) {
    let fy = app
        .post("/api/v1/system-settings/fiscal-years", Some(admin), dates::Year::this().body())
        .await;
    let fy = fy.ok()["id"].as_i64().unwrap();
    let programs = ids(app, admin, "/api/v1/mentor-programs").await;
    (fy, programs[0], programs[1])
}

/// A participant who coordinates `program` this year, without a login: her id.
async fn coordinator_participant(
    app: &TestApp,
    admin: &str,
    email: &str,
    program: i64,
    fy: i64,
) -> i64 {
    let mut body = person("Cora", email, "Coordinator");
    body["participations"] = json!([taking(program, fy, "Coordinator")]);
    app.post("/api/v1/participants", Some(admin), body).await.ok()["id"].as_i64().unwrap()
}

fn invitation(email: &str, participant: Option<i64>) -> Value {
    let mut body =
        json!({"email": email, "firstName": "Cora", "lastName": "Payee", "roles": ["Coordinator"]});
    if let Some(p) = participant {
        body["participantId"] = json!(p);
    }
    body
}

async fn set_password(app: &TestApp, (email, token): (&str, &str)) -> Reply {
    let body = json!({"email": email, "token": token, "password": PASSWORD});
    app.post("/api/v1/identity/user/set-password", None, body).await
}

async fn link_is_live(app: &TestApp, (email, token): (&str, &str)) -> bool {
    let body = json!({"email": email, "token": token});
    app.post("/api/v1/identity/reset-token/validate", None, body).await.status == 200
}

/// The programs the signed-in `token` sees, as her own scope says.
async fn her_programs(app: &TestApp, token: &str) -> Vec<i64> {
    let mine = app.get("/api/v1/mentor-programs/mine", token).await.ok().clone();
    assert_eq!(mine["all"], false, "{mine}");
    assert_eq!(mine["linkedToParticipant"], true, "{mine}");
    mine["mentorProgramIds"].as_array().unwrap().iter().map(|p| p.as_i64().unwrap()).collect()
}

/// The (email, token) pair of a set-password link as the server wrote it.
fn link_parts(link: &str) -> (String, String) {
    let query = link.split_once("/set-password?").expect("a set-password link").1;
    let pairs: Vec<(String, String)> = serde_html_form::from_str(query).unwrap();
    let get = |k: &str| pairs.iter().find(|(key, _)| key == k).unwrap().1.clone();
    (get("email"), get("token"))
}

#[actix_web::test]
async fn a_coordinator_invited_without_her_participant_is_refused_naming_the_field() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let r = app.post(USERS, Some(&admin), invitation("cora@example.org", None)).await;
    let problem = r.problem(422);
    assert!(problem["errors"]["participantId"].is_array(), "{problem}");
    // Nothing was made: no account, no mail.
    let users = app.get(&format!("{USERS}?Email=cora@example.org"), &admin).await;
    assert_eq!(users.ok()["totalCount"], 0, "{}", users.body);
    assert_eq!(app.get(OUTBOX, &admin).await.ok()["totalCount"], 0);
    // A participant that does not exist is named the same way.
    let r = app.post(USERS, Some(&admin), invitation("cora@example.org", Some(999_999))).await;
    assert!(r.problem(422)["errors"]["participantId"].is_array(), "{}", r.body);
    // A role that sees every program needs none.
    let staff = json!({"email": "staff@example.org", "firstName": "S", "lastName": "T", "roles": ["Administrator", "Coordinator"]});
    assert_eq!(app.post(USERS, Some(&admin), staff).await.status, 201);
}

#[actix_web::test]
async fn a_coordinator_invited_with_her_participant_sees_her_programs() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let (fy, mine, other) = world(&app, &admin).await;
    let participant = coordinator_participant(&app, &admin, "cora@example.org", mine, fy).await;

    let terms = app.get("/api/v1/identity/invitation-terms", &admin).await;
    let terms = terms.ok().clone();
    assert_eq!(terms["validFor"], "3 days", "{terms}");
    assert_eq!(terms["validHours"], 72);
    let r = app.post(USERS, Some(&admin), invitation("cora@example.org", Some(participant))).await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.body["participantId"], participant);
    let sent = &r.body["invitation"];
    assert_eq!(sent["emailed"], true, "{sent}");
    assert!(sent["link"].is_null(), "a relay carries it: the link is not handed out");
    assert_eq!(sent["validFor"], terms["validFor"]);

    // The mail says what the dialog says, and its link works.
    let (email, token) = app.link_in_queued_mail("cora@example.org", 1).await;
    let mail = app.last_mail_to("cora@example.org").unwrap();
    assert!(mail.body.contains("valid for 3 days"), "{}", mail.body);
    set_password(&app, (&email, &token)).await.ok();
    let (cora, _) = app.login("cora@example.org", PASSWORD).await;
    assert_eq!(her_programs(&app, &cora).await, vec![mine], "hers, not {other}");

    // Her participant has a login now: it is not given a second one.
    let again = invitation("cora2@example.org", Some(participant));
    app.post(USERS, Some(&admin), again).await.problem(409);
}

#[actix_web::test]
async fn an_invitation_sent_again_has_a_new_link_and_the_old_one_dies() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let (fy, mine, _) = world(&app, &admin).await;
    let participant = coordinator_participant(&app, &admin, "cora@example.org", mine, fy).await;
    let r = app.post(USERS, Some(&admin), invitation("cora@example.org", Some(participant))).await;
    let id = r.ok()["id"].as_i64().unwrap();
    let first = app.link_in_queued_mail("cora@example.org", 1).await;
    assert!(link_is_live(&app, (&first.0, &first.1)).await);

    let again = format!("{USERS}/{id}/invitation");
    let r = app.post(&again, Some(&admin), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["invitation"]["emailed"], true);
    let second = app.link_in_queued_mail("cora@example.org", 2).await;
    assert_ne!(first.1, second.1);
    assert!(!link_is_live(&app, (&first.0, &first.1)).await, "the first link is dead");
    set_password(&app, (&first.0, &first.1)).await.problem(422);
    let mail = app.last_mail_to("cora@example.org").unwrap();
    assert!(mail.body.contains("valid for 3 days"), "{}", mail.body);

    // It is in the trail, without the link.
    let trail = audit_log::Entity::find().all(&app.state.db).await.unwrap();
    let entry = trail.iter().find(|e| e.action == "invitation-sent").expect("an audit entry");
    assert_eq!(entry.entity_id, Some(id as i32));
    let everything =
        format!("{trail:?}{:?}", activity_log::Entity::find().all(&app.state.db).await.unwrap());
    assert!(
        !everything.contains(&first.1) && !everything.contains(&second.1),
        "no token in the trail"
    );

    // Once she chose a password there is nothing to send again.
    set_password(&app, (&second.0, &second.1)).await.ok();
    app.post(&again, Some(&admin), json!({})).await.problem(409);
    app.post(&format!("{USERS}/999999/invitation"), Some(&admin), json!({})).await.problem(404);
}

#[actix_web::test]
async fn only_who_may_invite_sends_an_invitation_and_never_above_herself() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let boss = json!({"email": "boss@example.org", "firstName": "B", "lastName": "C", "roles": ["Administrator"]});
    let boss = app.post(USERS, Some(&admin), boss).await.ok()["id"].as_i64().unwrap();
    let again = format!("{USERS}/{boss}/invitation");

    // Without user:create: 403, and nothing is sent.
    app.create_user(&admin, "plain@example.org", &["Coordinator"], "plain password 12").await;
    let (plain, _) = app.login("plain@example.org", "plain password 12").await;
    app.post(&again, Some(&plain), json!({})).await.problem(403);
    app.post(USERS, Some(&plain), invitation("x@example.org", None)).await.problem(403);
    app.call(Method::POST, &again, None, None).await.problem(401);

    // With it but below an Administrator: her invitation (and its link) stays out of reach.
    let helpdesk = json!({"name": "Helpdesk", "permissions": ["user:create", "user:read"]});
    app.post("/api/v1/identity/roles", Some(&admin), helpdesk).await.ok();
    app.create_user(&admin, "help@example.org", &["Helpdesk"], "helpdesk password 1").await;
    let (help, _) = app.login("help@example.org", "helpdesk password 1").await;
    let r = app.post(&again, Some(&help), json!({})).await;
    assert!(
        r.problem(403)["detail"].as_str().unwrap().contains("Only an Administrator"),
        "{}",
        r.body
    );
    let queued = outbox_mail::Entity::find().all(&app.state.db).await.unwrap();
    assert_eq!(queued.len(), 1, "only the first invitation was queued: {queued:?}");
}

#[actix_web::test]
async fn without_a_relay_the_inviter_gets_the_link_and_the_outbox_lists_the_mail_as_logged() {
    let app = spawn_without_relay().await;
    let admin = app.admin_token().await;
    let (fy, mine, _) = world(&app, &admin).await;
    let participant = coordinator_participant(&app, &admin, "cora@example.org", mine, fy).await;
    let terms = app.get("/api/v1/identity/invitation-terms", &admin).await;
    assert_eq!(terms.ok()["relay"], false);

    let r = app.post(USERS, Some(&admin), invitation("cora@example.org", Some(participant))).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let sent = r.body["invitation"].clone();
    assert_eq!(sent["emailed"], false, "{sent}");
    let (email, token) = link_parts(sent["link"].as_str().expect("the link, to hand over"));

    // The outbox lists the mail as written to the log, without its link.
    let started = Instant::now();
    let logged = loop {
        let page = app.get(&format!("{OUTBOX}?Status=sent"), &admin).await.ok().clone();
        if page["totalCount"] == 1 {
            break page;
        }
        assert!(started.elapsed() < Duration::from_secs(10), "{page}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let item = &logged["items"][0];
    assert_eq!(item["recipient"], "cora@example.org");
    assert_eq!(item["deliveredBy"], "log");
    assert_eq!(item["subject"], "MentorPay: your account");
    assert!(!logged.to_string().contains(&token), "{logged}");
    // Once settled, the stored mail keeps no token either.
    let stored = outbox_mail::Entity::find().all(&app.state.db).await.unwrap();
    assert!(!format!("{stored:?}").contains(&token), "{stored:?}");
    let trail = audit_log::Entity::find().all(&app.state.db).await.unwrap();
    assert!(!format!("{trail:?}").contains(&token));

    // The handed-over link is the live one: she chooses her password with it.
    set_password(&app, (&email, &token)).await.ok();
    let (cora, _) = app.login("cora@example.org", PASSWORD).await;
    assert_eq!(her_programs(&app, &cora).await, vec![mine]);
}
