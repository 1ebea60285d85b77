//! Sessions that end, on the real app and a real SQLite file: every way a
//! sign-in ends makes its access tokens fail on the very next call, while other sign-ins go
//! on; a blocked Coordinator gets one answer whatever password it sends; a new reset link
//! voids the older ones; a role's permission changes count from the next call although
//! the server keeps callers' grants between calls, and a change of a user's roles ends her
//! sign-ins.

use crate::common;

use common::*;
use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};
use serde_json::{json, Value};

const USERS: &str = "/api/v1/identity/users";
const FUNDS: &str = "/api/v1/funds";
const BLOCK: &str = "/api/v1/system-settings/block-coordinator-login";
const COORD_EMAIL: &str = "coord@example.org";
const COORD_PASSWORD: &str = "coordinator pass 1";

fn refresh_body(access: &str, refresh: &str) -> Value {
    json!({"token": access, "refreshToken": refresh})
}

#[actix_web::test]
async fn signing_out_ends_that_sign_ins_access_tokens_at_once() {
    let app = spawn().await;
    let (a_access, a_refresh) = app.login(ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let (b_access, _) = app.login(ADMIN_EMAIL, ADMIN_PASSWORD).await;
    // A refreshed token of sign-in A belongs to the same session.
    let rotated = app
        .post("/api/v1/identity/refresh", None, refresh_body(&a_access, &a_refresh))
        .await
        .ok()
        .clone();
    let a_new = rotated["token"].as_str().unwrap().to_owned();
    app.get(USERS, &a_access).await.ok();
    app.get(USERS, &a_new).await.ok();

    let r = app
        .post("/api/v1/identity/logout", None, json!({"refreshToken": rotated["refreshToken"]}))
        .await;
    assert_eq!(r.status, 204);
    for token in [&a_access, &a_new] {
        let r = app.get(USERS, token).await;
        assert_eq!(r.problem(401)["detail"], "The session has ended. Please sign in again.");
    }
    // The other sign-in of the same user is untouched.
    app.get(USERS, &b_access).await.ok();
}

#[actix_web::test]
async fn a_reused_refresh_token_ends_every_token_of_its_family() {
    let app = spawn().await;
    let (access, refresh) = app.login(ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let (other, _) = app.login(ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let rotated = app
        .post("/api/v1/identity/refresh", None, refresh_body(&access, &refresh))
        .await
        .ok()
        .clone();
    let newer = rotated["token"].as_str().unwrap().to_owned();
    app.get(USERS, &newer).await.ok();

    // Someone replays the spent refresh token: the whole sign-in is revoked...
    app.post("/api/v1/identity/refresh", None, refresh_body(&access, &refresh)).await.problem(401);
    app.get(USERS, &access).await.problem(401);
    app.get(USERS, &newer).await.problem(401);
    app.post(
        "/api/v1/identity/refresh",
        None,
        refresh_body(&newer, rotated["refreshToken"].as_str().unwrap()),
    )
    .await
    .problem(401);
    // ...and only that one.
    app.get(USERS, &other).await.ok();
}

#[actix_web::test]
async fn setting_a_password_ends_every_sign_in_of_that_user() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    app.create_user(&admin, COORD_EMAIL, &["Coordinator"], COORD_PASSWORD).await;
    let (coord, _) = app.login(COORD_EMAIL, COORD_PASSWORD).await;
    app.get(FUNDS, &coord).await.ok();

    app.post("/api/v1/identity/user/reset-password", None, json!({"email": COORD_EMAIL}))
        .await
        .ok();
    let (email, token) = app.link_in_mail(COORD_EMAIL);
    let r = app
        .post(
            "/api/v1/identity/user/set-password",
            None,
            json!({"email": email, "token": token, "password": "a brand new password"}),
        )
        .await;
    r.ok();
    app.get(FUNDS, &coord).await.problem(401);
    // Other users' sign-ins go on; the new password signs in.
    app.get(USERS, &admin).await.ok();
    let (fresh, _) = app.login(COORD_EMAIL, "a brand new password").await;
    app.get(FUNDS, &fresh).await.ok();
}

#[actix_web::test]
async fn deactivating_a_user_ends_its_tokens_at_once() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let id = app.create_user(&admin, COORD_EMAIL, &["Coordinator"], COORD_PASSWORD).await;
    let (coord, _) = app.login(COORD_EMAIL, COORD_PASSWORD).await;
    app.get(FUNDS, &coord).await.ok();
    let body = json!({"email": COORD_EMAIL, "firstName": "Test", "lastName": "User", "roles": ["Coordinator"], "isActive": false});
    app.put(&format!("{USERS}/{id}"), &admin, body).await.ok();
    app.get(FUNDS, &coord).await.problem(401);
}

#[actix_web::test]
async fn blocking_coordinator_sign_in_ends_their_tokens_and_gives_no_password_oracle() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    app.create_user(&admin, COORD_EMAIL, &["Coordinator"], COORD_PASSWORD).await;
    app.create_user(&admin, "both@example.org", &["Administrator", "Coordinator"], COORD_PASSWORD)
        .await;
    let (coord, _) = app.login(COORD_EMAIL, COORD_PASSWORD).await;
    let (both, _) = app.login("both@example.org", COORD_PASSWORD).await;
    app.get(FUNDS, &coord).await.ok();

    let message = "Closed for fiscal year end until July 5.";
    app.post(BLOCK, Some(&admin), json!({"isBlocked": true, "message": message})).await.ok();
    // The Coordinator's token stops on its next call, with the block's message.
    let r = app.get(FUNDS, &coord).await;
    assert_eq!(r.problem(401)["detail"], message);
    // Administrators, also those holding Coordinator, go on.
    app.get(FUNDS, &both).await.ok();
    app.get(USERS, &admin).await.ok();

    // Right and wrong passwords get the very same answer.
    let right = app.login_reply(COORD_EMAIL, COORD_PASSWORD).await;
    let wrong = app.login_reply(COORD_EMAIL, "not the password at all").await;
    assert_eq!(right.problem(403)["detail"], message);
    assert_eq!((right.status, &right.body), (wrong.status, &wrong.body));
    // Unknown addresses and other users still get the usual answer.
    app.login_reply("ghost@example.org", "whatever password").await.problem(401);
    app.login_reply(ADMIN_EMAIL, "not the password at all").await.problem(401);

    // Unblocked: the block ended the session; signing in again works.
    app.post(BLOCK, Some(&admin), json!({"isBlocked": false})).await.ok();
    app.get(FUNDS, &coord).await.problem(401);
    app.login(COORD_EMAIL, COORD_PASSWORD).await;
    app.login_reply(COORD_EMAIL, "not the password at all").await.problem(401);
    app.login(COORD_EMAIL, COORD_PASSWORD).await;
}

#[actix_web::test]
async fn a_new_reset_link_voids_the_older_ones() {
    let app = spawn().await;
    let reset =
        || app.post("/api/v1/identity/user/reset-password", None, json!({"email": ADMIN_EMAIL}));
    reset().await.ok();
    let (email, first) = app.link_in_mail(ADMIN_EMAIL);
    reset().await.ok();
    let (_, second) = app.link_in_mail(ADMIN_EMAIL);
    assert_ne!(first, second);
    let validate = |token: &str| {
        app.post(
            "/api/v1/identity/reset-token/validate",
            None,
            json!({"email": email, "token": token}),
        )
    };
    validate(&first).await.problem(422);
    let set = |token: &str| {
        app.post(
            "/api/v1/identity/user/set-password",
            None,
            json!({"email": email, "token": token, "password": "a brand new password"}),
        )
    };
    assert!(set(&first).await.problem(422)["errors"]["token"].is_array());
    validate(&second).await.ok();
    set(&second).await.ok();
    app.login(ADMIN_EMAIL, "a brand new password").await;
}

#[actix_web::test]
async fn role_and_permission_changes_count_from_the_next_call() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let role = app
        .post(
            "/api/v1/identity/roles",
            Some(&admin),
            json!({"name": "Clerk", "permissions": ["fund:read", "user:read"]}),
        )
        .await;
    assert_eq!(role.status, 201, "{}", role.body);
    let role_id = role.body["id"].as_i64().unwrap();
    let user_id = app.create_user(&admin, "clerk@example.org", &["Clerk"], COORD_PASSWORD).await;
    let (clerk, _) = app.login("clerk@example.org", COORD_PASSWORD).await;
    // Called twice: the second call is served from the kept grants.
    app.get(FUNDS, &clerk).await.ok();
    app.get(USERS, &clerk).await.ok();

    // The role loses a permission: refused on the next call.
    let r = app
        .put(
            &format!("/api/v1/identity/roles/{role_id}"),
            &admin,
            json!({"name": "Clerk", "permissions": ["fund:read"]}),
        )
        .await;
    r.ok();
    app.get(USERS, &clerk).await.problem(403);
    app.get(FUNDS, &clerk).await.ok();

    // The user is given another role, then loses it: each change of her roles ends her
    // sign-ins, and the next one holds the new grants.
    let body = |roles: &[&str]| json!({"email": "clerk@example.org", "firstName": "Test", "lastName": "User", "roles": roles, "isActive": true});
    app.put(&format!("{USERS}/{user_id}"), &admin, body(&["Clerk", "Coordinator"])).await.ok();
    app.get("/api/v1/participants", &clerk).await.problem(401);
    let (clerk, _) = app.login("clerk@example.org", COORD_PASSWORD).await;
    app.get("/api/v1/participants", &clerk).await.ok();
    app.put(&format!("{USERS}/{user_id}"), &admin, body(&["Clerk"])).await.ok();
    app.get("/api/v1/participants", &clerk).await.problem(401);
    let (clerk, _) = app.login("clerk@example.org", COORD_PASSWORD).await;
    app.get("/api/v1/participants", &clerk).await.problem(403);
    // Names and e-mail alone leave the sign-in as it is.
    let mut renamed = body(&["Clerk"]);
    renamed["firstName"] = json!("Renamed");
    app.put(&format!("{USERS}/{user_id}"), &admin, renamed).await.ok();
    app.get(FUNDS, &clerk).await.ok();
}

#[actix_web::test]
async fn tokens_without_a_session_are_refused() {
    use jsonwebtoken::{encode, EncodingKey, Header};
    let app = spawn().await;
    let token = app.admin_token().await;
    let claims = app.state.keys.verify_access(&token).unwrap();
    let now = mentorpay::clock::now().timestamp();
    let forge = |sid: Option<&str>| {
        let claims = json!({"sub": claims.sub, "email": ADMIN_EMAIL, "sid": sid, "iat": now, "exp": now + 600});
        encode(&Header::default(), &claims, &EncodingKey::from_secret(JWT_SECRET.as_bytes()))
            .unwrap()
    };
    app.get(USERS, &forge(claims.sid.as_deref())).await.ok();
    app.get(USERS, &forge(None)).await.problem(401);
    app.get(USERS, &forge(Some("no such sign-in"))).await.problem(401);
}

#[actix_web::test]
async fn a_link_sent_before_a_deactivation_stays_dead_after_reactivation() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    // An invitation (no password given: she is sent the set-password link).
    let p =
        app.post("/api/v1/participants", Some(&admin), person("Cora", COORD_EMAIL, "Coordinator"));
    let p = p.await.ok()["id"].clone();
    let r = app
        .post(USERS, Some(&admin), json!({"email": COORD_EMAIL, "firstName": "Test", "lastName": "User", "roles": ["Coordinator"], "participantId": p}))
        .await;
    let id = r.ok()["id"].as_i64().unwrap();
    let (email, token) = app.link_in_queued_mail(COORD_EMAIL, 1).await;
    let check = json!({"email": email, "token": token});
    app.post("/api/v1/identity/reset-token/validate", None, check.clone()).await.ok();
    let user = |active: bool| json!({"email": COORD_EMAIL, "firstName": "Test", "lastName": "User", "roles": ["Coordinator"], "isActive": active});
    app.put(&format!("{USERS}/{id}"), &admin, user(false)).await.ok();
    app.put(&format!("{USERS}/{id}"), &admin, user(true)).await.ok();
    app.post("/api/v1/identity/reset-token/validate", None, check.clone()).await.problem(422);
    let set = json!({"email": email, "token": token, "password": "a long new password 1"});
    app.post("/api/v1/identity/user/set-password", None, set).await.problem(422);
    app.login_reply(COORD_EMAIL, "a long new password 1").await.problem(401);
    // Deactivation by its own route ends links too.
    app.post("/api/v1/identity/user/reset-password", None, json!({"email": COORD_EMAIL}))
        .await
        .ok();
    let (_, token) = app.link_in_mail(COORD_EMAIL);
    app.delete(&format!("{USERS}/{id}"), &admin).await;
    let stored = mentorpay::entities::password_token::Entity::find()
        .filter(mentorpay::entities::password_token::Column::UserId.eq(id as i32))
        .filter(mentorpay::entities::password_token::Column::UsedAt.is_null())
        .count(&app.state.db)
        .await
        .unwrap();
    assert_eq!(stored, 0, "no live link is left for {token}");
}

#[actix_web::test]
async fn reset_password_answers_in_the_same_time_whether_or_not_the_account_exists() {
    let app = spawn().await;
    let floor = mentorpay::identity::session::RESET_ANSWER_TIME;
    for email in [ADMIN_EMAIL, "ghost@example.org"] {
        let started = std::time::Instant::now();
        let r =
            app.post("/api/v1/identity/user/reset-password", None, json!({"email": email})).await;
        let took = started.elapsed();
        r.ok();
        assert!(took >= floor, "{email} answered in {took:?}, before {floor:?}");
    }
    assert!(app.last_mail_to(ADMIN_EMAIL).is_some(), "the existing account got its link");
}

/// Reads between writes are answered from the kept caller check on SQLite, where this server
/// is the database's only writer, and every write through the server ends what was kept; on
/// PostgreSQL, which other instances write too, every call asks the database. A user switched
/// off behind the server's back (not through it) shows which of the two answered.
#[actix_web::test]
async fn a_callers_check_is_kept_between_reads_until_a_write() {
    use sea_orm::ConnectionTrait;
    let app = spawn().await;
    let admin = app.admin_token().await;
    app.create_user(&admin, "kept@example.org", &["Administrator"], "kept password 123").await;
    let (token, _) = app.login("kept@example.org", "kept password 123").await;
    assert_eq!(app.get(FUNDS, &token).await.status, 200);
    app.state
        .db
        .execute_unprepared("UPDATE users SET is_active = false WHERE email = 'kept@example.org'")
        .await
        .unwrap();
    let kept = !database::on_postgres();
    let read = app.get(FUNDS, &token).await;
    assert_eq!(read.status, if kept { 200 } else { 401 }, "{}", read.body);
    // Any write through the server: the next read of hers asks the database again.
    let r = app.post(FUNDS, Some(&admin), json!({"name": "Kept fund", "code": "KEPT"})).await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(app.get(FUNDS, &token).await.status, 401);
}
