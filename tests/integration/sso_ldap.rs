//! Signing in with the agency's LDAP directory: a real one (Debian's slapd, started by
//! scripts/slapd.sh in a temporary folder, seeded from tests/ldap/seed.ldif) for each test.

use std::{path::Path, process::Command};

use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder};
use serde_json::{json, Value};

use crate::common::{self, TestApp};

/// The directory, running until dropped.
struct Directory {
    dir: tempfile::TempDir,
    url: String,
}

impl Directory {
    fn start() -> Directory {
        let dir = tempfile::tempdir().unwrap();
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/slapd.sh");
        let out = Command::new("bash").arg(&script).arg("start").arg(dir.path()).output().unwrap();
        assert!(out.status.success(), "slapd.sh: {}", String::from_utf8_lossy(&out.stderr));
        let url = String::from_utf8(out.stdout).unwrap().trim().to_owned();
        Directory { dir, url }
    }
}

impl Drop for Directory {
    fn drop(&mut self) {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/slapd.sh");
        let _ = Command::new("bash").arg(script).arg("stop").arg(self.dir.path()).status();
    }
}

async fn app_with(url: &str) -> TestApp {
    let app = common::spawn_with(&[
        "--ldap-url",
        url,
        "--ldap-bind-dn",
        "cn=mentorpay,ou=services,dc=agency,dc=test",
        "--ldap-bind-password",
        "service-secret",
        "--ldap-base-dn",
        "ou=people,dc=agency,dc=test",
    ])
    .await;
    crate::sso_oidc::make_roles(&app).await;
    app
}

async fn last_denial(app: &TestApp) -> Value {
    use mentorpay::entities::audit_log;
    let e = audit_log::Entity::find()
        .filter(audit_log::Column::Action.eq("sso.denied"))
        .order_by_desc(audit_log::Column::Id)
        .one(&app.state.db)
        .await
        .unwrap()
        .expect("an sso.denied entry");
    serde_json::from_str(e.after.as_deref().unwrap()).unwrap()
}

const FINANCE: &str = "cn=finance,ou=groups,dc=agency,dc=test";
const APPROVERS: &str = "cn=approvers,ou=groups,dc=agency,dc=test";

#[actix_web::test]
async fn a_directory_person_signs_in_with_her_directory_password_and_groups() {
    let directory = Directory::start();
    let app = app_with(&directory.url).await;
    let admin = app.admin_token().await;
    let body = json!({"createAccounts": true, "defaultRoles": [], "passwordSignIn": "everyone", "passwordAccounts": [],
        "groupRoles": [{"group": APPROVERS, "roles": ["Approver"]}, {"group": FINANCE, "roles": ["Finance"]}]});
    app.put("/api/v1/system-settings/sso", &admin, body).await.ok();

    let r = app.login_reply("Ann@Agency.test", "ann directory password").await;
    assert_eq!(r.ok()["userDetails"]["roles"], json!(["Approver", "Finance"]));
    assert_eq!(r.body["userDetails"]["firstName"], "Ann");

    // A MentorPay password set on a directory account is never a way in.
    let r = app.login_reply("ann@agency.test", "wrong password 123").await;
    r.problem(401);
    assert_eq!(last_denial(&app).await["reason"], "bad-password");
    assert_eq!(last_denial(&app).await["email"], "ann@agency.test");

    // In the directory, in no mapped group: refused in words.
    let r = app.login_reply("bob@agency.test", "bob directory password").await;
    assert!(r.problem(403)["detail"].as_str().unwrap().contains("None of your agency groups"));
    assert_eq!(last_denial(&app).await["reason"], "no-mapped-group");

    // Not in the directory: MentorPay's own password decides.
    app.login_reply(common::ADMIN_EMAIL, common::ADMIN_PASSWORD).await.ok();
}

#[actix_web::test]
async fn an_e_mail_cannot_rewrite_the_directory_search() {
    let directory = Directory::start();
    let app = app_with(&directory.url).await;
    let admin = app.admin_token().await;
    let body = json!({"createAccounts": true, "defaultRoles": ["Finance"], "groupRoles": [],
        "passwordSignIn": "everyone", "passwordAccounts": []});
    app.put("/api/v1/system-settings/sso", &admin, body).await.ok();
    // Unescaped, `a*` would find Ann's entry and bind as her with her password.
    let r = app.login_reply("a*@agency.test", "ann directory password").await;
    assert!(r.status == 401 || r.status == 400, "{} {}", r.status, r.body);
    let users = app.get("/api/v1/identity/users?Email=ann", &admin).await;
    assert_eq!(users.ok()["items"].as_array().unwrap().len(), 0);
}

#[actix_web::test]
async fn a_directory_that_does_not_answer_is_a_503_in_words() {
    let directory = Directory::start();
    let app = app_with(&directory.url).await;
    let admin = app.admin_token().await;
    let body = json!({"createAccounts": true, "defaultRoles": ["Finance"], "groupRoles": [],
        "passwordSignIn": "listed", "passwordAccounts": [common::ADMIN_EMAIL]});
    app.put("/api/v1/system-settings/sso", &admin, body).await.ok();
    drop(directory);
    let r = app.login_reply("ann@agency.test", "ann directory password").await;
    assert!(r.problem(503)["detail"].as_str().unwrap().contains("directory does not answer"));
    // The break-glass Administrator still signs in with her MentorPay password.
    app.login_reply(common::ADMIN_EMAIL, common::ADMIN_PASSWORD).await.ok();
    assert!(!app
        .state
        .config
        .sso
        .ldap_bind_password
        .iter()
        .any(|s| format!("{s:?}").contains("service-secret")));
}
