//! The second factor and the sessions a person sees, on the real app: TOTP enrolment and
//! the two-step sign-in (codes computed here from the secret the enrolment answers), a
//! code accepted once, the challenge's single use, expiry and lockout, recovery codes, the
//! policy that makes a role enrol at sign-in, an administrator's removal of a lost factor,
//! and sessions listed and ended with their access tokens refused at once.

use crate::common;

use chrono::Duration;
use common::*;
use reqwest::Method;
use sea_orm::{ConnectionTrait, Statement};
use serde_json::{json, Value};

const LOGIN: &str = "/api/v1/identity/login";
const LOGIN_MFA: &str = "/api/v1/identity/login/mfa";
const TOTP: &str = "/api/v1/identity/me/mfa/totp";
const CONFIRM: &str = "/api/v1/identity/me/mfa/totp/confirm";
const SESSIONS: &str = "/api/v1/identity/me/sessions";
const SECURITY: &str = "/api/v1/system-settings/security";
const USERS: &str = "/api/v1/identity/users";
const CLERK: &str = "clerk@example.org";
const CLERK_PASSWORD: &str = "clerk password 1";

/// The six-digit code of `secret` for the time step `steps` away from now.
fn code(secret: &str, steps: i64) -> String {
    let totp = totp_rs::Builder::new()
        .with_secret(totp_rs::Secret::try_from_base32(secret).unwrap())
        .build()
        .unwrap();
    let at = mentorpay::clock::now().timestamp() + 30 * steps;
    totp.generate(at as u64).to_string()
}

/// Waits, if need be, so that the next few seconds stay inside one 30-second step (the codes
/// a test computes are then the ones the server expects).
async fn within_one_step() {
    let into = mentorpay::clock::now().timestamp() % 30;
    if into > 24 {
        tokio::time::sleep(std::time::Duration::from_secs((31 - into) as u64)).await;
    }
}

/// Sets up an authenticator app for the holder of `token`: its secret and recovery codes.
/// The confirming code is the previous step's, so steps 0 and +1 remain for sign-ins.
async fn enrol(app: &TestApp, token: &str) -> (String, Vec<String>) {
    within_one_step().await;
    let r = app.post(TOTP, Some(token), json!({})).await;
    let secret = r.ok()["secret"].as_str().unwrap().to_owned();
    let r = app.post(CONFIRM, Some(token), json!({"code": code(&secret, -1)})).await;
    let codes = r.ok()["recoveryCodes"].as_array().unwrap();
    let codes = codes.iter().map(|c| c.as_str().unwrap().to_owned()).collect();
    (secret, codes)
}

/// The mfaToken of a password sign-in that needs the second step.
async fn challenge(app: &TestApp, email: &str, password: &str) -> String {
    let r = app.login_reply(email, password).await;
    let body = r.ok();
    assert_eq!(body["mfaRequired"], json!(true), "{body}");
    assert!(body.get("accessToken").is_none(), "no tokens before the second step: {body}");
    body["mfaToken"].as_str().unwrap().to_owned()
}

async fn delete_with(app: &TestApp, path: &str, token: &str, body: Value) -> Reply {
    app.call(Method::DELETE, path, Some(token), Some(body)).await
}

async fn clerk(app: &TestApp, admin: &str) -> i64 {
    // A role below Administrator that may read users (so its tokens have a call to make).
    let r = app
        .post(
            "/api/v1/identity/roles",
            Some(admin),
            json!({"name": "Clerk", "permissions": ["user:read"]}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    app.create_user(admin, CLERK, &["Clerk"], CLERK_PASSWORD).await
}

#[actix_web::test]
async fn an_authenticator_app_is_enrolled_and_asked_for_at_sign_in_with_each_code_once() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    within_one_step().await;
    let r = app.post(TOTP, Some(&admin), json!({})).await;
    let enrolment = r.ok().clone();
    let secret = enrolment["secret"].as_str().unwrap().to_owned();
    assert_eq!(secret.len(), 32, "160 bits in Base32");
    let uri = enrolment["otpauthUri"].as_str().unwrap();
    assert!(uri.starts_with("otpauth://totp/MentorPay:") && uri.contains(&secret), "{uri}");
    assert!(enrolment["qrSvg"].as_str().unwrap().contains("<svg"), "the server draws the QR code");
    // Until confirmed the account signs in with its password alone.
    app.login_reply(ADMIN_EMAIL, ADMIN_PASSWORD).await.ok()["accessToken"].as_str().unwrap();

    let wrong = app.post(CONFIRM, Some(&admin), json!({"code": "000000"})).await;
    assert_eq!(
        wrong.invalid()["errors"]["code"],
        json!(["The code is incorrect."]),
        "{}",
        wrong.body
    );
    let r = app.post(CONFIRM, Some(&admin), json!({"code": code(&secret, -1)})).await;
    let codes = r.ok()["recoveryCodes"].as_array().unwrap().clone();
    assert_eq!(codes.len(), 10);
    // One is set up: a second enrolment waits for its removal.
    assert_eq!(app.post(TOTP, Some(&admin), json!({})).await.status, 409);
    let status = app.get("/api/v1/identity/me/mfa", &admin).await;
    assert_eq!(status.ok()["totp"], json!(true));
    assert_eq!(status.ok()["recoveryCodesLeft"], json!(10));

    // The password alone no longer signs in.
    let r = app.login_reply(ADMIN_EMAIL, ADMIN_PASSWORD).await;
    assert_eq!(r.ok()["methods"], json!(["totp", "recovery"]));
    let token = r.ok()["mfaToken"].as_str().unwrap().to_owned();
    let now = code(&secret, 0);
    let r = app.post(LOGIN_MFA, None, json!({"mfaToken": token, "code": now})).await;
    let access = r.ok()["accessToken"].as_str().unwrap().to_owned();
    assert_eq!(r.ok()["userDetails"]["email"], json!(ADMIN_EMAIL));
    app.get(USERS, &access).await.ok();

    // The challenge was spent, and the same code does not open another one.
    let again = app.post(LOGIN_MFA, None, json!({"mfaToken": token, "code": now})).await;
    assert_eq!(again.problem(401)["detail"], "This sign-in step has ended. Please sign in again.");
    let other = challenge(&app, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let replay = app.post(LOGIN_MFA, None, json!({"mfaToken": other, "code": now})).await;
    assert_eq!(replay.problem(401)["detail"], "The code is incorrect.");
    // ... nor does the step the enrolment used; the next step's code does.
    let old =
        app.post(LOGIN_MFA, None, json!({"mfaToken": other, "code": code(&secret, -1)})).await;
    old.problem(401);
    let next =
        app.post(LOGIN_MFA, None, json!({"mfaToken": other, "code": code(&secret, 1)})).await;
    next.ok()["accessToken"].as_str().unwrap();

    // A code and a recovery code at once breaks a rule across fields (422); a missing
    // token is a bad shape (400). Both name the field.
    let both = json!({"mfaToken": other, "code": "1", "recoveryCode": "x"});
    assert_eq!(app.post(LOGIN_MFA, None, both).await.status, 422);
    assert_eq!(app.post(LOGIN_MFA, None, json!({"mfaToken": ""})).await.status, 400);

    // The trail has each step, and neither the secret nor a recovery code.
    let trail = app.get("/api/v1/audit-log?Page=1&Size=500", &access).await;
    let text = trail.ok().to_string();
    for action in ["mfa-totp-enrolled", "sign-in-second-step", "mfa-code-failed"] {
        assert!(text.contains(action), "{action} recorded");
    }
    assert!(!text.contains(&secret), "the secret stays out of the trail");
    for c in &codes {
        assert!(!text.contains(c.as_str().unwrap()), "recovery codes stay out of the trail");
    }
}

#[actix_web::test]
async fn five_wrong_codes_end_the_challenge_and_it_expires_after_five_minutes() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let (secret, _) = enrol(&app, &admin).await;

    let token = challenge(&app, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    for _ in 0..4 {
        let r = app.post(LOGIN_MFA, None, json!({"mfaToken": token, "code": "000000"})).await;
        assert_eq!(r.problem(401)["detail"], "The code is incorrect.");
    }
    let fifth = app.post(LOGIN_MFA, None, json!({"mfaToken": token, "code": "000000"})).await;
    assert_eq!(fifth.problem(401)["detail"], "Too many incorrect codes. Please sign in again.");
    let right =
        app.post(LOGIN_MFA, None, json!({"mfaToken": token, "code": code(&secret, 0)})).await;
    assert_eq!(right.problem(401)["detail"], "This sign-in step has ended. Please sign in again.");
    let trail = app.get("/api/v1/audit-log?Page=1&Size=500", &admin).await;
    let failed = trail.ok()["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["action"] == "mfa-code-failed")
        .count();
    assert_eq!(failed, 5);

    // A challenge older than five minutes is over, even with the right code. Its stored end
    // is moved back (the server's clock cannot be moved while it runs).
    let token = challenge(&app, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let past = mentorpay::clock::now() - Duration::seconds(1);
    let backend = app.state.db.get_database_backend();
    let sql = match backend {
        sea_orm::DatabaseBackend::Postgres => "UPDATE mfa_challenges SET expires_at = $1",
        _ => "UPDATE mfa_challenges SET expires_at = ?",
    };
    app.state
        .db
        .execute_raw(Statement::from_sql_and_values(backend, sql, [past.into()]))
        .await
        .unwrap();
    let late =
        app.post(LOGIN_MFA, None, json!({"mfaToken": token, "code": code(&secret, 0)})).await;
    assert_eq!(late.problem(401)["detail"], "This sign-in step has ended. Please sign in again.");
    // A token nobody issued is the same 401.
    let r = app.post(LOGIN_MFA, None, json!({"mfaToken": "made-up", "code": "123456"})).await;
    r.problem(401);
}

#[actix_web::test]
async fn a_recovery_code_signs_in_once_and_removal_needs_a_code() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let (secret, codes) = enrol(&app, &admin).await;

    let token = challenge(&app, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    // Typed loosely: upper case, a space for the dash.
    let typed = codes[3].to_uppercase().replace('-', " ");
    let r = app.post(LOGIN_MFA, None, json!({"mfaToken": token, "recoveryCode": typed})).await;
    let access = r.ok()["accessToken"].as_str().unwrap().to_owned();
    let status = app.get("/api/v1/identity/me/mfa", &access).await;
    assert_eq!(status.ok()["recoveryCodesLeft"], json!(9));
    let token = challenge(&app, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let reused =
        app.post(LOGIN_MFA, None, json!({"mfaToken": token, "recoveryCode": codes[3]})).await;
    reused.problem(401);
    let trail = app.get("/api/v1/audit-log?Page=1&Size=500", &access).await;
    assert!(trail.ok().to_string().contains("recovery-code-used"));

    // Removal: a wrong code changes nothing, the right one removes the app and its codes.
    let wrong = delete_with(&app, TOTP, &access, json!({"code": "000000"})).await;
    wrong.invalid();
    assert_eq!(app.get("/api/v1/identity/me/mfa", &access).await.ok()["totp"], json!(true));
    let r = delete_with(&app, TOTP, &access, json!({"code": code(&secret, 0)})).await;
    assert_eq!(r.status, 204, "{}", r.body);
    let status = app.get("/api/v1/identity/me/mfa", &access).await;
    assert_eq!(
        (status.ok()["totp"].clone(), status.ok()["recoveryCodesLeft"].clone()),
        (json!(false), json!(0))
    );
    app.login_reply(ADMIN_EMAIL, ADMIN_PASSWORD).await.ok()["accessToken"].as_str().unwrap();
    let none = delete_with(&app, TOTP, &access, json!({"code": "123456"})).await;
    assert_eq!(none.status, 404);
}

#[actix_web::test]
async fn a_role_the_policy_names_enrols_at_sign_in_and_its_token_only_enrols() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    clerk(&app, &admin).await;
    assert_eq!(app.get(SECURITY, &admin).await.ok()["mfaRequiredRoles"], json!([]));
    let unknown = app.put(SECURITY, &admin, json!({"mfaRequiredRoles": ["Nobody"]})).await;
    assert_eq!(unknown.status, 422, "{}", unknown.body);
    assert_eq!(app.put(SECURITY, &admin, json!({"mfaRequiredRoles": "Clerk"})).await.status, 400);
    let r = app.put(SECURITY, &admin, json!({"mfaRequiredRoles": ["clerk"]})).await;
    assert_eq!(r.ok()["mfaRequiredRoles"], json!(["Clerk"]));

    // The Administrator, not named, signs in as before; the clerk must enrol first.
    app.login_reply(ADMIN_EMAIL, ADMIN_PASSWORD).await.ok()["accessToken"].as_str().unwrap();
    let r = app.login_reply(CLERK, CLERK_PASSWORD).await;
    assert_eq!(r.ok()["mfaEnrollmentRequired"], json!(true), "{}", r.body);
    assert!(r.ok().get("accessToken").is_none());
    let token = r.ok()["mfaToken"].as_str().unwrap().to_owned();
    // That token is no sign-in challenge, and no access token either.
    let r = app.post(LOGIN_MFA, None, json!({"mfaToken": token, "code": "123456"})).await;
    r.problem(401);
    app.get(USERS, &token).await.problem(401);
    let clerk_token = app.get(SECURITY, &token).await;
    clerk_token.problem(401);

    within_one_step().await;
    let r = app.post("/api/v1/identity/login/enroll/totp", None, json!({"mfaToken": token})).await;
    let secret = r.ok()["secret"].as_str().unwrap().to_owned();
    assert!(r.ok()["qrSvg"].as_str().unwrap().contains("<svg"));
    let confirm = "/api/v1/identity/login/enroll/totp/confirm";
    let wrong = app.post(confirm, None, json!({"mfaToken": token, "code": "000000"})).await;
    wrong.problem(401);
    let r = app.post(confirm, None, json!({"mfaToken": token, "code": code(&secret, -1)})).await;
    let body = r.ok().clone();
    assert_eq!(body["recoveryCodes"].as_array().unwrap().len(), 10);
    app.get(USERS, body["accessToken"].as_str().unwrap()).await.ok();
    // From now on the clerk's sign-in asks for the code.
    let again = challenge(&app, CLERK, CLERK_PASSWORD).await;
    let r = app.post(LOGIN_MFA, None, json!({"mfaToken": again, "code": code(&secret, 0)})).await;
    r.ok()["accessToken"].as_str().unwrap();

    // Only setting:edit changes the policy.
    let clerk_access = r.ok()["accessToken"].as_str().unwrap().to_owned();
    let r = app.put(SECURITY, &clerk_access, json!({"mfaRequiredRoles": []})).await;
    r.problem(403);
    let trail = app.get("/api/v1/audit-log?Page=1&Size=500", &admin).await;
    assert!(trail.ok().to_string().contains("security-settings-updated"));
}

#[actix_web::test]
async fn an_administrator_removes_a_lost_factor_within_the_ceiling() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let clerk_id = clerk(&app, &admin).await;
    let (clerk_access, _) = app.login(CLERK, CLERK_PASSWORD).await;
    enrol(&app, &clerk_access).await;
    challenge(&app, CLERK, CLERK_PASSWORD).await;

    // A user:edit holder who is not an Administrator cannot touch an Administrator's account.
    let r = app
        .post(
            "/api/v1/identity/roles",
            Some(&admin),
            json!({"name": "Helpdesk", "permissions": ["user:read", "user:edit"]}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    app.create_user(&admin, "help@example.org", &["Helpdesk"], "helpdesk pass 1").await;
    let (help, _) = app.login("help@example.org", "helpdesk pass 1").await;
    let admin_id = 1;
    app.delete(&format!("{USERS}/{admin_id}/mfa"), &help).await.problem(403);
    app.delete(&format!("{USERS}/{admin_id}/sessions"), &help).await.problem(403);
    app.get(USERS, &admin).await.ok();
    app.delete(&format!("{USERS}/9999/mfa"), &admin).await.problem(404);

    let r = app.delete(&format!("{USERS}/{clerk_id}/mfa"), &help).await;
    assert_eq!(r.status, 204, "{}", r.body);
    // The clerk's sessions ended with it, and the password alone signs in again.
    app.get(USERS, &clerk_access).await.problem(401);
    app.login(CLERK, CLERK_PASSWORD).await;
    let trail = app.get("/api/v1/audit-log?Page=1&Size=500", &admin).await;
    assert!(trail.ok().to_string().contains("mfa-removed"));
}

#[actix_web::test]
async fn sessions_are_listed_and_ended_and_their_tokens_refused_at_once() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let clerk_id = clerk(&app, &admin).await;
    let browser = reqwest::Client::builder().user_agent("Firefox/140 test").build().unwrap();
    let r = send(
        &browser,
        &app.base,
        Method::POST,
        LOGIN,
        None,
        Some(json!({"email": CLERK, "password": CLERK_PASSWORD})),
    )
    .await;
    let first = r.ok()["accessToken"].as_str().unwrap().to_owned();
    let (second, _) = app.login(CLERK, CLERK_PASSWORD).await;
    let (third, _) = app.login(CLERK, CLERK_PASSWORD).await;

    let list = app.get(SESSIONS, &second).await;
    let sessions = list.ok().as_array().unwrap().clone();
    assert_eq!(sessions.len(), 3, "{sessions:?}");
    let current: Vec<&Value> = sessions.iter().filter(|s| s["current"] == json!(true)).collect();
    assert_eq!(current.len(), 1);
    let firefox =
        sessions.iter().find(|s| s["userAgent"] == "Firefox/140 test").expect("browser kept");
    assert!(firefox["ip"].as_str().unwrap().starts_with("127.0.0.1"));
    assert!(firefox["startedAt"].is_string() && firefox["lastUsedAt"].is_string());

    // Ending one refuses its access token on the next call; the others go on.
    let id = firefox["id"].as_str().unwrap();
    let r = app.delete(&format!("{SESSIONS}/{id}"), &second).await;
    assert_eq!(r.status, 204, "{}", r.body);
    assert_eq!(
        app.get(USERS, &first).await.problem(401)["detail"],
        "The session has ended. Please sign in again."
    );
    app.get(USERS, &second).await.ok();
    app.delete(&format!("{SESSIONS}/{id}"), &second).await.problem(404);
    // Somebody else's session is not found either.
    let admin_sessions = app.get(SESSIONS, &admin).await;
    let admin_session = admin_sessions.ok()[0]["id"].as_str().unwrap().to_owned();
    app.delete(&format!("{SESSIONS}/{admin_session}"), &second).await.problem(404);

    // Signing out everywhere else keeps this one.
    let r = app.post(&format!("{SESSIONS}/end-others"), Some(&second), json!({})).await;
    assert_eq!(r.status, 204, "{}", r.body);
    app.get(USERS, &third).await.problem(401);
    app.get(USERS, &second).await.ok();
    assert_eq!(app.get(SESSIONS, &second).await.ok().as_array().unwrap().len(), 1);

    // An administrator ends them all; a change of roles does too.
    let r = app.delete(&format!("{USERS}/{clerk_id}/sessions"), &admin).await;
    assert_eq!(r.status, 204, "{}", r.body);
    app.get(USERS, &second).await.problem(401);
    let (again, _) = app.login(CLERK, CLERK_PASSWORD).await;
    let role = json!({"name": "Reader", "permissions": ["user:read"]});
    assert_eq!(app.post("/api/v1/identity/roles", Some(&admin), role).await.status, 201);
    let edit = json!({"email": CLERK, "firstName": "Test", "lastName": "User", "roles": ["Clerk", "Reader"], "isActive": true});
    app.put(&format!("{USERS}/{clerk_id}"), &admin, edit).await.ok();
    app.get(USERS, &again).await.problem(401);
    let trail = app.get("/api/v1/audit-log?Page=1&Size=500", &admin).await;
    let text = trail.ok().to_string();
    for action in ["session-ended", "other-sessions-ended", "sessions-ended"] {
        assert!(text.contains(action), "{action} recorded");
    }
}

#[actix_web::test]
async fn a_session_ended_on_one_instance_is_refused_on_the_other() {
    use common::{database, instance::Instance};
    if database::skip_on_sqlite("several instances run on PostgreSQL") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let db = database::url_for(dir.path(), "mentorpay.db").await;
    let env = [("MENTORPAY_LOGIN_ATTEMPTS_PER_MINUTE", "1000")];
    let mut a = Instance::launch(dir.path(), &db, &env);
    let mut b = Instance::launch(dir.path(), &db, &env);
    a.ready().await;
    b.ready().await;
    let (kept, _) = a.login(ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let (ended, _) = a.login(ADMIN_EMAIL, ADMIN_PASSWORD).await;
    a.call(Method::GET, USERS, Some(&ended), None).await.ok();
    let r = b.call(Method::POST, &format!("{SESSIONS}/end-others"), Some(&kept), None).await;
    assert_eq!(r.status, 204, "{}", r.body);
    let r = a.call(Method::GET, USERS, Some(&ended), None).await;
    assert_eq!(r.problem(401)["detail"], "The session has ended. Please sign in again.");
    a.call(Method::GET, USERS, Some(&kept), None).await.ok();
}

#[actix_web::test]
async fn blocking_coordinator_sign_in_ends_their_sessions_at_once() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let coordinator = "coord@example.org";
    app.create_user(&admin, coordinator, &["Coordinator"], "coordinator pass 1").await;
    let both = "both@example.org";
    app.create_user(&admin, both, &["Coordinator", "Administrator"], "both password 1").await;
    let (access, refresh) = app.login(coordinator, "coordinator pass 1").await;
    let (both_access, _) = app.login(both, "both password 1").await;
    let block = "/api/v1/system-settings/block-coordinator-login";
    let me = "/api/v1/identity/me/sessions";
    app.get(me, &access).await.ok();

    let r = app.post(block, Some(&admin), json!({"isBlocked": true, "message": "Year end"})).await;
    r.ok();
    app.get(me, &access).await.problem(401);
    // Lifted at once, the sign-in that was open does not come back: it was ended.
    let r = app.post(block, Some(&admin), json!({"isBlocked": false, "message": null})).await;
    r.ok();
    assert_eq!(
        app.get(me, &access).await.problem(401)["detail"],
        "The session has ended. Please sign in again."
    );
    let r = app
        .post("/api/v1/identity/refresh", None, json!({"token": access, "refreshToken": refresh}))
        .await;
    r.problem(401);
    // Those the block does not shut out keep their sign-ins.
    app.get(me, &both_access).await.ok();
    app.get(me, &admin).await.ok();
    app.login(coordinator, "coordinator pass 1").await;
    let trail = app.get("/api/v1/audit-log?Page=1&Size=500", &admin).await;
    assert!(trail.ok().to_string().contains("\"usersSignedOut\":1"), "{}", trail.body);
}
