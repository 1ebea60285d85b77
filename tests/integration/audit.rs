//! The audit trail: append-only in the database itself, chained so an edit is found, and one
//! chain however many write at once.

use crate::common::dates::{shifted, shifted_fy};
use crate::common::*;

use futures_util::future::join_all;
use mentorpay::audit::{self, Actor, Change};
use sea_orm::{ConnectionTrait, DatabaseBackend, DatabaseConnection};
use serde_json::json;

async fn append(db: &DatabaseConnection, n: i32) {
    let txn = mentorpay::db::write(db).await.unwrap();
    let change = Change::new("participant", n, "updated")
        .diff(&json!({"phone": "0"}), &json!({"phone": n.to_string()}));
    audit::record(&txn, &Actor::anonymous(Some("10.0.0.1".into())), change).await.unwrap();
    txn.commit().await.unwrap();
}

async fn sql(db: &DatabaseConnection, statement: &str) -> Result<(), String> {
    db.execute_unprepared(statement).await.map(|_| ()).map_err(|e| e.to_string())
}

/// What the trail holds now, checked against its chain: (entries, first broken id).
async fn verdict(db: &DatabaseConnection) -> (u64, Option<i32>) {
    let v = audit::verify(db).await.unwrap();
    (v.entries, v.first_broken)
}

#[actix_web::test]
async fn the_database_refuses_to_edit_or_delete_an_entry_and_verify_finds_a_forced_edit() {
    let app = spawn().await;
    let db = &app.state.db;
    let before = verdict(db).await.0;
    for n in 1..=3 {
        append(db, n).await;
    }
    assert_eq!(verdict(db).await, (before + 3, None));
    let second = before as i32 + 2;
    for statement in [
        format!("UPDATE audit_log SET after = '{{\"phone\":\"999\"}}' WHERE id = {second}"),
        format!("DELETE FROM audit_log WHERE id = {second}"),
        "DELETE FROM audit_log".to_owned(),
    ] {
        let refused = sql(db, &statement).await.expect_err(&statement);
        assert!(refused.contains("append-only"), "{statement}: {refused}");
    }
    assert_eq!(verdict(db).await, (before + 3, None), "nothing changed");

    // Someone with the database in hand removes the refusal and edits an entry.
    let drop = match db.get_database_backend() {
        DatabaseBackend::Postgres => "DROP TRIGGER audit_log_append_only ON audit_log",
        _ => "DROP TRIGGER audit_log_no_update",
    };
    sql(db, drop).await.unwrap();
    sql(db, &format!("UPDATE audit_log SET after = '{{\"phone\":\"999\"}}' WHERE id = {second}"))
        .await
        .unwrap();
    assert_eq!(verdict(db).await, (before + 3, Some(second)));
    let admin = app.admin_token().await;
    let answer = app.get("/api/v1/audit-log/verify", &admin).await;
    assert_eq!(answer.ok()["ok"], json!(false));
    assert_eq!(answer.ok()["firstBrokenId"], json!(second));
}

#[actix_web::test]
async fn secrets_never_reach_an_entry() {
    let app = spawn().await;
    let db = &app.state.db;
    let txn = mentorpay::db::write(db).await.unwrap();
    let change = Change::new("user", 1, "updated")
        .before(json!({"firstName": "Ann", "passwordHash": "$argon2id$v=19$...", "phone": "1"}))
        .after(json!({"firstName": "Anna", "user": {"refresh_token": "abc"}, "phone": "1"}));
    audit::record(&txn, &Actor::system(), change).await.unwrap();
    txn.commit().await.unwrap();
    let row = app
        .state
        .db
        .query_one_raw(sea_orm::Statement::from_string(
            app.state.db.get_database_backend(),
            "SELECT before, after FROM audit_log ORDER BY id DESC LIMIT 1",
        ))
        .await
        .unwrap()
        .unwrap();
    let before: String = row.try_get_by_index(0).unwrap();
    let after: String = row.try_get_by_index(1).unwrap();
    assert_eq!(
        (before.as_str(), after.as_str()),
        (r#"{"firstName":"Ann","phone":"1"}"#, r#"{"firstName":"Anna","phone":"1","user":{}}"#)
    );
}

#[actix_web::test]
async fn sixteen_writers_at_once_keep_one_chain() {
    let app = spawn().await;
    let db = &app.state.db;
    let before = verdict(db).await.0;
    join_all((1..=16).map(|n| append(db, n))).await;
    assert_eq!(verdict(db).await, (before + 16, None));
}

/// (action, actor e-mail, after) of the newest `n` entries, oldest first.
async fn newest(db: &DatabaseConnection, n: u64) -> Vec<(String, Option<String>, Option<String>)> {
    use mentorpay::entities::audit_log;
    use sea_orm::{EntityTrait, QueryOrder, QuerySelect};
    let mut rows: Vec<_> = audit_log::Entity::find()
        .order_by_desc(audit_log::Column::Id)
        .limit(n)
        .all(db)
        .await
        .unwrap()
        .into_iter()
        .map(|e| (e.action, e.actor_email, e.after))
        .collect();
    rows.reverse();
    rows
}

#[actix_web::test]
async fn sign_ins_refused_and_accepted_and_sign_outs_are_recorded_without_the_password() {
    let app = spawn().await;
    let db = &app.state.db;
    let wrong = app
        .post(
            "/api/v1/identity/login",
            None,
            json!({"email": "Nobody@Example.org", "password": "guess guess guess"}),
        )
        .await;
    assert_eq!(wrong.status, 401);
    let (_, refresh) = app.login(ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let out = app.post("/api/v1/identity/logout", None, json!({"refreshToken": refresh})).await;
    assert_eq!(out.status, 204);
    let admin = Some(ADMIN_EMAIL.to_owned());
    assert_eq!(
        newest(db, 3).await,
        [
            ("sign-in-failed".into(), None, Some(r#"{"email":"nobody@example.org"}"#.into())),
            ("signed-in".into(), admin.clone(), None),
            ("signed-out".into(), admin, None),
        ]
    );
    let everything = format!("{:?}", newest(db, 1000).await);
    assert!(!everything.contains("guess") && !everything.contains(ADMIN_PASSWORD));
    assert_eq!(audit::verify(db).await.unwrap().first_broken, None);
}

#[actix_web::test]
async fn a_records_history_is_listed_newest_first_for_administrators_only() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let created = app
        .post("/api/v1/participants", Some(&admin), person("Ada", "ada@example.org", "Mentor"))
        .await;
    let mut body = person("Adele", "ada@example.org", "Mentor");
    let id = created.ok()["id"].as_i64().unwrap();
    body["version"] = json!(1);
    app.put(&format!("/api/v1/participants/{id}"), &admin, body).await.ok();

    let history = app
        .get(&format!("/api/v1/audit-log?EntityType=participant&EntityId={id}&Size=10"), &admin)
        .await;
    let page = history.ok();
    assert_eq!(page["totalCount"], json!(2), "{page}");
    let items = page["items"].as_array().unwrap();
    assert_eq!(
        (items[0]["action"].as_str(), items[1]["action"].as_str()),
        (Some("updated"), Some("created"))
    );
    assert_eq!(items[0]["actor"]["email"], json!(ADMIN_EMAIL));
    assert!(items[0]["ip"].as_str().is_some_and(|ip| ip.starts_with("127.0.0.1")), "{}", items[0]);

    let everything = app.get("/api/v1/audit-log?Page=1&Size=500", &admin).await;
    let ids: Vec<i64> = everything.ok()["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_i64().unwrap())
        .collect();
    assert!(ids.windows(2).all(|w| w[0] > w[1]), "newest first: {ids:?}");
    assert_eq!(everything.ok()["totalCount"], json!(ids.len()));
    let verdict = app.get("/api/v1/audit-log/verify", &admin).await;
    assert_eq!(verdict.ok()["ok"], json!(true));
    assert_eq!(verdict.ok()["entries"], json!(ids.len()));
    let bad = app.get("/api/v1/audit-log?EntityId=abc", &admin).await;
    assert!(bad.problem(400)["errors"]["EntityId"].is_array(), "{}", bad.body);
    for path in ["/api/v1/audit-log", "/api/v1/audit-log/retrieve"] {
        let backwards = app
            .get(&format!("{path}?From=2026-03-02&To=2026-03-01&ReportFormat=Csv"), &admin)
            .await;
        assert!(backwards.problem(422)["errors"]["To"].is_array(), "{path}: {}", backwards.body);
    }

    app.create_user(&admin, "coord@example.org", &["Coordinator"], "coordinator pw 1").await;
    let (coordinator, _) = app.login("coord@example.org", "coordinator pw 1").await;
    for path in ["/api/v1/audit-log", "/api/v1/audit-log/verify"] {
        assert_eq!(app.get(path, &coordinator).await.status, 403, "{path}");
    }
}

/// The newest entry of one record, as the trail lists it.
async fn newest_of(app: &TestApp, token: &str, entity_type: &str, id: i64) -> serde_json::Value {
    let path = format!("/api/v1/audit-log?EntityType={entity_type}&EntityId={id}&Size=1");
    app.get(&path, token).await.ok()["items"][0].clone()
}

/// An entry's field names and their values as numbers (amounts print as decimals).
fn amounts(fields: &serde_json::Value) -> Vec<(String, Option<f64>)> {
    let map = fields.as_object().expect("an object of fields");
    map.iter().map(|(k, v)| (k.clone(), v.as_f64())).collect()
}

#[actix_web::test]
async fn a_change_records_exactly_the_fields_it_changed_before_and_after() {
    let app = spawn().await;
    let admin = app.admin_token().await;

    let created = app
        .post("/api/v1/participants", Some(&admin), person("Ada", "ada@example.org", "Mentor"))
        .await;
    let id = created.ok()["id"].as_i64().unwrap();
    let entry = newest_of(&app, &admin, "participant", id).await;
    assert_eq!((entry["action"].as_str(), &entry["before"]), (Some("created"), &json!(null)));
    assert_eq!(entry["after"]["firstName"], json!("Ada"), "a creation keeps every field: {entry}");
    assert_eq!(entry["after"]["languageIds"], json!([1]), "{entry}");

    let mut body = person("Adele", "ada@example.org", "Mentor");
    body["phone"] = json!("(916) 555-0199");
    body["version"] = json!(1);
    app.put(&format!("/api/v1/participants/{id}"), &admin, body).await.ok();
    let entry = newest_of(&app, &admin, "participant", id).await;
    assert_eq!(entry["action"], json!("updated"));
    assert_eq!(entry["before"], json!({"firstName": "Ada", "phone": "(916) 555-0100"}));
    assert_eq!(entry["after"], json!({"firstName": "Adele", "phone": "(916) 555-0199"}));

    app.delete(&format!("/api/v1/participants/{id}"), &admin).await;
    let entry = newest_of(&app, &admin, "participant", id).await;
    assert_eq!((entry["action"].as_str(), &entry["after"]), (Some("deleted"), &json!(null)));
    assert_eq!(entry["before"]["firstName"], json!("Adele"), "a deletion keeps every field");

    let year = app
        .post(
            "/api/v1/system-settings/fiscal-years",
            Some(&admin),
            json!({"name": shifted_fy("FY 2025-26"), "startDate": shifted("2025-07-01"), "endDate": shifted("2026-06-30")}),
        )
        .await;
    let fy = year.ok()["id"].as_i64().unwrap();
    let line = json!({"mentorProgramId": 1, "fundId": 1, "expenseAccountId": 1, "amount": 100});
    let body = json!({"fiscalYearId": fy, "lines": [line]});
    let detail = app.put("/api/v1/budgets/bulk-update", &admin, body).await.ok().clone();
    let line_id = detail["lines"][0]["id"].as_i64().unwrap();
    let entry = newest_of(&app, &admin, "budget-line", line_id).await;
    assert_eq!(entry["action"], json!("created"));
    assert_eq!(entry["after"]["fiscalYearId"], json!(fy), "{entry}");
    // The fields' records read by their names (the account with its code), never by id.
    let words = |entry: &serde_json::Value| -> Vec<String> {
        let changes = entry["changes"].as_array().expect("changes in words");
        changes
            .iter()
            .map(|c| {
                format!("{}: {}", c["label"].as_str().unwrap(), c["after"].as_str().unwrap_or(""))
            })
            .collect()
    };
    let item = |list: &serde_json::Value| {
        let one =
            list.as_array().and_then(|l| l.iter().find(|i| i["id"] == json!(1))).cloned().unwrap();
        match one["code"].as_str() {
            Some(code) if !code.is_empty() => format!("{code} {}", one["name"].as_str().unwrap()),
            _ => one["name"].as_str().unwrap().to_owned(),
        }
    };
    let fund = item(app.get("/api/v1/funds", &admin).await.ok());
    let account = item(app.get("/api/v1/expense-accounts", &admin).await.ok());
    let said = words(&entry);
    assert!(said.contains(&format!("Fund: {fund}")), "{said:?}");
    assert!(said.contains(&format!("Expense account: {account}")), "{said:?}");
    assert!(said.contains(&format!("Fiscal year: {}", shifted_fy("FY 2025-26"))), "{said:?}");
    assert!(entry["record"].as_str().unwrap().starts_with("Budget line"), "{entry}");

    app.put(&format!("/api/v1/budgets/{line_id}"), &admin, json!({"amount": 150.25})).await.ok();
    let entry = newest_of(&app, &admin, "budget-line", line_id).await;
    assert_eq!(entry["action"], json!("updated"));
    assert_eq!(amounts(&entry["before"]), [("amount".to_owned(), Some(100.0))], "{entry}");
    assert_eq!(amounts(&entry["after"]), [("amount".to_owned(), Some(150.25))], "{entry}");
    assert_eq!(entry["fiscalYearId"], json!(fy), "the line's year, for a link to its budget");

    // A participation's entry names its participant, whose page shows it, though the
    // participant is not among the fields that changed.
    let fy = app
        .post(
            "/api/v1/system-settings/fiscal-years",
            Some(&admin),
            json!({"name": shifted_fy("FY 2026-27"), "startDate": shifted("2026-07-01"), "endDate": shifted("2027-06-30")}),
        )
        .await
        .ok()["id"]
        .as_i64()
        .unwrap();
    let mut body = person("Pia", "pia@example.org", "Mentor");
    body["participations"] = json!([taking(1, fy, "Mentor")]);
    let created = app.post("/api/v1/participants", Some(&admin), body).await.ok().clone();
    let (pid, pn) =
        (created["id"].as_i64().unwrap(), created["participations"][0]["id"].as_i64().unwrap());
    let mut change = taking(1, fy, "Mentor");
    change["endDate"] = json!(shifted("2027-05-31"));
    app.put(&format!("/api/v1/participants/{pid}/participations/{pn}"), &admin, change).await.ok();
    let entry = newest_of(&app, &admin, "participation", pn).await;
    assert_eq!(entry["action"], json!("updated"));
    assert_eq!(entry["participantId"], json!(pid), "{entry}");
    assert_eq!(entry["after"], json!({"endDate": shifted("2027-05-31")}));
    assert_eq!(entry.get("fiscalYearId"), None, "a budget line's field only");
}

/// (status, content type, body) of a file download.
async fn download(app: &TestApp, token: &str, path: &str) -> (u16, String, Vec<u8>) {
    let res =
        app.client.get(format!("{}{path}", app.base)).bearer_auth(token).send().await.unwrap();
    let status = res.status().as_u16();
    let kind = res
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    (status, kind, res.bytes().await.unwrap().to_vec())
}

#[actix_web::test]
async fn the_trail_exports_as_csv_xlsx_and_pdf_with_the_lists_filters() {
    use crate::reports::{csv_rows, pdf_text, sheet};
    let app = spawn().await;
    let admin = app.admin_token().await;
    let created = app
        .post("/api/v1/participants", Some(&admin), person("Ada", "ada@example.org", "Mentor"))
        .await;
    let id = created.ok()["id"].as_i64().unwrap();
    let mut body = person("Adele", "ada@example.org", "Mentor");
    body["version"] = json!(1);
    app.put(&format!("/api/v1/participants/{id}"), &admin, body).await.ok();
    let base = format!("/api/v1/audit-log/retrieve?EntityType=participant&EntityId={id}");

    let (status, kind, bytes) = download(&app, &admin, &format!("{base}&ReportFormat=Csv")).await;
    assert_eq!((status, kind.starts_with("text/csv")), (200, true), "{kind}");
    let (headers, rows) = csv_rows(&bytes);
    assert_eq!(headers.first().map(String::as_str), Some("Entry"), "{headers:?}");
    let action = headers.iter().position(|h| h == "What happened").unwrap();
    let changes = headers.iter().position(|h| h == "Changes").unwrap();
    let who = headers.iter().position(|h| h == "Who").unwrap();
    assert_eq!(
        rows.iter().map(|r| r[action].as_str()).collect::<Vec<_>>(),
        ["Updated", "Created"],
        "the record's entries only, newest first, in words"
    );
    assert_eq!(rows[0][changes], "First name: Ada → Adele");
    assert!(rows[0][who].contains(ADMIN_EMAIL), "{rows:?}");

    let (status, _, bytes) = download(&app, &admin, &format!("{base}&ReportFormat=Xlsx")).await;
    assert_eq!(status, 200);
    let table = sheet(&bytes);
    assert_eq!(table.len(), 3, "a header and two entries, no totals: {table:?}");
    assert!(table[1].iter().any(|c| *c == "First name: Ada → Adele"), "{table:?}");

    let (status, kind, bytes) = download(&app, &admin, &format!("{base}&ReportFormat=Pdf")).await;
    assert_eq!((status, kind.as_str()), (200, "application/pdf"));
    let text = pdf_text(&bytes);
    assert!(text.contains("Audit trail") && text.contains("Adele"), "{text}");

    let (status, _, body) = download(&app, &admin, &format!("{base}&ReportFormat=Doc")).await;
    let problem: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(status, 400);
    assert!(problem["errors"]["ReportFormat"].is_array(), "{problem}");

    app.create_user(&admin, "coord@example.org", &["Coordinator"], "coordinator pw 1").await;
    let (coordinator, _) = app.login("coord@example.org", "coordinator pw 1").await;
    let (status, _, _) = download(&app, &coordinator, &format!("{base}&ReportFormat=Csv")).await;
    assert_eq!(status, 403);
}

#[actix_web::test]
async fn two_instances_writing_at_once_on_postgresql_keep_one_chain() {
    use crate::common::{database, instance::Instance};
    use reqwest::Method;
    if database::skip_on_sqlite("several instances run on PostgreSQL (its pass of make test)") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let db = database::url_for(dir.path(), "mentorpay.db").await;
    let env = [("MENTORPAY_LOGIN_ATTEMPTS_PER_MINUTE", "1000")];
    let mut a = Instance::launch(dir.path(), &db, &env);
    let mut b = Instance::launch(dir.path(), &db, &env);
    a.ready().await;
    b.ready().await;
    let (admin, _) = a.login(ADMIN_EMAIL, ADMIN_PASSWORD).await;

    // Twenty-four changes at once, half through each instance: new participants, and
    // refused sign-ins (an entry in a transaction of its own).
    let admin = admin.as_str();
    let calls = (0..24).map(|n| {
        let target = if n % 2 == 0 { &a } else { &b };
        async move {
            if n % 3 == 0 {
                let tried = json!({"email": format!("nobody{n}@example.org"), "password": "wrong password 1"});
                target.call(Method::POST, "/api/v1/identity/login", None, Some(tried)).await
            } else {
                let body = person(&format!("P{n}"), &format!("p{n}@example.org"), "Mentor");
                target.call(Method::POST, "/api/v1/participants", Some(admin), Some(body)).await
            }
        }
    });
    let mut statuses: Vec<u16> = join_all(calls).await.iter().map(|r| r.status.as_u16()).collect();
    statuses.sort();
    assert_eq!(statuses, [[201; 16].as_slice(), &[401; 8]].concat());

    let verdict = b.call(Method::GET, "/api/v1/audit-log/verify", Some(admin), None).await;
    assert_eq!(verdict.ok()["ok"], json!(true), "{}", verdict.body);
    let page = a.call(Method::GET, "/api/v1/audit-log?Size=500", Some(admin), None).await;
    let items = page.ok()["items"].as_array().unwrap().clone();
    let ids: Vec<i64> = items.iter().map(|e| e["id"].as_i64().unwrap()).collect();
    assert_eq!(verdict.body["entries"], json!(ids.len()));
    assert!(ids.windows(2).all(|w| w[0] == w[1] + 1), "one line, no gap, no fork: {ids:?}");
    let count = |action: &str, kind: &str| {
        items.iter().filter(|e| e["action"] == action && e["entityType"] == kind).count()
    };
    assert_eq!((count("created", "participant"), count("sign-in-failed", "user")), (16, 8));
}

#[actix_web::test]
async fn a_requests_trail_names_its_codes_files_and_statuses_in_words_in_every_file() {
    use crate::reports::{csv_rows, pdf_text, sheet};
    let app = spawn().await;
    let admin = app.admin_token().await;
    app.create_user(&admin, "approver@example.org", &["Administrator"], "approver pass 123").await;
    let (approver, _) = app.login("approver@example.org", "approver pass 123").await;
    let fy = app
        .post(
            "/api/v1/system-settings/fiscal-years",
            Some(&admin),
            json!({"name": shifted_fy("FY 2026-27"), "startDate": shifted("2026-07-01"), "endDate": shifted("2027-06-30")}),
        )
        .await
        .ok()["id"]
        .as_i64()
        .unwrap();
    let first = |list: &serde_json::Value, pick: &dyn Fn(&serde_json::Value) -> bool| {
        list.as_array().unwrap().iter().find(|i| pick(i)).cloned().expect("a reference item")
    };
    let fund = first(app.get("/api/v1/funds", &admin).await.ok(), &|_| true);
    let account = first(app.get("/api/v1/expense-accounts", &admin).await.ok(), &|_| true);
    let code = first(app.get("/api/v1/approval-codes", &admin).await.ok(), &|c| {
        c["paymentRequestType"] == "F2"
    });
    let mut payee = person("Pat", "pat@example.org", "Mentor");
    payee["participations"] = json!([taking(1, fy, "Mentor")]);
    let payee = app.post("/api/v1/participants", Some(&admin), payee).await.ok().clone();
    let participation = payee["participations"][0]["id"].as_i64().unwrap();
    let line = json!({"mentorProgramId": 1, "fundId": fund["id"], "expenseAccountId": account["id"], "amount": 5000});
    app.put("/api/v1/budgets/bulk-update", &admin, json!({"fiscalYearId": fy, "lines": [line]}))
        .await
        .ok();

    const PDF: &[u8] = b"%PDF-1.7\n1 0 obj\n<<>>\nendobj\n%%EOF\n";
    let file_id = app.uploaded(&admin, "taxi-receipt.pdf", "application/pdf", PDF).await;
    let body = json!({"participationId": participation, "description": "Books", "details": {"items": [{"date": shifted("2026-10-01"), "description": "Books", "amount": 12.5}], "fileIds": [file_id]}});
    let id = app.post("/api/v1/payment-requests/F2", Some(&admin), body).await.ok()["id"]
        .as_i64()
        .unwrap();
    let url = format!("/api/v1/payment-requests/F2/{id}");
    app.post(&format!("{url}/submit"), Some(&admin), json!({})).await.ok();
    let approval = json!({"approvedAmount": 12.5, "approvalCodeId": code["id"], "fundId": fund["id"],
        "expenseAccountId": account["id"], "acknowledgeWarnings": true});
    app.post(&format!("{url}/approve"), Some(&approver), approval).await.ok();
    app.post(&format!("{url}/move-to-ready-for-processing"), Some(&approver), json!({})).await.ok();

    let page = app
        .get(&format!("/api/v1/audit-log?EntityType=payment_request&EntityId={id}&Size=50"), &admin)
        .await
        .ok()
        .clone();
    let entries = page["items"].as_array().expect("entries");
    let said: Vec<String> = entries
        .iter()
        .flat_map(|e| e["changes"].as_array().cloned().unwrap_or_default())
        .map(|c| {
            let side = |v: &serde_json::Value| v.as_str().unwrap_or("").to_owned();
            format!("{}: {} → {}", side(&c["label"]), side(&c["before"]), side(&c["after"]))
        })
        .collect();
    let all = said.join("\n");
    let code_words = code["name"].as_str().unwrap();
    assert!(
        all.lines().any(|l| l.starts_with("Approval code: — → ") && l.contains(code_words)),
        "the approval code by its name: {all}"
    );
    assert!(all.contains("taxi-receipt.pdf"), "files by their names: {all}");
    assert!(all.contains("Ready for processing"), "statuses in words: {all}");
    let fund_words = fund["name"].as_str().unwrap();
    assert!(all.contains(fund_words), "{all}");
    let account_code = account["code"].as_str().unwrap_or_default();
    assert!(all.contains(&format!("{account_code} ")), "the account with its code: {all}");
    let record = entries[0]["record"].as_str().unwrap();
    assert_eq!(record, format!("Payment request F2 #{id}"), "one request reference");
    for e in entries {
        assert!(!e["actionLabel"].as_str().unwrap().contains('-'), "actions in words: {e}");
    }
    // No id, code or JSON where a person reads: the raw ids of what was named never show.
    for raw in [file_id.as_str(), "ReadyForProcessing", "payment_request", "{\""] {
        assert!(!all.contains(raw), "{raw} in {all}");
    }

    let base = format!("/api/v1/audit-log/retrieve?EntityType=payment_request&EntityId={id}");
    let (status, _, bytes) = download(&app, &admin, &format!("{base}&ReportFormat=Csv")).await;
    assert_eq!(status, 200);
    let (headers, rows) = csv_rows(&bytes);
    let record_column = headers.iter().position(|h| h == "Record").expect("a Record column");
    assert!(rows.iter().all(|r| r[record_column] == record), "{rows:?}");
    let csv = String::from_utf8(bytes).unwrap();
    let (_, _, xlsx) = download(&app, &admin, &format!("{base}&ReportFormat=Xlsx")).await;
    let xlsx = sheet(&xlsx).iter().flatten().map(|c| c.to_string()).collect::<Vec<_>>().join("\n");
    let (_, _, pdf) = download(&app, &admin, &format!("{base}&ReportFormat=Pdf")).await;
    let pdf = pdf_text(&pdf);
    for (file, text) in [("CSV", &csv), ("XLSX", &xlsx), ("PDF", &pdf)] {
        for words in ["taxi-receipt.pdf", code_words, fund_words, "Ready for processing"] {
            assert!(text.contains(words), "{file} lacks {words}: {text}");
        }
        for raw in [file_id.as_str(), "ReadyForProcessing", "payment_request", "{\""] {
            assert!(!text.contains(raw), "{file} shows {raw}: {text}");
        }
    }
}
