//! Passkeys as the second factor, on the real app with a software authenticator
//! (webauthn-authenticator-rs's SoftPasskey) doing what a browser and its authenticator do:
//! registration, the list, the sign-in with one, replayed, foreign and another user's
//! assertions refused (each counting against the step), removal by password, and an
//! administrator's removal of a lost factor. No challenge or credential in the trail.

use crate::common;

use common::*;
use reqwest::Method;
use serde_json::{json, Value};
use webauthn_authenticator_rs::{softpasskey::SoftPasskey, WebauthnAuthenticator};
use webauthn_rs::prelude::{CreationChallengeResponse, RequestChallengeResponse, Url};

const PASSKEYS: &str = "/api/v1/identity/me/passkeys";
const START: &str = "/api/v1/identity/me/passkeys/register/start";
const FINISH: &str = "/api/v1/identity/me/passkeys/register/finish";
const LOGIN_START: &str = "/api/v1/identity/login/passkey/start";
const LOGIN_FINISH: &str = "/api/v1/identity/login/passkey/finish";
const USERS: &str = "/api/v1/identity/users";
const TRAIL: &str = "/api/v1/audit-log?Page=1&Size=500";

/// What the browser reports as its origin: the server's own port on `localhost`, the
/// relying party a server without a public URL is.
fn origin(app: &TestApp) -> Url {
    let port = app.base.rsplit(':').next().unwrap();
    Url::parse(&format!("http://localhost:{port}")).unwrap()
}

/// A person with her own authenticator.
struct Person {
    email: String,
    password: String,
    key: SoftPasskey,
}

async fn person(app: &TestApp, admin: &str, email: &str) -> (Person, i64) {
    let password = format!("{email} password 1");
    let id = app.create_user(admin, email, &["Coordinator"], &password).await;
    // user_verified: the authenticator says it checked the person (a PIN or a fingerprint).
    (Person { email: email.into(), password, key: SoftPasskey::new(true) }, id)
}

/// Registers a passkey of `p` named `name` with the session `token`: the finish's body.
async fn register(app: &TestApp, p: &mut Person, token: &str, name: &str) -> Value {
    let options = app.post(START, Some(token), json!({})).await;
    let options: CreationChallengeResponse = serde_json::from_value(options.ok().clone()).unwrap();
    let credential =
        p.key.do_registration(origin(app), options).expect("the authenticator registers");
    let r = app.post(FINISH, Some(token), json!({"name": name, "credential": credential})).await;
    assert_eq!(r.status, 201, "{}", r.body);
    r.body
}

/// The password step of `p`: its mfaToken and the methods offered.
async fn password_step(app: &TestApp, p: &Person) -> (String, Value) {
    let r = app.login_reply(&p.email, &p.password).await;
    let body = r.ok();
    assert_eq!(body["mfaRequired"], json!(true), "{body}");
    assert!(body.get("accessToken").is_none(), "{body}");
    (body["mfaToken"].as_str().unwrap().to_owned(), body["methods"].clone())
}

/// The assertion of `p`'s authenticator for the sign-in step `mfa_token` (its start called).
async fn assertion(app: &TestApp, p: &mut Person, mfa_token: &str) -> Value {
    let r = app.post(LOGIN_START, None, json!({"mfaToken": mfa_token})).await;
    let options: RequestChallengeResponse = serde_json::from_value(r.ok().clone()).unwrap();
    let credential =
        p.key.do_authentication(origin(app), options).expect("the authenticator signs");
    serde_json::to_value(credential).unwrap()
}

async fn finish(app: &TestApp, mfa_token: &str, credential: &Value) -> Reply {
    app.post(LOGIN_FINISH, None, json!({"mfaToken": mfa_token, "credential": credential})).await
}

#[actix_web::test]
async fn a_passkey_is_registered_listed_and_signs_in() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let (mut p, _) = person(&app, &admin, "pia@example.org").await;
    let (token, _) = app.login(&p.email, &p.password).await;
    let (other_session, _) = app.login(&p.email, &p.password).await;

    // Bad input changes nothing: no name, a credential that is none, no registration open.
    let fake = json!({"id": "x"});
    app.post(FINISH, Some(&token), json!({"name": " ", "credential": fake})).await.problem(400);
    let r = app.post(FINISH, Some(&token), json!({"name": "Laptop", "credential": 7})).await;
    assert!(r.problem(422)["errors"]["credential"].is_array(), "{}", r.body);
    let options = app.post(START, Some(&token), json!({})).await;
    let challenge = options.ok()["publicKey"]["challenge"].as_str().unwrap().to_owned();
    let options: CreationChallengeResponse = serde_json::from_value(options.body).unwrap();
    let credential = p.key.do_registration(origin(&app), options).unwrap();
    let body = json!({"name": "x".repeat(61), "credential": credential});
    app.post(FINISH, Some(&token), body).await.problem(400);
    assert_eq!(app.get(PASSKEYS, &token).await.ok(), &json!([]));

    let body = json!({"name": "  Work laptop ", "credential": credential});
    let r = app.post(FINISH, Some(&token), body.clone()).await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.body["passkey"]["name"], "Work laptop");
    // The first factor comes with its recovery codes.
    assert_eq!(r.body["recoveryCodes"].as_array().map(Vec::len), Some(10), "{}", r.body);
    // The registration was spent: the same credential again finds none open.
    app.post(FINISH, Some(&token), body).await.problem(422);
    // Other sign-ins ended; this one goes on.
    app.get(PASSKEYS, &other_session).await.problem(401);
    let list = app.get(PASSKEYS, &token).await;
    let list = list.ok().as_array().unwrap().clone();
    assert_eq!(list.len(), 1);
    assert_eq!(list[0]["name"], "Work laptop");
    assert!(list[0]["createdAt"].is_string() && list[0]["lastUsedAt"].is_null(), "{list:?}");
    let status = app.get("/api/v1/identity/me/mfa", &token).await;
    assert_eq!(status.ok()["passkeys"], 1);

    let (mfa, methods) = password_step(&app, &p).await;
    assert_eq!(methods, json!(["passkey", "recovery"]));
    let credential = assertion(&app, &mut p, &mfa).await;
    let r = finish(&app, &mfa, &credential).await;
    let signed_in = r.ok()["accessToken"].as_str().unwrap().to_owned();
    let list = app.get(PASSKEYS, &signed_in).await;
    assert!(list.ok()[0]["lastUsedAt"].is_string(), "{}", list.body);
    // Replayed: the step is spent.
    finish(&app, &mfa, &credential).await.problem(401);

    // Renamed; someone else's id is not found.
    let id = list.body[0]["id"].as_i64().unwrap();
    let r = app.put(&format!("{PASSKEYS}/{id}"), &signed_in, json!({"name": "Desk"})).await;
    assert_eq!(r.ok()["name"], "Desk");
    app.put(&format!("{PASSKEYS}/{id}"), &admin, json!({"name": "Mine"})).await.problem(404);

    let trail = app.get(TRAIL, &admin).await;
    let text = trail.ok().to_string();
    for action in ["passkey-registered", "passkey-used", "passkey-renamed", "signed-in"] {
        assert!(text.contains(action), "{action} recorded");
    }
    // Neither the challenge nor the credential is in the trail.
    assert!(!text.contains(&challenge), "no challenge in the trail");
    assert!(!text.contains(credential["id"].as_str().unwrap()), "no credential id in the trail");
}

#[actix_web::test]
async fn replayed_foreign_and_other_peoples_assertions_are_refused_and_count() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let (mut p, _) = person(&app, &admin, "pia@example.org").await;
    let (mut q, _) = person(&app, &admin, "quinn@example.org").await;
    let (pt, _) = app.login(&p.email, &p.password).await;
    register(&app, &mut p, &pt, "Pia's key").await;
    let (qt, _) = app.login(&q.email, &q.password).await;
    register(&app, &mut q, &qt, "Quinn's key").await;

    // A foreign challenge: the answer to one sign-in step sent to another.
    let (first, _) = password_step(&app, &p).await;
    let (second, _) = password_step(&app, &p).await;
    let for_first = assertion(&app, &mut p, &first).await;
    assertion(&app, &mut p, &second).await;
    let r = finish(&app, &second, &for_first).await;
    assert_eq!(r.problem(401)["detail"], "The code is incorrect.");

    // Another person's passkey, answering her own step, is not this account's.
    let (mine, _) = password_step(&app, &p).await;
    assertion(&app, &mut p, &mine).await;
    let (hers, _) = password_step(&app, &q).await;
    let quinns = assertion(&app, &mut q, &hers).await;
    finish(&app, &mine, &quinns).await.problem(401);
    // Without a start, an assertion answers nothing.
    let (fresh, _) = password_step(&app, &p).await;
    finish(&app, &fresh, &for_first).await.problem(401);

    // Five wrong answers end the step; the right one is refused after.
    let (step, _) = password_step(&app, &p).await;
    let stale = assertion(&app, &mut p, &step).await;
    finish(&app, &step, &stale).await.ok();
    let (step, _) = password_step(&app, &p).await;
    for n in 1..=5 {
        assertion(&app, &mut p, &step).await;
        let r = finish(&app, &step, &stale).await;
        let want = if n < 5 {
            "The code is incorrect."
        } else {
            "Too many incorrect codes. Please sign in again."
        };
        assert_eq!(r.problem(401)["detail"], want, "attempt {n}");
    }
    app.post(LOGIN_START, None, json!({"mfaToken": step})).await.problem(401);

    // Not a credential at all: a 422 naming the field, and nothing counted.
    let (step, _) = password_step(&app, &p).await;
    let r = app.post(LOGIN_FINISH, None, json!({"mfaToken": step, "credential": "nope"})).await;
    assert!(r.problem(422)["errors"]["credential"].is_array(), "{}", r.body);
    let good = assertion(&app, &mut p, &step).await;
    finish(&app, &step, &good).await.ok();

    let text = app.get(TRAIL, &admin).await.ok().to_string();
    assert!(text.contains("mfa-code-failed") && text.contains("\"passkey\""), "failures recorded");
}

#[actix_web::test]
async fn removal_needs_the_password_and_an_administrator_removes_passkeys() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let (mut p, id) = person(&app, &admin, "pia@example.org").await;
    let (token, _) = app.login(&p.email, &p.password).await;
    register(&app, &mut p, &token, "Laptop").await;
    let key = app.get(PASSKEYS, &token).await.ok()[0]["id"].as_i64().unwrap();
    let path = format!("{PASSKEYS}/{key}");

    let call = |body: Value| app.call(Method::DELETE, &path, Some(&token), Some(body));
    call(json!({})).await.problem(400);
    let r = call(json!({"password": "not it"})).await;
    assert!(r.problem(422)["errors"]["password"].is_array(), "{}", r.body);
    assert_eq!(app.get(PASSKEYS, &token).await.ok().as_array().unwrap().len(), 1);
    let r = call(json!({"password": p.password})).await;
    assert_eq!(r.status, 204, "{}", r.body);
    call(json!({"password": p.password})).await.problem(404);
    // The last factor gone, its recovery codes went with it: the password alone signs in.
    assert_eq!(app.get("/api/v1/identity/me/mfa", &token).await.ok()["recoveryCodesLeft"], 0);
    app.login(&p.email, &p.password).await;

    // An administrator removes a lost passkey; the person's sign-ins end.
    register(&app, &mut p, &token, "Phone").await;
    let r = app.delete(&format!("{USERS}/{id}/mfa"), &admin).await;
    assert_eq!(r.status, 204, "{}", r.body);
    app.get(PASSKEYS, &token).await.problem(401);
    let (token, _) = app.login(&p.email, &p.password).await;
    assert_eq!(app.get(PASSKEYS, &token).await.ok(), &json!([]));

    let text = app.get(TRAIL, &admin).await.ok().to_string();
    for action in ["passkey-removal-refused", "passkey-removed", "mfa-removed"] {
        assert!(text.contains(action), "{action} recorded");
    }
}
