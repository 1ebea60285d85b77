//! Every identity call on the real app and a real SQLite file: success,
//! every documented error, throttling, refresh rotation and reuse.

use crate::common;

use common::*;
use jsonwebtoken::{encode, EncodingKey, Header};
use reqwest::Method;
use serde_json::{json, Value};

const COORD_PASSWORD: &str = "coordinator pass 1";

#[actix_web::test]
async fn login_returns_tokens_and_user_details() {
    let app = spawn().await;
    let r = app.login_reply("  ADMIN@example.org ", ADMIN_PASSWORD).await;
    let body = r.ok();
    assert_eq!(body["token"], body["accessToken"]);
    assert!(body["refreshToken"].as_str().unwrap().len() >= 40);
    let details = &body["userDetails"];
    assert_eq!(details["email"], ADMIN_EMAIL);
    assert_eq!(details["roles"], json!(["Administrator"]));
    assert_eq!(details["permissions"].as_array().unwrap().len(), 59);
    assert!(details["firstName"].is_string() && details["lastName"].is_string());
}

#[actix_web::test]
async fn wrong_credentials_are_401_with_a_body_the_ui_can_show() {
    let app = spawn().await;
    for (email, password) in
        [(ADMIN_EMAIL, "wrong password 123"), ("nobody@example.org", ADMIN_PASSWORD)]
    {
        let r = app.login_reply(email, password).await;
        let body = r.problem(401);
        assert_eq!(body["title"], "Unauthorized");
        assert_eq!(body["detail"], "The e-mail or password is incorrect.");
    }
}

#[actix_web::test]
async fn bad_login_bodies_are_400_naming_the_field() {
    let app = spawn().await;
    let r = app.post("/api/v1/identity/login", None, json!({"password": "x"})).await;
    assert!(r.problem(400)["errors"]["email"].is_array());
    let r = app
        .post("/api/v1/identity/login", None, json!({"email": "not-an-email", "password": "x"}))
        .await;
    assert!(r.problem(400)["errors"]["email"].is_array());
    let r = app
        .post("/api/v1/identity/login", None, json!({"email": ADMIN_EMAIL, "password": 5}))
        .await;
    assert!(r.problem(400)["errors"]["password"].is_array());
    let raw = app
        .client
        .post(format!("{}/api/v1/identity/login", app.base))
        .body("email=a")
        .send()
        .await
        .unwrap();
    assert_eq!(raw.status(), 400);
    let raw = app
        .client
        .post(format!("{}/api/v1/identity/login", app.base))
        .header("content-type", "application/json")
        .body("{broken")
        .send()
        .await
        .unwrap();
    assert_eq!(raw.status(), 400);
}

#[actix_web::test]
async fn login_is_throttled_per_account_and_per_address() {
    let app = spawn_with(&["--login-attempts-per-minute", "3"]).await;
    for _ in 0..3 {
        app.login_reply(ADMIN_EMAIL, "wrong password 123").await.problem(401);
    }
    let r = app.login_reply(ADMIN_EMAIL, ADMIN_PASSWORD).await;
    r.problem(429);
    let wait: u64 = r.headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=60).contains(&wait));
    // Other accounts from the same address still have budget (address limit is 15)...
    for i in 0..11 {
        app.login_reply(&format!("user{i}@example.org"), "whatever password").await.problem(401);
    }
    // ...until the address budget is spent too.
    app.login_reply("fresh@example.org", "whatever password").await.problem(429);
}

fn forge(secret: &str, sub: &str, sid: &str, exp_offset: i64) -> String {
    let now = mentorpay::clock::now().timestamp();
    let claims =
        json!({"sub": sub, "email": ADMIN_EMAIL, "sid": sid, "iat": now, "exp": now + exp_offset});
    encode(&Header::default(), &claims, &EncodingKey::from_secret(secret.as_bytes())).unwrap()
}

#[actix_web::test]
async fn protected_calls_need_a_valid_token() {
    let app = spawn().await;
    let token = app.admin_token().await;
    app.get("/api/v1/identity/users", &token).await.ok();

    let no_token = app.call(Method::GET, "/api/v1/identity/users", None, None).await;
    assert_eq!(no_token.problem(401)["title"], "Unauthorized");
    let admin_id =
        app.get("/api/v1/identity/users", &token).await.body["items"][0]["id"].to_string();
    // The sign-in the token belongs to (tests/integration/sessions.rs: without a live one, refused).
    let sid = app.state.keys.verify_access(&token).unwrap().sid.unwrap();
    for bad in [
        forge(JWT_SECRET, &admin_id, &sid, -5), // expired
        forge("some other secret that is long enough!!", &admin_id, &sid, 600), // forged
        format!("{token}x"),                    // tampered signature
        "not.a.jwt".to_owned(),
    ] {
        app.get("/api/v1/identity/users", &bad).await.problem(401);
    }
    // A token we signed for a user that does not exist.
    app.get("/api/v1/identity/users", &forge(JWT_SECRET, "9999", &sid, 600)).await.problem(401);
    // A correctly signed, unexpired token works: the secret is what we configured.
    app.get("/api/v1/identity/users", &forge(JWT_SECRET, &admin_id, &sid, 600)).await.ok();
}

#[actix_web::test]
async fn missing_permission_is_403() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    app.create_user(&admin, "coord@example.org", &["Coordinator"], COORD_PASSWORD).await;
    let (coord, _) = app.login("coord@example.org", COORD_PASSWORD).await;
    for path in [
        "/api/v1/identity/users",
        "/api/v1/identity/roles",
        "/api/v1/identity/permissions",
        "/api/v1/identity/users/1",
    ] {
        let r = app.get(path, &coord).await;
        assert_eq!(r.problem(403)["title"], "Forbidden", "{path}");
    }
    let r = app.post("/api/v1/identity/users", Some(&coord), json!({"email": "x@example.org", "firstName": "X", "lastName": "Y", "roles": ["Administrator"]})).await;
    r.problem(403);
    assert_eq!(
        app.get("/api/v1/identity/users?Email=x@example.org", &admin).await.body["totalCount"],
        0
    );
}

#[actix_web::test]
async fn refresh_rotates_and_reuse_revokes_the_family() {
    let app = spawn().await;
    let (access, refresh1) = app.login(ADMIN_EMAIL, ADMIN_PASSWORD).await;

    let r = app
        .post("/api/v1/identity/refresh", None, json!({"token": access, "refreshToken": refresh1}))
        .await;
    let body = r.ok().clone();
    let (access2, refresh2) = (
        body["token"].as_str().unwrap().to_owned(),
        body["refreshToken"].as_str().unwrap().to_owned(),
    );
    assert_ne!(refresh1, refresh2);
    app.get("/api/v1/identity/users", &access2).await.ok();

    // Replaying the spent token fails and kills the family: the fresh one dies too.
    app.post("/api/v1/identity/refresh", None, json!({"token": access, "refreshToken": refresh1}))
        .await
        .problem(401);
    app.post("/api/v1/identity/refresh", None, json!({"token": access2, "refreshToken": refresh2}))
        .await
        .problem(401);

    // Another sign-in is a different family and is unaffected.
    let (a3, r3) = app.login(ADMIN_EMAIL, ADMIN_PASSWORD).await;
    app.post("/api/v1/identity/refresh", None, json!({"token": a3, "refreshToken": r3})).await.ok();
}

#[actix_web::test]
async fn refresh_accepts_an_expired_access_token_but_checks_it() {
    let app = spawn().await;
    let (access, refresh) = app.login(ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let admin_id =
        app.get("/api/v1/identity/users", &access).await.body["items"][0]["id"].to_string();
    let sid = app.state.keys.verify_access(&access).unwrap().sid.unwrap();
    // Forged access token: refused, and the refresh token is not spent by it.
    let forged = forge("some other secret that is long enough!!", &admin_id, &sid, -10);
    app.post("/api/v1/identity/refresh", None, json!({"token": forged, "refreshToken": refresh}))
        .await
        .problem(401);
    // Token of another user: refused.
    app.post(
        "/api/v1/identity/refresh",
        None,
        json!({"token": forge(JWT_SECRET, "9999", &sid, -10), "refreshToken": refresh}),
    )
    .await
    .problem(401);
    // Expired but genuine: accepted.
    let expired = forge(JWT_SECRET, &admin_id, &sid, -10);
    app.post("/api/v1/identity/refresh", None, json!({"token": expired, "refreshToken": refresh}))
        .await
        .ok();
    // Unknown refresh token and bad bodies.
    app.post("/api/v1/identity/refresh", None, json!({"token": access, "refreshToken": "nope"}))
        .await
        .problem(401);
    let r = app.post("/api/v1/identity/refresh", None, json!({"token": access})).await;
    assert!(r.problem(400)["errors"]["refreshToken"].is_array());
}

#[actix_web::test]
async fn concurrent_refreshes_with_one_token_let_at_most_one_win() {
    let app = spawn().await;
    let (access, refresh) = app.login(ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let body = json!({"token": access, "refreshToken": refresh});
    let replies = futures_util::future::join_all(
        (0..8).map(|_| app.post("/api/v1/identity/refresh", None, body.clone())),
    )
    .await;
    let wins = replies.iter().filter(|r| r.status == 200).count();
    assert!(wins <= 1, "{wins} refreshes won");
    assert!(replies.iter().all(|r| r.status == 200 || r.status == 401));
}

#[actix_web::test]
async fn logout_revokes_the_sign_in() {
    let app = spawn().await;
    let (access, refresh) = app.login(ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let r = app.post("/api/v1/identity/logout", None, json!({"refreshToken": refresh})).await;
    assert_eq!(r.status, 204);
    app.post("/api/v1/identity/refresh", None, json!({"token": access, "refreshToken": refresh}))
        .await
        .problem(401);
}

#[actix_web::test]
async fn password_reset_flow() {
    let app = spawn().await;
    // No account discovery: same answer for unknown addresses, and no mail.
    let unknown = app
        .post("/api/v1/identity/user/reset-password", None, json!({"email": "ghost@example.org"}))
        .await;
    let known =
        app.post("/api/v1/identity/user/reset-password", None, json!({"email": ADMIN_EMAIL})).await;
    assert_eq!(unknown.ok(), known.ok());
    assert!(app.last_mail_to("ghost@example.org").is_none());
    app.post("/api/v1/identity/user/reset-password", None, json!({"email": "bad"}))
        .await
        .problem(400);

    let (email, token) = app.link_in_mail(ADMIN_EMAIL);
    let (_, old_refresh) = app.login(ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let validate = |token: String| {
        app.post(
            "/api/v1/identity/reset-token/validate",
            None,
            json!({"email": email, "token": token}),
        )
    };
    validate(token.clone()).await.ok();
    validate("wrong".into()).await.invalid();
    app.post(
        "/api/v1/identity/reset-token/validate",
        None,
        json!({"email": "ghost@example.org", "token": token}),
    )
    .await
    .problem(422);

    let set = |password: &str, token: &str| {
        app.post(
            "/api/v1/identity/user/set-password",
            None,
            json!({"email": email, "token": token, "password": password}),
        )
    };
    let weak = set("short", &token).await;
    assert!(weak.problem(400)["errors"]["password"].is_array());
    set("a brand new password", &token).await.ok();
    // Single use.
    assert!(set("another new password", &token).await.invalid()["errors"]["token"].is_array());
    validate(token.clone()).await.invalid();

    app.login_reply(ADMIN_EMAIL, ADMIN_PASSWORD).await.problem(401);
    app.login(ADMIN_EMAIL, "a brand new password").await;
    // Setting a password ends the other sign-ins.
    let any_access = app.login(ADMIN_EMAIL, "a brand new password").await.0;
    app.post(
        "/api/v1/identity/refresh",
        None,
        json!({"token": any_access, "refreshToken": old_refresh}),
    )
    .await
    .problem(401);
}

#[actix_web::test]
async fn reset_tokens_expire_after_an_hour() {
    use mentorpay::entities::password_token;
    use sea_orm::{sea_query::Expr, EntityTrait};
    let app = spawn().await;
    app.post("/api/v1/identity/user/reset-password", None, json!({"email": ADMIN_EMAIL}))
        .await
        .ok();
    let (email, token) = app.link_in_mail(ADMIN_EMAIL);
    let past = mentorpay::clock::now() - chrono::Duration::minutes(1);
    // Through the entity, so that the value is bound in each backend's own timestamp type.
    password_token::Entity::update_many()
        .col_expr(password_token::Column::ExpiresAt, Expr::value(past))
        .exec(&app.state.db)
        .await
        .unwrap();
    app.post(
        "/api/v1/identity/reset-token/validate",
        None,
        json!({"email": email, "token": token}),
    )
    .await
    .problem(422);
}

#[actix_web::test]
async fn users_are_created_listed_updated_and_deactivated() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let coord_id =
        app.create_user(&admin, "Coord@Example.org", &["Coordinator"], COORD_PASSWORD).await;

    // Invitation without password: a set-password link is mailed.
    let r = app.post("/api/v1/identity/users", Some(&admin), json!({"email": "new@example.org", "firstName": "New", "lastName": "Person", "roles": ["Coordinator", "Administrator"]})).await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.body["roles"], json!(["Coordinator", "Administrator"]));
    assert_eq!(r.body["hasPassword"], false);
    let (email, token) = app.link_in_queued_mail("new@example.org", 1).await;
    app.post(
        "/api/v1/identity/user/set-password",
        None,
        json!({"email": email, "token": token, "password": "invited person pw"}),
    )
    .await
    .ok();
    // First role decides: this user is shown as Coordinator.
    let details =
        app.login_reply("new@example.org", "invited person pw").await.body["userDetails"].clone();
    assert_eq!(details["roles"][0], "Coordinator");

    // Errors: duplicate (409), unknown role (422), bad fields, weak password (400), nothing created.
    let dup = app.post("/api/v1/identity/users", Some(&admin), json!({"email": "COORD@example.org", "firstName": "A", "lastName": "B", "roles": ["Coordinator"]})).await;
    dup.problem(409);
    let bad = app.post("/api/v1/identity/users", Some(&admin), json!({"email": "nope", "firstName": " ", "lastName": "B", "roles": ["Pilot"], "password": "short"})).await;
    let errors = &bad.problem(400)["errors"];
    for field in ["email", "firstName", "password"] {
        assert!(errors[field].is_array(), "{field}: {errors}");
    }
    let unknown_role = app.post("/api/v1/identity/users", Some(&admin), json!({"email": "p@example.org", "firstName": "A", "lastName": "B", "roles": ["Pilot"]})).await;
    assert!(unknown_role.problem(422)["errors"]["roles"].is_array());
    let unknown_field = app.post("/api/v1/identity/users", Some(&admin), json!({"email": "p@example.org", "firstName": "A", "lastName": "B", "roles": ["Coordinator"], "isAdmin": true})).await;
    unknown_field.problem(400);

    // List: paging and both filters.
    let all = app.get("/api/v1/identity/users", &admin).await;
    assert_eq!(all.ok()["totalCount"], 3);
    let page = app.get("/api/v1/identity/users?Page=2&Size=2", &admin).await;
    assert_eq!(page.ok()["items"].as_array().unwrap().len(), 1);
    assert_eq!(page.body["page"], 2);
    assert_eq!(page.body["size"], 2);
    let coords = app.get("/api/v1/identity/users?Roles=coordinator", &admin).await;
    assert_eq!(coords.ok()["totalCount"], 2);
    let by_email =
        app.get("/api/v1/identity/users?email=COORD&roles=Coordinator,Administrator", &admin).await;
    assert_eq!(by_email.ok()["totalCount"], 1);
    assert_eq!(by_email.body["items"][0]["email"], "coord@example.org");
    for bad in ["?Page=0", "?Size=501", "?Size=abc", "?Page=-1"] {
        app.get(&format!("/api/v1/identity/users{bad}"), &admin).await.problem(400);
    }

    // Read one; unknown id.
    let one = app.get(&format!("/api/v1/identity/users/{coord_id}"), &admin).await;
    assert_eq!(one.ok()["email"], "coord@example.org");
    app.get("/api/v1/identity/users/9999", &admin).await.problem(404);
    assert!(
        app.get("/api/v1/identity/users/abc", &admin).await.problem(400)["errors"]["id"].is_array()
    );

    // Update.
    let upd = app.put(&format!("/api/v1/identity/users/{coord_id}"), &admin, json!({"email": "coord2@example.org", "firstName": "Cora", "lastName": "Ord", "roles": ["Coordinator"], "isActive": true})).await;
    assert_eq!(upd.ok()["firstName"], "Cora");
    app.put(&format!("/api/v1/identity/users/{coord_id}"), &admin, json!({"email": "new@example.org", "firstName": "Cora", "lastName": "Ord", "roles": ["Coordinator"], "isActive": true})).await.problem(409);
    app.put("/api/v1/identity/users/9999", &admin, json!({"email": "z@example.org", "firstName": "Z", "lastName": "Z", "roles": ["Coordinator"], "isActive": true})).await.problem(404);

    // Deactivate: sign-in refused, existing tokens stop working.
    let (coord_access, _) = app.login("coord2@example.org", COORD_PASSWORD).await;
    let del = app.delete(&format!("/api/v1/identity/users/{coord_id}"), &admin).await;
    assert_eq!(del.status, 204);
    app.login_reply("coord2@example.org", COORD_PASSWORD).await.problem(401);
    app.get("/api/v1/identity/users", &coord_access).await.problem(401);
    app.delete("/api/v1/identity/users/9999", &admin).await.problem(404);
}

#[actix_web::test]
async fn administrators_cannot_lock_the_office_out() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let me = app.get(&format!("/api/v1/identity/users?Email={ADMIN_EMAIL}"), &admin).await.body
        ["items"][0]["id"]
        .as_i64()
        .unwrap();
    app.delete(&format!("/api/v1/identity/users/{me}"), &admin).await.problem(422);
    let demote = json!({"email": ADMIN_EMAIL, "firstName": "A", "lastName": "B", "roles": ["Coordinator"], "isActive": true});
    // Nobody changes her own roles, an Administrator included: another one must.
    let refused = app.put(&format!("/api/v1/identity/users/{me}"), &admin, demote).await;
    assert!(refused.problem(403)["detail"].as_str().unwrap().contains("your own roles"));
    // Still an administrator.
    app.get("/api/v1/identity/roles", &admin).await.ok();
}

#[actix_web::test]
async fn roles_and_permissions() {
    let app = spawn().await;
    let admin = app.admin_token().await;

    let perms = app.get("/api/v1/identity/permissions", &admin).await;
    let perms = perms.ok().as_array().unwrap().clone();
    assert_eq!(perms.len(), 59);
    assert!(perms
        .iter()
        .any(|p| p["code"] == "request:movetoreadyforprocessing" && p["resource"] == "request"));

    let roles = app.get("/api/v1/identity/roles", &admin).await.ok().clone();
    let find = |roles: &Value, name: &str| {
        roles.as_array().unwrap().iter().find(|r| r["name"] == name).cloned().unwrap()
    };
    let admin_role = find(&roles, "Administrator");
    assert_eq!(admin_role["permissions"].as_array().unwrap().len(), 59);
    assert_eq!(admin_role["isBuiltIn"], true);
    let coord_role = find(&roles, "Coordinator");
    let coord_perms: Vec<&str> =
        coord_role["permissions"].as_array().unwrap().iter().map(|p| p.as_str().unwrap()).collect();
    assert!(coord_perms.contains(&"request:submit") && !coord_perms.contains(&"request:approve"));

    // Create a custom role.
    let created = app
        .post(
            "/api/v1/identity/roles",
            Some(&admin),
            json!({"name": "Auditor", "permissions": ["report:read", "log:read"]}),
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let id = created.body["id"].as_i64().unwrap();
    app.post("/api/v1/identity/roles", Some(&admin), json!({"name": "auditor", "permissions": []}))
        .await
        .problem(409);
    let bad = app
        .post(
            "/api/v1/identity/roles",
            Some(&admin),
            json!({"name": "X", "permissions": ["report:fly"]}),
        )
        .await;
    assert!(bad.problem(400)["errors"]["permissions"].is_array());
    app.post("/api/v1/identity/roles", Some(&admin), json!({"name": "", "permissions": []}))
        .await
        .problem(400);

    // Read, update.
    assert_eq!(
        app.get(&format!("/api/v1/identity/roles/{id}"), &admin).await.ok()["name"],
        "Auditor"
    );
    app.get("/api/v1/identity/roles/9999", &admin).await.problem(404);
    let upd = app
        .put(
            &format!("/api/v1/identity/roles/{id}"),
            &admin,
            json!({"name": "Auditors", "permissions": ["report:read"]}),
        )
        .await;
    assert_eq!(upd.ok()["permissions"], json!(["report:read"]));

    // A user with the custom role has exactly its permissions.
    app.create_user(&admin, "audit@example.org", &["Auditors"], "auditor password").await;
    let details =
        app.login_reply("audit@example.org", "auditor password").await.body["userDetails"].clone();
    assert_eq!(details["permissions"], json!(["report:read"]));

    // Built-in rules.
    let admin_id = admin_role["id"].as_i64().unwrap();
    app.put(
        &format!("/api/v1/identity/roles/{admin_id}"),
        &admin,
        json!({"name": "Administrator", "permissions": ["report:read"]}),
    )
    .await
    .problem(422);
    app.put(&format!("/api/v1/identity/roles/{admin_id}"), &admin, json!({"name": "Boss", "permissions": perms.iter().map(|p| p["code"].clone()).collect::<Vec<_>>()})).await.problem(422);
    app.delete(&format!("/api/v1/identity/roles/{admin_id}"), &admin).await.problem(422);
    // Held roles cannot be deleted; free ones can.
    app.delete(&format!("/api/v1/identity/roles/{id}"), &admin).await.problem(422);
    let spare = app
        .post("/api/v1/identity/roles", Some(&admin), json!({"name": "Spare", "permissions": []}))
        .await
        .body["id"]
        .as_i64()
        .unwrap();
    assert_eq!(app.delete(&format!("/api/v1/identity/roles/{spare}"), &admin).await.status, 204);
    app.get(&format!("/api/v1/identity/roles/{spare}"), &admin).await.problem(404);
}

#[actix_web::test]
async fn every_identity_change_is_in_the_activity_log() {
    use mentorpay::entities::activity_log;
    use sea_orm::EntityTrait;
    let app = spawn().await;
    let admin = app.admin_token().await;
    let id = app.create_user(&admin, "log@example.org", &["Coordinator"], COORD_PASSWORD).await;
    app.put(&format!("/api/v1/identity/users/{id}"), &admin, json!({"email": "log@example.org", "firstName": "L", "lastName": "G", "roles": ["Coordinator"], "isActive": true})).await.ok();
    app.delete(&format!("/api/v1/identity/users/{id}"), &admin).await;
    app.post("/api/v1/identity/roles", Some(&admin), json!({"name": "Viewer", "permissions": []}))
        .await;
    let entries = activity_log::Entity::find().all(&app.state.db).await.unwrap();
    let actions: Vec<(String, String)> =
        entries.iter().map(|e| (e.entity_type.clone(), e.action.clone())).collect();
    for expected in
        [("user", "created"), ("user", "updated"), ("user", "deactivated"), ("role", "created")]
    {
        assert!(
            actions.iter().any(|(t, a)| t == expected.0 && a == expected.1),
            "{expected:?} in {actions:?}"
        );
    }
    assert!(entries.iter().filter(|e| e.entity_id == id as i32).all(|e| e.actor_user_id.is_some()));
}

#[actix_web::test]
async fn behind_a_trusted_proxy_only_its_own_forwarded_entry_counts() {
    let app = spawn_with(&["--login-attempts-per-minute", "1", "--trust-proxy"]).await;
    // What the README's nginx sends: the client's own header, then the address nginx saw.
    let attempt = |email: String, forged: String, seen: &'static str| {
        let req = app
            .client
            .post(format!("{}/api/v1/identity/login", app.base))
            .header("X-Forwarded-For", format!("{forged}, {seen}"))
            .header("Forwarded", format!("for={forged}"))
            .json(&json!({"email": email, "password": "whatever password"}));
        async move { req.send().await.unwrap().status().as_u16() }
    };
    // Five attempts per address a minute (five times the per-account figure), whatever the
    // client writes in front: forging a new address each time does not buy more.
    for i in 0..5 {
        let status =
            attempt(format!("u{i}@example.org"), format!("10.9.8.{i}"), "192.0.2.10").await;
        assert_eq!(status, 401, "attempt {i}");
    }
    assert_eq!(attempt("u9@example.org".into(), "10.9.8.99".into(), "192.0.2.10").await, 429);
    // Another client behind the same proxy has its own budget.
    assert_eq!(attempt("v1@example.org".into(), "192.0.2.10".into(), "192.0.2.11").await, 401);
    // And the audit trail records the address the proxy saw, never the forged one.
    let admin = app.admin_token().await;
    let items = app.get("/api/v1/audit-log?Page=1&Size=50", &admin).await.ok()["items"].clone();
    let ips: Vec<&str> =
        items.as_array().unwrap().iter().filter_map(|e| e["ip"].as_str()).collect();
    assert!(ips.contains(&"192.0.2.10") && ips.contains(&"192.0.2.11"), "{ips:?}");
    assert!(!ips.iter().any(|ip| ip.starts_with("10.9.8.")), "{ips:?}");
}
