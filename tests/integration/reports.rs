//! Reports on the real app and a real SQLite file: a known set of requests built through
//! the API (two programs, funds, accounts, form types, two fiscal years, an approval
//! moved back and approved again), then every report's rows and totals checked to the
//! cent in the view and in each export (CSV parsed, XLSX opened, PDF text extracted);
//! permission and coordinator scope on every report route; inert CSV formulas; dates
//! shifted by MinutesOffset.

use crate::common;
use crate::common::dates::{shifted, shifted_day};
use crate::support;

use std::{io::Cursor, process::Command};

use calamine::{Data, DataType, Reader, Xlsx};
use chrono::{Duration, NaiveDate};
use common::*;
use mentorpay::text::{day, moment};
use serde_json::{json, Value};

const PR: &str = "/api/v1/payment-requests";
const R: &str = "/api/v1/reports";
const APPROVER: &str = "approver@example.org";
const PASSWORD: &str = "approver pass 123";
const COORD_PW: &str = "coordinator pass 1";
const READER_PW: &str = "reader password 1";

pub(crate) struct World {
    pub(crate) app: TestApp,
    pub(crate) admin: String,
    pub(crate) approver: String,
    pub(crate) coord: String,
    /// Holds only `report:read`.
    pub(crate) reader: String,
    /// The fiscal year covering today, and the one before.
    pub(crate) fy: i64,
    pub(crate) last_fy: i64,
    pub(crate) last_fy_day: NaiveDate,
    pub(crate) programs: Vec<i64>,
    pub(crate) funds: Vec<i64>,
    pub(crate) accounts: Vec<i64>,
    pub(crate) payee: i64,
    /// r1..r7 as described in `world()`.
    pub(crate) req: Vec<Value>,
    /// The day (UTC) r2 was approved at 03:30: the day before, in California.
    pub(crate) r2_day: NaiveDate,
}

async fn ids(app: &TestApp, token: &str, path: &str) -> Vec<i64> {
    let mut ids: Vec<i64> = app
        .get(path, token)
        .await
        .ok()
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_i64().unwrap())
        .collect();
    ids.sort();
    ids
}

fn person(first: &str, email: &str, role: &str) -> Value {
    json!({
        "firstName": first, "lastName": "Payee", "email": email, "status": "Active", "roleCode": role,
        "districtSetType": "Assembly", "districtId": 7, "caucusRegionId": 1,
        "workplaceSettingIds": [1], "languageIds": [1], "educationLevelIds": [3], "permitLevelIds": [2],
    })
}

fn taking(program: i64, fy: i64, role: &str) -> Value {
    json!({"mentorProgramId": program, "fiscalYearId": fy, "roleCode": role, "collegeId": 1, "startDate": shifted("2020-01-01")})
}

fn details(form: &str, fy: i64) -> Value {
    match form {
        "F1" => {
            json!({"collegeId": 1, "menteeName": "Ana", "courseCode": "CD 101", "placementStartDate": shifted("2025-09-01"), "placementEndDate": shifted("2025-12-15"), "hours": 12.5})
        }
        "F2" => {
            json!({"items": [{"date": shifted("2025-10-01"), "description": "Books", "amount": 12.34}], "fileIds": []})
        }
        // 22.5 miles × $0.70 = 15.75
        "F3" => {
            json!({"travelPurposeId": 1, "transitTypeId": 2, "trips": [{"date": shifted("2025-10-01"), "from": "Fresno", "to": "Clovis", "miles": 12.5}, {"date": shifted("2025-10-02"), "from": "Clovis", "to": "Fresno", "miles": 10}]})
        }
        "F4" => {
            json!({"trainingTypeId": 1, "institutionId": 1, "title": "Infant care", "startDate": shifted("2025-10-01"), "endDate": shifted("2025-10-02"), "hours": 8, "fee": 150})
        }
        "F5" => json!({"seminarDate": shifted("2025-10-01"), "topic": "Play", "hours": 3}),
        "F9" => {
            json!({"vendorName": "Acme Books", "vendorAddress": "1 Main St", "invoiceNumber": "INV-7", "invoiceDate": shifted("2025-10-01"), "amount": 420.5})
        }
        "F14" => {
            json!({"bonusType": "Completion", "fiscalYearId": fy, "reason": "Completed the year"})
        }
        _ => unreachable!(),
    }
}

pub(crate) async fn create(w: &World, form: &str, participation: i64, description: &str) -> Value {
    let mut b = json!({"participationId": participation, "description": description, "details": details(form, w.fy)});
    if !matches!(form, "F2" | "F3" | "F9") {
        b["requestedAmount"] = json!(100);
    }
    let r = w.app.post(&format!("{PR}/{form}"), Some(&w.admin), b).await;
    assert_eq!(r.status, 201, "{form}: {}", r.body);
    r.body
}

pub(crate) async fn act(w: &World, token: &str, r: &Value, action: &str, body: Value) -> Value {
    let reply = w
        .app
        .post(
            &format!("{PR}/{}/{}/{action}", r["formType"].as_str().unwrap(), r["id"]),
            Some(token),
            body,
        )
        .await;
    reply.ok().clone()
}

async fn code(w: &World, form: &str) -> i64 {
    let codes = w.app.get("/api/v1/approval-codes", &w.admin).await.ok().clone();
    codes.as_array().unwrap().iter().find(|c| c["paymentRequestType"] == form).unwrap()["id"]
        .as_i64()
        .unwrap()
}

pub(crate) async fn approve(
    w: &World,
    r: &Value,
    amount: f64,
    fund: i64,
    account: i64,
    comment: &str,
) -> Value {
    let form = r["formType"].as_str().unwrap().to_owned();
    let body = json!({"approvedAmount": amount, "approvalCodeId": code(w, &form).await, "fundId": fund, "expenseAccountId": account,
        "comment": comment, "acknowledgeWarnings": true});
    act(w, &w.approver, r, "approve", body).await
}

pub(crate) async fn sql(w: &World, statement: &str) {
    use sea_orm::ConnectionTrait;
    w.app
        .state
        .db
        .execute_unprepared(statement)
        .await
        .unwrap_or_else(|e| panic!("{statement}: {e}"));
}

/// r1 F1 p0 approved 90.00 (f0, a0); r2 F3 p0 15.75 approved 15.75 (f0, a0) at 03:30 UTC of
/// r2_day; r3 F9 p1 approved 400.25, moved back, approved again 420.50 with a formula-like
/// comment (f1, a1); r4 F14 p1 approved 100.00 (f1, a0: no budget line); r5 F5 p0
/// submitted only; r6 F2 p0 draft; r7 F4 p0 approved 80.00 (f0, a0) in last year.
/// Budget this year: p0/f0/a0 1000.00, p1/f1/a1 500.00.
pub(crate) async fn world() -> World {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let today = mentorpay::clock::now().date_naive();
    let (start, end) = (today - Duration::days(120), today + Duration::days(200));
    let fy = app
        .post(
            "/api/v1/system-settings/fiscal-years",
            Some(&admin),
            json!({"name": "FY Current", "startDate": start, "endDate": end}),
        )
        .await
        .ok()["id"]
        .as_i64()
        .unwrap();
    let last_fy = app
        .post("/api/v1/system-settings/fiscal-years", Some(&admin), json!({"name": "FY Last", "startDate": start - Duration::days(365), "endDate": start - Duration::days(1)}))
        .await
        .ok()["id"]
        .as_i64()
        .unwrap();
    let programs = ids(&app, &admin, "/api/v1/mentor-programs").await;
    let funds = ids(&app, &admin, "/api/v1/funds").await;
    let accounts = ids(&app, &admin, "/api/v1/expense-accounts").await;
    assert!(programs.len() >= 2 && funds.len() >= 2 && accounts.len() >= 2);

    let mut pat = person("Pat", "pat@example.org", "Mentor");
    pat["participations"] =
        json!([taking(programs[0], fy, "Mentor"), taking(programs[1], fy, "Mentor")]);
    let r = app.post("/api/v1/participants", Some(&admin), pat).await;
    let payee = r.ok()["id"].as_i64().unwrap();
    let parts = r.body["participations"].as_array().unwrap().clone();
    let of = |program: i64| {
        parts.iter().find(|p| p["mentorProgramId"] == program).unwrap()["id"].as_i64().unwrap()
    };

    app.create_user(&admin, APPROVER, &["Administrator"], PASSWORD).await;
    let (approver, _) = app.login(APPROVER, PASSWORD).await;
    let coord = app.coordinator_of(&admin, "cora@example.org", COORD_PW, programs[0], fy).await;
    app.post(
        "/api/v1/identity/roles",
        Some(&admin),
        json!({"name": "Report reader", "permissions": ["report:read"]}),
    )
    .await
    .ok();
    app.create_user(&admin, "reader@example.org", &["Report reader"], READER_PW).await;
    let (reader, _) = app.login("reader@example.org", READER_PW).await;

    let lines = json!({"fiscalYearId": fy, "lines": [
        {"mentorProgramId": programs[0], "fundId": funds[0], "expenseAccountId": accounts[0], "amount": 1000},
        {"mentorProgramId": programs[1], "fundId": funds[1], "expenseAccountId": accounts[1], "amount": 500},
    ]});
    app.put("/api/v1/budgets/bulk-update", &admin, lines).await.ok();

    let mut w = World {
        app,
        admin,
        approver,
        coord,
        reader,
        fy,
        last_fy,
        last_fy_day: start - Duration::days(30),
        programs: programs.clone(),
        funds: funds.clone(),
        accounts: accounts.clone(),
        payee,
        req: vec![],
        r2_day: start + Duration::days(10),
    };
    let (p0, p1) = (of(programs[0]), of(programs[1]));
    let (f0, f1, a0, a1) = (funds[0], funds[1], accounts[0], accounts[1]);
    let admin = w.admin.clone();
    let submit = |r: Value| {
        let w = &w;
        let admin = admin.clone();
        async move { act(w, &admin, &r, "submit", json!({})).await }
    };
    let r1 = submit(create(&w, "F1", p0, "Placement").await).await;
    let r2 = submit(create(&w, "F3", p0, "Trips").await).await;
    let r3 = submit(create(&w, "F9", p1, "=1+2 invoice").await).await;
    let r4 = submit(create(&w, "F14", p1, "Bonus").await).await;
    let r5 = submit(create(&w, "F5", p0, "Seminar").await).await;
    let r6 = create(&w, "F2", p0, "Books").await;
    let r7 = submit(create(&w, "F4", p0, "Training").await).await;
    let r1 = approve(&w, &r1, 90.0, f0, a0, "ok").await;
    let r2 = approve(&w, &r2, 15.75, f0, a0, "").await;
    let r3 = approve(&w, &r3, 400.25, f1, a1, "first").await;
    let r3 = act(&w, &w.approver, &r3, "move-back-to-submitted", json!({})).await;
    let r3 = approve(&w, &r3, 420.5, f1, a1, "=SUM(A1:A9)").await;
    let r4 = approve(&w, &r4, 100.0, f1, a0, "@bonus").await;
    let r7 = approve(&w, &r7, 80.0, f0, a0, "last year").await;
    // r7 belongs to last year; r2 was approved at 03:30 UTC on r2_day.
    let (id2, id7) = (r2["id"].as_i64().unwrap(), r7["id"].as_i64().unwrap());
    let day = w.last_fy_day;
    let at7 = format!("{day}T18:00:00+00:00");
    sql(&w, &format!("UPDATE payment_requests SET fiscal_year_id = {}, submitted_on = '{}', approved_at = '{at7}' WHERE id = {id7}", w.last_fy, day - Duration::days(3))).await;
    sql(&w, &format!("UPDATE request_approvals SET fiscal_year_id = {}, approved_at = '{at7}' WHERE payment_request_id = {id7}", w.last_fy)).await;
    let at2 = format!("{}T03:30:00+00:00", w.r2_day);
    sql(&w, &format!("UPDATE payment_requests SET approved_at = '{at2}' WHERE id = {id2}")).await;
    sql(
        &w,
        &format!(
            "UPDATE request_approvals SET approved_at = '{at2}' WHERE payment_request_id = {id2}"
        ),
    )
    .await;
    w.req = vec![r1, r2, r3, r4, r5, r6, r7];
    w
}

fn money(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

async fn view(w: &World, token: &str, path: &str) -> Value {
    w.app.get(&format!("{R}/{path}"), token).await.ok().clone()
}

/// Status, headers and raw bytes of an export.
async fn download(w: &World, token: &str, path: &str) -> (u16, String, Vec<u8>) {
    let res = w
        .app
        .client
        .get(format!("{}{R}/{path}", w.app.base))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    let status = res.status().as_u16();
    let disposition = res
        .headers()
        .get("content-disposition")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    (status, disposition, res.bytes().await.unwrap().to_vec())
}

pub fn csv_rows(bytes: &[u8]) -> (Vec<String>, Vec<Vec<String>>) {
    assert!(bytes.starts_with(b"\xEF\xBB\xBF"), "CSV starts with a BOM");
    let mut reader = csv::ReaderBuilder::new().from_reader(&bytes[3..]);
    let headers = reader.headers().unwrap().iter().map(str::to_owned).collect();
    let rows = reader.records().map(|r| r.unwrap().iter().map(str::to_owned).collect()).collect();
    (headers, rows)
}

fn column(headers: &[String], name: &str) -> usize {
    headers
        .iter()
        .position(|h| h == name)
        .unwrap_or_else(|| panic!("no column {name} in {headers:?}"))
}

/// The number of a request as files name it ("F9 #12" -> 12); the shape is checked.
fn request_number(text: &str) -> i64 {
    let (form, number) = text.split_once(" #").unwrap_or_else(|| panic!("not \"F2 #601\": {text}"));
    assert!(mentorpay::forms::FormType::parse(form).is_some(), "not a form: {text}");
    number.parse().unwrap_or_else(|_| panic!("not \"F2 #601\": {text}"))
}

fn cents(text: &str) -> i64 {
    if text.is_empty() {
        return 0;
    }
    (text.parse::<f64>().unwrap_or_else(|_| panic!("not money: {text}")) * 100.0).round() as i64
}

pub fn sheet(bytes: &[u8]) -> Vec<Vec<Data>> {
    let mut book: Xlsx<_> = Xlsx::new(Cursor::new(bytes.to_vec())).expect("an XLSX file");
    let range = book.worksheet_range_at(0).expect("one sheet").expect("readable");
    range.rows().map(|r| r.to_vec()).collect()
}

pub fn pdf_text(bytes: &[u8]) -> String {
    assert!(bytes.starts_with(b"%PDF-"), "a PDF");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("report.pdf");
    std::fs::write(&path, bytes).unwrap();
    let out = Command::new("pdftotext")
        .args(["-layout", path.to_str().unwrap(), "-"])
        .output()
        .expect("pdftotext (poppler-utils) is installed");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// The same report as CSV, XLSX and PDF: rows, a known total, file names.
async fn check_exports(
    w: &World,
    path: &str,
    query: &str,
    stem: &str,
    rows: usize,
    money_header: &str,
    total_cents: i64,
) {
    let sep = if query.is_empty() { "" } else { "&" };
    let today = mentorpay::clock::now().date_naive();
    let (status, disposition, bytes) =
        download(w, &w.admin, &format!("{path}/retrieve?ReportFormat=Csv{sep}{query}")).await;
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&bytes));
    assert_eq!(disposition, format!("attachment; filename=\"{stem}-{today}.csv\""));
    let (headers, data) = csv_rows(&bytes);
    assert_eq!(data.len(), rows, "{path} CSV rows: {data:?}");
    let i = column(&headers, money_header);
    assert_eq!(
        data.iter().map(|r| cents(&r[i])).sum::<i64>(),
        total_cents,
        "{path} CSV {money_header}"
    );

    let (status, disposition, bytes) =
        download(w, &w.admin, &format!("{path}/retrieve?ReportFormat=xlsx{sep}{query}")).await;
    assert_eq!(status, 200);
    assert!(disposition.ends_with(&format!("{stem}-{today}.xlsx\"")), "{disposition}");
    let table = sheet(&bytes);
    assert_eq!(table.len(), rows + 2, "{path} XLSX: header, {rows} rows, totals");
    let i = table[0].iter().position(|h| *h == money_header).unwrap();
    let data_sum: f64 = table[1..=rows].iter().map(|r| r[i].get_float().unwrap_or(0.0)).sum();
    assert_eq!((data_sum * 100.0).round() as i64, total_cents, "{path} XLSX cells are numbers");
    assert_eq!(
        ((table[rows + 1][i].get_float().unwrap()) * 100.0).round() as i64,
        total_cents,
        "{path} XLSX totals row"
    );

    let (status, disposition, bytes) =
        download(w, &w.admin, &format!("{path}/retrieve?ReportFormat=PDF{sep}{query}")).await;
    assert_eq!(status, 200);
    assert!(disposition.ends_with(&format!("{stem}-{today}.pdf\"")), "{disposition}");
    let text = pdf_text(&bytes);
    let total = mentorpay::money::Money(total_cents).dollars();
    assert!(text.contains(&total), "{path} PDF shows the total {total}:\n{text}");
    assert!(!text.contains('…'), "{path} PDF cuts no cell:\n{text}");
    assert!(
        text.contains("Page 1 of 1") && text.contains("Generated") && text.contains(money_header),
        "{text}"
    );
}

#[actix_web::test]
async fn every_report_agrees_with_the_requests_to_the_cent() {
    let w = world().await;
    let (fy, p0, p1) = (w.fy, w.programs[0], w.programs[1]);

    // Reimbursements: five charged requests (r3 counted once, at its second approval).
    // Rows of two fiscal years (r7 is last year's): no totals, amounts of different years are
    // never added.
    let v = view(&w, &w.admin, "mentor-program-reimbursements").await;
    assert_eq!(v["totalCount"], 5, "{v}");
    assert_eq!(v["totals"], json!({}), "{v}");
    let v = view(&w, &w.admin, &format!("mentor-program-reimbursements?FiscalYearId={fy}&SortBy=approvedAmount&SortDescending=true&Size=2")).await;
    assert_eq!(v["totalCount"], 4);
    assert_eq!(v["items"].as_array().unwrap().len(), 2, "paged");
    assert_eq!(money(&v["items"][0]["approvedAmount"]), 420.5);
    assert_eq!(v["items"][0]["formType"], "F9");
    let catalogue = w.app.get(R, &w.admin).await.ok().clone();
    let reimbursements = catalogue
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["key"] == "mentor-program-reimbursements")
        .unwrap()
        .clone();
    let form =
        reimbursements["columns"].as_array().unwrap().iter().find(|c| c["key"] == "formType");
    assert_eq!(form.unwrap()["labels"]["F9"], "F9 Vendor payment", "screens show the form's label");
    assert_eq!(v["items"][0]["payee"], "Pat Payee");
    assert_eq!(money(&v["totals"]["approvedAmount"]), 626.25, "totals over every page");
    let v =
        view(&w, &w.admin, &format!("mentor-program-reimbursements?MentorProgramId={p1}")).await;
    assert_eq!((v["totalCount"].as_i64(), money(&v["totals"]["approvedAmount"])), (Some(2), 520.5));
    check_exports(
        &w,
        "mentor-program-reimbursements",
        &format!("FiscalYearId={fy}"),
        "mentor-program-reimbursements",
        4,
        "Approved",
        62625,
    )
    .await;

    // All approvals: r3 twice, each with its own amount and code.
    let v = view(&w, &w.admin, "all-approvals").await;
    assert_eq!(v["totalCount"], 6, "{v}");
    assert_eq!(v["totals"], json!({}), "two fiscal years: no totals");
    let v = view(&w, &w.admin, "all-approvals?PaymentRequestType=F9").await;
    let amounts: Vec<f64> =
        v["items"].as_array().unwrap().iter().map(|r| money(&r["approvedAmount"])).collect();
    assert_eq!(amounts, [400.25, 420.5]);
    assert_eq!(v["items"][1]["comment"], "=SUM(A1:A9)");
    assert_eq!(v["items"][0]["formStatus"], "Approved");
    let v =
        view(&w, &w.admin, &format!("all-approvals?FiscalYearId={fy}&PayeeId={}", w.payee)).await;
    assert_eq!(
        (v["totalCount"].as_i64(), money(&v["totals"]["approvedAmount"])),
        (Some(5), 1026.5)
    );
    let f1_code = code(&w, "F1").await;
    let v = view(&w, &w.admin, &format!("all-approvals?ApprovalCodeId={f1_code}")).await;
    assert_eq!(v["totalCount"], 1);
    let this_year = format!("FiscalYearId={fy}");
    check_exports(&w, "all-approvals", &this_year, "all-approvals", 5, "Approved", 102650).await;
    let payees = view(&w, &w.admin, &format!("payee-list?FiscalYearId={fy}")).await;
    assert_eq!(payees, json!([{"id": w.payee, "fullName": "Pat Payee", "status": "Active"}]));

    // Approvals by accounts, this year.
    let v = view(
        &w,
        &w.admin,
        &format!("approvals-by-accounts?FiscalYearId={fy}&SortBy=approvedSum&SortDescending=true"),
    )
    .await;
    assert_eq!(v["totalCount"], 3, "{v}");
    let rows: Vec<(i64, i64, f64, f64, f64)> = v["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["fundId"].as_i64().unwrap(),
                r["expenseAccountId"].as_i64().unwrap(),
                money(&r["approvedSum"]),
                money(&r["budgeted"]),
                money(&r["remaining"]),
            )
        })
        .collect();
    let (f0, f1, a0, a1) = (w.funds[0], w.funds[1], w.accounts[0], w.accounts[1]);
    assert_eq!(
        rows,
        [
            (f1, a1, 420.5, 500.0, 79.5),
            (f0, a0, 105.75, 1000.0, 894.25),
            (f1, a0, 100.0, 0.0, -100.0)
        ]
    );
    assert_eq!(
        v["totals"],
        json!({"approvals": 4, "approvedSum": 626.25, "budgeted": 1500.00, "remaining": 873.75})
    );
    check_exports(
        &w,
        "approvals-by-accounts",
        &format!("FiscalYearId={fy}"),
        "approvals-by-accounts",
        3,
        "Approved",
        62625,
    )
    .await;

    // Approvals by request type: all fourteen forms.
    let v =
        view(&w, &w.admin, &format!("approvals-by-request-type?FiscalYearId={fy}&Size=20")).await;
    assert_eq!(v["totalCount"], 14);
    let f9 = v["items"].as_array().unwrap().iter().find(|r| r["formType"] == "F9").unwrap();
    assert_eq!(
        (f9["submitted"].as_i64(), f9["approved"].as_i64(), money(&f9["approvedSum"])),
        (Some(1), Some(1), 420.5)
    );
    let f5 = v["items"].as_array().unwrap().iter().find(|r| r["formType"] == "F5").unwrap();
    assert_eq!(
        (f5["submitted"].as_i64(), f5["approved"].as_i64(), f5["averageApproved"].clone()),
        (Some(1), Some(0), Value::Null)
    );
    assert_eq!(v["totals"]["submitted"], 5);
    assert_eq!(v["totals"]["approved"], 4);
    assert_eq!(money(&v["totals"]["approvedSum"]), 626.25);
    assert_eq!(money(&v["totals"]["averageApproved"]), 156.56);
    check_exports(
        &w,
        "approvals-by-request-type",
        &format!("FiscalYearId={fy}"),
        "approvals-by-request-type",
        14,
        "Approved amount",
        62625,
    )
    .await;

    // Actual vs budget.
    let v = view(&w, &w.admin, &format!("actual-vs-budget?FiscalYearId={fy}")).await;
    assert_eq!(v["totalCount"], 3, "{v}");
    assert_eq!(
        v["totals"],
        json!({"budgeted": 1500.00, "actual": 626.25, "remaining": 873.75, "percentUsed": 41.8})
    );
    let p0_line =
        v["items"].as_array().unwrap().iter().find(|r| r["mentorProgramId"] == p0).unwrap();
    assert_eq!((money(&p0_line["actual"]), money(&p0_line["percentUsed"])), (105.75, 10.6));
    let unbudgeted = v["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["expenseAccountId"] == a0 && r["fundId"] == f1)
        .unwrap();
    assert_eq!(
        (money(&unbudgeted["budgeted"]), unbudgeted["percentUsed"].clone()),
        (0.0, Value::Null)
    );
    let v = view(&w, &w.admin, &format!("actual-vs-budget?FiscalYearId={fy}&FundId={f0}")).await;
    assert_eq!(v["totalCount"], 1);
    check_exports(
        &w,
        "actual-vs-budget",
        &format!("FiscalYearId={fy}"),
        "actual-vs-budget",
        3,
        "Actual",
        62625,
    )
    .await;

    // Last year holds r7 only.
    let v =
        view(&w, &w.admin, &format!("mentor-program-reimbursements?FiscalYearId={}", w.last_fy))
            .await;
    assert_eq!((v["totalCount"].as_i64(), money(&v["totals"]["approvedAmount"])), (Some(1), 80.0));

    // Bonuses.
    let list = view(&w, &w.admin, "bonuses/list").await;
    assert_eq!(
        list,
        json!([{"fiscalYearId": fy, "fiscalYear": "FY Current", "bonuses": 1, "approved": 1, "approvedSum": 100.00}])
    );
    let (status, disposition, bytes) =
        download(&w, &w.admin, &format!("bonuses/{fy}/Csv/retrieve")).await;
    assert_eq!(status, 200);
    assert!(disposition.contains("historical-bonuses-FY-Current-"), "{disposition}");
    let (headers, data) = csv_rows(&bytes);
    assert_eq!(data.len(), 1);
    assert_eq!(data[0][column(&headers, "Bonus type")], "Completion");
    assert_eq!(data[0][column(&headers, "Approved")], "100.00");
    let (_, _, bytes) = download(&w, &w.admin, &format!("bonuses/{fy}/Xlsx/retrieve")).await;
    assert_eq!(sheet(&bytes).len(), 3);
    let text = pdf_text(&download(&w, &w.admin, &format!("bonuses/{fy}/Pdf/retrieve")).await.2);
    assert!(text.contains("Completed the year") && text.contains("100.00"), "{text}");
    assert_eq!(download(&w, &w.admin, "bonuses/999/Csv/retrieve").await.0, 404);

    // One form type with its details as columns; formulas inert in CSV.
    let (status, disposition, bytes) =
        download(&w, &w.admin, "payment-requests/F9/Csv/retrieve?MinutesOffset=0").await;
    assert_eq!(status, 200);
    assert!(disposition.contains("payment-requests-F9-"), "{disposition}");
    let (headers, data) = csv_rows(&bytes);
    assert_eq!(data.len(), 1);
    assert_eq!(data[0][column(&headers, "Vendor name")], "Acme Books");
    assert_eq!(data[0][column(&headers, "Amount")], "420.50");
    assert_eq!(data[0][column(&headers, "Description")], "'=1+2 invoice", "formula made inert");
    let (_, _, bytes) = download(&w, &w.admin, "payment-requests/F3/Xlsx/retrieve").await;
    let table = sheet(&bytes);
    let trips = table[0].iter().position(|h| *h == "Trips").unwrap();
    assert_eq!(
        table[1][trips].to_string(),
        format!(
            "{} Fresno to Clovis 12.50 mi\n{} Clovis to Fresno 10.00 mi",
            day(shifted_day("2025-10-01")),
            day(shifted_day("2025-10-02"))
        )
    );
    let purpose = table[0].iter().position(|h| *h == "Travel purpose").unwrap();
    assert!(
        !table[1][purpose].to_string().is_empty()
            && !table[1][purpose].to_string().starts_with('#'),
        "a name, not an id"
    );
    let text = pdf_text(&download(&w, &w.admin, "payment-requests/F1/Pdf/retrieve").await.2);
    assert!(text.contains("Placement") && text.contains("90.00"), "{text}");

    // The details list as a file: its filters and sort flags.
    let (status, _, bytes) = download(&w, &w.admin, "payment-requests-details/retrieve?ReportFormat=Csv&FormType=F1,F9,F2&IsApprovedAmountSortedAscending=false").await;
    assert_eq!(status, 200);
    let (headers, data) = csv_rows(&bytes);
    let ids: Vec<String> = data.iter().map(|r| r[column(&headers, "Request")].clone()).collect();
    assert_eq!(ids.len(), 3);
    assert_eq!(
        data[0][column(&headers, "Approved")],
        "420.50",
        "sorted by approved amount, descending: {ids:?}"
    );
    let text = pdf_text(
        &download(
            &w,
            &w.admin,
            "payment-requests-details/retrieve?ReportFormat=Pdf&FormStatus=Submitted",
        )
        .await
        .2,
    );
    assert!(text.contains("Seminar"), "{text}");

    // Participants, with the export's own columns.
    let v = view(&w, &w.admin, &format!("participants?MentorProgramId={p1}")).await;
    assert_eq!(v["totalCount"], 1);
    assert_eq!(v["items"][0]["fullName"], "Pat Payee");
    assert!(v["items"][0]["mentorPrograms"].as_str().unwrap().contains("; "), "{v}");
    let (status, _, bytes) = download(&w, &w.admin, "participants/retrieve?ReportFormat=Csv&CustomColumnSetToInclude=email,fullName&RoleCode=Mentor").await;
    assert_eq!(status, 200);
    let (headers, data) = csv_rows(&bytes);
    assert_eq!(headers, ["E-mail", "Full name"]);
    assert_eq!(data, [["pat@example.org", "Pat Payee"]]);
    let emails = view(&w, &w.admin, "participants/emails").await;
    assert_eq!(emails.as_array().unwrap().len(), 2, "{emails}");
    assert_eq!(emails[1], json!({"fullName": "Pat Payee", "email": "pat@example.org"}));
}

/// A date window is counted from the approvals alone, each carrying copies of its request's
/// facts: a change to the request, by the API or by hand, moves them.
#[actix_web::test]
async fn a_window_of_approvals_follows_its_requests() {
    let w = world().await;
    let (from, to) = (
        w.last_fy_day - Duration::days(1),
        mentorpay::clock::now().date_naive() + Duration::days(1),
    );
    let window = format!("all-approvals?StartDate={from}&EndDate={to}");
    let count = |v: Value| v["totalCount"].as_i64().unwrap();
    assert_eq!(count(view(&w, &w.admin, &window).await), 6);
    // Actual vs budget sums a window per line: one day holds r2 alone.
    let d = w.r2_day;
    let one_day = format!("actual-vs-budget?FiscalYearId={}&StartDate={d}&EndDate={d}", w.fy);
    let v = view(&w, &w.admin, &one_day).await;
    assert_eq!((v["totalCount"].as_i64(), money(&v["totals"]["actual"])), (Some(2), 15.75), "{v}");
    let p1 = format!("{window}&MentorProgramId={}", w.programs[1]);
    assert_eq!(count(view(&w, &w.admin, &p1).await), 3, "r3 twice and r4");

    act(&w, &w.approver, &w.req[0], "move-back-to-submitted", json!({})).await;
    let v = view(&w, &w.admin, &format!("{window}&PaymentRequestType=F1")).await;
    assert_eq!(v["items"][0]["formStatus"], "Submitted", "{v}");

    let (r1, r3) = (w.req[0]["id"].as_i64().unwrap(), w.req[2]["id"].as_i64().unwrap());
    sql(
        &w,
        &format!("UPDATE payment_requests SET deleted_at = '{to}T00:00:00+00:00' WHERE id = {r3}"),
    )
    .await;
    assert_eq!(
        count(view(&w, &w.admin, &window).await),
        4,
        "a deleted request's approvals are gone"
    );
    assert_eq!(count(view(&w, &w.admin, &p1).await), 1);
    sql(
        &w,
        &format!(
            "UPDATE payment_requests SET mentor_program_id = {} WHERE id = {r1}",
            w.programs[1]
        ),
    )
    .await;
    assert_eq!(count(view(&w, &w.admin, &p1).await), 2, "r1's approval moved with it");
    let payees = view(&w, &w.admin, "payee-list").await;
    assert_eq!(payees.as_array().unwrap().len(), 1, "{payees}");
    support::totals_match_recount(&w.app.state.db).await.unwrap();
}

#[actix_web::test]
async fn minutes_offset_moves_the_days_and_the_printed_times() {
    let w = world().await;
    let day = w.r2_day;
    let before = day - Duration::days(1);
    // 03:30 UTC on `day` is 19:30 the day before in California (offset 480).
    let v = view(
        &w,
        &w.admin,
        &format!("all-approvals?StartDate={before}&EndDate={before}&MinutesOffset=480"),
    )
    .await;
    assert_eq!(v["totalCount"], 1, "{v}");
    assert_eq!(v["items"][0]["approvedAt"], format!("{day}T03:30:00Z"), "views stay in UTC");
    let v = view(&w, &w.admin, &format!("all-approvals?StartDate={before}&EndDate={before}")).await;
    assert_eq!(v["totalCount"], 0, "in UTC it is the next day");
    let v =
        view(&w, &w.admin, &format!("mentor-program-reimbursements?StartDate={day}&EndDate={day}"))
            .await;
    assert_eq!(v["totalCount"], 1);
    let (_, _, bytes) = download(&w, &w.admin, &format!("all-approvals/retrieve?ReportFormat=Csv&StartDate={before}&EndDate={before}&MinutesOffset=480")).await;
    let (headers, data) = csv_rows(&bytes);
    assert_eq!(
        data[0][column(&headers, "Approved at")],
        format!("{}, 7:30 PM", mentorpay::text::day(before))
    );
    // Formulas in free text are inert, numbers are not touched.
    let (_, _, bytes) =
        download(&w, &w.admin, "all-approvals/retrieve?ReportFormat=Csv&PaymentRequestType=F14")
            .await;
    let (headers, data) = csv_rows(&bytes);
    assert_eq!(data[0][column(&headers, "Comment")], "'@bonus");
    let (_, _, bytes) =
        download(&w, &w.admin, "all-approvals/retrieve?ReportFormat=Csv&PaymentRequestType=F9")
            .await;
    let (headers, data) = csv_rows(&bytes);
    assert_eq!(data[1][column(&headers, "Comment")], "'=SUM(A1:A9)");
    assert_eq!(data[1][column(&headers, "Approved")], "420.50");
    // XLSX holds real dates in local time.
    let (_, _, bytes) = download(&w, &w.admin, &format!("all-approvals/retrieve?ReportFormat=Xlsx&StartDate={before}&EndDate={before}&MinutesOffset=480")).await;
    let table = sheet(&bytes);
    let at = table[1][0].as_datetime().expect("a date cell");
    assert_eq!(at.format("%Y-%m-%d %H:%M").to_string(), format!("{before} 19:30"));

    // Bad input: a 400 naming the field, never a 500.
    for (path, field) in [
        ("all-approvals?MinutesOffset=9999", "MinutesOffset"),
        ("all-approvals?PaymentRequestType=F99", "PaymentRequestType"),
        ("participants?RoleCode=Boss", "RoleCode"),
        ("mentor-program-reimbursements?SortBy=password", "SortBy"),
        ("mentor-program-reimbursements?Size=501", "Size"),
        ("mentor-program-reimbursements/retrieve", "ReportFormat"),
        ("mentor-program-reimbursements/retrieve?ReportFormat=Docx", "ReportFormat"),
        (
            "participants/retrieve?ReportFormat=Csv&CustomColumnSetToInclude=email,secret",
            "CustomColumnSetToInclude",
        ),
        ("payment-requests/F1/Word/retrieve", "reportFormat"),
    ] {
        let r = w.app.get(&format!("{R}/{path}"), &w.admin).await;
        let body = r.problem(400);
        assert!(body["errors"].get(field).is_some(), "{path}: {body}");
    }
    assert_eq!(
        w.app.get(&format!("{R}/all-approvals?StartDate=yesterday"), &w.admin).await.status,
        400
    );
    assert_eq!(
        w.app.get(&format!("{R}/all-approvals?StartDate=1899-12-31"), &w.admin).await.status,
        400
    );
    // One parameter against another is a rule (422), not a shape.
    let r = w
        .app
        .get(&format!("{R}/all-approvals?StartDate=2026-02-01&EndDate=2026-01-01"), &w.admin)
        .await;
    assert!(r.problem(422)["errors"].get("EndDate").is_some(), "{}", r.body);
    assert_eq!(
        w.app.get(&format!("{R}/payment-requests/F99/Csv/retrieve"), &w.admin).await.status,
        404
    );
}

/// Every report route: (path, permission a Coordinator holds by default).
const ROUTES: [(&str, bool); 17] = [
    ("mentor-program-reimbursements", true),
    ("mentor-program-reimbursements/retrieve?ReportFormat=Csv", true),
    ("participants", true),
    ("participants/retrieve?ReportFormat=Csv", true),
    ("participants/emails", false),
    ("approvals-by-accounts", false),
    ("approvals-by-accounts/retrieve?ReportFormat=Csv", false),
    ("approvals-by-request-type", false),
    ("approvals-by-request-type/retrieve?ReportFormat=Csv", false),
    ("all-approvals", false),
    ("all-approvals/retrieve?ReportFormat=Csv", false),
    ("actual-vs-budget", false),
    ("actual-vs-budget/retrieve?ReportFormat=Csv", false),
    ("payee-list", false),
    ("bonuses/list", false),
    ("payment-requests/F1/Csv/retrieve", false),
    ("payment-requests-details/retrieve?ReportFormat=Csv", true),
];

#[actix_web::test]
async fn every_route_checks_its_permission_and_the_coordinator_scope() {
    let w = world().await;
    // The catalogue: cards for what each may read, nothing else.
    let keys = |v: &Value| {
        v.as_array()
            .unwrap()
            .iter()
            .map(|e| e["key"].as_str().unwrap().to_owned())
            .collect::<Vec<_>>()
    };
    let all = w.app.get(R, &w.admin).await.ok().clone();
    assert_eq!(keys(&all).len(), 9, "{all}"); // eight reports and vendor payments
    assert_eq!(all[0]["path"], "/api/v1/reports/mentor-program-reimbursements");
    assert!(all[0]["columns"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c["key"] == "approvedAt" && c["kind"] == "timestamp" && c["sortable"] == true));
    assert_eq!(
        keys(w.app.get(R, &w.coord).await.ok()),
        ["mentor-program-reimbursements", "participants"]
    );
    assert_eq!(w.app.get(R, &w.reader).await.ok(), &json!([]));
    w.app.get(R, &w.approver).await.ok();
    assert_eq!(w.app.call(reqwest::Method::GET, R, None, None).await.status, 401);

    let fy = w.fy;
    for (path, coordinator_may) in
        ROUTES.iter().copied().chain([(&*format!("bonuses/{fy}/Csv/retrieve"), false)])
    {
        let url = format!("{R}/{path}");
        let r = w.app.get(&url, &w.reader).await;
        r.problem(403);
        assert_eq!(w.app.call(reqwest::Method::GET, &url, None, None).await.status, 401, "{path}");
        let r = w.app.get(&url, &w.coord).await;
        if coordinator_may {
            assert_eq!(r.status, 200, "{path}: {}", r.body);
        } else {
            r.problem(403);
        }
        assert_eq!(w.app.get(&url, &w.admin).await.status, 200, "{path}");
    }

    // A Coordinator's rows are its programs' only (programs[0]: r1, r2, r7).
    let p1 = w.programs[1];
    let v = view(&w, &w.coord, "mentor-program-reimbursements").await;
    assert_eq!(v["totalCount"], 3);
    let v = view(&w, &w.coord, &format!("mentor-program-reimbursements?FiscalYearId={fy}")).await;
    assert_eq!(
        (v["totalCount"].as_i64(), money(&v["totals"]["approvedAmount"])),
        (Some(2), 105.75)
    );
    for path in [
        "mentor-program-reimbursements",
        "participants",
        "payment-requests-details/retrieve?ReportFormat=Csv&",
    ] {
        let sep = if path.ends_with('&') { "" } else { "?" };
        let url = format!("{R}/{path}{sep}MentorProgramId={p1}");
        let refused = w.app.get(&url, &w.coord).await;
        assert!(
            refused.problem(403)["detail"].as_str().unwrap().contains("outside your scope"),
            "{url}"
        );
    }
    let (_, _, bytes) =
        download(&w, &w.coord, "mentor-program-reimbursements/retrieve?ReportFormat=Csv").await;
    assert_eq!(csv_rows(&bytes).1.len(), 3);
    let (_, _, bytes) =
        download(&w, &w.coord, "payment-requests-details/retrieve?ReportFormat=Csv").await;
    let (headers, data) = csv_rows(&bytes);
    let p0_name = data[0][column(&headers, "Program")].clone();
    assert_eq!(data.len(), 5, "r1, r2, r5, r6, r7");
    assert!(data.iter().all(|r| r[column(&headers, "Program")] == p0_name));
    let v = view(&w, &w.coord, "participants").await;
    assert_eq!(v["totalCount"], 2, "Pat and Cora take part in programs[0]");
    // Pat takes part in both programs: the Coordinator reads only the one in her scope.
    let pat = v["items"].as_array().unwrap().iter().find(|i| i["fullName"] == "Pat Payee").unwrap();
    assert_eq!(pat["mentorPrograms"].as_str().unwrap(), p0_name, "{pat}");
    let (_, _, csv) = download(&w, &w.coord, "participants/retrieve?ReportFormat=Csv").await;
    let (headers, data) = csv_rows(&csv);
    let programs: Vec<&str> =
        data.iter().map(|r| r[column(&headers, "Mentor programs")].as_str()).collect();
    assert!(programs.iter().all(|p| *p == p0_name), "{programs:?}");

    // Granting a Coordinator more codes widens its reports, not its programs.
    let roles = w.app.get("/api/v1/identity/roles", &w.admin).await.ok().clone();
    let coordinator =
        roles.as_array().unwrap().iter().find(|r| r["name"] == "Coordinator").unwrap().clone();
    let mut permissions: Vec<Value> = coordinator["permissions"].as_array().unwrap().clone();
    for extra in [
        "report:readallapprovals",
        "report:readactualvsbudget",
        "report:readapprovalbyaccount",
        "report:readapprovalsbyrequesttype",
        "report:readhistoricalbonuses",
        "report:readpaymentrequestsbytype",
        "report:sendemail",
    ] {
        permissions.push(json!(extra));
    }
    w.app
        .put(
            &format!("/api/v1/identity/roles/{}", coordinator["id"]),
            &w.admin,
            json!({"name": "Coordinator", "permissions": permissions}),
        )
        .await
        .ok();
    let v = view(&w, &w.coord, &format!("all-approvals?FiscalYearId={fy}")).await;
    assert_eq!(
        (v["totalCount"].as_i64(), money(&v["totals"]["approvedAmount"])),
        (Some(2), 105.75)
    );
    let v = view(&w, &w.coord, &format!("actual-vs-budget?FiscalYearId={fy}")).await;
    assert_eq!(
        v["totals"],
        json!({"budgeted": 1000.00, "actual": 105.75, "remaining": 894.25, "percentUsed": 10.6})
    );
    let v = view(&w, &w.coord, &format!("approvals-by-accounts?FiscalYearId={fy}")).await;
    assert_eq!(v["totalCount"], 1);
    let v = view(&w, &w.coord, &format!("approvals-by-request-type?FiscalYearId={fy}")).await;
    assert_eq!(money(&v["totals"]["approvedSum"]), 105.75);
    assert_eq!(view(&w, &w.coord, "bonuses/list").await, json!([]), "the bonus is in programs[1]");
    let (_, _, bytes) = download(&w, &w.coord, "payment-requests/F9/Csv/retrieve").await;
    assert_eq!(csv_rows(&bytes).1.len(), 0);
    assert_eq!(
        view(&w, &w.coord, &format!("payee-list?FiscalYearId={fy}"))
            .await
            .as_array()
            .unwrap()
            .len(),
        1
    );
    assert_eq!(view(&w, &w.coord, "participants/emails").await.as_array().unwrap().len(), 2);
}

#[actix_web::test]
async fn the_openapi_document_lists_every_report_call() {
    let app = spawn().await;
    let doc = app.call(reqwest::Method::GET, "/api/v1/openapi.json", None, None).await;
    let paths = doc.ok()["paths"].as_object().unwrap().clone();
    for path in [
        "/api/v1/reports",
        "/api/v1/reports/mentor-program-reimbursements",
        "/api/v1/reports/mentor-program-reimbursements/retrieve",
        "/api/v1/reports/participants",
        "/api/v1/reports/participants/retrieve",
        "/api/v1/reports/participants/emails",
        "/api/v1/reports/approvals-by-accounts",
        "/api/v1/reports/approvals-by-accounts/retrieve",
        "/api/v1/reports/approvals-by-request-type",
        "/api/v1/reports/approvals-by-request-type/retrieve",
        "/api/v1/reports/all-approvals",
        "/api/v1/reports/all-approvals/retrieve",
        "/api/v1/reports/actual-vs-budget",
        "/api/v1/reports/actual-vs-budget/retrieve",
        "/api/v1/reports/payee-list",
        "/api/v1/reports/bonuses/list",
        "/api/v1/reports/bonuses/{fiscalYearId}/{reportFormat}/retrieve",
        "/api/v1/reports/payment-requests/{paymentRequestType}/{reportFormat}/retrieve",
        "/api/v1/reports/payment-requests-details/retrieve",
    ] {
        assert!(paths.get(path).and_then(|p| p.get("get")).is_some(), "{path} missing");
    }
    assert!(doc.body["components"]["schemas"].get("ReportPage").is_some());
}

/// On SQLite an export reads reference names (programs, funds, accounts, codes, colleges,
/// approvers) from their tables beside the rows instead of joining them per row
/// (`query::Named`): every export names, row for row, what the joined views name.
#[actix_web::test]
async fn exports_name_what_the_views_name() {
    let w = world().await;
    let text = |v: &Value| v.as_str().unwrap_or_default().to_owned();
    // The view's items and the CSV's rows, in the same order, compared cell by cell.
    let same_rows = |path: &'static str, pairs: &'static [(&'static str, &'static str)]| {
        let w = &w;
        async move {
            let items = view(w, &w.admin, &format!("{path}?Size=500")).await["items"]
                .as_array()
                .unwrap()
                .clone();
            let (headers, rows) = csv_rows(
                &download(w, &w.admin, &format!("{path}/retrieve?ReportFormat=Csv")).await.2,
            );
            assert_eq!(rows.len(), items.len(), "{path}");
            for (key, header) in pairs {
                let i = column(&headers, header);
                let named: Vec<String> = items.iter().map(|item| text(&item[*key])).collect();
                assert_eq!(
                    rows.iter().map(|r| r[i].clone()).collect::<Vec<_>>(),
                    named,
                    "{path}: {header}"
                );
                assert!(named.iter().any(|n| !n.is_empty()), "{path}: some {header} is named");
            }
            items
        }
    };
    let reimbursements = same_rows(
        "mentor-program-reimbursements",
        &[
            ("college", "College"),
            ("fund", "Fund"),
            ("expenseAccount", "Expense account"),
            ("approvalCode", "Approval code"),
        ],
    )
    .await;
    let approvals = same_rows(
        "all-approvals",
        &[
            ("approver", "Approver"),
            ("mentorProgram", "Program"),
            ("approvalCode", "Approval code"),
            ("fund", "Fund"),
            ("expenseAccount", "Expense account"),
        ],
    )
    .await;

    // The files without a view: by request id, the names the views gave.
    let by_request = |items: &[Value], key: &str| -> std::collections::HashMap<i64, String> {
        items.iter().map(|item| (item["requestId"].as_i64().unwrap(), text(&item[key]))).collect()
    };
    let program = by_request(&approvals, "mentorProgram");
    let fund = by_request(&reimbursements, "fund");
    let code = by_request(&reimbursements, "approvalCode");
    let check = |headers: &[String],
                 rows: &[Vec<String>],
                 header: &str,
                 names: &std::collections::HashMap<i64, String>| {
        let (id, i) = (column(headers, "Request"), column(headers, header));
        let checked = rows
            .iter()
            .filter_map(|r| {
                names
                    .get(&request_number(&r[id]))
                    .map(|name| assert_eq!(&r[i], name, "{header} of {}", r[id]))
            })
            .count();
        assert!(checked > 0, "{header}: some rows compared");
    };
    let (headers, rows) = csv_rows(
        &download(&w, &w.admin, "payment-requests-details/retrieve?ReportFormat=Csv").await.2,
    );
    check(&headers, &rows, "Program", &program);
    let mut forms: Vec<String> =
        reimbursements.iter().map(|item| text(&item["formType"])).collect();
    forms.dedup();
    for form in forms {
        let (headers, rows) = csv_rows(
            &download(&w, &w.admin, &format!("payment-requests/{form}/Csv/retrieve")).await.2,
        );
        check(&headers, &rows, "Program", &program);
        check(&headers, &rows, "Fund", &fund);
        check(&headers, &rows, "Approval code", &code);
    }
}

/// Every paged report, every sort key both ways, with and without all its filters, and
/// every export format: a 200 each time on whichever backend the suite runs (the reports
/// once answered 500 on PostgreSQL only). Numbers and ISO dates come back in order.
#[actix_web::test]
async fn every_sort_filter_and_format_answers_on_this_backend() {
    let w = world().await;
    let (fy, p0, f0) = (w.fy, w.programs[0], w.funds[0]);
    let f1_code = code(&w, "F1").await;
    let day = w.r2_day;
    let filter_value = |name: &str| -> String {
        match name {
            "MentorProgramId" => p0.to_string(),
            "FiscalYearId" => fy.to_string(),
            "FundId" => f0.to_string(),
            "ApprovalCodeId" => f1_code.to_string(),
            "PayeeId" => w.payee.to_string(),
            "DistrictId" => "7".into(),
            "CaucusRegionId" => "1".into(),
            "PaymentRequestType" => "F1".into(),
            "RoleCode" => "Mentor".into(),
            "StartDate" | "UpdatedAt" => (day - Duration::days(400)).to_string(),
            "EndDate" => (day + Duration::days(400)).to_string(),
            other => panic!("no test value for the filter {other}"),
        }
    };
    let catalogue = w.app.get(R, &w.admin).await.ok().clone();
    let paged = [
        "mentor-program-reimbursements",
        "participants",
        "approvals-by-accounts",
        "approvals-by-request-type",
        "all-approvals",
        "actual-vs-budget",
    ];
    let mut checked = 0;
    for entry in
        catalogue.as_array().unwrap().iter().filter(|e| paged.contains(&e["key"].as_str().unwrap()))
    {
        let key = entry["key"].as_str().unwrap();
        let filters: Vec<String> = entry["filters"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f.as_str().unwrap())
            .map(|f| format!("{f}={}", filter_value(f)))
            .collect();
        let all_filters = format!("{}&MinutesOffset=480", filters.join("&"));
        for column in entry["columns"].as_array().unwrap().iter().filter(|c| c["sortable"] == true)
        {
            let sort_key = column["key"].as_str().unwrap();
            for descending in [false, true] {
                for narrowed in ["", all_filters.as_str()] {
                    let path = format!(
                        "{key}?SortBy={sort_key}&SortDescending={descending}&Size=500&{narrowed}"
                    );
                    let v = view(&w, &w.admin, &path).await;
                    let items = v["items"].as_array().unwrap_or_else(|| panic!("{path}: {v}"));
                    assert!(v["totalCount"].as_u64().unwrap() >= items.len() as u64, "{path}: {v}");
                    let values: Vec<&Value> =
                        items.iter().map(|i| &i[sort_key]).filter(|v| !v.is_null()).collect();
                    let ordered = |a: &Value, b: &Value| match (a, b) {
                        (Value::Number(x), Value::Number(y)) => {
                            Some(x.as_f64().unwrap() <= y.as_f64().unwrap())
                        }
                        (Value::String(x), Value::String(y))
                            if NaiveDate::parse_from_str(&x[..x.len().min(10)], "%Y-%m-%d")
                                .is_ok() =>
                        {
                            Some(x <= y)
                        }
                        _ => None,
                    };
                    for pair in values.windows(2) {
                        let (a, b) =
                            if descending { (pair[1], pair[0]) } else { (pair[0], pair[1]) };
                        assert_ne!(ordered(a, b), Some(false), "{path}: {a} then {b}");
                    }
                    checked += 1;
                }
            }
        }
        // The participants export takes a column list: all of them.
        let columns: Vec<&str> = entry["columns"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["key"].as_str().unwrap())
            .collect();
        let picked = if key == "participants" {
            format!("&CustomColumnSetToInclude={}", columns.join(","))
        } else {
            String::new()
        };
        for format in ["Csv", "Xlsx", "Pdf"] {
            let (status, _, bytes) = download(
                &w,
                &w.admin,
                &format!("{key}/retrieve?ReportFormat={format}&{all_filters}{picked}"),
            )
            .await;
            assert_eq!(status, 200, "{key} {format}: {}", String::from_utf8_lossy(&bytes));
            assert!(!bytes.is_empty(), "{key} {format}");
        }
    }
    assert!(checked >= 6 * 2 * 2 * 2, "every report was swept ({checked} views)");

    for format in ["Csv", "Xlsx", "Pdf"] {
        let (status, _, _) =
            download(&w, &w.admin, &format!("bonuses/{fy}/{format}/retrieve?MinutesOffset=-330"))
                .await;
        assert_eq!(status, 200, "bonuses {format}");
        for flag in [
            "IsSubmittedOnSortedAscending",
            "IsPlacementEndDateSortedAscending",
            "IsApprovedAmountSortedAscending",
        ] {
            for ascending in [true, false] {
                let path = format!("payment-requests-details/retrieve?ReportFormat={format}&{flag}={ascending}&MentorProgramId={p0}&ApprovedStart={}&ApprovedEnd={}", day - Duration::days(400), day + Duration::days(400));
                let (status, _, bytes) = download(&w, &w.admin, &path).await;
                assert_eq!(status, 200, "{path}: {}", String::from_utf8_lossy(&bytes));
            }
        }
    }
    for form in 1..=14 {
        for format in ["Csv", "Xlsx", "Pdf"] {
            let (status, _, bytes) = download(
                &w,
                &w.admin,
                &format!("payment-requests/F{form}/{format}/retrieve?MinutesOffset=480"),
            )
            .await;
            assert_eq!(status, 200, "F{form} {format}: {}", String::from_utf8_lossy(&bytes));
        }
    }
}

/// The widest exports (a form with its details as columns, the participants export with
/// every column) print every date and time whole in the PDF, never cut with "…".
#[actix_web::test]
async fn wide_pdfs_print_dates_and_amounts_whole() {
    let w = world().await;
    let day = w.last_fy_day;
    let bytes = download(&w, &w.admin, "payment-requests/F4/Pdf/retrieve?MinutesOffset=0").await.2;
    let text = pdf_text(&bytes);
    // r7: training on last year's 1 and 2 October, submitted three days before its approval at 18:00 UTC.
    for whole in [
        &mentorpay::text::day(shifted_day("2025-10-01")),
        &mentorpay::text::day(shifted_day("2025-10-02")),
        &mentorpay::text::day(day - Duration::days(3)),
        &moment(day.and_hms_opt(18, 0, 0).unwrap()),
        "80.00",
        "150.00",
    ] {
        assert!(text.contains(whole), "the F4 PDF prints {whole} whole:\n{text}");
    }
    let today = mentorpay::text::day(mentorpay::clock::now().date_naive());
    assert!(text.matches(&today).count() >= 2, "created and updated times print whole:\n{text}");

    let catalogue = w.app.get(R, &w.admin).await.ok().clone();
    let participants =
        catalogue.as_array().unwrap().iter().find(|e| e["key"] == "participants").unwrap();
    let columns: Vec<&str> = participants["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["key"].as_str().unwrap())
        .collect();
    assert!(columns.len() >= 18, "{columns:?}");
    let path = format!(
        "participants/retrieve?ReportFormat=Pdf&CustomColumnSetToInclude={}",
        columns.join(",")
    );
    let text = pdf_text(&download(&w, &w.admin, &path).await.2);
    assert!(
        text.matches(&today).count() >= 4,
        "both participants' created and updated times print whole:\n{text}"
    );
    for line in text.lines().filter(|l| l.contains(&today)) {
        assert!(
            !line.contains(&format!("{today}…")) && !line.contains(&format!("{}…", &today[..8])),
            "{line}"
        );
    }
}

/// Approvals by request type and actual vs budget read kept totals (migration 000142)
/// without a date window; a window wider than every request makes actual vs budget and
/// the row reports read the requests, and the two approvals reports their window figures
/// (`reports_windows` compares those with grouping the requests). Both must say the same,
/// for every whole-hour zone (r2's 03:30 UTC approval is the day before west of UTC), filter
/// and scope, before and after requests move.
#[actix_web::test]
async fn kept_report_totals_agree_with_grouping_the_requests() {
    let w = world().await;
    let (fy, p0, f0) = (w.fy, w.programs[0], w.funds[0]);
    let compare = |label: &'static str| {
        let w = &w;
        async move {
            let filters = [
                String::new(),
                format!("FiscalYearId={fy}&"),
                format!("FiscalYearId={}&", w.last_fy),
                format!("MentorProgramId={p0}&"),
                format!("FundId={f0}&"),
            ];
            for (token, who) in [(&w.admin, "admin"), (&w.coord, "coordinator")] {
                for filter in &filters {
                    for report in [
                        "approvals-by-request-type",
                        "actual-vs-budget",
                        "approvals-by-accounts",
                        "mentor-program-reimbursements",
                        "all-approvals",
                    ] {
                        if token == &w.coord && report == "approvals-by-request-type" {
                            continue; // not a Coordinator's report by default
                        }
                        for offset in [0, 480, -60, 840, -840] {
                            let kept = format!("{report}?{filter}MinutesOffset={offset}&Size=50");
                            let grouped = format!("{kept}&StartDate=1900-01-01&EndDate=2100-12-31");
                            let (k, g) = (
                                w.app.get(&format!("{R}/{kept}"), token).await,
                                w.app.get(&format!("{R}/{grouped}"), token).await,
                            );
                            if token == &w.coord && k.status == 403 {
                                continue;
                            }
                            assert_eq!(k.ok(), g.ok(), "{label}, {who}: {kept}");
                        }
                    }
                }
            }
        }
    };
    compare("as built").await;
    // The zone matters here: r2 counts -1 day west of UTC, 0 in UTC.
    let days = |offset: i32| {
        let w = &w;
        async move {
            let v = view(
                w,
                &w.admin,
                &format!(
                    "approvals-by-request-type?FiscalYearId={fy}&MinutesOffset={offset}&Size=20"
                ),
            )
            .await;
            v["items"].as_array().unwrap().iter().find(|r| r["formType"] == "F3").unwrap()
                ["averageDays"]
                .clone()
        }
    };
    assert_ne!(days(0).await, days(480).await, "the days follow the caller's zone");
    // Moves: approved back to submitted, another approval, a deletion and a new draft.
    let (r1, r5, r6) = (&w.req[0], &w.req[4], &w.req[5]);
    act(&w, &w.approver, r1, "move-back-to-submitted", json!({})).await;
    approve(&w, r5, 33.33, w.funds[1], w.accounts[0], "late").await;
    let id6 = r6["id"].as_i64().unwrap();
    assert_eq!(w.app.delete(&format!("{PR}/F2/{id6}"), &w.admin).await.status, 204);
    sql(
        &w,
        &format!(
            "UPDATE payment_requests SET approved_at = '{}T23:15:00+00:00' WHERE id = {}",
            w.r2_day, r5["id"]
        ),
    )
    .await;
    compare("after the moves").await;
}

/// The participants report's name lists are kept on each participant's row (migration
/// 000143): they follow new and changed links, participations moved or deleted, and
/// renamed programs and reference rows, and always equal the names read from the links.
#[actix_web::test]
async fn participant_name_lists_follow_links_and_renames() {
    use sea_orm::{ConnectionTrait, Statement};
    let w = &world().await;
    let (app, admin) = (&w.app, &w.admin);
    let mut body = person("Quinn", "quinn@example.org", "Mentor");
    body["languageIds"] = json!([1, 2]);
    body["participations"] =
        json!([taking(w.programs[0], w.fy, "Mentor"), taking(w.programs[1], w.fy, "Mentor")]);
    let r = app.post("/api/v1/participants", Some(admin), body.clone()).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.body["id"].as_i64().unwrap();
    let second = r.body["participations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["mentorProgramId"] == w.programs[1])
        .unwrap()["id"]
        .clone();
    let quinn = || async move {
        let v = view(w, &w.admin, "participants?Size=50").await;
        v["items"].as_array().unwrap().iter().find(|p| p["id"] == id).unwrap().clone()
    };
    let names = |path: &'static str, ids: Vec<i64>| async move {
        let all = w.app.get(path, &w.admin).await.ok().clone();
        let mut names: Vec<String> = ids
            .iter()
            .map(|i| {
                all.as_array().unwrap().iter().find(|x| x["id"] == *i).unwrap()["name"]
                    .as_str()
                    .unwrap()
                    .to_owned()
            })
            .collect();
        names.sort();
        names.join("; ")
    };
    let q = quinn().await;
    assert_eq!(
        q["mentorPrograms"],
        names("/api/v1/mentor-programs", vec![w.programs[0], w.programs[1]]).await
    );
    assert_eq!(q["languages"], names("/api/v1/languages", vec![1, 2]).await);

    // A renamed program and language, changed link lists, a deleted participation.
    app.put(
        &format!("/api/v1/mentor-programs/{}", w.programs[0]),
        admin,
        json!({"name": "Zeta program"}),
    )
    .await
    .ok();
    // The reference lists have no rename route; a rename by any other path counts too.
    sql(w, "UPDATE languages SET name = 'Aardvark' WHERE id = 2").await;
    let q = quinn().await;
    assert!(q["mentorPrograms"].as_str().unwrap().ends_with("; Zeta program"), "{q}");
    assert!(q["languages"].as_str().unwrap().starts_with("Aardvark; "), "{q}");
    body["version"] = json!(1);
    body["languageIds"] = json!([2]);
    body["permitLevelIds"] = json!([]);
    app.put(&format!("/api/v1/participants/{id}"), admin, body).await.ok();
    assert_eq!(
        app.delete(&format!("/api/v1/participants/{id}/participations/{second}"), admin)
            .await
            .status,
        204
    );
    let q = quinn().await;
    assert_eq!(
        (q["mentorPrograms"].as_str(), q["languages"].as_str(), q["permitLevels"].as_str()),
        (Some("Zeta program"), Some("Aardvark"), None),
        "{q}"
    );

    // Every participant's kept lists equal the names read from its links.
    let db = &app.state.db;
    let backend = db.get_database_backend();
    let lists = [
        ("program_names", "participations x JOIN mentor_programs n ON n.id = x.mentor_program_id", " AND x.deleted_at IS NULL"),
        ("language_names", "participant_languages x JOIN languages n ON n.id = x.language_id", ""),
        ("workplace_setting_names", "participant_workplace_settings x JOIN workplace_settings n ON n.id = x.workplace_setting_id", ""),
        ("education_level_names", "participant_education_levels x JOIN education_levels n ON n.id = x.education_level_id", ""),
        ("permit_level_names", "participant_permit_levels x JOIN permit_levels n ON n.id = x.permit_level_id", ""),
    ];
    for (column, from, live) in lists {
        // SQLite's group_concat(DISTINCT) takes no separator: the names are split and sorted here.
        let aggregate = match backend {
            sea_orm::DbBackend::Postgres => "string_agg(DISTINCT n.name, '; ' ORDER BY n.name)",
            _ => "group_concat(DISTINCT n.name)",
        };
        let sql = format!("SELECT p.id, p.{column}, (SELECT {aggregate} FROM {from} WHERE x.participant_id = p.id{live}) FROM participants p ORDER BY p.id");
        let rows = db.query_all_raw(Statement::from_string(backend, sql)).await.unwrap();
        assert!(rows.len() >= 3);
        for r in rows {
            let kept: Option<String> = r.try_get_by_index(1).unwrap();
            let read: Option<String> = r.try_get_by_index(2).unwrap();
            let mut read: Vec<&str> = read
                .as_deref()
                .map(|s| s.split([',', ';']).map(str::trim).collect())
                .unwrap_or_default();
            read.sort_unstable();
            assert_eq!(
                kept,
                (!read.is_empty()).then(|| read.join("; ")),
                "{column} of participant {}",
                r.try_get_by_index::<i32>(0).unwrap()
            );
        }
    }
}

/// What `pdfinfo` says for `key`.
fn pdf_info(bytes: &[u8], key: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("report.pdf");
    std::fs::write(&path, bytes).unwrap();
    let out = Command::new("pdfinfo").arg(&path).output().expect("poppler-utils are installed");
    let info = String::from_utf8(out.stdout).unwrap();
    let value = info.lines().find_map(|l| l.strip_prefix(key)?.strip_prefix(':'));
    value.unwrap_or_else(|| panic!("no {key} in {info}")).trim().to_owned()
}

/// The files read as finished documents: a one-page PDF is small (fonts subset) and
/// tagged; CSV and XLSX of a report carry the same rows, the XLSX a totals row only
/// when the report sums something (participants: none); statuses print as words, the
/// views keep their codes and the catalogue serves both.
#[actix_web::test]
async fn report_files_read_as_finished_documents() {
    let w = world().await;
    act(&w, &w.approver, &w.req[0], "move-to-ready-for-processing", json!({})).await;
    let v = view(&w, &w.admin, "all-approvals").await;
    let statuses: Vec<&str> =
        v["items"].as_array().unwrap().iter().map(|i| i["formStatus"].as_str().unwrap()).collect();
    assert!(statuses.contains(&"ReadyForProcessing"), "the view sends codes: {statuses:?}");
    let catalogue = w.app.get(R, &w.admin).await.ok().clone();
    let entry = catalogue.as_array().unwrap().iter().find(|e| e["key"] == "all-approvals").unwrap();
    let status = entry["columns"].as_array().unwrap().iter().find(|c| c["key"] == "formStatus");
    assert_eq!(status.unwrap()["labels"]["ReadyForProcessing"], "Ready for processing");
    let (_, _, csv) = download(&w, &w.admin, "all-approvals/retrieve?ReportFormat=Csv").await;
    let (headers, rows) = csv_rows(&csv);
    let i = column(&headers, "Current status");
    assert!(rows.iter().any(|r| r[i] == "Ready for processing"), "{rows:?}");
    assert!(rows.iter().all(|r| r[i] != "ReadyForProcessing"), "{rows:?}");
    let (_, _, pdf) = download(&w, &w.admin, "all-approvals/retrieve?ReportFormat=Pdf").await;
    let text = pdf_text(&pdf);
    assert!(text.contains("Ready for") && !text.contains("ReadyForProcessing"), "{text}");

    let (_, _, pdf) =
        download(&w, &w.admin, "mentor-program-reimbursements/retrieve?ReportFormat=Pdf").await;
    assert_eq!(pdf_info(&pdf, "Pages"), "1");
    assert!(pdf.len() < 100_000, "a one-page report is {} bytes", pdf.len());
    assert_eq!(pdf_info(&pdf, "Tagged"), "yes");
    assert_eq!(pdf_info(&pdf, "Title"), "Mentor program reimbursements");

    let this_year = format!("FiscalYearId={}&", w.fy);
    for (path, totals) in [
        ("participants/retrieve?".to_owned(), 0),
        (format!("all-approvals/retrieve?{this_year}"), 1),
        (format!("mentor-program-reimbursements/retrieve?{this_year}"), 1),
        ("approvals-by-request-type/retrieve?".to_owned(), 1),
    ] {
        let (_, _, csv) = download(&w, &w.admin, &format!("{path}ReportFormat=Csv")).await;
        let (headers, rows) = csv_rows(&csv);
        let (_, _, xlsx) = download(&w, &w.admin, &format!("{path}ReportFormat=Xlsx")).await;
        let table = sheet(&xlsx);
        assert_eq!(table.len(), 1 + rows.len() + totals, "{path}: header, rows, totals");
        assert_eq!(table[0].iter().map(|h| h.to_string()).collect::<Vec<_>>(), headers);
        for (r, row) in rows.iter().enumerate() {
            for (c, text) in row.iter().enumerate() {
                match &table[r + 1][c] {
                    Data::String(s) => {
                        assert_eq!(
                            text.trim_start_matches('\''),
                            s,
                            "{path} row {r} {}",
                            headers[c]
                        )
                    }
                    Data::Float(x) => assert_eq!(
                        text.parse::<f64>().ok(),
                        Some(*x),
                        "{path} row {r} {}: as shown, rounded",
                        headers[c]
                    ),
                    _ => {}
                }
            }
        }
        if totals == 1 {
            assert_eq!(table[rows.len() + 1][0], Data::String("Total".into()), "{path}");
        }
    }
}

#[actix_web::test]
async fn budgets_of_different_fiscal_years_are_never_added() {
    let w = world().await;
    let (fy, last) = (w.fy, w.last_fy);
    let (p0, f0, a0) = (w.programs[0], w.funds[0], w.accounts[0]);
    // Last year: the same line as this year's p0/f0/a0, with r7's 80.00 charged to it.
    let lines = json!({"fiscalYearId": last, "lines": [
        {"mentorProgramId": p0, "fundId": f0, "expenseAccountId": a0, "amount": 300},
    ]});
    w.app.put("/api/v1/budgets/bulk-update", &w.admin, lines).await.ok();

    for path in ["approvals-by-accounts", "actual-vs-budget"] {
        // Without a year: one row per year and line, and no totals over both years.
        let v = view(&w, &w.admin, &format!("{path}?Size=100")).await;
        let rows = v["items"].as_array().unwrap();
        let line = |year: i64| {
            rows.iter()
                .find(|r| {
                    r["fiscalYearId"] == year && r["fundId"] == f0 && r["expenseAccountId"] == a0
                })
                .unwrap_or_else(|| panic!("{path}: no f0/a0 row of year {year}: {v}"))
        };
        assert_eq!(
            (line(last)["fiscalYear"].as_str(), money(&line(last)["budgeted"])),
            (Some("FY Last"), 300.0)
        );
        assert_eq!(money(&line(fy)["budgeted"]), 1000.0, "{path}");
        assert!(
            rows.iter().all(|r| money(&r["budgeted"]) != 1300.0),
            "{path} added two years: {v}"
        );
        assert_eq!(v["totals"], json!({}), "{path}: totals would add two years' budgets");
        assert_eq!(
            money(&line(last)["remaining"]),
            220.0,
            "{path}: last year's 80.00 against its 300.00"
        );

        // Asked for one year: that year's rows and their totals.
        let v = view(&w, &w.admin, &format!("{path}?FiscalYearId={last}")).await;
        assert_eq!(money(&v["totals"]["budgeted"]), 300.0, "{path}: {v}");
        assert!(v["items"].as_array().unwrap().iter().all(|r| r["fiscalYear"] == "FY Last"));

        // The files say the same: a year column, and no totals line over two years.
        let (_, _, csv) =
            download(&w, &w.admin, &format!("{path}/retrieve?ReportFormat=Csv")).await;
        let (headers, data) = csv_rows(&csv);
        assert_eq!(headers[0], "Fiscal year");
        let (_, _, xlsx) =
            download(&w, &w.admin, &format!("{path}/retrieve?ReportFormat=Xlsx")).await;
        assert_eq!(sheet(&xlsx).len(), 1 + data.len(), "{path} XLSX: header and rows, no totals");
        let (_, _, pdf) =
            download(&w, &w.admin, &format!("{path}/retrieve?ReportFormat=Pdf")).await;
        let text = pdf_text(&pdf);
        assert!(!text.contains("$1,300.00") && !text.contains("Total"), "{path} PDF:\n{text}");
        let (_, _, xlsx) = download(
            &w,
            &w.admin,
            &format!("{path}/retrieve?ReportFormat=Xlsx&FiscalYearId={last}"),
        )
        .await;
        let table = sheet(&xlsx);
        let i = table[0].iter().position(|h| *h == "Budgeted").unwrap();
        assert_eq!(
            table.last().unwrap()[i].get_float(),
            Some(300.0),
            "{path}: one year's totals line"
        );
    }
}

/// What the files say, they say as every screen does: a request is "F9 #12", a form its
/// catalogue label, an account its code and name, a day "Nov 3, 2025" and a moment
/// "Nov 3, 2025, 2:05 PM"; receipts by their file names, never a column of file ids.
#[actix_web::test]
async fn files_name_requests_forms_accounts_and_days_as_people_read_them() {
    let w = world().await;
    let r3 = &w.req[2];
    let reference = format!("F9 #{}", r3["id"]);
    let accounts = w.app.get("/api/v1/expense-accounts", &w.admin).await.ok().clone();
    let a1 = accounts.as_array().unwrap().iter().find(|a| a["id"] == w.accounts[1]).unwrap();
    let (code, name) = (a1["code"].as_str().unwrap(), a1["name"].as_str().unwrap());
    assert!(!code.is_empty(), "the seeded accounts have codes");
    let account = format!("{code} {name}");
    // The view's days, as the files must print them (UTC: no offset given).
    let v = view(&w, &w.admin, "mentor-program-reimbursements?Size=500").await;
    let item = v["items"].as_array().unwrap().iter().find(|i| i["requestId"] == r3["id"]).unwrap();
    let approved_at = chrono::DateTime::parse_from_rfc3339(item["approvedAt"].as_str().unwrap())
        .unwrap()
        .naive_utc();
    let submitted_on: NaiveDate = item["submittedOn"].as_str().unwrap().parse().unwrap();
    assert_eq!(
        item["expenseAccount"],
        account.as_str(),
        "the view names the account with its code"
    );

    let path = "mentor-program-reimbursements/retrieve?MinutesOffset=0";
    let (headers, rows) =
        csv_rows(&download(&w, &w.admin, &format!("{path}&ReportFormat=Csv")).await.2);
    for gone in ["Form name", "File ids"] {
        assert!(!headers.iter().any(|h| h == gone), "{gone}: {headers:?}");
    }
    for row in &rows {
        request_number(&row[column(&headers, "Request")]);
    }
    let row = rows.iter().find(|r| r[column(&headers, "Request")] == reference).unwrap();
    assert_eq!(row[column(&headers, "Form")], "F9 Vendor payment");
    assert_eq!(row[column(&headers, "Expense account")], account);
    assert_eq!(row[column(&headers, "Submitted on")], day(submitted_on));
    assert_eq!(row[column(&headers, "Approved on")], moment(approved_at));

    let table = sheet(&download(&w, &w.admin, &format!("{path}&ReportFormat=Xlsx")).await.2);
    let at = |h: &str| table[0].iter().position(|c| *c == h).unwrap_or_else(|| panic!("{h}"));
    let row = table.iter().find(|r| r[at("Request")] == reference.as_str()).unwrap();
    assert_eq!(row[at("Form")], "F9 Vendor payment");
    assert_eq!(row[at("Expense account")], account.as_str());
    assert!(row[at("Approved on")].as_datetime().is_some(), "days stay dates a sheet can sort");

    let text = pdf_text(&download(&w, &w.admin, &format!("{path}&ReportFormat=Pdf")).await.2);
    for shown in [reference.as_str(), code, day(submitted_on).as_str(), "F9 Vendor"] {
        assert!(text.contains(shown), "the PDF shows {shown}:\n{text}");
    }
    assert!(!text.contains(&submitted_on.to_string()), "no ISO day in the PDF:\n{text}");

    // The other files likewise: approvals, the details list, one form with its receipts.
    let (headers, rows) =
        csv_rows(&download(&w, &w.admin, "all-approvals/retrieve?ReportFormat=Csv").await.2);
    let row = rows.iter().find(|r| r[column(&headers, "Request")] == reference).unwrap();
    assert_eq!(row[column(&headers, "Form")], "F9 Vendor payment");
    assert_eq!(row[column(&headers, "Expense account")], account);
    let (headers, rows) = csv_rows(
        &download(&w, &w.admin, "payment-requests-details/retrieve?ReportFormat=Csv").await.2,
    );
    assert!(rows.iter().any(|r| r[column(&headers, "Request")] == reference));

    // A receipt on the F2 draft: its file name under "Receipts".
    let upload = w.app.uploaded(&w.admin, "taxi receipt.pdf", "application/pdf", PDF).await;
    let r6 = &w.req[5];
    let mut details = details("F2", w.fy);
    details["fileIds"] = json!([upload]);
    let body = json!({"participationId": r6["participationId"], "description": "Books", "details": details, "version": r6["version"]});
    w.app.put(&format!("{PR}/F2/{}", r6["id"]), &w.admin, body).await.ok();
    let (headers, rows) =
        csv_rows(&download(&w, &w.admin, "payment-requests/F2/Csv/retrieve").await.2);
    assert!(!headers.iter().any(|h| h.contains("File")), "{headers:?}");
    let row = rows.iter().find(|r| r[column(&headers, "Request")] == format!("F2 #{}", r6["id"]));
    let row = row.unwrap_or_else(|| panic!("{rows:?}"));
    assert_eq!(row[column(&headers, "Receipts")], "taxi receipt.pdf");
    assert!(row[column(&headers, "Items")].starts_with(&day(shifted_day("2025-10-01"))));
}

const PDF: &[u8] = b"%PDF-1.7\n1 0 obj\n<<>>\nendobj\n%%EOF\n";
