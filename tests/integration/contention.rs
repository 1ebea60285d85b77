//! Every write route under contention: 16 concurrent clients, once on
//! 16 distinct rows and once all on the same row. Only 2xx, 409 or another 4xx may come
//! back — never a 5xx or a dropped connection — and afterwards the data is consistent:
//! on distinct rows every client wins; on one row as many win as the route allows (one
//! for versioned edits, state moves, deletes and unique names); versions moved by exactly
//! the winners; the activity log holds one entry per winning change, and the audit trail at
//! least one (it stays one unbroken chain); the kept totals
//! equal a recount; the file passes `PRAGMA integrity_check`.
//!
//! A new write route is one line in `routes()`.

use crate::common;
use crate::common::dates::{shifted, shifted_fy};
use crate::support;

use common::*;
use futures_util::future::join_all;
use mentorpay::entities::{activity_log, audit_log};
use reqwest::Method;
use sea_orm::{EntityTrait, PaginatorTrait};
use serde_json::{json, Value};

const CLIENTS: usize = 16;
const PR: &str = "/api/v1/payment-requests";
const PASSWORD: &str = "contention pass 1";
const PDF: &[u8] = b"%PDF-1.7\n1 0 obj\n<<>>\nendobj\n%%EOF\n";

/// What a route acts on, made fresh before each burst: one per client, or one shared.
#[derive(Clone, Copy, Debug)]
enum Row {
    /// Nothing beforehand (creates): the client's key makes its body distinct or equal.
    Nothing,
    Session,
    /// A user with a live set-password link.
    Invited,
    User,
    Role,
    Participant,
    Participation,
    BudgetLine,
    /// An announced, not yet uploaded receipt.
    Announced,
    Draft,
    Submitted,
    Approved,
    DraftWithReceipt,
    /// The single general-settings row.
    General,
    /// A new fiscal year, open and without budget lines.
    FiscalYear,
    /// A new fiscal year, closed.
    ClosedYear,
    /// A new empty fiscal year (`id`) and another with one budget line (`source`).
    YearToFill,
    /// A reference item of the editable lists (funds, accounts, programs, approval codes).
    RefItem(&'static str),
}

/// How many clients may succeed on one row.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Wins {
    All,
    One,
    /// Every client gets a 2xx, but the row changes (and is logged) once: the later calls
    /// find it as wanted already.
    Idem,
}

/// What a winner leaves behind on its row.
#[derive(Clone, Copy, Debug)]
enum After {
    Nothing,
    /// `GET target.url` shows `version` raised by exactly the number of winners.
    Version,
    /// `GET target.url` is a 404.
    Gone,
    /// `GET target.url` shows `isActive: false`.
    Inactive,
}

enum Who {
    Admin,
    Approver,
    Anonymous,
}

enum Body {
    None,
    Json(Value),
    Pdf,
    /// A file in the multipart field `file`.
    File(Vec<u8>),
}

struct Call {
    method: Method,
    path: String,
    who: Who,
    body: Body,
}

fn call(method: Method, path: impl Into<String>, who: Who, body: Value) -> Call {
    Call {
        method,
        path: path.into(),
        who,
        body: if body.is_null() { Body::None } else { Body::Json(body) },
    }
}

struct Route {
    /// Method and path as in the OpenAPI document, without `/api/v1`.
    name: &'static str,
    row: Row,
    /// (world, target row, key): the key is the client's number on distinct rows and 0 for all
    /// clients on the same row, so creates send distinct or identical bodies.
    call: fn(&World, &Value, usize) -> Call,
    distinct: Wins,
    same: Wins,
    after: After,
    /// Activity-log entries per winner.
    logs: u64,
}

use After::{Gone, Inactive, Nothing as Stays, Version};
use Method as M;
use Who::{Admin, Anonymous, Approver};
use Wins::{All, Idem, One};

fn s(v: &Value) -> String {
    v.as_str().map(str::to_owned).unwrap_or_else(|| v.to_string())
}

/// The table: one line per write route.
fn routes() -> Vec<Route> {
    vec![
        // ---- identity ----
        Route {
            name: "POST /identity/login",
            row: Row::Nothing,
            distinct: All,
            same: All,
            after: Stays,
            logs: 0,
            call: |_, _, _| {
                call(
                    M::POST,
                    "/api/v1/identity/login",
                    Anonymous,
                    json!({"email": ADMIN_EMAIL, "password": ADMIN_PASSWORD}),
                )
            },
        },
        Route {
            name: "POST /identity/refresh",
            row: Row::Session,
            distinct: All,
            same: One,
            after: Stays,
            logs: 0,
            call: |_, t, _| {
                call(
                    M::POST,
                    "/api/v1/identity/refresh",
                    Anonymous,
                    json!({"token": t["token"], "refreshToken": t["refreshToken"]}),
                )
            },
        },
        Route {
            name: "POST /identity/logout",
            row: Row::Session,
            distinct: All,
            same: All,
            after: Stays,
            logs: 0,
            call: |_, t, _| {
                call(
                    M::POST,
                    "/api/v1/identity/logout",
                    Anonymous,
                    json!({"refreshToken": t["refreshToken"]}),
                )
            },
        },
        Route {
            name: "POST /identity/reset-token/validate",
            row: Row::Invited,
            distinct: All,
            same: All,
            after: Stays,
            logs: 0,
            call: |_, t, _| {
                call(
                    M::POST,
                    "/api/v1/identity/reset-token/validate",
                    Anonymous,
                    json!({"email": t["email"], "token": t["token"]}),
                )
            },
        },
        Route {
            name: "POST /identity/user/set-password",
            row: Row::Invited,
            distinct: All,
            same: One,
            after: Stays,
            logs: 1,
            call: |_, t, _| {
                call(
                    M::POST,
                    "/api/v1/identity/user/set-password",
                    Anonymous,
                    json!({"email": t["email"], "token": t["token"], "password": PASSWORD}),
                )
            },
        },
        Route {
            name: "POST /identity/user/reset-password",
            row: Row::User,
            distinct: All,
            same: All,
            after: Stays,
            logs: 0,
            call: |_, t, _| {
                call(
                    M::POST,
                    "/api/v1/identity/user/reset-password",
                    Anonymous,
                    json!({"email": t["email"]}),
                )
            },
        },
        Route {
            name: "POST /identity/users",
            row: Row::Nothing,
            distinct: All,
            same: One,
            after: Stays,
            logs: 1,
            call: |w, _, k| {
                call(
                    M::POST,
                    "/api/v1/identity/users",
                    Admin,
                    user_body(&format!("new{k}-{}", w.tag())),
                )
            },
        },
        Route {
            name: "POST /identity/users/{id}/invitation",
            row: Row::Invited,
            distinct: All,
            same: All,
            after: Stays,
            logs: 1,
            call: |_, t, _| {
                call(M::POST, format!("{}/invitation", s(&t["url"])), Admin, Value::Null)
            },
        },
        Route {
            name: "PUT /identity/users/{id}",
            row: Row::User,
            distinct: All,
            same: All,
            after: Stays,
            logs: 1,
            call: |_, t, k| {
                call(
                    M::PUT,
                    s(&t["url"]),
                    Admin,
                    json!({"email": t["email"], "firstName": format!("Renamed {k}"), "lastName": "User", "roles": [STAFF], "isActive": true}),
                )
            },
        },
        Route {
            name: "DELETE /identity/users/{id}",
            row: Row::User,
            distinct: All,
            same: Idem,
            after: Inactive,
            logs: 1,
            call: |_, t, _| call(M::DELETE, s(&t["url"]), Admin, Value::Null),
        },
        Route {
            name: "PUT /identity/me/notifications",
            row: Row::Nothing,
            distinct: All,
            same: All,
            after: Stays,
            logs: 1,
            call: |_, _, k| {
                let mode = ["instant", "daily", "off"][k % 3];
                call(M::PUT, "/api/v1/identity/me/notifications", Admin, json!({"mode": mode}))
            },
        },
        Route {
            name: "POST /identity/roles",
            row: Row::Nothing,
            distinct: All,
            same: One,
            after: Stays,
            logs: 1,
            call: |w, _, k| {
                call(
                    M::POST,
                    "/api/v1/identity/roles",
                    Admin,
                    json!({"name": format!("Role {k} {}", w.tag()), "permissions": ["report:read"]}),
                )
            },
        },
        Route {
            name: "PUT /identity/roles/{id}",
            row: Row::Role,
            distinct: All,
            same: All,
            after: Stays,
            logs: 1,
            call: |_, t, _| {
                call(
                    M::PUT,
                    s(&t["url"]),
                    Admin,
                    json!({"name": t["name"], "permissions": ["report:read", "log:read"]}),
                )
            },
        },
        Route {
            name: "DELETE /identity/roles/{id}",
            row: Row::Role,
            distinct: All,
            same: One,
            after: Gone,
            logs: 1,
            call: |_, t, _| call(M::DELETE, s(&t["url"]), Admin, Value::Null),
        },
        // ---- participants ----
        Route {
            name: "POST /participants",
            row: Row::Nothing,
            distinct: All,
            same: One,
            after: Stays,
            logs: 1,
            call: |w, _, k| {
                call(
                    M::POST,
                    "/api/v1/participants",
                    Admin,
                    person(&format!("new{k}-{}", w.tag()), "Mentor"),
                )
            },
        },
        Route {
            name: "PUT /participants/{id}",
            row: Row::Participant,
            distinct: All,
            same: One,
            after: Version,
            logs: 1,
            call: |_, t, k| {
                let mut b = t["body"].clone();
                b["lastName"] = json!(format!("Edited {k}"));
                b["version"] = t["version"].clone();
                call(M::PUT, s(&t["url"]), Admin, b)
            },
        },
        Route {
            name: "DELETE /participants/{id}",
            row: Row::Participant,
            distinct: All,
            same: One,
            after: Gone,
            logs: 1,
            call: |_, t, _| call(M::DELETE, s(&t["url"]), Admin, Value::Null),
        },
        Route {
            name: "POST /participants/import",
            row: Row::Nothing,
            distinct: All,
            // The later imports of one file find the participant as the file has it.
            same: Idem,
            after: Stays,
            logs: 1,
            call: |w, _, k| {
                let csv = format!(
                    "firstName,lastName,email,status,roleCode\nPat,Imported,imported{}-{k}@example.org,Active,Mentor\n",
                    w.tag()
                );
                Call {
                    method: M::POST,
                    path: "/api/v1/participants/import?DryRun=false".into(),
                    who: Admin,
                    body: Body::File(csv.into_bytes()),
                }
            },
        },
        Route {
            name: "POST /participants/{id}/identity-user",
            row: Row::Participant,
            distinct: All,
            same: One,
            after: Stays,
            logs: 1,
            call: |_, t, _| {
                call(M::POST, format!("{}/identity-user", s(&t["url"])), Admin, json!({}))
            },
        },
        Route {
            name: "POST /participants/{id}/participations",
            row: Row::Participant,
            distinct: All,
            same: All,
            after: Stays,
            logs: 1,
            call: |w, t, _| {
                call(
                    M::POST,
                    format!("{}/participations", s(&t["url"])),
                    Admin,
                    w.taking(w.programs[1], "Mentor"),
                )
            },
        },
        Route {
            name: "PUT /participants/{id}/participations/{participationId}",
            row: Row::Participation,
            distinct: All,
            same: All,
            after: Stays,
            logs: 1,
            call: |w, t, _| {
                call(M::PUT, s(&t["url"]), Admin, w.taking(w.programs[2], "DirectorMentor"))
            },
        },
        Route {
            name: "DELETE /participants/{id}/participations/{participationId}",
            row: Row::Participation,
            distinct: All,
            same: One,
            after: Stays,
            logs: 1,
            call: |_, t, _| call(M::DELETE, s(&t["url"]), Admin, Value::Null),
        },
        // ---- settings ----
        Route {
            name: "POST /system-settings/fiscal-years",
            row: Row::Nothing,
            distinct: All,
            same: One,
            after: Stays,
            logs: 1,
            call: |w, _, k| {
                // Years of the last century: free of the world's fiscal years and inside 1900..=2100.
                let year = 1900 + (w.next_year() * CLIENTS as i64 + k as i64) % 100;
                call(
                    M::POST,
                    "/api/v1/system-settings/fiscal-years",
                    Admin,
                    json!({"name": format!("FY {year}"), "startDate": format!("{year}-07-01"), "endDate": format!("{}-06-30", year + 1)}),
                )
            },
        },
        Route {
            name: "PUT /system-settings/general/{id}",
            row: Row::General,
            distinct: One,
            same: One,
            after: Version,
            logs: 1,
            call: |_, t, k| {
                let mut b = t["body"].clone();
                b["organisationName"] = json!(format!("Program {k}"));
                call(M::PUT, s(&t["url"]), Admin, b)
            },
        },
        Route {
            name: "PUT /system-settings/form-validation-limits",
            row: Row::Nothing,
            distinct: All,
            same: All,
            after: Stays,
            logs: 1,
            call: |w, _, k| {
                let mut limits = w.limits.clone();
                limits[0]["submissionWindowDays"] = json!(30 + k);
                call(M::PUT, "/api/v1/system-settings/form-validation-limits", Admin, limits)
            },
        },
        Route {
            name: "PUT /system-settings/approval-rules/{formType}",
            row: Row::Nothing,
            distinct: All,
            same: All,
            after: Stays,
            logs: 1,
            call: |_, _, k| {
                let steps = json!({"steps": [{"name": format!("Approval {k}"), "role": "Administrator", "fromAmount": 0}]});
                call(M::PUT, "/api/v1/system-settings/approval-rules/F5", Admin, steps)
            },
        },
        Route {
            name: "POST /system-settings/approval-rules/{formType}/try",
            row: Row::Nothing,
            distinct: All,
            same: All,
            after: Stays,
            logs: 0,
            call: |_, _, k| {
                let steps = json!({"steps": [{"name": "Approval", "role": "Administrator", "fromAmount": 0}], "amount": k});
                call(M::POST, "/api/v1/system-settings/approval-rules/F5/try", Admin, steps)
            },
        },
        Route {
            name: "POST /system-settings/block-coordinator-login",
            row: Row::Nothing,
            distinct: All,
            same: All,
            after: Stays,
            logs: 1,
            call: |_, _, k| {
                call(
                    M::POST,
                    "/api/v1/system-settings/block-coordinator-login",
                    Admin,
                    json!({"isBlocked": k % 2 == 1, "message": "Closed for the year end"}),
                )
            },
        },
        Route {
            name: "PUT /system-settings/notification-banners",
            row: Row::Nothing,
            distinct: All,
            same: All,
            after: Stays,
            logs: 1,
            call: |_, _, k| {
                call(
                    M::PUT,
                    "/api/v1/system-settings/notification-banners",
                    Admin,
                    json!([{"message": format!("Banner {k}"), "severity": "Info", "isActive": true}]),
                )
            },
        },
        // ---- reference lists ----
        Route {
            name: "POST /funds",
            row: Row::Nothing,
            distinct: All,
            same: One,
            after: Stays,
            logs: 1,
            call: |w, _, k| {
                call(
                    M::POST,
                    "/api/v1/funds",
                    Admin,
                    json!({"name": format!("Fund {k}"), "code": format!("F{k}-{}", w.tag())}),
                )
            },
        },
        Route {
            name: "POST /expense-accounts",
            row: Row::Nothing,
            distinct: All,
            same: One,
            after: Stays,
            logs: 1,
            call: |w, _, k| {
                call(
                    M::POST,
                    "/api/v1/expense-accounts",
                    Admin,
                    json!({"name": format!("Account {k}"), "code": format!("A{k}-{}", w.tag())}),
                )
            },
        },
        Route {
            name: "POST /mentor-programs",
            row: Row::Nothing,
            distinct: All,
            same: One,
            after: Stays,
            logs: 1,
            call: |w, _, k| {
                call(
                    M::POST,
                    "/api/v1/mentor-programs",
                    Admin,
                    json!({"name": format!("Program {k}"), "code": format!("P{k}-{}", w.tag()), "collegeIds": [1]}),
                )
            },
        },
        Route {
            name: "POST /approval-codes",
            row: Row::Nothing,
            distinct: All,
            same: One,
            after: Stays,
            logs: 1,
            call: |w, _, k| {
                call(
                    M::POST,
                    "/api/v1/approval-codes",
                    Admin,
                    json!({"name": format!("Code {k}"), "code": format!("C{k}-{}", w.tag()), "paymentRequestType": "F5"}),
                )
            },
        },
        Route {
            name: "PUT /funds/{id}",
            row: Row::RefItem("funds"),
            distinct: All,
            same: All,
            after: Stays,
            logs: 1,
            call: |_, t, _| {
                call(M::PUT, s(&t["url"]), Admin, json!({"name": format!("Renamed {}", t["id"])}))
            },
        },
        Route {
            name: "PUT /expense-accounts/{id}",
            row: Row::RefItem("expense-accounts"),
            distinct: All,
            same: All,
            after: Stays,
            logs: 1,
            call: |_, t, _| {
                call(M::PUT, s(&t["url"]), Admin, json!({"name": format!("Renamed {}", t["id"])}))
            },
        },
        Route {
            name: "PUT /mentor-programs/{id}",
            row: Row::RefItem("mentor-programs"),
            distinct: All,
            same: All,
            after: Stays,
            logs: 1,
            call: |_, t, _| {
                call(M::PUT, s(&t["url"]), Admin, json!({"name": format!("Renamed {}", t["id"])}))
            },
        },
        Route {
            name: "PUT /approval-codes/{id}",
            row: Row::RefItem("approval-codes"),
            distinct: All,
            same: All,
            after: Stays,
            logs: 1,
            call: |_, t, _| {
                call(M::PUT, s(&t["url"]), Admin, json!({"name": format!("Renamed {}", t["id"])}))
            },
        },
        // ---- budgets ----
        Route {
            name: "PUT /budgets/bulk-update",
            row: Row::BudgetLine,
            distinct: All,
            same: Idem,
            after: Stays,
            logs: 1,
            call: |w, t, k| {
                call(
                    M::PUT,
                    "/api/v1/budgets/bulk-update",
                    Admin,
                    json!({"fiscalYearId": w.fy, "lines": [{"mentorProgramId": w.programs[0], "fundId": t["fundId"], "expenseAccountId": w.account, "amount": 2000 + k}]}),
                )
            },
        },
        Route {
            name: "POST /budgets/{fiscalYearId}/copy-from/{sourceFiscalYearId}",
            row: Row::YearToFill,
            distinct: All,
            same: One,
            after: Stays,
            logs: 1,
            call: |_, t, _| {
                call(
                    M::POST,
                    format!("/api/v1/budgets/{}/copy-from/{}", t["id"], t["source"]),
                    Admin,
                    json!({"percentChange": 2.5}),
                )
            },
        },
        Route {
            name: "POST /system-settings/fiscal-years/{id}/close",
            row: Row::FiscalYear,
            distinct: All,
            same: One,
            after: Stays,
            logs: 1,
            call: |_, t, _| {
                call(
                    M::POST,
                    format!("{}/close", s(&t["url"])),
                    Admin,
                    json!({"reason": "Year end"}),
                )
            },
        },
        Route {
            name: "POST /system-settings/fiscal-years/{id}/reopen",
            row: Row::ClosedYear,
            distinct: All,
            same: One,
            after: Stays,
            logs: 1,
            call: |_, t, _| {
                call(
                    M::POST,
                    format!("{}/reopen", s(&t["url"])),
                    Admin,
                    json!({"reason": "Late invoice"}),
                )
            },
        },
        Route {
            name: "PUT /budgets/{id}",
            row: Row::BudgetLine,
            distinct: All,
            same: One,
            after: Stays,
            logs: 1,
            call: |_, t, k| {
                call(
                    M::PUT,
                    s(&t["url"]),
                    Admin,
                    json!({"amount": 3000 + k, "version": t["version"]}),
                )
            },
        },
        // ---- receipts ----
        Route {
            name: "POST /fileupload/generate-upload-urls",
            row: Row::Nothing,
            distinct: All,
            same: All,
            after: Stays,
            logs: 0,
            call: |_, _, k| {
                call(
                    M::POST,
                    "/api/v1/fileupload/generate-upload-urls",
                    Admin,
                    json!({"files": [{"fileName": format!("r{k}.pdf"), "contentType": "application/pdf", "size": PDF.len()}]}),
                )
            },
        },
        Route {
            name: "PUT /fileupload/{fileId}",
            row: Row::Announced,
            distinct: All,
            same: One,
            after: Stays,
            logs: 0,
            call: |_, t, _| Call {
                method: M::PUT,
                path: s(&t["uploadUrl"]),
                who: Anonymous,
                body: Body::Pdf,
            },
        },
        Route {
            name: "DELETE /payment-requests/F2/{id}/files/{fileId}",
            row: Row::DraftWithReceipt,
            distinct: All,
            same: One,
            after: Version,
            logs: 1,
            call: |_, t, _| {
                call(
                    M::DELETE,
                    format!("{}/files/{}", s(&t["url"]), s(&t["fileId"])),
                    Admin,
                    Value::Null,
                )
            },
        },
        // ---- payment requests ----
        Route {
            name: "POST /payment-requests/{formType}",
            row: Row::Nothing,
            distinct: All,
            same: All,
            after: Stays,
            logs: 1,
            call: |w, _, _| call(M::POST, format!("{PR}/F5"), Admin, w.request_body()),
        },
        Route {
            name: "PUT /payment-requests/{formType}/{id}",
            row: Row::Draft,
            distinct: All,
            same: One,
            after: Version,
            logs: 1,
            call: |w, t, k| {
                let mut b = w.request_body();
                b["requestedAmount"] = json!(100 + k);
                b["version"] = t["version"].clone();
                call(M::PUT, s(&t["url"]), Admin, b)
            },
        },
        Route {
            name: "DELETE /payment-requests/{formType}/{id}",
            row: Row::Draft,
            distinct: All,
            same: One,
            after: Gone,
            logs: 1,
            call: |_, t, _| call(M::DELETE, s(&t["url"]), Admin, Value::Null),
        },
        Route {
            name: "POST /payment-requests/{formType}/{id}/submit",
            row: Row::Draft,
            distinct: All,
            same: One,
            after: Version,
            logs: 1,
            call: |_, t, _| call(M::POST, format!("{}/submit", s(&t["url"])), Admin, json!({})),
        },
        // A dry run: every client gets its warnings, the row and the log stay as they were.
        Route {
            name: "POST /payment-requests/{formType}/{id}/submit/validate",
            row: Row::Draft,
            distinct: All,
            same: All,
            after: Version,
            logs: 0,
            call: |_, t, _| {
                call(M::POST, format!("{}/submit/validate", s(&t["url"])), Admin, json!({}))
            },
        },
        Route {
            name: "POST /payment-requests/{formType}/{id}/move-to-draft",
            row: Row::Submitted,
            distinct: All,
            same: One,
            after: Version,
            logs: 1,
            call: |_, t, _| {
                call(M::POST, format!("{}/move-to-draft", s(&t["url"])), Approver, json!({}))
            },
        },
        Route {
            name: "POST /payment-requests/{formType}/{id}/send-for-revision",
            row: Row::Submitted,
            distinct: All,
            same: One,
            after: Version,
            logs: 1,
            call: |_, t, _| {
                call(
                    M::POST,
                    format!("{}/send-for-revision", s(&t["url"])),
                    Approver,
                    json!({"reason": "Add the date"}),
                )
            },
        },
        Route {
            name: "POST /payment-requests/{formType}/{id}/approve/validate",
            row: Row::Submitted,
            distinct: All,
            same: All,
            after: Version,
            logs: 0,
            call: |w, t, _| {
                call(M::POST, format!("{}/approve/validate", s(&t["url"])), Approver, w.approval())
            },
        },
        Route {
            name: "POST /payment-requests/{formType}/{id}/approve",
            row: Row::Submitted,
            distinct: All,
            same: One,
            after: Version,
            logs: 1,
            call: |w, t, _| {
                call(M::POST, format!("{}/approve", s(&t["url"])), Approver, w.approval())
            },
        },
        Route {
            name: "POST /payment-requests/{formType}/{id}/move-back-to-submitted",
            row: Row::Approved,
            distinct: All,
            same: One,
            after: Version,
            logs: 1,
            call: |_, t, _| {
                call(
                    M::POST,
                    format!("{}/move-back-to-submitted", s(&t["url"])),
                    Approver,
                    json!({}),
                )
            },
        },
        Route {
            name: "POST /payment-requests/{formType}/{id}/move-to-ready-for-processing",
            row: Row::Approved,
            distinct: All,
            same: One,
            after: Version,
            logs: 1,
            call: |_, t, _| {
                call(
                    M::POST,
                    format!("{}/move-to-ready-for-processing", s(&t["url"])),
                    Approver,
                    json!({}),
                )
            },
        },
        Route {
            name: "POST /payment-requests/move-to-statuses/ready-for-processing/batch",
            row: Row::Approved,
            distinct: All,
            same: One,
            after: Version,
            logs: 1,
            call: |_, t, _| {
                call(
                    M::POST,
                    format!("{PR}/move-to-statuses/ready-for-processing/batch"),
                    Approver,
                    json!({"ids": [t["id"]]}),
                )
            },
        },
    ]
}

fn person(key: &str, role: &str) -> Value {
    json!({
        "firstName": "Pat", "lastName": key, "email": format!("{key}@example.org"), "phone": "(916) 555-0100",
        "address": "1 Capitol Mall, Sacramento", "status": "Active", "roleCode": role,
        "districtSetType": "Assembly", "districtId": 7, "caucusRegionId": 1,
        "workplaceSettingIds": [1], "languageIds": [1], "educationLevelIds": [3], "permitLevelIds": [2],
    })
}

/// A role that sees programs without a participant, so its invitations need none.
const STAFF: &str = "Staff";

fn user_body(key: &str) -> Value {
    json!({"email": format!("{key}@example.org"), "firstName": "Test", "lastName": key, "roles": [STAFF]})
}

struct World {
    app: TestApp,
    admin: String,
    approver: String,
    fy: i64,
    programs: Vec<i64>,
    fund: i64,
    account: i64,
    /// The payee's participation that every request is for.
    payee: i64,
    approval_code: i64,
    limits: Value,
    /// Makes names unique across bursts (creates run twice: distinct and same).
    counter: std::sync::atomic::AtomicI64,
    burst: std::sync::atomic::AtomicI64,
}

impl World {
    async fn new() -> World {
        // Sign-in throttling is its own test (identity.rs); here it would only hide contention.
        let app = spawn_with(&[
            "--login-attempts-per-minute",
            "10000",
            "--receipt-uploads-per-minute",
            "10000",
        ])
        .await;
        let admin = app.admin_token().await;
        let fy = app
            .post(
                "/api/v1/system-settings/fiscal-years",
                Some(&admin),
                json!({"name": shifted_fy("FY 2026-27"), "startDate": shifted("2026-07-01"), "endDate": shifted("2027-06-30")}),
            )
            .await;
        let fy = fy.ok()["id"].as_i64().unwrap();
        let ids = |v: &Value| {
            v.as_array().unwrap().iter().map(|p| p["id"].as_i64().unwrap()).collect::<Vec<_>>()
        };
        let mut programs = ids(app.get("/api/v1/mentor-programs", &admin).await.ok());
        programs.sort();
        let account = ids(app.get("/api/v1/expense-accounts", &admin).await.ok())[0];
        let fund = ids(app.get("/api/v1/funds", &admin).await.ok())[0];
        let codes = app.get("/api/v1/approval-codes", &admin).await.ok().clone();
        let approval_code = codes
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["paymentRequestType"] == "F5")
            .expect("an F5 approval code")["id"]
            .as_i64()
            .unwrap();
        let limits =
            app.get("/api/v1/system-settings/form-validation-limits", &admin).await.ok().clone();
        app.create_user(&admin, "approver@example.org", &["Administrator"], PASSWORD).await;
        let staff = json!({"name": STAFF, "permissions": ["participant:read"]});
        app.post("/api/v1/identity/roles", Some(&admin), staff).await.ok();
        let (approver, _) = app.login("approver@example.org", PASSWORD).await;
        let mut w = World {
            app,
            admin,
            approver,
            fy,
            programs,
            fund,
            account,
            payee: 0,
            approval_code,
            limits,
            counter: 0.into(),
            burst: 0.into(),
        };
        let mut payee = person("payee", "Mentor");
        payee["participations"] = json!([w.taking(w.programs[0], "Mentor")]);
        let r = w.app.post("/api/v1/participants", Some(&w.admin), payee).await;
        w.payee = r.ok()["participations"][0]["id"].as_i64().unwrap();
        w
    }

    fn unique(&self) -> i64 {
        self.counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    }

    /// Distinguishes the bursts, so a create's "same" body never collides with an earlier burst.
    fn tag(&self) -> i64 {
        self.burst.load(std::sync::atomic::Ordering::Relaxed)
    }

    fn next_year(&self) -> i64 {
        self.tag()
    }

    fn taking(&self, program: i64, role: &str) -> Value {
        json!({"mentorProgramId": program, "fiscalYearId": self.fy, "roleCode": role, "collegeId": 1, "startDate": shifted("2026-07-01"), "endDate": shifted("2027-06-30")})
    }

    fn request_body(&self) -> Value {
        json!({"participationId": self.payee, "description": "Seminar", "requestedAmount": 100,
            "details": {"seminarDate": shifted("2026-10-01"), "topic": "Play", "hours": 3}})
    }

    fn approval(&self) -> Value {
        json!({"approvedAmount": 50, "approvalCodeId": self.approval_code, "fundId": self.fund, "expenseAccountId": self.account, "acknowledgeWarnings": true})
    }

    fn token(&self, who: &Who) -> Option<&str> {
        match who {
            Who::Admin => Some(&self.admin),
            Who::Approver => Some(&self.approver),
            Who::Anonymous => None,
        }
    }

    /// One status per call; 0 when the connection broke without an answer.
    async fn send(&self, c: &Call) -> (u16, String) {
        let mut req =
            self.app.client.request(c.method.clone(), format!("{}{}", self.app.base, c.path));
        if let Some(t) = self.token(&c.who) {
            req = req.bearer_auth(t);
        }
        req = match &c.body {
            Body::None => req,
            Body::Json(v) => req.json(v),
            Body::Pdf => req.header("Content-Type", "application/pdf").body(PDF.to_vec()),
            Body::File(bytes) => req.multipart(reqwest::multipart::Form::new().part(
                "file",
                reqwest::multipart::Part::bytes(bytes.clone()).file_name("people.csv"),
            )),
        };
        match req.send().await {
            Ok(res) => (res.status().as_u16(), res.text().await.unwrap_or_default()),
            Err(e) => (0, e.to_string()),
        }
    }

    async fn ok(&self, method: Method, path: &str, body: Value) -> Value {
        let r = self
            .app
            .call(
                method.clone(),
                path,
                Some(&self.admin),
                if body.is_null() { None } else { Some(body) },
            )
            .await;
        assert!(r.status.is_success(), "setup {method} {path}: {} {}", r.status, r.body);
        r.body
    }

    async fn request_in(&self, status: &str) -> Value {
        let r = self.ok(M::POST, &format!("{PR}/F5"), self.request_body()).await;
        let url = format!("{PR}/F5/{}", r["id"]);
        let r = match status {
            "Draft" => r,
            _ => {
                let r = self.ok(M::POST, &format!("{url}/submit"), json!({})).await;
                if status == "Submitted" {
                    r
                } else {
                    let a = self
                        .app
                        .post(&format!("{url}/approve"), Some(&self.approver), self.approval())
                        .await;
                    a.ok().clone()
                }
            }
        };
        json!({"id": r["id"], "url": url, "version": r["version"]})
    }

    /// A fresh row of the kind, described by its id, url, version and whatever the route needs.
    async fn prepare(&self, row: Row) -> Value {
        let n = self.unique();
        match row {
            Row::Nothing => json!({}),
            Row::Session => {
                let (token, refresh) = self.app.login(ADMIN_EMAIL, ADMIN_PASSWORD).await;
                json!({"token": token, "refreshToken": refresh})
            }
            Row::Invited | Row::User => {
                let key = format!("user{n}");
                let u = self.ok(M::POST, "/api/v1/identity/users", user_body(&key)).await;
                let (email, token) =
                    self.app.link_in_queued_mail(&format!("{key}@example.org"), 1).await;
                json!({"id": u["id"], "url": format!("/api/v1/identity/users/{}", u["id"]), "email": email, "token": token})
            }
            Row::Role => {
                let name = format!("Prepared role {n}");
                let r = self
                    .ok(M::POST, "/api/v1/identity/roles", json!({"name": name, "permissions": []}))
                    .await;
                json!({"id": r["id"], "url": format!("/api/v1/identity/roles/{}", r["id"]), "name": name})
            }
            Row::Participant | Row::Participation => {
                let mut body = person(&format!("prepared{n}"), "Coordinator");
                body["participations"] = json!([self.taking(self.programs[0], "Coordinator")]);
                let p = self.ok(M::POST, "/api/v1/participants", body.clone()).await;
                body.as_object_mut().unwrap().remove("participations");
                let url = format!("/api/v1/participants/{}", p["id"]);
                match row {
                    Row::Participant => {
                        json!({"id": p["id"], "url": url, "version": p["version"], "body": body})
                    }
                    _ => {
                        json!({"id": p["participations"][0]["id"], "url": format!("{url}/participations/{}", p["participations"][0]["id"])})
                    }
                }
            }
            Row::BudgetLine => {
                let fund = self
                    .ok(
                        M::POST,
                        "/api/v1/funds",
                        json!({"name": format!("Prepared fund {n}"), "code": format!("PF{n}")}),
                    )
                    .await;
                let line = json!({"mentorProgramId": self.programs[0], "fundId": fund["id"], "expenseAccountId": self.account, "amount": 1000});
                let detail = self
                    .ok(
                        M::PUT,
                        "/api/v1/budgets/bulk-update",
                        json!({"fiscalYearId": self.fy, "lines": [line]}),
                    )
                    .await;
                let l = detail["lines"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|l| l["fundId"] == fund["id"])
                    .expect("the new line")
                    .clone();
                json!({"id": l["id"], "url": format!("/api/v1/budgets/{}", l["id"]), "version": l["version"], "fundId": fund["id"]})
            }
            Row::FiscalYear | Row::ClosedYear | Row::YearToFill => {
                let year = self.new_year().await;
                let url = format!("/api/v1/system-settings/fiscal-years/{year}");
                match row {
                    Row::ClosedYear => {
                        self.ok(M::POST, &format!("{url}/close"), json!({"reason": "Prepared"}))
                            .await;
                        json!({"id": year, "url": url})
                    }
                    Row::YearToFill => {
                        let source = self.new_year().await;
                        let line = json!({"mentorProgramId": self.programs[0], "fundId": self.fund, "expenseAccountId": self.account, "amount": 1000});
                        let bulk = json!({"fiscalYearId": source, "lines": [line]});
                        self.ok(M::PUT, "/api/v1/budgets/bulk-update", bulk).await;
                        json!({"id": year, "source": source})
                    }
                    _ => json!({"id": year, "url": url}),
                }
            }
            Row::RefItem(list) => {
                let mut body = json!({"name": format!("Prepared {list} {n}"), "code": format!("R{n}-{}", self.tag())});
                match list {
                    "mentor-programs" => body["collegeIds"] = json!([1]),
                    "approval-codes" => body["paymentRequestType"] = json!("F5"),
                    _ => {}
                }
                let r = self.ok(M::POST, &format!("/api/v1/{list}"), body).await;
                json!({"id": r["id"], "url": format!("/api/v1/{list}/{}", r["id"])})
            }
            Row::Announced => self.announce().await,
            Row::Draft => self.request_in("Draft").await,
            Row::Submitted => self.request_in("Submitted").await,
            Row::Approved => self.request_in("Approved").await,
            Row::DraftWithReceipt => {
                let file = self.announce().await;
                let up = self
                    .send(&Call {
                        method: M::PUT,
                        path: s(&file["uploadUrl"]),
                        who: Anonymous,
                        body: Body::Pdf,
                    })
                    .await;
                assert_eq!(up.0, 204, "{}", up.1);
                let mut body = json!({"participationId": self.payee, "description": "Books", "details": {"items": [{"date": shifted("2026-10-01"), "description": "Books", "amount": 12.5}], "fileIds": [file["fileId"]]}});
                let r = self.ok(M::POST, &format!("{PR}/F2"), body.take()).await;
                json!({"id": r["id"], "url": format!("{PR}/F2/{}", r["id"]), "version": r["version"], "fileId": file["fileId"]})
            }
            Row::General => {
                let g =
                    self.app.get("/api/v1/system-settings/general", &self.admin).await.ok().clone();
                json!({"id": g["id"], "url": format!("/api/v1/system-settings/general/{}", g["id"]), "read": "/api/v1/system-settings/general", "version": g["version"], "body": g})
            }
        }
    }

    /// A new two-day fiscal year far ahead of the others (years never overlap): its id.
    async fn new_year(&self) -> i64 {
        let n = self.unique();
        let start =
            chrono::NaiveDate::from_ymd_opt(2060, 1, 1).unwrap() + chrono::Days::new(2 * n as u64);
        let end = start + chrono::Days::new(1);
        let body = json!({"name": format!("Year {n}"), "startDate": start, "endDate": end});
        self.ok(M::POST, "/api/v1/system-settings/fiscal-years", body).await["id"].as_i64().unwrap()
    }

    async fn announce(&self) -> Value {
        let r = self.ok(M::POST, "/api/v1/fileupload/generate-upload-urls", json!({"files": [{"fileName": "receipt.pdf", "contentType": "application/pdf", "size": PDF.len()}]})).await;
        r[0].clone()
    }

    async fn log_entries(&self) -> u64 {
        activity_log::Entity::find().count(&self.app.state.db).await.unwrap()
    }

    async fn audit_entries(&self) -> u64 {
        audit_log::Entity::find().count(&self.app.state.db).await.unwrap()
    }
}

/// One burst: CLIENTS concurrent calls, on distinct rows or all on one row.
async fn burst(w: &World, route: &Route, same_row: bool) -> Vec<String> {
    w.burst.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let rows = if same_row { 1 } else { CLIENTS };
    // Prepared concurrently too: the server is built for it (and it keeps this test short).
    let targets: Vec<Value> = join_all((0..rows).map(|_| w.prepare(route.row))).await;
    let row_of = |client: usize| if same_row { 0 } else { client };
    let calls: Vec<Call> = (0..CLIENTS)
        .map(|c| (route.call)(w, &targets[row_of(c)], if same_row { 0 } else { c }))
        .collect();
    let (logs_before, audit_before) = (w.log_entries().await, w.audit_entries().await);
    let replies = join_all(calls.iter().map(|c| w.send(c))).await;
    let (logs_after, audit_after) = (w.log_entries().await, w.audit_entries().await);

    let mode = if same_row { "same row" } else { "distinct rows" };
    let mut failures = Vec::new();
    let mut wins = vec![0_i64; rows];
    for (client, (status, body)) in replies.iter().enumerate() {
        match status {
            200..=299 => wins[row_of(client)] += 1,
            400..=499 => {}
            _ => failures
                .push(format!("{} ({mode}): client {client} got {status}: {body}", route.name)),
        }
    }
    let expected = if same_row { route.same } else { route.distinct };
    // A single-row route (general settings) is one row even "distinct".
    let shared = !same_row && targets.windows(2).all(|p| p[0] == p[1]) && targets[0] != json!({});
    let per_row: Vec<i64> = if shared { vec![wins.iter().sum()] } else { wins.clone() };
    let want = |n: i64| match expected {
        Wins::All | Wins::Idem if shared || same_row => n == CLIENTS as i64,
        Wins::All | Wins::Idem => n == 1,
        Wins::One => n == 1,
    };
    if !per_row.iter().all(|&n| want(n)) {
        let statuses: Vec<u16> = replies.iter().map(|r| r.0).collect();
        failures.push(format!("{} ({mode}): winners per row {per_row:?}, expected {expected:?}; statuses {statuses:?}; first body {}", route.name, replies[0].1));
    }
    let winners: i64 = wins.iter().sum();
    let changes = if expected == Wins::Idem {
        per_row.iter().filter(|&&n| n > 0).count() as i64
    } else {
        winners
    };
    if logs_after - logs_before != route.logs * changes as u64 {
        failures.push(format!(
            "{} ({mode}): {} activity entries for {changes} changes, expected {} each",
            route.name,
            logs_after - logs_before,
            route.logs
        ));
    }
    if !CHANGE_NOTHING.contains(&route.name) && audit_after - audit_before < changes as u64 {
        failures.push(format!(
            "{} ({mode}): {} audit entries for {changes} changes: every change needs one",
            route.name,
            audit_after - audit_before
        ));
    }
    let checked: Vec<usize> = if shared { vec![0] } else { (0..rows).collect() };
    for row in checked {
        let t = &targets[row];
        let row_wins = if shared { winners } else { wins[row] };
        let read = if t["read"].is_string() { s(&t["read"]) } else { s(&t["url"]) };
        match route.after {
            After::Nothing => {}
            After::Version => {
                let now = w.app.get(&read, &w.admin).await;
                let (before, after) = (t["version"].as_i64(), now.body["version"].as_i64());
                let bumped = if route.logs == 0 { 0 } else { row_wins };
                if now.status != 200 || after != before.map(|v| v + bumped) {
                    failures.push(format!("{} ({mode}): version {before:?} -> {after:?} after {row_wins} winners ({})", route.name, now.status));
                }
            }
            After::Gone => {
                let now = w.app.get(&read, &w.admin).await;
                if now.status != 404 {
                    failures.push(format!(
                        "{} ({mode}): still there after delete ({})",
                        route.name, now.status
                    ));
                }
            }
            After::Inactive => {
                let now = w.app.get(&read, &w.admin).await;
                if now.body["isActive"] != json!(false) {
                    failures.push(format!(
                        "{} ({mode}): still active after delete ({} {})",
                        route.name, now.status, now.body
                    ));
                }
            }
        }
    }
    failures
}

#[actix_web::test]
async fn every_write_route_holds_under_sixteen_concurrent_clients() {
    let w = World::new().await;
    let routes = routes();
    let mut failures = Vec::new();
    for route in &routes {
        let started = std::time::Instant::now();
        for same_row in [false, true] {
            failures.extend(burst(&w, route, same_row).await);
        }
        eprintln!("{:>6} ms  {}", started.elapsed().as_millis(), route.name);
    }
    if let Err(e) = support::totals_match_recount(&w.app.state.db).await {
        failures.push(e);
    }
    if let Err(e) = support::integrity_ok(&w.app.state.db).await {
        failures.push(e);
    }
    let chain = mentorpay::audit::verify(&w.app.state.db).await.unwrap();
    if chain.first_broken.is_some() {
        failures.push(format!("the audit chain broke at entry {:?}", chain.first_broken));
    }
    assert!(
        failures.is_empty(),
        "{} problems over {} routes:\n{}",
        failures.len(),
        routes.len(),
        failures.join("\n")
    );
}

/// Paging and numeric query values are checked before any query: a 400 naming the
/// parameter, never a panic or a dropped connection.
#[actix_web::test]
async fn out_of_range_query_values_are_400_naming_the_parameter() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    for list in ["/api/v1/participants", "/api/v1/payment-requests", "/api/v1/identity/users"] {
        for (query, param) in [
            ("Page=9223372036854775806&Size=16", "Page"),
            ("Page=9223372036854775807", "Page"),
            ("Page=99999999999999999999", "Page"),
            ("page=-1", "Page"),
            ("Size=100000", "Size"),
            ("SIZE=9223372036854775807", "Size"),
            ("Page=1.5", "Page"),
        ] {
            let r = app.get(&format!("{list}?{query}"), &admin).await;
            let body = r.problem(400);
            assert!(body["errors"][param].is_array(), "{list}?{query}: {body}");
        }
        app.get(&format!("{list}?Page=1000000&Size=500"), &admin).await.ok();
    }
    for (path, param) in [
        ("/api/v1/participants?MentorProgramId=99999999999", "MentorProgramId"),
        ("/api/v1/payment-requests?ParticipationId=-99999999999", "ParticipationId"),
        ("/api/v1/payment-requests/summary?MentorProgramId=1e3", "MentorProgramId"),
        ("/api/v1/payment-requests?ApprovedStart=2026-02-30", "ApprovedStart"),
    ] {
        let r = app.get(path, &admin).await;
        assert!(r.problem(400)["errors"][param].is_array(), "{path}: {}", r.body);
    }
}

/// Write routes that change nothing recorded: checking a link, a request or an approval rule, and a token
/// refresh (the session moves on; only a reused token, a security event, is recorded).
const CHANGE_NOTHING: [&str; 5] = [
    "POST /identity/reset-token/validate",
    "POST /system-settings/approval-rules/{formType}/try",
    "POST /identity/refresh",
    "POST /payment-requests/{formType}/{id}/submit/validate",
    "POST /payment-requests/{formType}/{id}/approve/validate",
];

/// Write routes whose concurrency needs more than one row per client, proven in their own
/// suite: vendor payment generation (tests/integration/vendor_payments.rs: 8 concurrent generations over
/// overlapping ranges pay each request once; generation racing moves and batches).
const CHECKED_ELSEWHERE: [&str; 24] = [
    "POST /reports/vendor-payments",
    // The second factor, sessions and sign-on: each acts on the caller's own sign-in, factor
    // or one settings document through single-use rows (codes, challenges, tickets), tested
    // in tests/integration/mfa.rs, passkeys.rs, sso_oidc.rs and sso_ldap.rs; not yet raced here.
    "POST /identity/login/enroll/totp",
    "POST /identity/login/enroll/totp/confirm",
    "POST /identity/login/mfa",
    "POST /identity/login/passkey/start",
    "POST /identity/login/passkey/finish",
    "POST /identity/me/mfa/totp",
    "DELETE /identity/me/mfa/totp",
    "POST /identity/me/mfa/totp/confirm",
    "POST /identity/me/passkeys/register/start",
    "POST /identity/me/passkeys/register/finish",
    "PUT /identity/me/passkeys/{id}",
    "DELETE /identity/me/passkeys/{id}",
    "POST /identity/me/sessions/end-others",
    "DELETE /identity/me/sessions/{id}",
    "POST /identity/sso/exchange",
    "DELETE /identity/users/{id}/mfa",
    "DELETE /identity/users/{id}/sessions",
    "PUT /system-settings/security",
    "PUT /system-settings/sso",
    // Time away: one row per person, raced in tests/integration/stand_ins.rs.
    "PUT /identity/me/out-of-office",
    "DELETE /identity/me/out-of-office",
    "PUT /identity/users/{id}/out-of-office",
    "DELETE /identity/users/{id}/out-of-office",
];

/// The table covers every write route the OpenAPI document lists: a new POST, PUT, PATCH
/// or DELETE route needs its line in `routes()` (or in `CHECKED_ELSEWHERE`).
#[actix_web::test]
async fn every_write_route_of_the_api_is_in_the_table() {
    let app = spawn().await;
    let doc = app.call(Method::GET, "/api/v1/openapi.json", None, None).await;
    let table: Vec<&str> = routes().iter().map(|r| r.name).collect();
    let mut documented = Vec::new();
    for (path, item) in doc.ok()["paths"].as_object().unwrap() {
        for method in ["post", "put", "patch", "delete"] {
            if item[method].is_object() {
                documented.push(format!(
                    "{} {}",
                    method.to_uppercase(),
                    path.trim_start_matches("/api/v1")
                ));
            }
        }
    }
    let missing: Vec<&String> = documented
        .iter()
        .filter(|d| !table.contains(&d.as_str()) && !CHECKED_ELSEWHERE.contains(&d.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "write routes without a line in tests/integration/contention.rs routes(): {missing:#?}"
    );
    let unknown: Vec<&&str> =
        table.iter().filter(|t| !documented.iter().any(|d| d == *t)).collect();
    assert!(unknown.is_empty(), "lines naming no documented route: {unknown:#?}");
}

/// Every write transaction starts through `db::write` (BEGIN IMMEDIATE on SQLite, the write
/// lock on PostgreSQL): a plain `begin()` elsewhere brings "database is locked" back. The
/// SQLite export reader's transaction is a snapshot on a read-only connection, which cannot
/// write.
#[test]
fn no_transaction_starts_outside_db_write() {
    const OWN_TRANSACTIONS: [&str; 2] = ["src/db.rs", "src/db/sqlite_speed/reader.rs"];
    fn scan(dir: &std::path::Path, found: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                scan(&path, found);
            } else if path.extension().is_some_and(|e| e == "rs")
                && !OWN_TRANSACTIONS.iter().any(|own| path.ends_with(own))
            {
                let text = std::fs::read_to_string(&path).unwrap();
                for (i, line) in text.lines().enumerate() {
                    if [".begin()", ".begin_with_config(", ".begin_with_options(", ".transaction("]
                        .iter()
                        .any(|call| line.contains(call))
                    {
                        found.push(format!("{}:{}: {}", path.display(), i + 1, line.trim()));
                    }
                }
            }
        }
    }
    let mut found = Vec::new();
    scan(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut found);
    assert!(
        found.is_empty(),
        "start write transactions with crate::db::write(&db) instead:\n{}",
        found.join("\n")
    );
}

/// A write waits for the write lock (the busy timeout, 10 s) instead of failing at once; one
/// held longer than that is a 503 "try again" — never a 500 — and reads never wait.
#[actix_web::test]
async fn a_write_lock_held_past_the_busy_timeout_is_503_and_reads_go_on() {
    if support::skip_on_postgres("holds SQLite's write lock from a second connection") {
        return;
    }
    let app = spawn().await;
    let admin = app.admin_token().await;
    let body = json!({"name": "Waiting role", "permissions": []});
    let other = support::open_sqlite(&app.dir.path().join("mentorpay.db")).await;
    let lock = mentorpay::db::write(&other).await.unwrap();
    let started = std::time::Instant::now();
    let (write, read) = futures_util::future::join(
        app.post("/api/v1/identity/roles", Some(&admin), body.clone()),
        async {
            let r = app.get("/api/v1/identity/roles", &admin).await;
            (r.status, started.elapsed())
        },
    )
    .await;
    let waited = started.elapsed();
    assert_eq!(write.problem(503)["detail"], "The server is busy. Try again in a moment.");
    assert!(
        waited >= std::time::Duration::from_secs(9),
        "the write waited for the lock ({waited:?})"
    );
    assert_eq!(read.0, 200);
    assert!(
        read.1 < std::time::Duration::from_secs(5),
        "the read did not wait for the writer ({:?})",
        read.1
    );
    lock.rollback().await.unwrap();
    assert_eq!(app.post("/api/v1/identity/roles", Some(&admin), body).await.status, 201);
}
