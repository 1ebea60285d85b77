//! Signing in with the agency's OpenID Connect provider: a real one (npm's oidc-provider,
//! tests/oidc/provider.mjs) started for each test, the browser's part played by a client
//! with a cookie jar. Every refusal signs nobody in, leaves an `sso.denied` audit entry
//! with its reason and says why on the login page.

use std::{
    io::{BufRead, BufReader},
    path::Path,
    process::{Child, Command, Stdio},
};

use reqwest::header::LOCATION;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder};
use serde_json::{json, Value};

use crate::common::{self, TestApp};

const PUBLIC: &str = "http://mentorpay.test";
const SSO_SETTINGS: &str = "/api/v1/system-settings/sso";

/// The provider, listening until dropped.
pub struct Provider {
    child: Child,
    pub issuer: String,
}

impl Provider {
    pub fn start() -> Provider {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oidc");
        assert!(
            dir.join("node_modules/oidc-provider").exists(),
            "tests/oidc/node_modules is missing: `make deps` installs it (npm ci in tests/oidc)"
        );
        let mut child = Command::new("node")
            .arg(dir.join("provider.mjs"))
            .arg("0")
            .arg(format!("{PUBLIC}/api/v1/identity/sso/callback"))
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the OpenID Connect provider (node)");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let issuer = line.strip_prefix("issuer ").expect("the provider said its issuer").trim();
        Provider { issuer: issuer.to_owned(), child }
    }
}

impl Drop for Provider {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The roles the tests map groups to, beside the built-in ones.
pub async fn make_roles(app: &TestApp) {
    let admin = app.admin_token().await;
    for (name, permission) in [("Finance", "user:read"), ("Approver", "role:read")] {
        let body = json!({"name": name, "permissions": [permission]});
        app.post("/api/v1/identity/roles", Some(&admin), body).await.ok();
    }
}

pub async fn app_with(provider: &Provider) -> TestApp {
    let app = common::spawn_with(&[
        "--public-url",
        PUBLIC,
        "--oidc-issuer",
        &provider.issuer,
        "--oidc-client-id",
        "mentorpay",
        "--oidc-client-secret",
        "test-secret",
        "--oidc-scopes",
        "openid email profile groups",
    ])
    .await;
    make_roles(&app).await;
    app
}

fn location(r: &reqwest::Response) -> String {
    r.headers().get(LOCATION).expect("a Location").to_str().unwrap().to_owned()
}

/// What the login page receives: the fragment of `/login#…`, decoded.
fn fragment(url: &str) -> Vec<(String, String)> {
    let (page, fragment) = url.split_once('#').expect("a fragment");
    assert_eq!(page, format!("{PUBLIC}/login"));
    serde_html_form::from_str(fragment).unwrap()
}

fn get<'a>(f: &'a [(String, String)], key: &str) -> Option<&'a str> {
    f.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
}

/// The browser's trip: MentorPay → provider (signs in as `login`) → the callback URL the
/// provider sends back to (not yet followed).
async fn to_callback(app: &TestApp, browser: &reqwest::Client, login: &str, next: &str) -> String {
    let start = format!("{}/api/v1/identity/sso/login?next={}", app.base, urlencode(next));
    let r = browser.get(start).send().await.unwrap();
    assert_eq!(r.status(), 302);
    let mut url = location(&r);
    assert!(url.contains("code_challenge_method=S256") && url.contains("nonce="), "{url}");
    let origin = url.split("/auth").next().unwrap().to_owned();
    loop {
        let r = browser.get(&url).send().await.unwrap();
        let next_url = location(&r);
        let next_url =
            if next_url.starts_with('/') { format!("{origin}{next_url}") } else { next_url };
        if next_url.starts_with(PUBLIC) {
            return next_url;
        }
        if let Some(uid) = next_url.strip_prefix(&format!("{origin}/interaction/")) {
            let page = browser.get(&next_url).send().await.unwrap();
            assert!(page.text().await.unwrap().contains("User name"));
            let r = browser
                .post(format!("{origin}/interaction/{uid}/login"))
                .form(&[("login", login)])
                .send()
                .await
                .unwrap();
            assert!(r.status().is_redirection(), "{}", r.status());
            url = location(&r);
            url = if url.starts_with('/') { format!("{origin}{url}") } else { url };
        } else {
            url = next_url;
        }
    }
}

fn urlencode(s: &str) -> String {
    serde_html_form::to_string([("v", s)]).unwrap()[2..].to_owned()
}

/// Follows the provider's answer to MentorPay's callback: the login page's fragment.
async fn callback(app: &TestApp, url: &str) -> Vec<(String, String)> {
    let local = url.replacen(PUBLIC, &app.base, 1);
    let r = app.client.get(local).send().await.unwrap();
    assert_eq!(r.status(), 302);
    fragment(&location(&r))
}

fn browser() -> reqwest::Client {
    reqwest::Client::builder()
        .cookie_store(true)
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

async fn sign_in(app: &TestApp, login: &str, next: &str) -> Vec<(String, String)> {
    let url = to_callback(app, &browser(), login, next).await;
    callback(app, &url).await
}

async fn exchange(app: &TestApp, code: &str) -> common::Reply {
    app.post("/api/v1/identity/sso/exchange", None, json!({"code": code})).await
}

/// The `sso.denied` entries, newest last: (reason, e-mail).
async fn denials(app: &TestApp) -> Vec<(String, Value)> {
    use mentorpay::entities::audit_log;
    audit_log::Entity::find()
        .filter(audit_log::Column::Action.eq("sso.denied"))
        .order_by_asc(audit_log::Column::Id)
        .all(&app.state.db)
        .await
        .unwrap()
        .into_iter()
        .map(|e| {
            let after: Value = serde_json::from_str(e.after.as_deref().unwrap_or("{}")).unwrap();
            (after["reason"].as_str().unwrap_or_default().to_owned(), after["email"].clone())
        })
        .collect()
}

async fn refused_with(app: &TestApp, f: &[(String, String)], reason: &str, words: &str) {
    assert!(get(f, "sso").is_none(), "{f:?}");
    let shown = get(f, "ssoError").expect("words for the login page");
    assert!(shown.contains(words), "{shown}");
    let last = denials(app).await.pop().expect("an sso.denied entry");
    assert_eq!(last.0, reason);
}

async fn settings(app: &TestApp, body: Value) {
    let admin = app.admin_token().await;
    app.put(SSO_SETTINGS, &admin, body).await.ok();
}

fn mapping(create: bool, rows: Value) -> Value {
    json!({"createAccounts": create, "defaultRoles": ["Coordinator"], "groupRoles": rows,
        "passwordSignIn": "everyone", "passwordAccounts": []})
}

#[actix_web::test]
async fn the_login_page_learns_of_the_button() {
    let off = common::spawn().await;
    let r = off.client.get(format!("{}/api/v1/identity/sso", off.base)).send().await.unwrap();
    assert_eq!(
        r.json::<Value>().await.unwrap(),
        json!({"enabled": false, "label": "Sign in with your agency account"})
    );
    let r = off.client.get(format!("{}/api/v1/identity/sso/login", off.base)).send().await.unwrap();
    assert_eq!(r.status(), 404);

    let provider = Provider::start();
    let app = app_with(&provider).await;
    let r = app.client.get(format!("{}/api/v1/identity/sso", app.base)).send().await.unwrap();
    assert_eq!(r.json::<Value>().await.unwrap()["enabled"], true);
}

#[actix_web::test]
async fn a_known_user_signs_in_once_with_roles_from_her_groups_and_returns_to_her_page() {
    let provider = Provider::start();
    let app = app_with(&provider).await;
    let admin = app.admin_token().await;
    let id =
        app.create_user(&admin, "fran@agency.test", &["Coordinator"], "fran password 123").await;
    settings(
        &app,
        mapping(
            false,
            json!([{"group": "finance", "roles": ["Finance"]},
        {"group": "approvers", "roles": ["Approver", "Finance"]}]),
        ),
    )
    .await;

    let f =
        sign_in(&app, "fran:approvers,finance,other", "/payment-requests?status=Submitted").await;
    assert_eq!(get(&f, "next"), Some("/payment-requests?status=Submitted"));
    let code = get(&f, "sso").expect("a one-time code").to_owned();
    let body = exchange(&app, &code).await.ok().clone();
    assert_eq!(body["userDetails"]["email"], "fran@agency.test");
    assert_eq!(body["userDetails"]["roles"], json!(["Finance", "Approver"]));
    let user = app.get(&format!("/api/v1/identity/users/{id}"), &admin).await;
    assert_eq!(user.ok()["roles"], json!(["Finance", "Approver"]));

    // The code works once.
    exchange(&app, &code).await.problem(401);
    // A page of another site is not kept.
    let f = sign_in(&app, "fran:finance", "//evil.example/steal").await;
    assert_eq!(get(&f, "next"), Some("/"));
    assert!(denials(&app).await.is_empty());
}

#[actix_web::test]
async fn an_unknown_user_gets_an_account_linked_to_her_participant_only_when_settings_say_so() {
    let provider = Provider::start();
    let app = app_with(&provider).await;
    let admin = app.admin_token().await;

    let f = sign_in(&app, "cora", "/").await;
    refused_with(&app, &f, "unknown-user", "no MentorPay account").await;
    assert_eq!(denials(&app).await.pop().unwrap().1, "cora@agency.test");

    let r = app
        .post(
            "/api/v1/participants",
            Some(&admin),
            common::person("Cora", "Cora@Agency.test", "Coordinator"),
        )
        .await;
    let participant = r.ok()["id"].as_i64().unwrap();
    settings(&app, mapping(true, json!([]))).await;
    let f = sign_in(&app, "cora", "/").await;
    let body = exchange(&app, get(&f, "sso").unwrap()).await.ok().clone();
    assert_eq!(body["userDetails"]["roles"], json!(["Coordinator"]));
    let users = app.get("/api/v1/identity/users?Email=cora", &admin).await;
    let created = users.ok()["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["email"] == "cora@agency.test")
        .cloned()
        .expect("created");
    assert_eq!(created["participantId"], participant, "{created}");
}

#[actix_web::test]
async fn forged_and_replayed_states_and_provider_errors_sign_nobody_in() {
    let provider = Provider::start();
    let app = app_with(&provider).await;
    let admin = app.admin_token().await;
    app.create_user(&admin, "rita@agency.test", &["Finance"], "rita password 123").await;

    let forged = format!("{PUBLIC}/api/v1/identity/sso/callback?code=abc&state=forged");
    refused_with(
        &app,
        &callback(&app, &forged).await,
        "state",
        "took too long or was already used",
    )
    .await;

    let url = to_callback(&app, &browser(), "rita", "/").await;
    let f = callback(&app, &url).await;
    assert!(get(&f, "sso").is_some(), "{f:?}");
    refused_with(&app, &callback(&app, &url).await, "state", "already used").await;

    // The state of a real sign-in, with the code of another: the provider refuses it.
    let other = to_callback(&app, &browser(), "rita", "/").await;
    let state = other.split("state=").nth(1).unwrap().split('&').next().unwrap();
    let swapped = format!("{PUBLIC}/api/v1/identity/sso/callback?code=not-a-code&state={state}");
    refused_with(&app, &callback(&app, &swapped).await, "provider-error", "did not complete").await;

    let denied =
        format!("{PUBLIC}/api/v1/identity/sso/callback?error=access_denied&state=whatever");
    refused_with(&app, &callback(&app, &denied).await, "state", "Please try again").await;

    exchange(&app, "not-a-code").await.problem(401);
}

#[actix_web::test]
async fn tokens_for_someone_else_or_expired_and_unverified_e_mails_are_refused() {
    let provider = Provider::start();
    let app = app_with(&provider).await;
    let admin = app.admin_token().await;
    for who in ["wrongaud-wes", "expired-ed", "unverified-una"] {
        app.create_user(&admin, &format!("{who}@agency.test"), &["Finance"], "some password 123")
            .await;
    }
    refused_with(
        &app,
        &sign_in(&app, "wrongaud-wes", "/").await,
        "invalid-token",
        "could not be verified",
    )
    .await;
    refused_with(
        &app,
        &sign_in(&app, "expired-ed", "/").await,
        "invalid-token",
        "could not be verified",
    )
    .await;
    refused_with(
        &app,
        &sign_in(&app, "unverified-una", "/").await,
        "email-unverified",
        "not verified",
    )
    .await;
    assert_eq!(denials(&app).await.pop().unwrap().1, "unverified-una@agency.test");
    refused_with(&app, &sign_in(&app, "noemail-nel", "/").await, "email-missing", "no e-mail")
        .await;
}

#[actix_web::test]
async fn deactivated_unmapped_and_blocked_coordinators_are_refused() {
    let provider = Provider::start();
    let app = app_with(&provider).await;
    let admin = app.admin_token().await;
    let gone = app.create_user(&admin, "gone@agency.test", &["Finance"], "gone password 123").await;
    app.delete(&format!("/api/v1/identity/users/{gone}"), &admin).await.ok();
    refused_with(&app, &sign_in(&app, "gone", "/").await, "deleted-user", "deactivated").await;

    app.create_user(&admin, "cody@agency.test", &["Coordinator"], "cody password 123").await;
    app.post(
        "/api/v1/system-settings/block-coordinator-login",
        Some(&admin),
        json!({"isBlocked": true, "message": "Closed for the fiscal year end."}),
    )
    .await
    .ok();
    refused_with(
        &app,
        &sign_in(&app, "cody", "/").await,
        "coordinator-login-blocked",
        "Closed for the fiscal year end.",
    )
    .await;

    settings(&app, mapping(true, json!([{"group": "finance", "roles": ["Finance"]}]))).await;
    refused_with(
        &app,
        &sign_in(&app, "nobody:staff", "/").await,
        "no-mapped-group",
        "None of your agency groups",
    )
    .await;
}

#[actix_web::test]
async fn listed_password_sign_in_sends_others_to_the_agency_button() {
    let provider = Provider::start();
    let app = app_with(&provider).await;
    let admin = app.admin_token().await;
    app.create_user(&admin, "pat@agency.test", &["Finance"], "pat password 1234").await;
    let body = json!({"createAccounts": false, "defaultRoles": [], "groupRoles": [],
        "passwordSignIn": "listed", "passwordAccounts": []});
    let r = app.put(SSO_SETTINGS, &admin, body).await;
    assert!(r.invalid()["errors"]["passwordAccounts"].is_array(), "{}", r.body);
    settings(
        &app,
        json!({"createAccounts": false, "defaultRoles": [], "groupRoles": [],
        "passwordSignIn": "listed", "passwordAccounts": [common::ADMIN_EMAIL]}),
    )
    .await;

    let r = app.login_reply("pat@agency.test", "pat password 1234").await;
    assert!(r.problem(403)["detail"].as_str().unwrap().contains("agency button"));
    app.login_reply(common::ADMIN_EMAIL, common::ADMIN_PASSWORD).await.ok();
    app.post("/api/v1/identity/user/reset-password", None, json!({"email": "pat@agency.test"}))
        .await
        .ok();
    assert!(app.last_mail_to("pat@agency.test").is_none());
    // The agency's sign-in still works for her.
    let f = sign_in(&app, "pat", "/").await;
    exchange(&app, get(&f, "sso").unwrap()).await.ok();
}

#[actix_web::test]
async fn the_settings_are_guarded_checked_and_audited() {
    let app = common::spawn().await;
    make_roles(&app).await;
    let admin = app.admin_token().await;
    let r = app.get(SSO_SETTINGS, &admin).await;
    assert_eq!(
        r.ok(),
        &json!({"createAccounts": false, "defaultRoles": [], "groupRoles": [],
        "passwordSignIn": "everyone", "passwordAccounts": []})
    );
    app.create_user(&admin, "fin@agency.test", &["Finance"], "fin password 1234").await;
    let (fin, _) = app.login("fin@agency.test", "fin password 1234").await;
    app.get(SSO_SETTINGS, &fin).await.problem(403);

    let r = app
        .put(
            SSO_SETTINGS,
            &admin,
            mapping(false, json!([{"group": "g", "roles": ["No Such Role"]}])),
        )
        .await;
    assert!(r.invalid()["detail"].is_string());
    let r = app.put(SSO_SETTINGS, &admin, json!({"createAccounts": "yes"})).await;
    r.problem(400);
    settings(&app, mapping(true, json!([{"group": "finance", "roles": ["Finance"]}]))).await;
    assert_eq!(app.get(SSO_SETTINGS, &admin).await.ok()["groupRoles"][0]["group"], "finance");

    use mentorpay::entities::audit_log;
    let entries = audit_log::Entity::find()
        .filter(audit_log::Column::Action.eq("sso-settings-updated"))
        .all(&app.state.db)
        .await
        .unwrap();
    assert_eq!(entries.len(), 1);
}
