//! Packets over HTTP on a real SQLite file: a request's packet with a PDF, a PNG, a JPEG
//! and a HEIC receipt, read back through poppler (pages, text, images, tags); scope and
//! errors as for reading the request; a vendor payment's packet in its rows' order.

use crate::common;
use crate::common::dates::shifted;

use chrono::{Datelike, NaiveDate};
use common::{
    poppler::{info, poppler},
    *,
};
use serde_json::{json, Value};

const PR: &str = "/api/v1/payment-requests";
const VP: &str = "/api/v1/reports/vendor-payments";
const APPROVER: (&str, &str) = ("approver@example.org", "approver pass 123");

const RECEIPT_PDF: &[u8] = include_bytes!("../fixtures/receipts/receipt.pdf");
const RECEIPT_PNG: &[u8] = include_bytes!("../fixtures/receipts/receipt.png");
const RECEIPT_JPEG: &[u8] = include_bytes!("../fixtures/receipts/receipt.jpg");
const RECEIPT_HEIC: &[u8] = include_bytes!("../fixtures/receipts/receipt.heic");

struct World {
    app: TestApp,
    admin: String,
    approver: String,
    fy: i64,
    programs: Vec<i64>,
    fund: i64,
    account: i64,
    /// The payee's participation in programs[0].
    inside: i64,
}

/// A fiscal year covering today, a payee in the first program, an approver.
async fn world() -> World {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let today = mentorpay::clock::now().date_naive();
    let first = if today.month() >= 7 { today.year() } else { today.year() - 1 };
    let (start, end) = (
        NaiveDate::from_ymd_opt(first, 7, 1).unwrap(),
        NaiveDate::from_ymd_opt(first + 1, 6, 30).unwrap(),
    );
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
    payee["participations"] = json!([taking(programs[0], fy, "Mentor")]);
    let r = app.post("/api/v1/participants", Some(&admin), payee).await;
    let inside = r.ok()["participations"][0]["id"].as_i64().unwrap();
    app.create_user(&admin, APPROVER.0, &["Administrator"], APPROVER.1).await;
    let (approver, _) = app.login(APPROVER.0, APPROVER.1).await;
    World { app, admin, approver, fy, programs, fund, account, inside }
}

/// Announces and uploads one receipt as `token`; its file id.
async fn uploaded(w: &World, token: &str, name: &str, content_type: &str, bytes: &[u8]) -> String {
    w.app.uploaded(token, name, content_type, bytes).await
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

/// `body` of `form` created by the admin, submitted and approved by the approver.
async fn approved(w: &World, form: &str, body: Value, amount: f64) -> Value {
    let r = w.app.post(&format!("{PR}/{form}"), Some(&w.admin), body).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let r = w.app.post(&format!("{}/submit", url(&r.body)), Some(&w.admin), json!({})).await;
    let r = r.ok().clone();
    let a = json!({"approvedAmount": amount, "approvalCodeId": approval_code(w, form).await, "fundId": w.fund, "expenseAccountId": w.account, "comment": "Receipts checked", "acknowledgeWarnings": true});
    w.app.post(&format!("{}/approve", url(&r)), Some(&w.approver), a).await.ok().clone()
}

/// GET `path` as `token`: status, headers, bytes.
async fn fetch(w: &World, token: &str, path: &str) -> (u16, reqwest::header::HeaderMap, Vec<u8>) {
    let res =
        w.app.client.get(format!("{}{path}", w.app.base)).bearer_auth(token).send().await.unwrap();
    let (status, headers) = (res.status().as_u16(), res.headers().clone());
    (status, headers, res.bytes().await.unwrap().to_vec())
}

/// Each page's text, in order.
fn pages(bytes: &[u8]) -> Vec<String> {
    let text = poppler(bytes, "pdftotext", &["-layout"]);
    let mut pages: Vec<String> = text.split('\u{c}').map(str::to_owned).collect();
    if pages.last().is_some_and(|p| p.trim().is_empty()) {
        pages.pop();
    }
    pages
}

/// The request packet's first page that holds `needle`.
fn page_with(pages: &[String], needle: &str) -> usize {
    pages.iter().position(|p| p.contains(needle)).unwrap_or_else(|| panic!("no page says {needle}"))
}

#[actix_web::test]
async fn a_request_packet_holds_the_request_its_log_and_every_receipt() {
    let w = world().await;
    let admin = &w.admin;
    let files = [
        uploaded(&w, admin, "store.pdf", "application/pdf", RECEIPT_PDF).await,
        uploaded(&w, admin, "scan.png", "image/png", RECEIPT_PNG).await,
        uploaded(&w, admin, "photo.jpg", "image/jpeg", RECEIPT_JPEG).await,
        uploaded(&w, admin, "phone.heic", "image/heic", RECEIPT_HEIC).await,
    ];
    let body = json!({"participationId": w.inside, "description": "Classroom books", "details": {"items": [{"date": shifted("2026-10-01"), "description": "Picture books", "amount": 12.5}, {"date": shifted("2026-10-02"), "description": "Paper", "amount": 3.25}], "fileIds": files}});
    let r = approved(&w, "F2", body, 15.75).await;
    let id = r["id"].as_i64().unwrap();

    let (status, headers, bytes) =
        fetch(&w, admin, &format!("{}/packet?MinutesOffset=480", url(&r))).await;
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&bytes));
    assert_eq!(headers["content-type"], "application/pdf");
    let disposition = headers["content-disposition"].to_str().unwrap();
    assert!(disposition.contains(&format!("request-F2-{id}.pdf")), "{disposition}");
    assert_eq!(info(&bytes, "Tagged"), "yes");
    assert_eq!(info(&bytes, "Title"), format!("Payment request F2 #{id}"));

    let pages = pages(&bytes);
    let n: usize = info(&bytes, "Pages").parse().unwrap();
    assert_eq!(pages.len(), n);
    let words = pages[0].split_whitespace().collect::<Vec<_>>().join(" ");
    for said in [
        format!("Payment request F2 #{id}"),
        "F2 Expense reimbursement".into(),
        "Pat Payee <pat@example.org>".into(),
        "Classroom books".into(),
        "$15.75".into(),
        "Approved by Test User".into(),
        "Picture books".into(),
    ] {
        assert!(words.contains(&said), "{said} on the first page:\n{words}");
    }
    let all = pages.join("\n");
    for said in ["Submitted → Approved", "Receipts checked", "Receipt 4 of 4. phone.heic"] {
        assert!(all.contains(said), "{said}:\n{all}");
    }
    // The receipts follow in the request's order: the PDF's own two pages, each picture
    // on a page of its own, the HEIC named on a page that says it cannot be shown.
    let first = page_with(&pages, "Corner Store receipt page 1 of 2");
    assert_eq!(first + 5, n, "the receipts are the last five pages");
    assert!(pages[first + 1].contains("Corner Store receipt page 2 of 2"));
    assert!(pages[first + 2].contains("Receipt 2 of 4: scan.png"), "{}", pages[first + 2]);
    assert!(pages[first + 3].contains("Receipt 3 of 4: photo.jpg"), "{}", pages[first + 3]);
    assert!(pages[first + 4].contains("Receipt 4 of 4: phone.heic"));
    assert!(pages[first + 4].contains("cannot be shown"), "{}", pages[first + 4]);
    // Every page, the receipt's own too, carries the packet's footer.
    assert!(pages[first].contains(&format!("Page {} of {n}", first + 1)), "{}", pages[first]);
    let images = poppler(&bytes, "pdfimages", &["-list"]);
    assert_eq!(images.lines().count(), 2 + 2, "two pictures:\n{images}");
    // The receipts' pages are figures of the structure, with their names as alternate text.
    let tree = poppler(&bytes, "pdfinfo", &["-struct"]);
    assert_eq!(tree.matches("Figure").count(), 4, "{tree}");
}

#[actix_web::test]
async fn packets_are_read_as_the_request_is() {
    let w = world().await;
    let body = json!({"participationId": w.inside, "description": "Seminar", "details": {"seminarDate": shifted("2026-10-01"), "topic": "Play", "hours": 3}, "requestedAmount": 80});
    let r = w.app.post(&format!("{PR}/F5"), Some(&w.admin), body).await.ok().clone();
    let packet = format!("{}/packet", url(&r));
    // A Coordinator of another program does not see it (as when reading it); one of its
    // program does.
    let outside = w
        .app
        .coordinator_of(&w.admin, "out@example.org", "coordinator pass 1", w.programs[1], w.fy)
        .await;
    let (status, _, body) = fetch(&w, &outside, &packet).await;
    assert_eq!(status, 404, "{}", String::from_utf8_lossy(&body));
    assert_eq!(w.app.get(&url(&r), &outside).await.status, 404);
    let inside = w
        .app
        .coordinator_of(&w.admin, "in@example.org", "coordinator pass 2", w.programs[0], w.fy)
        .await;
    let (status, _, bytes) = fetch(&w, &inside, &packet).await;
    assert_eq!(status, 200);
    let text = pages(&bytes).join("\n");
    assert!(text.contains("Not approved") && text.contains("No receipts."), "{text}");
    // Unknown ids and form types, and a request of another form, are 404; bad input a 400.
    let id = r["id"].as_i64().unwrap();
    for path in [
        format!("{PR}/F5/999999/packet"),
        format!("{PR}/F2/{id}/packet"),
        format!("{PR}/F99/{id}/packet"),
    ] {
        w.app.get(&path, &w.admin).await.problem(404);
    }
    let bad = w.app.get(&format!("{packet}?MinutesOffset=9999"), &w.admin).await;
    assert!(bad.problem(400)["errors"]["MinutesOffset"].is_array(), "{}", bad.body);
    let res = w.app.client.get(format!("{}{packet}", w.app.base)).send().await.unwrap();
    assert_eq!(res.status(), 401);
}

#[actix_web::test]
async fn a_vendor_payment_packet_follows_its_rows() {
    let w = world().await;
    let f5 = json!({"participationId": w.inside, "description": "Seminar", "details": {"seminarDate": shifted("2026-10-01"), "topic": "Play", "hours": 3}, "requestedAmount": 80});
    let f9 = json!({"participationId": w.inside, "description": "Vendor", "details": {"vendorName": "Acme Supply", "vendorAddress": "9 Vendor Way, Fresno", "invoiceNumber": "INV-7", "invoiceDate": shifted("2026-10-01"), "amount": 100}});
    let receipt = uploaded(&w, &w.admin, "store.pdf", "application/pdf", RECEIPT_PDF).await;
    let f2 = json!({"participationId": w.inside, "description": "Books", "details": {"items": [{"date": shifted("2026-10-01"), "description": "Books", "amount": 12.5}], "fileIds": [receipt]}});
    let requests = [
        approved(&w, "F5", f5, 80.0).await,
        approved(&w, "F9", f9, 100.0).await,
        approved(&w, "F2", f2, 12.5).await,
    ];
    let ids: Vec<&Value> = requests.iter().map(|r| &r["id"]).collect();
    w.app
        .post(
            &format!("{PR}/move-to-statuses/ready-for-processing/batch"),
            Some(&w.approver),
            json!({"ids": ids}),
        )
        .await
        .ok();
    let today = mentorpay::clock::now().date_naive();
    let preview = w
        .app
        .get(&format!("{VP}?FiscalYearId={}&StartDate={today}&EndDate={today}", w.fy), &w.admin)
        .await;
    let preview = preview.ok().clone();
    let generated = w
        .app
        .post(VP, Some(&w.admin), json!({"fiscalYearId": w.fy, "startDate": today, "endDate": today, "expectedCount": preview["totalCount"], "expectedTotal": preview["totals"]["amount"]}))
        .await;
    let report = generated.ok()["id"].as_i64().unwrap();
    let rows = w.app.get(&format!("{VP}/history/{report}"), &w.admin).await.ok().clone();
    let order: Vec<String> = rows["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| format!("Payment request {} #{}", r["formType"].as_str().unwrap(), r["requestId"]))
        .collect();
    assert_eq!(order.len(), 3);

    let (status, headers, bytes) =
        fetch(&w, &w.admin, &format!("{VP}/history/{report}/packet")).await;
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&bytes));
    let disposition = headers["content-disposition"].to_str().unwrap();
    assert!(disposition.contains(&format!("vendor-payment-{report}-packet.pdf")), "{disposition}");
    assert_eq!(info(&bytes, "Tagged"), "yes");
    let pages = pages(&bytes);
    let cover = pages[0].split_whitespace().collect::<Vec<_>>().join(" ");
    for said in [
        format!("Vendor payment report #{report}"),
        "Requests 3".into(),
        "Total $192.50".into(),
        "FY now".into(),
        "by System Administrator".into(),
    ] {
        assert!(cover.contains(&said), "{said} on the cover:\n{cover}");
    }
    // Each request starts a page, in the rows' order; the F2's receipt follows it.
    let starts: Vec<usize> = order.iter().map(|title| page_with(&pages, title)).collect();
    assert!(starts.windows(2).all(|p| p[0] < p[1]) && starts[0] > 0, "{starts:?}");
    let f2 = order.iter().position(|t| t.contains("F2 #")).unwrap();
    let receipt_page = page_with(&pages, "Corner Store receipt page 1 of 2");
    assert!(
        receipt_page > starts[f2] && starts.iter().all(|s| *s <= starts[f2] || *s > receipt_page)
    );
    assert!(
        pages[receipt_page].contains(&format!("Vendor payment report #{report}")),
        "the footer names the payment"
    );

    // Scope as for the history: a Coordinator of another program sees no rows of it.
    let outside = w
        .app
        .coordinator_of(&w.admin, "out@example.org", "coordinator pass 1", w.programs[1], w.fy)
        .await;
    let (status, _, _) = fetch(&w, &outside, &format!("{VP}/history/{report}/packet")).await;
    assert!(status == 403 || status == 404, "{status}");
    w.app.get(&format!("{VP}/history/999999/packet"), &w.admin).await.problem(404);
}
