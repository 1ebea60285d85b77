//! A fiscal year's life over HTTP: closing and reopening it (who, when, why, in the list and
//! the activity log), every write route that could charge a closed year refused with a 409
//! naming it (and accepted again once it is reopened), what keeps working while it is
//! closed, and rolling a budget over into an empty year.

use crate::common;
use crate::common::dates::{shifted, shifted_fy, Year};

use common::*;
use reqwest::Method;
use serde_json::{json, Value};

const PR: &str = "/api/v1/payment-requests";
const FY: &str = "/api/v1/system-settings/fiscal-years";
const APPROVER: &str = "approver@example.org";
const PASSWORD: &str = "approver pass 123";
const PDF: &[u8] = b"%PDF-1.7\n1 0 obj\n<<>>\nendobj\n%%EOF\n";

struct World {
    app: TestApp,
    admin: String,
    /// A second administrator: nobody approves their own request.
    approver: String,
    /// This fiscal year, the one today falls in; the next one after it, empty.
    fy: i64,
    next: i64,
    program: i64,
    fund: i64,
    account: i64,
    code: i64,
    payee: i64,
}

async fn world() -> World {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let (this, after) = (Year::this(), Year::at(1));
    let fy = app.post(FY, Some(&admin), this.body()).await;
    let fy = fy.ok()["id"].as_i64().unwrap();
    let next = app.post(FY, Some(&admin), after.body()).await;
    let next = next.ok()["id"].as_i64().unwrap();
    let program = ids(&app, &admin, "/api/v1/mentor-programs").await[0];
    let fund = ids(&app, &admin, "/api/v1/funds").await[0];
    let account = ids(&app, &admin, "/api/v1/expense-accounts").await[0];
    let codes = app.get("/api/v1/approval-codes", &admin).await.ok().clone();
    let code = codes.as_array().unwrap().iter().find(|c| c["paymentRequestType"] == "F5").unwrap()
        ["id"]
        .as_i64()
        .unwrap();
    app.create_user(&admin, APPROVER, &["Administrator"], PASSWORD).await;
    let (approver, _) = app.login(APPROVER, PASSWORD).await;
    let mut payee = person("Pat", "payee@example.org", "Mentor");
    payee["participations"] = json!([taking(program, fy, "Mentor")]);
    let r = app.post("/api/v1/participants", Some(&admin), payee).await;
    let payee = r.ok()["participations"][0]["id"].as_i64().unwrap();
    World { app, admin, approver, fy, next, program, fund, account, code, payee }
}

impl World {
    fn request_body(&self) -> Value {
        json!({"participationId": self.payee, "description": "Seminar", "requestedAmount": 100,
            "details": {"seminarDate": shifted("2026-10-01"), "topic": "Play", "hours": 3}})
    }

    fn approval(&self) -> Value {
        json!({"approvedAmount": 50, "approvalCodeId": self.code, "fundId": self.fund,
            "expenseAccountId": self.account, "acknowledgeWarnings": true})
    }

    async fn ok(&self, method: Method, path: &str, token: &str, body: Value) -> Value {
        let body = if body.is_null() { None } else { Some(body) };
        self.app.call(method, path, Some(token), body).await.ok().clone()
    }

    /// A request in `status` (Draft, Submitted, Approved, Ready): its url and version.
    async fn request_in(&self, status: &str) -> Value {
        let r = self.ok(Method::POST, &format!("{PR}/F5"), &self.admin, self.request_body()).await;
        let url = format!("{PR}/F5/{}", r["id"]);
        let mut r = r;
        for (step, token, body) in [
            ("submit", &self.admin, json!({})),
            ("approve", &self.approver, self.approval()),
            ("move-to-ready-for-processing", &self.approver, json!({})),
        ]
        .into_iter()
        .take(match status {
            "Draft" => 0,
            "Submitted" => 1,
            "Approved" => 2,
            _ => 3,
        }) {
            r = self.ok(Method::POST, &format!("{url}/{step}"), token, body).await;
        }
        json!({"url": url, "version": r["version"]})
    }

    /// An F2 draft with one uploaded receipt: its url and the receipt's id.
    async fn draft_with_receipt(&self) -> Value {
        let file = self.app.uploaded(&self.admin, "receipt.pdf", "application/pdf", PDF).await;
        let body = json!({"participationId": self.payee, "description": "Books",
            "details": {"items": [{"date": shifted("2026-10-01"), "description": "Books", "amount": 12.5}], "fileIds": [file]}});
        let r = self.ok(Method::POST, &format!("{PR}/F2"), &self.admin, body).await;
        json!({"url": format!("{PR}/F2/{}", r["id"]), "fileId": file})
    }

    fn line(&self, amount: i64) -> Value {
        json!({"mentorProgramId": self.program, "fundId": self.fund, "expenseAccountId": self.account, "amount": amount})
    }

    async fn close(&self, year: i64, reason: &str) -> Reply {
        self.app
            .post(&format!("{FY}/{year}/close"), Some(&self.admin), json!({"reason": reason}))
            .await
    }

    async fn reopen(&self, year: i64, reason: &str) -> Reply {
        self.app
            .post(&format!("{FY}/{year}/reopen"), Some(&self.admin), json!({"reason": reason}))
            .await
    }

    async fn listed(&self, year: i64) -> Value {
        let list = self.app.get(FY, &self.admin).await.ok().clone();
        list.as_array().unwrap().iter().find(|y| y["id"] == year).unwrap().clone()
    }
}

#[actix_web::test]
async fn a_year_is_closed_and_reopened_with_a_reason_that_the_list_and_the_log_keep() {
    let w = world().await;
    let open = w.listed(w.fy).await;
    assert!(
        open["closedAt"].is_null() && open["closedBy"].is_null() && open["closeReason"].is_null()
    );

    let closed = w.close(w.fy, "  Books closed by the auditors  ").await;
    let closed = closed.ok();
    assert_eq!(closed["closeReason"], "Books closed by the auditors");
    assert_eq!(closed["closedBy"]["email"], ADMIN_EMAIL);
    assert!(closed["closedAt"].is_string());
    let listed = w.listed(w.fy).await;
    assert_eq!(listed["closeReason"], "Books closed by the auditors");
    assert_eq!(listed["closedBy"]["email"], ADMIN_EMAIL);
    // The budget screen reads the year from the budget too.
    let budget = w.app.get(&format!("/api/v1/budgets/{}", w.fy), &w.admin).await;
    assert_eq!(budget.ok()["fiscalYear"]["closeReason"], "Books closed by the auditors");

    let again = w.close(w.fy, "twice").await;
    assert!(again.problem(409)["detail"]
        .as_str()
        .unwrap()
        .contains(&format!("{} is already closed", shifted_fy("FY 2026-27"))));
    let reopened = w.reopen(w.fy, "A late invoice").await;
    let reopened = reopened.ok();
    assert!(reopened["closedAt"].is_null() && reopened["closedBy"].is_null());
    assert!(reopened["closeReason"].is_null());
    let again = w.reopen(w.fy, "twice").await;
    assert!(again.problem(409)["detail"]
        .as_str()
        .unwrap()
        .contains(&format!("{} is not closed", shifted_fy("FY 2026-27"))));

    // Bad input changes nothing.
    assert_eq!(w.close(w.fy, "   ").await.invalid()["errors"]["reason"][0], "is required");
    let no_reason = w.app.post(&format!("{FY}/{}/close", w.fy), Some(&w.admin), json!({})).await;
    no_reason.invalid();
    w.close(9999, "none such").await.problem(404);
    assert!(w.listed(w.fy).await["closedAt"].is_null());

    // setting:edit only.
    let coord = w
        .app
        .coordinator_of(&w.admin, "cora@example.org", "coordinator pw 1", w.program, w.fy)
        .await;
    let r =
        w.app.post(&format!("{FY}/{}/close", w.fy), Some(&coord), json!({"reason": "mine"})).await;
    r.problem(403);

    // Both events are in the activity log, with their reasons.
    use mentorpay::entities::activity_log;
    use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder};
    let entries = activity_log::Entity::find()
        .filter(activity_log::Column::EntityType.eq("fiscal-year"))
        .filter(activity_log::Column::EntityId.eq(w.fy as i32))
        .order_by_asc(activity_log::Column::Id)
        .all(&w.app.state.db)
        .await
        .unwrap();
    let seen: Vec<(String, Option<String>)> =
        entries.into_iter().map(|e| (e.action, e.comment)).collect();
    assert_eq!(
        seen,
        [
            ("fiscal-year-closed".into(), Some("Books closed by the auditors".into())),
            ("fiscal-year-reopened".into(), Some("A late invoice".into())),
        ]
    );

    // And in the audit trail as its readers see it, newest first: who, the state it left and
    // the one it took, and why. The refused attempts above left nothing there.
    let trail = w
        .app
        .get(
            &format!("/api/v1/audit-log?EntityType=fiscal-year&EntityId={}&Size=50", w.fy),
            &w.admin,
        )
        .await;
    let moves: Vec<Value> = trail.ok()["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["action"].as_str().is_some_and(|a| a.starts_with("fiscal-year-")))
        .map(|e| {
            let (before, after) = (&e["before"], &e["after"]);
            json!([
                e["action"],
                e["actor"]["email"],
                before["status"],
                after["status"],
                after["reason"]
            ])
        })
        .collect();
    assert_eq!(
        moves,
        [
            json!(["fiscal-year-reopened", ADMIN_EMAIL, "Closed", "Open", "A late invoice"]),
            json!([
                "fiscal-year-closed",
                ADMIN_EMAIL,
                "Open",
                "Closed",
                "Books closed by the auditors"
            ]),
        ]
    );
}

/// One write route that could charge a year: made ready while the year is open, called
/// while it is closed (a 409 naming the year, nothing changed), called again once reopened.
struct Charge {
    name: &'static str,
    /// The year's name the refusal must name.
    year: String,
    method: Method,
    path: String,
    approver: bool,
    body: Value,
}

#[actix_web::test]
async fn a_closed_year_refuses_every_way_of_charging_it_and_takes_them_again_once_reopened() {
    let w = world().await;
    let detail = w
        .ok(
            Method::PUT,
            "/api/v1/budgets/bulk-update",
            &w.admin,
            json!({"fiscalYearId": w.fy, "lines": [w.line(1000)]}),
        )
        .await;
    let line = &detail["lines"][0];
    let draft = w.request_in("Draft").await;
    let to_edit = w.request_in("Draft").await;
    let submitted = w.request_in("Submitted").await;
    let approved = w.request_in("Approved").await;
    let with_receipt = w.draft_with_receipt().await;
    let s = |v: &Value| v.as_str().unwrap().to_owned();
    let mut edit = w.request_body();
    edit["requestedAmount"] = json!(120);
    edit["version"] = to_edit["version"].clone();
    let table = vec![
        Charge {
            name: "create a request",
            year: shifted_fy("FY 2026-27"),
            method: Method::POST,
            path: format!("{PR}/F5"),
            approver: false,
            body: w.request_body(),
        },
        Charge {
            name: "edit a request",
            year: shifted_fy("FY 2026-27"),
            method: Method::PUT,
            path: s(&to_edit["url"]),
            approver: false,
            body: edit,
        },
        Charge {
            name: "take a receipt off a request",
            year: shifted_fy("FY 2026-27"),
            method: Method::DELETE,
            path: format!("{}/files/{}", s(&with_receipt["url"]), s(&with_receipt["fileId"])),
            approver: false,
            body: Value::Null,
        },
        Charge {
            name: "submit a request",
            year: shifted_fy("FY 2026-27"),
            method: Method::POST,
            path: format!("{}/submit", s(&draft["url"])),
            approver: false,
            body: json!({}),
        },
        Charge {
            name: "approve a request",
            year: shifted_fy("FY 2026-27"),
            method: Method::POST,
            path: format!("{}/approve", s(&submitted["url"])),
            approver: true,
            body: w.approval(),
        },
        Charge {
            name: "move an approval back",
            year: shifted_fy("FY 2026-27"),
            method: Method::POST,
            path: format!("{}/move-back-to-submitted", s(&approved["url"])),
            approver: true,
            body: json!({}),
        },
        Charge {
            name: "change one budget line",
            year: shifted_fy("FY 2026-27"),
            method: Method::PUT,
            path: format!("/api/v1/budgets/{}", line["id"]),
            approver: false,
            body: json!({"amount": 2000}),
        },
        Charge {
            name: "change the budget in bulk",
            year: shifted_fy("FY 2026-27"),
            method: Method::PUT,
            path: "/api/v1/budgets/bulk-update".into(),
            approver: false,
            body: json!({"fiscalYearId": w.fy, "lines": [w.line(3000)]}),
        },
        Charge {
            name: "copy a budget into the year",
            year: shifted_fy("FY 2027-28"),
            method: Method::POST,
            path: format!("/api/v1/budgets/{}/copy-from/{}", w.next, w.fy),
            approver: false,
            body: json!({"percentChange": 0}),
        },
    ];
    w.close(w.fy, "Year end").await.ok();
    w.close(w.next, "Not started").await.ok();
    let log_size = || async {
        use sea_orm::{EntityTrait, PaginatorTrait};
        mentorpay::entities::activity_log::Entity::find().count(&w.app.state.db).await.unwrap()
    };
    let before = log_size().await;
    for c in &table {
        let token = if c.approver { &w.approver } else { &w.admin };
        let body = (!c.body.is_null()).then(|| c.body.clone());
        let r = w.app.call(c.method.clone(), &c.path, Some(token), body).await;
        let problem = r.problem(409);
        let detail = problem["detail"].as_str().unwrap();
        assert!(
            detail.contains(&format!("The fiscal year {} is closed", c.year)),
            "{}: {detail}",
            c.name
        );
    }
    assert_eq!(log_size().await, before, "a refused charge writes nothing");
    let budget = w.app.get(&format!("/api/v1/budgets/{}", w.fy), &w.admin).await;
    assert_eq!(budget.ok()["lines"][0]["budgeted"], json!(1000.0));

    w.reopen(w.fy, "Late invoice").await.ok();
    w.reopen(w.next, "Planning").await.ok();
    for c in &table {
        let token = if c.approver { &w.approver } else { &w.admin };
        let body = (!c.body.is_null()).then(|| c.body.clone());
        let r = w.app.call(c.method.clone(), &c.path, Some(token), body).await;
        assert!(r.status.is_success(), "{} once reopened: {} {}", c.name, r.status, r.body);
    }
}

#[actix_web::test]
async fn a_closed_year_stays_readable_and_pays_out_what_was_released() {
    let w = world().await;
    let ready = w.request_in("Ready").await;
    let approved = w.request_in("Approved").await;
    w.close(w.fy, "Year end").await.ok();

    w.app.get(ready["url"].as_str().unwrap(), &w.admin).await.ok();
    w.app.get(&format!("/api/v1/budgets/{}", w.fy), &w.admin).await.ok();
    w.app.get("/api/v1/budgets", &w.admin).await.ok();
    w.app.get(&format!("{PR}?Page=1&Size=10"), &w.admin).await.ok();
    // An approved request moves on to be paid.
    let url = format!("{}/move-to-ready-for-processing", approved["url"].as_str().unwrap());
    w.app.post(&url, Some(&w.approver), json!({})).await.ok();
    // The vendor payment of the released requests is generated as before.
    let vp = "/api/v1/reports/vendor-payments";
    let preview = w.app.get(&format!("{vp}?FiscalYearId={}", w.fy), &w.admin).await;
    let preview = preview.ok().clone();
    assert_eq!(preview["totalCount"], 2);
    let (start, end) = (shifted("2026-07-01"), shifted("2027-06-30"));
    let body = json!({"fiscalYearId": w.fy, "startDate": start, "endDate": end,
        "expectedCount": preview["totalCount"], "expectedTotal": preview["totals"]["amount"]});
    let generated = w.app.post(vp, Some(&w.admin), body).await;
    assert!(generated.status.is_success(), "{} {}", generated.status, generated.body);
}

#[actix_web::test]
async fn a_budget_rolls_over_into_an_empty_year_rounded_per_line() {
    let w = world().await;
    let funds = ids(&w.app, &w.admin, "/api/v1/funds").await;
    let lines: Vec<Value> = [0.5, 0.5, 1000.0]
        .iter()
        .zip(&funds)
        .map(|(amount, fund)| json!({"mentorProgramId": w.program, "fundId": fund, "expenseAccountId": w.account, "amount": amount}))
        .collect();
    assert_eq!(lines.len(), 3, "three funds seeded");
    let bulk = json!({"fiscalYearId": w.fy, "lines": lines});
    w.ok(Method::PUT, "/api/v1/budgets/bulk-update", &w.admin, bulk).await;
    let copy = |target: i64, source: i64, body: Value| {
        let path = format!("/api/v1/budgets/{target}/copy-from/{source}");
        let app = &w.app;
        let admin = w.admin.clone();
        async move { app.post(&path, Some(&admin), body).await }
    };

    // Bad input first: nothing is written.
    copy(w.next, w.fy, json!({"percentChange": -100.01})).await.invalid();
    copy(w.next, w.fy, json!({"percentChange": 1.234})).await.invalid();
    copy(w.next, w.fy, json!({"percentChange": "5"})).await.invalid();
    copy(w.next, w.fy, json!({})).await.invalid();
    copy(w.next, 9999, json!({"percentChange": 5})).await.problem(404);
    copy(9999, w.fy, json!({"percentChange": 5})).await.problem(404);
    copy(w.fy, w.fy, json!({"percentChange": 5})).await.invalid();
    let empty = w.app.get(&format!("/api/v1/budgets/{}", w.next), &w.admin).await;
    assert_eq!(empty.ok()["lines"], json!([]));

    // +5 %: $0.50 -> $0.525 -> $0.53 on each line (half away from zero), $1000 -> $1050.
    let r = copy(w.next, w.fy, json!({"percentChange": 5})).await;
    assert_eq!(r.ok(), &json!({"created": 3, "total": 1051.06}));
    let copied = w.app.get(&format!("/api/v1/budgets/{}", w.next), &w.admin).await.ok().clone();
    let mut amounts: Vec<f64> = copied["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["budgeted"].as_f64().unwrap())
        .collect();
    amounts.sort_by(f64::total_cmp);
    assert_eq!(amounts, [0.53, 0.53, 1050.0]);

    // The target has lines now: a second copy is refused and changes nothing.
    let again = copy(w.next, w.fy, json!({"percentChange": 0})).await;
    assert!(again.problem(409)["detail"]
        .as_str()
        .unwrap()
        .contains(&format!("{} already has budget lines", shifted_fy("FY 2027-28"))));

    // budget:edit only.
    let coord = w
        .app
        .coordinator_of(&w.admin, "cora@example.org", "coordinator pw 1", w.program, w.fy)
        .await;
    let third = w
        .app
        .post(
            FY,
            Some(&w.admin),
            json!({"name": shifted_fy("FY 2028-29"), "startDate": shifted("2028-07-01"), "endDate": shifted("2029-06-30")}),
        )
        .await;
    let third = third.ok()["id"].as_i64().unwrap();
    let path = format!("/api/v1/budgets/{third}/copy-from/{}", w.fy);
    let r = w.app.post(&path, Some(&coord), json!({"percentChange": 0})).await;
    r.problem(403);
}

#[actix_web::test]
async fn closing_shows_what_is_open_and_a_closed_years_requests_offer_only_what_it_takes() {
    let w = world().await;
    let name = Year::this().name;
    let submitted = w.request_in("Submitted").await;
    w.request_in("Submitted").await;
    let approved = w.request_in("Approved").await;
    w.request_in("Ready").await;
    let preview_path = format!("/api/v1/budgets/{}/close-preview", w.fy);

    // Before closing: what is still open, by status, and what closing does to each.
    let preview = w.app.get(&preview_path, &w.admin).await.ok().clone();
    assert_eq!(preview["closed"], false);
    assert_eq!(preview["openCount"], 4);
    let open: Vec<(String, String, i64)> = preview["open"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            assert!(o["afterClose"].as_str().unwrap().ends_with('.'), "{o}");
            (s(&o["formStatus"]), s(&o["label"]), o["count"].as_i64().unwrap())
        })
        .collect();
    let want = [
        ("Submitted", "Submitted", 2),
        ("Approved", "Approved", 1),
        ("ReadyForProcessing", "Ready for processing", 1),
    ];
    let want: Vec<(String, String, i64)> =
        want.iter().map(|(s, l, n)| (s.to_string(), l.to_string(), *n)).collect();
    assert_eq!(open, want);
    let summary = s(&preview["summary"]);
    assert!(
        summary.starts_with(&format!("4 requests charged to {name} are not paid yet")),
        "{summary}"
    );
    // Each count is a list the request list filters to: that year and that status.
    let listed = w
        .app
        .get(&format!("{PR}?FiscalYearId={}&FormStatus=Submitted", w.fy), &w.approver)
        .await
        .ok()
        .clone();
    assert_eq!(listed["totalCount"], 2);
    let other = w.app.get(&format!("{PR}?FiscalYearId={}", w.next), &w.admin).await;
    assert_eq!(other.ok()["totalCount"], 0);
    let page = w.app.get(s(&submitted["url"]).as_str(), &w.approver).await.ok().clone();
    assert!(actions(&page).contains(&"approve".to_owned()), "{page}");
    assert_eq!(page["closedYear"], Value::Null);

    w.close(w.fy, "Year end").await.ok();

    // A closed year's requests offer only what it takes, on their page and in the list, and
    // say why in words.
    let page = w.app.get(s(&submitted["url"]).as_str(), &w.approver).await.ok().clone();
    assert_eq!(actions(&page), ["moveToDraft", "sendForRevision"]);
    assert_eq!(page["closedYear"]["fiscalYearId"], w.fy);
    let message = s(&page["closedYear"]["message"]);
    assert!(message.contains(&format!("{name} is closed")), "{message}");
    let page = w.app.get(s(&approved["url"]).as_str(), &w.approver).await.ok().clone();
    assert_eq!(actions(&page), ["moveToReadyForProcessing"]);
    let listed = w
        .app
        .get(&format!("{PR}?FiscalYearId={}&FormStatus=Submitted,Approved", w.fy), &w.approver)
        .await
        .ok()
        .clone();
    let rows = listed["items"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    for row in rows {
        let a = actions(row);
        assert!(
            !a.iter().any(|a| ["approve", "edit", "moveBackToSubmitted"].contains(&a.as_str())),
            "{row}"
        );
    }

    // The approval check names the closed year as an error, before anyone clicks.
    let check = json!({"approvedAmount": 50, "approvalCodeId": w.code, "fundId": w.fund, "expenseAccountId": w.account});
    let v = w
        .app
        .post(&format!("{}/approve/validate", s(&submitted["url"])), Some(&w.approver), check)
        .await
        .ok()
        .clone();
    let closed = v["errors"].as_array().unwrap().iter().find(|e| e["code"] == "yearClosed");
    let closed = closed.unwrap_or_else(|| panic!("no yearClosed error: {v}"));
    assert_eq!(
        closed["message"],
        format!(
            "The fiscal year {name} is closed: no request can be approved in it. Reopen it first."
        )
    );
    let preview = w.app.get(&preview_path, &w.admin).await.ok().clone();
    assert_eq!(preview["closed"], true);

    // Only who may close the year asks; an unknown year is a 404.
    let coord = w
        .app
        .coordinator_of(&w.admin, "cora@example.org", "coordinator pw 1", w.program, w.fy)
        .await;
    w.app.get(&preview_path, &coord).await.problem(403);
    w.app.get("/api/v1/budgets/99999/close-preview", &w.admin).await.problem(404);

    // Reopened, approval is offered again.
    w.reopen(w.fy, "Late invoice").await.ok();
    let page = w.app.get(s(&submitted["url"]).as_str(), &w.approver).await.ok().clone();
    assert!(actions(&page).contains(&"approve".to_owned()), "{page}");
    assert_eq!(page["closedYear"], Value::Null);
}

fn s(v: &Value) -> String {
    v.as_str().unwrap_or_else(|| panic!("not text: {v}")).to_owned()
}

fn actions(request: &Value) -> Vec<String> {
    request["availableActions"].as_array().unwrap().iter().map(s).collect()
}
