//! Signing in with the agency's LDAP directory: a real one (Debian's slapd, started by
//! scripts/slapd.sh in a temporary folder, seeded from tests/ldap/seed.ldif) for each test,
//! over plain LDAP, StartTLS and ldaps:// with a throw-away CA of its own.

use std::{path::Path, process::Command};

use clap::Parser;

use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder};
use serde_json::{json, Value};

use crate::common::{self, TestApp};

/// The directory, running until dropped.
struct Directory {
    dir: tempfile::TempDir,
    /// ldap:// (StartTLS offered).
    url: String,
    ldaps_url: String,
}

impl Directory {
    fn start() -> Directory {
        let dir = tempfile::tempdir().unwrap();
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/slapd.sh");
        let out = Command::new("bash").arg(&script).arg("start").arg(dir.path()).output().unwrap();
        assert!(out.status.success(), "slapd.sh: {}", String::from_utf8_lossy(&out.stderr));
        let stdout = String::from_utf8(out.stdout).unwrap();
        let [url, ldaps_url] = [0, 1].map(|n| stdout.lines().nth(n).unwrap().to_owned());
        Directory { dir, url, ldaps_url }
    }

    /// The CA that signed the directory's certificate.
    fn ca_file(&self) -> String {
        self.dir.path().join("tls/ca.pem").to_str().unwrap().to_owned()
    }

    /// A CA that signed nothing of this directory's.
    fn other_ca_file(&self) -> String {
        self.dir.path().join("tls/other-ca.pem").to_str().unwrap().to_owned()
    }
}

impl Drop for Directory {
    fn drop(&mut self) {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/slapd.sh");
        let _ = Command::new("bash").arg(script).arg("stop").arg(self.dir.path()).status();
    }
}

const DIRECTORY_FLAGS: [&str; 6] = [
    "--ldap-bind-dn",
    "cn=mentorpay,ou=services,dc=agency,dc=test",
    "--ldap-bind-password",
    "service-secret",
    "--ldap-base-dn",
    "ou=people,dc=agency,dc=test",
];

async fn app_with(url: &str) -> TestApp {
    app_with_flags(&["--ldap-url", url]).await
}

async fn app_with_flags(flags: &[&str]) -> TestApp {
    let app = common::spawn_with(&[flags, &DIRECTORY_FLAGS].concat()).await;
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
    assert_eq!(last_denial(&app).await["reason"], "directory-unavailable");
    assert_eq!(last_denial(&app).await["email"], "ann@agency.test");
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

/// Settings that would give any directory person an account (a sign-in that should not
/// happen would show as one), the Administrator kept as the break-glass account.
async fn open_the_door(app: &TestApp) -> String {
    let admin = app.admin_token().await;
    let body = json!({"createAccounts": true, "defaultRoles": ["Finance"], "groupRoles": [],
        "passwordSignIn": "listed", "passwordAccounts": [common::ADMIN_EMAIL]});
    app.put("/api/v1/system-settings/sso", &admin, body).await.ok();
    admin
}

#[actix_web::test]
async fn starttls_with_the_agencys_ca_signs_in() {
    let directory = Directory::start();
    let ca = directory.ca_file();
    let flags = ["--ldap-url", &directory.url, "--ldap-starttls", "--ldap-ca-file", &ca];
    let app = app_with_flags(&flags).await;
    open_the_door(&app).await;
    let r = app.login_reply("ann@agency.test", "ann directory password").await;
    assert_eq!(r.ok()["userDetails"]["firstName"], "Ann");
    // Over TLS the directory still judges the password.
    app.login_reply("ann@agency.test", "not her password").await.problem(401);
    assert_eq!(last_denial(&app).await["reason"], "bad-password");
}

#[actix_web::test]
async fn ldaps_with_the_agencys_ca_signs_in() {
    let directory = Directory::start();
    let ca = directory.ca_file();
    let app = app_with_flags(&["--ldap-url", &directory.ldaps_url, "--ldap-ca-file", &ca]).await;
    open_the_door(&app).await;
    let r = app.login_reply("ann@agency.test", "ann directory password").await;
    assert_eq!(r.ok()["userDetails"]["firstName"], "Ann");
}

#[actix_web::test]
async fn a_directory_certificate_not_trusted_is_a_503_and_signs_nobody_in() {
    let directory = Directory::start();
    let (ca, other) = (directory.ca_file(), directory.other_ca_file());
    // Set up while the directory is trusted: the settings, and Ann with a MentorPay password.
    let trusted =
        app_with_flags(&["--ldap-url", &directory.ldaps_url, "--ldap-ca-file", &ca]).await;
    let admin = open_the_door(&trusted).await;
    trusted.create_user(&admin, "ann@agency.test", &["Finance"], "ann mentorpay password").await;
    let cases: [&[&str]; 3] = [
        &["--ldap-url", &directory.ldaps_url],
        &["--ldap-url", &directory.ldaps_url, "--ldap-ca-file", &other],
        &["--ldap-url", &directory.url, "--ldap-starttls", "--ldap-ca-file", &other],
    ];
    for flags in cases {
        // The same database, started again with a CA that did not sign the directory's.
        let app = common::spawn_in(trusted.dir.clone(), &[flags, &DIRECTORY_FLAGS].concat()).await;
        for password in ["ann directory password", "ann mentorpay password"] {
            let r = app.login_reply("ann@agency.test", password).await;
            let detail = r.problem(503)["detail"].as_str().unwrap().to_owned();
            assert!(detail.contains("certificate could not be verified"), "{flags:?}: {detail}");
            let denial = last_denial(&app).await;
            assert_eq!(denial["reason"], "directory-certificate-untrusted", "{flags:?}");
            assert_eq!(denial["email"], "ann@agency.test");
        }
        // Bob, whom the settings would give an account, gets none.
        app.login_reply("bob@agency.test", "bob directory password").await.problem(503);
        let admin = app.admin_token().await;
        let users = app.get("/api/v1/identity/users?Email=bob", &admin).await;
        assert_eq!(users.ok()["items"].as_array().unwrap().len(), 0, "{flags:?}");
    }
}

#[actix_web::test]
async fn a_ca_file_that_cannot_be_used_stops_the_start_naming_the_flag() {
    let folder = tempfile::tempdir().unwrap();
    let not_pem = folder.path().join("not-pem.crt");
    std::fs::write(&not_pem, b"\x30\x82\x01\x0a binary DER is not PEM").unwrap();
    let key_only = folder.path().join("key.pem");
    std::fs::write(&key_only, "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n")
        .unwrap();
    let broken = folder.path().join("broken.pem");
    std::fs::write(
        &broken,
        "-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n",
    )
    .unwrap();
    let missing = folder.path().join("missing.pem");
    for (file, words) in [
        (&missing, "cannot read the file"),
        (&not_pem, "holds no PEM certificate"),
        (&key_only, "holds no PEM certificate"),
        (&broken, "certificate 1 is not usable as a CA"),
    ] {
        let path = file.to_str().unwrap();
        let args = ["mentorpay", "--ldap-url", "ldaps://127.0.0.1:636", "--ldap-ca-file", path];
        let error = mentorpay::cli::Cli::try_parse_from(args).unwrap_err().to_string();
        assert!(error.contains("--ldap-ca-file") && error.contains(words), "{error}");
    }
}

#[actix_web::test]
async fn starttls_on_an_ldaps_url_stops_the_start_in_words() {
    let folder = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}?mode=rwc", folder.path().join("m.db").display());
    let args = [
        "mentorpay",
        "--database-url",
        &db,
        "--ldap-url",
        "ldaps://dc1.agency.test:636",
        "--ldap-starttls",
    ];
    let cli = mentorpay::cli::Cli::try_parse_from(args).unwrap();
    let error =
        mentorpay::app::prepare(cli.config).await.err().expect("a refused start").to_string();
    assert!(error.contains("--ldap-starttls") && error.contains("ldaps://"), "{error}");
}
