//! Vendor payments on the real app and a real SQLite file: the preview, one
//! generation paying every ready request exactly once (also under concurrency and while
//! other actions race it), the frozen history, permissions, scope and bad input.

use crate::common;
use crate::common::dates::{shifted, today, Year};

use std::collections::HashMap;

use chrono::{Duration, NaiveDate, NaiveTime};
use common::*;
use mentorpay::entities::payment_request as pr;
use sea_orm::{sea_query::Expr, ColumnTrait, EntityTrait, QueryFilter};
use serde_json::{json, Value};

const PR: &str = "/api/v1/payment-requests";
const VP: &str = "/api/v1/reports/vendor-payments";
const BATCH: &str = "/api/v1/payment-requests/move-to-statuses/ready-for-processing/batch";
const APPROVER_EMAIL: &str = "approver@example.org";
const PASSWORD: &str = "approver pass 123";
const COORD_PW: &str = "coordinator pass 1";

struct World {
    app: TestApp,
    admin: String,
    approver: String,
    fy: i64,
    programs: Vec<i64>,
    fund: i64,
    account: i64,
    /// The payee's participations in programs[0] and programs[1].
    inside: i64,
    outside: i64,
    payee_id: i64,
}

/// A fiscal year covering today (requests belong to the year of their submission day).
async fn world() -> World {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let Year { start, end, .. } = Year::this();
    let fy = app
        .post(
            "/api/v1/system-settings/fiscal-years",
            Some(&admin),
            json!({"name": "FY now", "startDate": start, "endDate": end}),
        )
        .await;
    let fy = fy.ok()["id"].as_i64().unwrap();
    let programs = ids(&app, &admin, "/api/v1/mentor-programs").await;
    let fund = ids(&app, &admin, "/api/v1/funds").await[0];
    let account = ids(&app, &admin, "/api/v1/expense-accounts").await[0];
    let mut payee = person("Pat", "pat@example.org", "Mentor");
    payee["participations"] =
        json!([taking(programs[0], fy, "Mentor"), taking(programs[1], fy, "Mentor")]);
    let r = app.post("/api/v1/participants", Some(&admin), payee).await;
    let payee_id = r.ok()["id"].as_i64().unwrap();
    let parts = r.body["participations"].as_array().unwrap();
    let of = |program: i64| {
        parts.iter().find(|p| p["mentorProgramId"] == program).unwrap()["id"].as_i64().unwrap()
    };
    let (inside, outside) = (of(programs[0]), of(programs[1]));
    app.create_user(&admin, APPROVER_EMAIL, &["Administrator"], PASSWORD).await;
    let (approver, _) = app.login(APPROVER_EMAIL, PASSWORD).await;
    World { app, admin, approver, fy, programs, fund, account, inside, outside, payee_id }
}

fn details(form: &str) -> Value {
    match form {
        "F1" => {
            json!({"collegeId": 1, "menteeName": "Ana", "courseCode": "CD 101", "placementStartDate": shifted("2026-09-01"), "placementEndDate": shifted("2026-12-15"), "hours": 12.5})
        }
        "F5" => json!({"seminarDate": shifted("2026-10-01"), "topic": "Play", "hours": 3}),
        "F9" => {
            json!({"vendorName": "Acme Supply", "vendorAddress": "9 Vendor Way, Fresno", "invoiceNumber": "INV-7", "invoiceDate": shifted("2026-10-01"), "amount": 100})
        }
        _ => unreachable!(),
    }
}

fn url(r: &Value) -> String {
    format!("{PR}/{}/{}", r["formType"].as_str().unwrap(), r["id"])
}

async fn approval_code(w: &World, form: &str) -> i64 {
    let codes = w.app.get("/api/v1/approval-codes", &w.admin).await.ok().clone();
    codes.as_array().unwrap().iter().find(|c| c["paymentRequestType"] == form).unwrap()["id"]
        .as_i64()
        .unwrap()
}

/// A request of `form` for `participation`, submitted and approved at `amount`.
async fn approved(w: &World, form: &str, participation: i64, amount: f64) -> Value {
    let mut body = json!({"participationId": participation, "description": format!("{form} request"), "details": details(form)});
    if form != "F9" {
        body["requestedAmount"] = json!(amount.max(100.0));
    }
    let r = w.app.post(&format!("{PR}/{form}"), Some(&w.admin), body).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let r = w
        .app
        .post(&format!("{}/submit", url(&r.body)), Some(&w.admin), json!({}))
        .await
        .ok()
        .clone();
    let a = json!({"approvedAmount": amount, "approvalCodeId": approval_code(w, form).await, "fundId": w.fund, "expenseAccountId": w.account, "acknowledgeWarnings": true});
    w.app.post(&format!("{}/approve", url(&r)), Some(&w.approver), a).await.ok().clone()
}

async fn batch(w: &World, requests: &[&Value]) {
    let ids: Vec<&Value> = requests.iter().map(|r| &r["id"]).collect();
    w.app.post(BATCH, Some(&w.approver), json!({"ids": ids})).await.ok();
}

/// Ready requests approved on `day` (a data set-up: approvals spread over several days).
async fn ready_on(w: &World, form: &str, amount: f64, day: NaiveDate) -> Value {
    let r = approved(w, form, w.inside, amount).await;
    batch(w, &[&r]).await;
    let at = day.and_time(NaiveTime::from_hms_opt(12, 0, 0).unwrap()).and_utc();
    pr::Entity::update_many()
        .col_expr(pr::Column::ApprovedAt, Expr::value(at))
        .filter(pr::Column::Id.eq(r["id"].as_i64().unwrap() as i32))
        .exec(&w.app.state.db)
        .await
        .unwrap();
    r
}

fn range_query(fy: i64, start: NaiveDate, end: NaiveDate) -> String {
    format!("{VP}?FiscalYearId={fy}&StartDate={start}&EndDate={end}&Size=500")
}

async fn preview(w: &World, token: &str, start: NaiveDate, end: NaiveDate) -> Value {
    w.app.get(&range_query(w.fy, start, end), token).await.ok().clone()
}

/// Generates what the preview of `start..=end` shows.
async fn generate_previewed(w: &World, token: &str, start: NaiveDate, end: NaiveDate) -> Reply {
    let p = preview(w, token, start, end).await;
    w.app
        .post(
            VP,
            Some(token),
            json!({"fiscalYearId": w.fy, "startDate": start, "endDate": end, "expectedCount": p["totalCount"], "expectedTotal": p["totals"]["amount"]}),
        )
        .await
}

/// The raw bytes of an export, with its status and headers.
async fn file(w: &World, token: &str, path: &str) -> (u16, reqwest::header::HeaderMap, Vec<u8>) {
    let res =
        w.app.client.get(format!("{}{path}", w.app.base)).bearer_auth(token).send().await.unwrap();
    let (status, headers) = (res.status().as_u16(), res.headers().clone());
    (status, headers, res.bytes().await.unwrap().to_vec())
}

fn cents(v: &Value) -> i64 {
    (v.as_f64().unwrap() * 100.0).round() as i64
}

async fn status_of(w: &World, r: &Value) -> String {
    w.app.get(&url(r), &w.admin).await.ok()["formStatus"].as_str().unwrap().to_owned()
}

/// Every history entry with its frozen request ids, as the admin sees them.
async fn history_rows(w: &World) -> HashMap<i64, (Vec<i64>, i64)> {
    let list = w.app.get(&format!("{VP}/history?Size=500"), &w.admin).await.ok().clone();
    let mut out = HashMap::new();
    for e in list["items"].as_array().unwrap() {
        let id = e["id"].as_i64().unwrap();
        let d = w.app.get(&format!("{VP}/history/{id}?Size=500"), &w.admin).await.ok().clone();
        let rows: Vec<i64> = d["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["requestId"].as_i64().unwrap())
            .collect();
        let sum: i64 = d["items"].as_array().unwrap().iter().map(|r| cents(&r["amount"])).sum();
        assert_eq!(rows.len() as i64, e["rowCount"].as_i64().unwrap(), "{e}");
        assert_eq!(sum, cents(&e["totalAmount"]), "entry total = its rows: {e}");
        out.insert(id, (rows, sum));
    }
    out
}

/// Every request is Processed and in exactly one entry, or not Processed and in none; the
/// history's totals are the processed requests' amounts.
async fn assert_paid_exactly_once(w: &World, requests: &[Value]) -> usize {
    let history = history_rows(w).await;
    let mut seen: HashMap<i64, i64> = HashMap::new();
    for (entry, (rows, _)) in &history {
        for id in rows {
            assert!(seen.insert(*id, *entry).is_none(), "request {id} is in two entries");
        }
    }
    let mut processed_cents = 0;
    let mut processed = 0;
    for r in requests {
        let id = r["id"].as_i64().unwrap();
        let now = w.app.get(&url(r), &w.admin).await.ok().clone();
        if now["formStatus"] == "Processed" {
            processed += 1;
            processed_cents += cents(&now["approvedAmount"]);
            assert_eq!(
                now["vendorPaymentReportId"].as_i64(),
                seen.get(&id).copied(),
                "request {id} names its entry"
            );
        } else {
            assert!(
                !seen.contains_key(&id),
                "request {id} is {} but in entry {:?}",
                now["formStatus"],
                seen.get(&id)
            );
            assert!(now["vendorPaymentReportId"].is_null());
        }
    }
    assert_eq!(seen.len(), processed, "every entry row is a processed request");
    let history_cents: i64 = history.values().map(|(_, sum)| sum).sum();
    assert_eq!(history_cents, processed_cents, "sum of history totals = sum of processed requests");
    let list = w.app.get(&format!("{VP}/history?Size=500"), &w.admin).await.ok().clone();
    let years = list["totals"].as_array().unwrap();
    assert_eq!(years.iter().map(|y| cents(&y["totalAmount"])).sum::<i64>(), processed_cents);
    let rows: i64 = years.iter().map(|y| y["rowCount"].as_i64().unwrap()).sum();
    assert_eq!(rows, processed as i64);
    processed
}

#[actix_web::test]
async fn a_generation_pays_the_previewed_requests_once_and_keeps_their_rows() {
    let w = world().await;
    let today = mentorpay::clock::now().date_naive();
    let f1 = approved(&w, "F1", w.inside, 120.25).await;
    let f9 = approved(&w, "F9", w.outside, 100.0).await;
    let still_approved = approved(&w, "F5", w.inside, 30.0).await;
    batch(&w, &[&f1, &f9]).await;

    // The preview: the two ready ones, oldest approval first, the vendor paid for F9.
    let p = preview(&w, &w.admin, today, today).await;
    assert_eq!(p["totalCount"], 2, "{p}");
    assert_eq!(p["totals"]["amount"].as_f64(), Some(220.25));
    let rows = p["items"].as_array().unwrap();
    assert_eq!(rows[0]["requestId"], f1["id"]);
    assert_eq!(rows[0]["payee"], "Pat Payee");
    assert_eq!(rows[0]["payeeAddress"], "1 Capitol Mall, Sacramento");
    assert_eq!(rows[0]["formType"], "F1");
    assert_eq!(rows[0]["amount"].as_f64(), Some(120.25));
    assert!(
        rows[0]["approvalCode"].as_str().unwrap().len() > 2
            && rows[0]["fund"].is_string()
            && rows[0]["expenseAccount"].is_string(),
        "{p}"
    );
    assert_eq!(rows[1]["payee"], "Acme Supply");
    assert_eq!(rows[1]["payeeAddress"], "9 Vendor Way, Fresno");
    // Paged, with totals over every row.
    let page2 = w
        .app
        .get(
            &format!("{VP}?FiscalYearId={}&StartDate={today}&EndDate={today}&Page=2&Size=1", w.fy),
            &w.admin,
        )
        .await
        .ok()
        .clone();
    assert_eq!(page2["items"].as_array().unwrap().len(), 1);
    assert_eq!(page2["items"][0]["requestId"], f9["id"]);
    assert_eq!(page2["totals"]["amount"].as_f64(), Some(220.25));
    // Without dates: the whole fiscal year.
    assert_eq!(
        w.app.get(&format!("{VP}?FiscalYearId={}", w.fy), &w.admin).await.ok()["totalCount"],
        2
    );
    // Another day: nothing.
    let yesterday = today - Duration::days(1);
    assert_eq!(preview(&w, &w.admin, yesterday, yesterday).await["totalCount"], 0);

    // A preview that changed since it was seen: 409, nothing written.
    let stale = json!({"fiscalYearId": w.fy, "startDate": today, "endDate": today, "expectedCount": 1, "expectedTotal": 120.25});
    w.app.post(VP, Some(&w.admin), stale).await.problem(409);
    let stale = json!({"fiscalYearId": w.fy, "startDate": today, "endDate": today, "expectedCount": 2, "expectedTotal": 220.24});
    w.app.post(VP, Some(&w.admin), stale).await.problem(409);
    assert_eq!(status_of(&w, &f1).await, "ReadyForProcessing");
    assert_eq!(w.app.get(&format!("{VP}/history"), &w.admin).await.ok()["totalCount"], 0);

    // Generate: 201 with the entry; both requests Processed.
    let r = generate_previewed(&w, &w.admin, today, today).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let entry = r.body.clone();
    let id = entry["id"].as_i64().unwrap();
    assert_eq!(entry["rowCount"], 2);
    assert_eq!(entry["totalAmount"].as_f64(), Some(220.25));
    assert!(!entry["createdByName"].as_str().unwrap().is_empty(), "{entry}");
    assert!(
        entry["createdBy"].is_i64()
            && entry["createdAt"].is_string()
            && entry["fiscalYearName"] == "FY now",
        "{entry}"
    );
    assert_eq!(entry["startDate"], today.to_string());
    for x in [&f1, &f9] {
        let now = w.app.get(&url(x), &w.admin).await.ok().clone();
        assert_eq!(now["formStatus"], "Processed");
        assert_eq!(now["vendorPaymentReportId"], id);
        assert_eq!(now["availableActions"], json!([]), "nothing leaves Processed");
        assert_eq!(
            now["version"],
            x["version"].as_i64().unwrap() + 2,
            "batch and processing each bumped the version"
        );
        let log = w
            .app
            .get(
                &format!(
                    "{PR}/activity-log?PaymentRequestId={}&PaymentRequestType={}",
                    x["id"],
                    x["formType"].as_str().unwrap()
                ),
                &w.admin,
            )
            .await
            .ok()
            .clone();
        let last = &log[0];
        assert_eq!(last["action"], "processed", "{log}");
        assert_eq!(last["fromStatus"], "ReadyForProcessing");
        assert_eq!(last["toStatus"], "Processed");
        assert!(last["comment"].as_str().unwrap().contains(&format!("#{id}")), "{last}");
        assert_eq!(last["data"]["vendorPaymentReportId"], id);
    }
    assert_eq!(status_of(&w, &still_approved).await, "Approved");
    // Ready requests offer no per-request action: processing is this report's job.
    batch(&w, &[&still_approved]).await;
    let ready = w.app.get(&url(&still_approved), &w.admin).await.ok().clone();
    assert_eq!(ready["availableActions"], json!([]), "{ready}");

    // The history: newest first, totals, who generated it; the details page its frozen rows.
    let list = w.app.get(&format!("{VP}/history"), &w.admin).await.ok().clone();
    assert_eq!(list["totalCount"], 1);
    assert_eq!(list["items"][0]["id"], id);
    assert_eq!(list["totals"][0]["totalAmount"].as_f64(), Some(220.25));
    let d = w.app.get(&format!("{VP}/history/{id}"), &w.admin).await.ok().clone();
    assert_eq!(d["entry"]["id"], id);
    assert_eq!(d["totalCount"], 2);
    assert_eq!(d["totals"]["amount"].as_f64(), Some(220.25));
    assert_eq!(d["items"], p["items"], "the frozen rows are the previewed ones");
    let d2 = w.app.get(&format!("{VP}/history/{id}?Page=2&Size=1"), &w.admin).await.ok().clone();
    assert_eq!(d2["items"][0]["requestId"], f9["id"]);

    // Generating the same range again: the F5 made ready since is all there is.
    let again = generate_previewed(&w, &w.admin, today, today).await;
    assert_eq!(again.status, 201, "{}", again.body);
    assert_eq!(again.body["rowCount"], 1);
    // And now nothing is left to pay: 422.
    let empty = json!({"fiscalYearId": w.fy, "startDate": today, "endDate": today, "expectedCount": 0, "expectedTotal": 0});
    let r = w.app.post(VP, Some(&w.admin), empty).await;
    r.problem(422);
    let list = w.app.get(&format!("{VP}/history"), &w.admin).await.ok().clone();
    assert_eq!(list["items"][0]["id"], again.body["id"], "newest first");
    assert_eq!(list["totalCount"], 2);
    assert_paid_exactly_once(&w, &[f1, f9, still_approved]).await;
}

#[actix_web::test]
async fn eight_concurrent_generations_over_overlapping_ranges_pay_every_request_once() {
    let w = world().await;
    let today = mentorpay::clock::now().date_naive();
    let first = today - Duration::days(20);
    let mut requests = Vec::new();
    // Two ready requests a day over 12 days.
    for d in 0..12 {
        for (i, form) in ["F1", "F9"].into_iter().enumerate() {
            requests.push(
                ready_on(&w, form, 10.0 + d as f64 + i as f64 / 4.0, first + Duration::days(d))
                    .await,
            );
        }
    }
    // Eight ranges of five days starting a day apart: each overlaps its neighbours.
    let ranges: Vec<(NaiveDate, NaiveDate)> =
        (0..8).map(|i| (first + Duration::days(i), first + Duration::days(i + 4))).collect();
    let mut previews = Vec::new();
    for (s, e) in &ranges {
        previews.push(preview(&w, &w.admin, *s, *e).await);
    }
    let calls = ranges.iter().zip(&previews).map(|((s, e), p)| {
        let body = json!({"fiscalYearId": w.fy, "startDate": s, "endDate": e, "expectedCount": p["totalCount"], "expectedTotal": p["totals"]["amount"]});
        w.app.post(VP, Some(&w.admin), body)
    });
    let replies = futures_util::future::join_all(calls).await;
    let statuses: Vec<u16> = replies.iter().map(|r| r.status.as_u16()).collect();
    assert!(
        statuses.iter().all(|s| [201, 409, 422].contains(s)),
        "{:?}",
        replies.iter().map(|r| &r.body).collect::<Vec<_>>()
    );
    assert!(statuses.contains(&201), "{statuses:?}");
    let paid = assert_paid_exactly_once(&w, &requests).await;
    assert!(paid > 0);

    // Whatever lost the race is still payable: pay the rest, range by range.
    for (s, e) in &ranges {
        let r = generate_previewed(&w, &w.admin, *s, *e).await;
        assert!([201, 422].contains(&r.status.as_u16()), "{}", r.body);
    }
    let paid = assert_paid_exactly_once(&w, &requests).await;
    // Days 0..11 of which the ranges cover 0..11: everything is paid once.
    assert_eq!(paid, requests.len());
}

#[actix_web::test]
async fn a_generation_racing_move_back_and_batch_pays_each_request_once_or_not_at_all() {
    let w = world().await;
    let today = mentorpay::clock::now().date_naive();
    let mut all = Vec::new();
    for round in 0..4 {
        // Ready ones the preview sees, and approved ones being moved while it generates.
        let ready_a = approved(&w, "F1", w.inside, 20.0 + round as f64).await;
        let ready_b = approved(&w, "F9", w.inside, 30.0).await;
        batch(&w, &[&ready_a, &ready_b]).await;
        let to_batch = approved(&w, "F5", w.inside, 40.0).await;
        let to_move_back = approved(&w, "F1", w.inside, 50.0).await;
        let p = preview(&w, &w.admin, today, today).await;
        let body = json!({"fiscalYearId": w.fy, "startDate": today, "endDate": today, "expectedCount": p["totalCount"], "expectedTotal": p["totals"]["amount"]});
        let gen = w.app.post(VP, Some(&w.admin), body);
        let moved = w.app.post(BATCH, Some(&w.approver), json!({"ids": [to_batch["id"]]}));
        let back_path = format!("{}/move-back-to-submitted", url(&to_move_back));
        let back = w.app.post(&back_path, Some(&w.approver), json!({}));
        let (g, m, b) = futures_util::future::join3(gen, moved, back).await;
        assert!([201, 409].contains(&g.status.as_u16()), "generation: {}", g.body);
        m.ok();
        b.ok();
        if g.status == 201 {
            // It paid exactly what it previewed: not the request batched meanwhile.
            assert_eq!(g.body["rowCount"], p["totalCount"]);
            assert_eq!(status_of(&w, &to_batch).await, "ReadyForProcessing");
        }
        assert_eq!(status_of(&w, &to_move_back).await, "Submitted");
        all.extend([ready_a, ready_b, to_batch, to_move_back]);
        assert_paid_exactly_once(&w, &all).await;
    }
}

#[actix_web::test]
async fn a_history_entry_never_changes_after_its_requests_or_payee_do() {
    let w = world().await;
    let today = mentorpay::clock::now().date_naive();
    let f1 = approved(&w, "F1", w.inside, 75.5).await;
    let f9 = approved(&w, "F9", w.inside, 100.0).await;
    batch(&w, &[&f1, &f9]).await;
    let r = generate_previewed(&w, &w.admin, today, today).await;
    let id = r.body["id"].as_i64().unwrap_or_else(|| panic!("{}", r.body));
    let before = w.app.get(&format!("{VP}/history/{id}"), &w.admin).await.ok().clone();
    let list_before = w.app.get(&format!("{VP}/history"), &w.admin).await.ok().clone();
    let csv_path = format!("{VP}/history/{id}/retrieve?ReportFormat=Csv&MinutesOffset=480");
    let (status, headers, csv_before) = file(&w, &w.admin, &csv_path).await;
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&csv_before));
    assert!(
        headers["content-disposition"]
            .to_str()
            .unwrap()
            .contains(&format!("vendor-payment-report-{id}-")),
        "{headers:?}"
    );
    let text = String::from_utf8(csv_before.clone()).unwrap();
    let lines: Vec<&str> =
        text.trim_start_matches('\u{feff}').split("\r\n").filter(|l| !l.is_empty()).collect();
    assert_eq!(
        lines[0],
        "Payee,Payee address,Request,Form,Approved on,Approval code,Fund,Expense account,Amount"
    );
    assert_eq!(lines.len(), 3, "{text}");
    assert!(
        lines[1].starts_with(&format!(
            "Pat Payee,\"1 Capitol Mall, Sacramento\",F1 #{},F1 Placement stipend,",
            f1["id"]
        )),
        "{text}"
    );
    assert!(
        lines[1].ends_with(",75.50")
            && lines[2].starts_with("Acme Supply,")
            && lines[2].ends_with(",100.00"),
        "{text}"
    );

    // The payee renamed and moved house.
    let mut edit = person("Patricia", "pat@example.org", "Mentor");
    edit["address"] = json!("2 New Street, Davis");
    edit["version"] = json!(1);
    w.app.put(&format!("/api/v1/participants/{}", w.payee_id), &w.admin, edit).await.ok();
    // The requests changed behind the API's back (a data fix): amounts, vendor, status.
    let mut renamed = details("F9");
    renamed["vendorName"] = json!("Renamed Inc");
    renamed["vendorAddress"] = json!("elsewhere");
    for x in [&f1, &f9] {
        let mut fix = pr::Entity::update_many()
            .col_expr(pr::Column::ApprovedCents, Expr::value(1i64))
            .col_expr(pr::Column::Status, Expr::value("ReadyForProcessing"));
        if x["formType"] == "F9" {
            fix = fix.col_expr(pr::Column::Details, Expr::value(renamed.to_string()));
        }
        fix.filter(pr::Column::Id.eq(x["id"].as_i64().unwrap() as i32))
            .exec(&w.app.state.db)
            .await
            .unwrap();
    }
    let after = w.app.get(&format!("{VP}/history/{id}"), &w.admin).await.ok().clone();
    assert_eq!(after, before, "the frozen rows did not move");
    let (_, _, csv_after) = file(&w, &w.admin, &csv_path).await;
    assert_eq!(csv_after, csv_before, "the CSV is byte for byte the same");
    // The other two formats answer with their files.
    for (format, kind, magic) in
        [("Xlsx", "spreadsheetml", &b"PK"[..]), ("Pdf", "application/pdf", &b"%PDF"[..])]
    {
        let (status, headers, bytes) =
            file(&w, &w.admin, &format!("{VP}/history/{id}/retrieve?ReportFormat={format}")).await;
        assert_eq!(status, 200, "{format}");
        assert!(headers["content-type"].to_str().unwrap().contains(kind), "{headers:?}");
        assert!(bytes.starts_with(magic), "{format}");
    }
    assert_eq!(w.app.get(&format!("{VP}/history"), &w.admin).await.ok().clone(), list_before);
    // Those requests were paid once already: a second report cannot include them.
    let again = generate_previewed(&w, &w.admin, today, today).await;
    again.problem(409);
    assert_eq!(w.app.get(&format!("{VP}/history"), &w.admin).await.ok()["totalCount"], 1);
}

#[actix_web::test]
async fn permissions_scope_and_bad_input() {
    let w = world().await;
    let (app, admin) = (&w.app, &w.admin);
    let today = mentorpay::clock::now().date_naive();
    let mine = approved(&w, "F1", w.inside, 10.0).await;
    let theirs = approved(&w, "F1", w.outside, 20.0).await;
    batch(&w, &[&mine, &theirs]).await;

    // A Coordinator of programs[0] with the default Coordinator role: no vendor payments.
    let r = app
        .post(
            "/api/v1/participants",
            Some(admin),
            person("Cora", "cora@example.org", "Coordinator"),
        )
        .await;
    let cid = r.ok()["id"].as_i64().unwrap();
    app.post(
        &format!("/api/v1/participants/{cid}/identity-user"),
        Some(admin),
        json!({"password": COORD_PW}),
    )
    .await
    .ok();
    app.post(
        &format!("/api/v1/participants/{cid}/participations"),
        Some(admin),
        taking(w.programs[0], w.fy, "Coordinator"),
    )
    .await
    .ok();
    let (coord, _) = app.login("cora@example.org", COORD_PW).await;
    app.get(&range_query(w.fy, today, today), &coord).await.problem(403);
    let body = json!({"fiscalYearId": w.fy, "startDate": today, "endDate": today, "expectedCount": 1, "expectedTotal": 10});
    app.post(VP, Some(&coord), body.clone()).await.problem(403);
    app.get(&format!("{VP}/history"), &coord).await.problem(403);
    app.get(&format!("{VP}/history/1"), &coord).await.problem(403);
    app.get(&format!("{VP}/history/1/retrieve?ReportFormat=Csv"), &coord).await.problem(403);
    app.get(&format!("{VP}/retrieve?FiscalYearId={}&ReportFormat=Csv", w.fy), &coord)
        .await
        .problem(403);
    assert_eq!(app.call(reqwest::Method::GET, VP, None, None).await.problem(401)["status"], 401);

    // Now its role may pay and read the history: still only its own program's requests.
    let users = app.get("/api/v1/identity/users?Email=cora@example.org", admin).await.ok().clone();
    let u = &users["items"][0];
    app.post("/api/v1/identity/roles", Some(admin), json!({"name": "Paymaster", "permissions": ["report:generatevendorpayment", "report:readvendorpaymentshistory", "request:read"]}))
        .await
        .ok();
    let change = json!({"email": u["email"], "firstName": u["firstName"], "lastName": u["lastName"], "roles": ["Paymaster"], "isActive": true});
    app.put(&format!("/api/v1/identity/users/{}", u["id"]), admin, change).await.ok();
    let (coord, _) = app.login("cora@example.org", COORD_PW).await;
    let p = preview(&w, &coord, today, today).await;
    assert_eq!(p["totalCount"], 1, "{p}");
    let (status, _, csv) = file(
        &w,
        &coord,
        &format!(
            "{VP}/retrieve?FiscalYearId={}&StartDate={today}&EndDate={today}&ReportFormat=csv",
            w.fy
        ),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(
        String::from_utf8(csv).unwrap().matches("\r\n").count(),
        2,
        "header and its one row"
    );
    assert_eq!(p["items"][0]["requestId"], mine["id"]);
    let r = generate_previewed(&w, &coord, today, today).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let coord_entry = r.body["id"].as_i64().unwrap();
    assert_eq!(status_of(&w, &mine).await, "Processed");
    assert_eq!(status_of(&w, &theirs).await, "ReadyForProcessing", "outside its scope: untouched");
    // The admin pays the rest; the Coordinator does not see that entry.
    let r = generate_previewed(&w, admin, today, today).await;
    let admin_entry = r.body["id"].as_i64().unwrap_or_else(|| panic!("{}", r.body));
    let list = app.get(&format!("{VP}/history"), &coord).await.ok().clone();
    assert_eq!(list["totalCount"], 1);
    assert_eq!(list["items"][0]["id"], coord_entry);
    assert_eq!(list["totals"][0]["totalAmount"].as_f64(), Some(10.0));
    app.get(&format!("{VP}/history/{admin_entry}"), &coord).await.problem(404);
    assert_eq!(app.get(&format!("{VP}/history"), admin).await.ok()["totalCount"], 2);

    // Bad input: 400 naming the field, 422 for an unknown year or an end before the start, 404 for an unknown entry.
    let e = app.get(&format!("{VP}?StartDate={today}"), admin).await;
    // A missing parameter is named as the API documents it.
    assert_eq!(e.problem(400)["errors"]["FiscalYearId"][0], "is required", "{}", e.body);
    assert_eq!(e.body["detail"], "FiscalYearId: is required");
    let e = app
        .get(
            &format!(
                "{VP}?FiscalYearId={}&StartDate={today}&EndDate={}",
                w.fy,
                today - Duration::days(1)
            ),
            admin,
        )
        .await;
    assert!(e.problem(422)["errors"].get("EndDate").is_some(), "{}", e.body);
    app.get(&format!("{VP}?FiscalYearId=999"), admin).await.problem(422);
    app.get(&format!("{VP}?FiscalYearId={}&Page=0", w.fy), admin).await.problem(400);
    app.get(&format!("{VP}?FiscalYearId={}&StartDate=yesterday", w.fy), admin).await.problem(400);
    let mut b = body.clone();
    b.as_object_mut().unwrap().remove("expectedTotal");
    assert!(app.post(VP, Some(admin), b).await.problem(400)["errors"]
        .get("expectedTotal")
        .is_some());
    let mut b = body.clone();
    b["expectedTotal"] = json!(1.234);
    assert!(app.post(VP, Some(admin), b).await.problem(400)["errors"]
        .get("expectedTotal")
        .is_some());
    let mut b = body.clone();
    b["endDate"] = json!(today - Duration::days(1));
    assert!(app.post(VP, Some(admin), b).await.problem(422)["errors"].get("endDate").is_some());
    let mut b = body.clone();
    b["fiscalYearId"] = json!(999);
    assert!(app.post(VP, Some(admin), b).await.problem(422)["errors"]
        .get("fiscalYearId")
        .is_some());
    app.get(&format!("{VP}/history/999"), admin).await.problem(404);
    app.get(&format!("{VP}/history/{coord_entry}/retrieve?ReportFormat=Doc"), admin)
        .await
        .problem(400);
    app.get(&format!("{VP}/history/{coord_entry}/retrieve"), admin).await.problem(400);
    app.get(&format!("{VP}/history/{admin_entry}/retrieve?ReportFormat=Csv"), &coord)
        .await
        .problem(404);
    app.get(&format!("{VP}/history/abc"), admin).await.problem(400);
    assert_eq!(
        app.get(&format!("{VP}/history"), admin).await.ok()["totalCount"],
        2,
        "bad input wrote nothing"
    );
}

#[actix_web::test]
async fn the_openapi_document_lists_the_vendor_payment_calls() {
    let w = world().await;
    let doc = w.app.get("/api/v1/openapi.json", &w.admin).await.ok().clone();
    let paths = doc["paths"].as_object().unwrap();
    assert!(paths["/api/v1/reports/vendor-payments"]["get"].is_object());
    assert!(paths["/api/v1/reports/vendor-payments"]["post"].is_object());
    assert!(paths["/api/v1/reports/vendor-payments/history"]["get"].is_object());
    assert!(paths["/api/v1/reports/vendor-payments/ready"]["get"].is_object());
    assert!(paths["/api/v1/reports/vendor-payments/history/{id}"]["get"].is_object());
    assert!(paths["/api/v1/reports/vendor-payments/retrieve"]["get"].is_object());
    assert!(paths["/api/v1/reports/vendor-payments/history/{id}/retrieve"]["get"].is_object());
}

#[actix_web::test]
async fn generate_starts_where_requests_wait_and_never_adds_two_years() {
    let w = world().await;
    let (today, start) = (today(), Year::this().start);
    let last = w
        .app
        .post(
            "/api/v1/system-settings/fiscal-years",
            Some(&w.admin),
            json!({"name": "FY before", "startDate": start - Duration::days(365), "endDate": start - Duration::days(1)}),
        )
        .await
        .ok()["id"]
        .as_i64()
        .unwrap();
    assert_eq!(
        w.app.get(&format!("{VP}/ready"), &w.admin).await.ok(),
        &json!([]),
        "nothing waits yet"
    );

    // Two ready requests of last year (approved on its last day), one of this year.
    let day_before = start - Duration::days(1);
    let mut old = Vec::new();
    for amount in [10.0, 15.5] {
        let r = ready_on(&w, "F1", amount, day_before).await;
        pr::Entity::update_many()
            .col_expr(pr::Column::FiscalYearId, Expr::value(last as i32))
            .filter(pr::Column::Id.eq(r["id"].as_i64().unwrap() as i32))
            .exec(&w.app.state.db)
            .await
            .unwrap();
        old.push(r);
    }
    ready_on(&w, "F1", 7.25, today).await;
    let ready = w.app.get(&format!("{VP}/ready"), &w.admin).await.ok().clone();
    let noon =
        |d: NaiveDate| json!(d.and_time(NaiveTime::from_hms_opt(12, 0, 0).unwrap()).and_utc());
    assert_eq!(
        ready,
        json!([
            {"fiscalYearId": last, "fiscalYearName": "FY before", "count": 2, "amount": 25.5,
                "firstApprovedAt": noon(day_before), "lastApprovedAt": noon(day_before)},
            {"fiscalYearId": w.fy, "fiscalYearName": "FY now", "count": 1, "amount": 7.25,
                "firstApprovedAt": noon(today), "lastApprovedAt": noon(today)},
        ]),
        "the earliest year first, each year's own count, sum and approval days"
    );
    // Who may not generate is not told what waits.
    let coord =
        w.app.coordinator_of(&w.admin, "cora@example.org", COORD_PW, w.programs[0], w.fy).await;
    w.app.get(&format!("{VP}/ready"), &coord).await.problem(403);

    // Paying both years: the history's totals are per year, never one sum over both.
    let body = |fy: i64, from: NaiveDate, to: NaiveDate, n: i64, total: f64| json!({"fiscalYearId": fy, "startDate": from, "endDate": to, "expectedCount": n, "expectedTotal": total});
    let first_day = start - Duration::days(365);
    w.app.post(VP, Some(&w.admin), body(last, first_day, day_before, 2, 25.5)).await.ok();
    w.app.post(VP, Some(&w.admin), body(w.fy, start, today, 1, 7.25)).await.ok();
    let list = w.app.get(&format!("{VP}/history"), &w.admin).await.ok().clone();
    assert_eq!(
        list["totals"],
        json!([
            {"fiscalYearId": last, "fiscalYearName": "FY before", "rowCount": 2, "totalAmount": 25.5},
            {"fiscalYearId": w.fy, "fiscalYearName": "FY now", "rowCount": 1, "totalAmount": 7.25},
        ])
    );
    assert_eq!(w.app.get(&format!("{VP}/ready"), &w.admin).await.ok(), &json!([]));
    w.app.get(&format!("{VP}/ready"), "not-a-token").await.problem(401);
}

#[actix_web::test]
async fn a_payee_edited_after_approval_is_paid_as_approved_and_named_in_the_preview() {
    let w = world().await;
    let today = mentorpay::clock::now().date_naive();
    let f1 = approved(&w, "F1", w.inside, 75.5).await;
    let f9 = approved(&w, "F9", w.inside, 100.0).await;
    batch(&w, &[&f1, &f9]).await;
    let clean = preview(&w, &w.admin, today, today).await;
    assert_eq!(clean["payeeChanges"], json!([]), "nothing changed yet: {clean}");

    // The attack: a Coordinator of the payee's program, who may edit participants,
    // renames and re-addresses the payee after approval.
    let coordinator =
        w.app.coordinator_of(&w.admin, "cora@example.org", COORD_PW, w.programs[0], w.fy).await;
    let mut edit = person("Mallory", "pat@example.org", "Mentor");
    edit["address"] = json!("13 Elsewhere Road, Reno");
    edit["version"] = json!(1);
    let r = w.app.put(&format!("/api/v1/participants/{}", w.payee_id), &coordinator, edit).await;
    r.ok();

    // The preview pays the approved payee and says which request changed, in words.
    let p = preview(&w, &w.admin, today, today).await;
    let row = |id: &Value| {
        p["items"].as_array().unwrap().iter().find(|r| r["requestId"] == *id).unwrap().clone()
    };
    assert_eq!(row(&f1["id"])["payee"], "Pat Payee", "{p}");
    assert_eq!(row(&f1["id"])["payeeAddress"], "1 Capitol Mall, Sacramento");
    assert_eq!(row(&f9["id"])["payee"], "Acme Supply", "an F9 pays its vendor: {p}");
    let changes = p["payeeChanges"].as_array().unwrap();
    assert_eq!(changes.len(), 1, "only the participant's request changed: {p}");
    let c = &changes[0];
    assert_eq!(c["requestId"], f1["id"]);
    assert_eq!(
        (c["approvedPayee"].as_str(), c["payee"].as_str()),
        (Some("Pat Payee"), Some("Mallory Payee"))
    );
    assert_eq!(c["payeeAddress"], "13 Elsewhere Road, Reno");
    let message = c["message"].as_str().unwrap();
    for words in [
        "name and address changed since approval",
        "approved for Pat Payee, 1 Capitol Mall, Sacramento",
        "now Mallory Payee, 13 Elsewhere Road, Reno",
    ] {
        assert!(message.contains(words), "{message}");
    }

    // The preview's export, the generated rows, their CSV and the packets pay as approved.
    let (_, _, csv) = file(
        &w,
        &w.admin,
        &format!(
            "{}&ReportFormat=Csv",
            range_query(w.fy, today, today).replace(VP, &format!("{VP}/retrieve"))
        ),
    )
    .await;
    let csv = String::from_utf8(csv).unwrap();
    assert!(
        csv.contains("Pat Payee,\"1 Capitol Mall, Sacramento\"") && !csv.contains("Mallory"),
        "{csv}"
    );
    let r = generate_previewed(&w, &w.admin, today, today).await;
    let id = r.body["id"].as_i64().unwrap_or_else(|| panic!("{}", r.body));
    let entry = w.app.get(&format!("{VP}/history/{id}"), &w.admin).await.ok().clone();
    let paid: Vec<&str> =
        entry["items"].as_array().unwrap().iter().map(|r| r["payee"].as_str().unwrap()).collect();
    assert!(paid.contains(&"Pat Payee") && !paid.contains(&"Mallory Payee"), "{entry}");
    let (_, _, csv) =
        file(&w, &w.admin, &format!("{VP}/history/{id}/retrieve?ReportFormat=Csv")).await;
    assert!(!String::from_utf8(csv).unwrap().contains("Mallory"));
    let (status, _, pdf) = file(&w, &w.admin, &format!("{}/packet", url(&f1))).await;
    assert_eq!(status, 200);
    let text = crate::reports::pdf_text(&pdf);
    assert!(
        text.contains("Pat Payee") && text.contains("1 Capitol Mall") && !text.contains("Mallory"),
        "{text}"
    );
    let (status, _, pdf) = file(&w, &w.admin, &format!("{VP}/history/{id}/packet")).await;
    assert_eq!(status, 200);
    assert!(!crate::reports::pdf_text(&pdf).contains("Mallory"));

    // The audit trail keeps what approval copied.
    let audit = w
        .app
        .get(
            &format!(
                "/api/v1/audit-log?EntityType=payment_request&EntityId={}&Action=approved",
                f1["id"]
            ),
            &w.admin,
        )
        .await
        .ok()
        .clone();
    assert_eq!(audit["items"][0]["after"]["approvedPayee"]["name"], "Pat Payee", "{audit}");
}

#[actix_web::test]
async fn an_approval_taken_back_takes_its_payee_with_it() {
    let w = world().await;
    let today = mentorpay::clock::now().date_naive();
    let f1 = approved(&w, "F1", w.inside, 80.0).await;
    let mut edit = person("Patricia", "pat@example.org", "Mentor");
    edit["version"] = json!(1);
    w.app.put(&format!("/api/v1/participants/{}", w.payee_id), &w.admin, edit).await.ok();
    // Moved back and approved again: the new approval copies the payee as it is now.
    let back = w
        .app
        .post(&format!("{}/move-back-to-submitted", url(&f1)), Some(&w.approver), json!({}))
        .await;
    back.ok();
    let stored = pr::Entity::find_by_id(f1["id"].as_i64().unwrap() as i32)
        .one(&w.app.state.db)
        .await
        .unwrap()
        .unwrap();
    assert_eq!((stored.payee_name, stored.payee_address), (None, None));
    let a = json!({"approvedAmount": 80.0, "approvalCodeId": approval_code(&w, "F1").await, "fundId": w.fund, "expenseAccountId": w.account, "acknowledgeWarnings": true});
    w.app.post(&format!("{}/approve", url(&f1)), Some(&w.approver), a).await.ok();
    batch(&w, &[&f1]).await;
    let p = preview(&w, &w.admin, today, today).await;
    assert_eq!(p["items"][0]["payee"], "Patricia Payee", "{p}");
    assert_eq!(p["payeeChanges"], json!([]));
}

#[actix_web::test]
async fn the_ready_years_span_their_approvals_and_a_preview_counts_what_its_days_leave_out() {
    let w = world().await;
    let year = Year::this();
    // Three ready requests of this year: two approved within it, one after its last day
    // (approvals trail a year's end).
    let (first, within, after) = (year.day(1), year.day(40), year.end + Duration::days(3));
    ready_on(&w, "F1", 10.0, first).await;
    ready_on(&w, "F1", 20.0, within).await;
    ready_on(&w, "F1", 30.0, after).await;
    let noon =
        |d: NaiveDate| json!(d.and_time(NaiveTime::from_hms_opt(12, 0, 0).unwrap()).and_utc());

    let ready = w.app.get(&format!("{VP}/ready"), &w.admin).await.ok().clone();
    assert_eq!(ready[0]["count"], 3);
    assert_eq!(ready[0]["firstApprovedAt"], noon(first));
    assert_eq!(ready[0]["lastApprovedAt"], noon(after), "the last approval, after the year's end");

    // The year's own days leave the late approval out, and the preview says so.
    let own = w.app.get(&format!("{VP}?FiscalYearId={}", w.fy), &w.admin).await.ok().clone();
    assert_eq!(own["totalCount"], 2);
    assert_eq!(own["outsideRange"], json!({"count": 1, "amount": 30.0}));
    let narrow = preview(&w, &w.admin, within, within).await;
    assert_eq!(narrow["totalCount"], 1);
    assert_eq!(narrow["outsideRange"], json!({"count": 2, "amount": 40.0}));
    // Days spanning the first and the last approval hold them all.
    let all = preview(&w, &w.admin, first, after).await;
    assert_eq!(all["totalCount"], 3);
    assert_eq!(all["outsideRange"], json!({"count": 0, "amount": 0.0}));
}
