//! Approvals by request type and approvals by accounts answer a date window from kept figures
//! (per submitted day and per approval hour, migration `window_totals`) when the caller's zone
//! is a whole number of hours from UTC. Each answer is compared with grouping the requests
//! themselves (the reports' `grouped_rows`, which no route reaches) for the same filters,
//! across days, zones (UTC, west and east of it), windows, filters and scopes, before and
//! after every move the kept totals follow; and a kept figure put wrong by hand is seen.

use crate::reports::{act, approve, create, sql, world, World};
use crate::support;

use std::collections::BTreeSet;

use chrono::{Duration, NaiveDate};
use mentorpay::{
    auth::scope::Scope,
    reports::{
        approvals_by_accounts::{self, ApprovalsByAccounts},
        approvals_by_request_type::{self, ApprovalsByRequestType},
        export::{Cell, Record, Row},
        query::ReportQuery,
        runner::GroupedReport,
    },
};
use serde_json::{json, Value};

const PR: &str = "/api/v1/payment-requests";
const VP: &str = "/api/v1/reports/vendor-payments";

/// UTC, Pacific and Eastern (west of UTC), Central Europe and Eastern Europe (east of it),
/// and the two ends of the range.
const ZONES: [i32; 7] = [0, 480, 300, -60, -120, 840, -840];

fn id(r: &Value) -> i64 {
    r["id"].as_i64().unwrap()
}

/// Moves request `r`'s approval to `at` (UTC) and its submission to `submitted`.
async fn moved(w: &World, r: &Value, at: &str, submitted: NaiveDate) {
    sql(
        w,
        &format!(
            "UPDATE payment_requests SET approved_at = '{at}', submitted_on = '{submitted}' WHERE id = {}",
            id(r)
        ),
    )
    .await;
}

/// The days around `d` (r2's UTC approval day), the windows asked for.
fn windows(w: &World) -> Vec<(Option<NaiveDate>, Option<NaiveDate>)> {
    let d = w.r2_day;
    let day = |n: i64| Some(d + Duration::days(n));
    vec![
        (day(-1), day(-1)),
        (day(0), day(0)),
        (day(1), day(1)),
        (day(2), day(3)),
        (day(-1), day(1)),
        (day(0), None),
        (None, day(0)),
        (Some(w.last_fy_day - Duration::days(1)), Some(w.last_fy_day)),
        (day(-400), day(400)),
    ]
}

/// Per (report, zone, window, filter, scope): kept answer == grouped answer. Returns the
/// approvals counted by request type in each window (UTC, every program), to tell the windows
/// and zones apart.
async fn compare(w: &World, label: &str) -> Vec<(i32, i64)> {
    let db = &w.app.state.db;
    let (p0, fy) = (w.programs[0] as i32, w.fy as i32);
    let scopes = [Scope::All, Scope::Programs(BTreeSet::from([p0]))];
    let mut approved = Vec::new();
    for offset in ZONES {
        for (start, end) in windows(w) {
            for (program, year) in [(None, None), (None, Some(fy)), (Some(p0), None)] {
                for scope in &scopes {
                    let f = ReportQuery {
                        startdate: start,
                        enddate: end,
                        minutesoffset: Some(offset),
                        mentorprogramid: program,
                        fiscalyearid: year,
                        ..Default::default()
                    }
                    .filters()
                    .unwrap();
                    let what = format!(
                        "{label}: zone {offset}, {start:?}..{end:?}, program {program:?}, year {year:?}, {scope:?}"
                    );
                    let kept = ApprovalsByRequestType::rows(db, &f, scope).await.unwrap();
                    let grouped =
                        approvals_by_request_type::grouped_rows(db, &f, scope).await.unwrap();
                    assert_eq!(kept, grouped, "approvals by request type, {what}");
                    let kept = ApprovalsByAccounts::rows(db, &f, scope).await.unwrap();
                    let grouped = approvals_by_accounts::grouped_rows(db, &f, scope).await.unwrap();
                    assert_eq!(kept, grouped, "approvals by accounts, {what}");
                    if (program, year, scope) == (None, None, &Scope::All) {
                        let rows = ApprovalsByRequestType::rows(db, &f, scope).await.unwrap();
                        approved.push((offset, column_sum(&rows, 3)));
                    }
                }
            }
        }
    }
    support::totals_match_recount(db).await.unwrap();
    approved
}

fn column_sum(rows: &[(Row, Record)], i: usize) -> i64 {
    rows.iter().map(|(r, _)| if let Cell::Int(n) = r[i] { n } else { 0 }).sum()
}

#[actix_web::test]
async fn a_window_from_kept_figures_equals_grouping_the_requests() {
    let w = world().await;
    let d = w.r2_day;
    let (f0, f1, a0, a1) = (w.funds[0], w.funds[1], w.accounts[0], w.accounts[1]);
    // r1 pays from program 0, r3 from program 1.
    let (p0, p1) = (
        w.req[0]["participationId"].as_i64().unwrap(),
        w.req[2]["participationId"].as_i64().unwrap(),
    );
    let submitted = |form: &'static str, participation: i64| {
        let w = &w;
        async move {
            let r = create(w, form, participation, "Window").await;
            act(w, &w.admin, &r, "submit", json!({})).await
        }
    };
    // Approvals on each side of midnight in the zones compared: 07:30 UTC is the day before
    // in Pacific time, 08:00 the day itself; 23:30 UTC is the next day in Central Europe,
    // 00:30 the previous one in Eastern time.
    let a = approve(&w, &submitted("F1", p0).await, 95.0, f0, a0, "").await;
    moved(&w, &a, &format!("{d}T07:30:00+00:00"), d - Duration::days(3)).await;
    let b = approve(&w, &submitted("F1", p1).await, 60.0, f1, a1, "").await;
    moved(&w, &b, &format!("{d}T08:00:00+00:00"), d - Duration::days(1)).await;
    let c = approve(&w, &submitted("F3", p0).await, 15.75, f0, a1, "").await;
    moved(&w, &c, &format!("{d}T23:30:00+00:00"), d).await;
    let e = approve(&w, &submitted("F9", p1).await, 400.0, f1, a0, "").await;
    moved(&w, &e, &format!("{}T00:30:00+00:00", d + Duration::days(1)), d - Duration::days(5))
        .await;
    let g = approve(&w, &submitted("F4", p1).await, 70.0, f1, a1, "").await;
    moved(&w, &g, &format!("{}T21:00:00+00:00", d + Duration::days(3)), d + Duration::days(2))
        .await;
    let h = submitted("F5", p0).await;
    sql(
        &w,
        &format!(
            "UPDATE payment_requests SET submitted_on = '{}' WHERE id = {}",
            d + Duration::days(1),
            id(&h)
        ),
    )
    .await;

    let built = compare(&w, "as built").await;
    // Not a comparison of empty answers: the windows hold approvals, and the zone moves them
    // (r2's 03:30 and a's 07:30 UTC approvals are the day before in Pacific time).
    assert!(built.iter().any(|(_, n)| *n > 0), "{built:?}");
    let per_zone = |offset: i32| -> Vec<i64> {
        built.iter().filter(|(o, _)| *o == offset).map(|(_, n)| *n).collect()
    };
    assert_ne!(per_zone(0), per_zone(480), "the zone moves approvals between days");
    assert_ne!(per_zone(0), per_zone(-60), "east of UTC too");

    // Approve, with its moment near midnight.
    let r5 = approve(&w, &w.req[4], 50.0, f0, a0, "late").await;
    moved(&w, &r5, &format!("{d}T06:00:00+00:00"), d - Duration::days(2)).await;
    compare(&w, "approved").await;
    // Send for revision, and submit again.
    let r =
        act(&w, &w.approver, &h, "send-for-revision", json!({"reason": "Add the agenda"})).await;
    compare(&w, "sent for revision").await;
    let h = act(&w, &w.admin, &r, "submit", json!({})).await;
    compare(&w, "submitted again").await;
    // Move back to submitted, and approve again at another hour.
    act(&w, &w.approver, &a, "move-back-to-submitted", json!({})).await;
    compare(&w, "moved back").await;
    let a = approve(
        &w,
        &w.app.get(&format!("{PR}/F1/{}", id(&a)), &w.admin).await.ok().clone(),
        80.0,
        f1,
        a0,
        "again",
    )
    .await;
    moved(&w, &a, &format!("{d}T09:00:00+00:00"), d - Duration::days(3)).await;
    compare(&w, "approved again").await;
    // Back to a draft, then deleted.
    let draft = act(&w, &w.admin, &h, "move-to-draft", json!({})).await;
    compare(&w, "moved to draft").await;
    let deleted = w.app.delete(&format!("{PR}/F5/{}", id(&draft)), &w.admin).await;
    assert_eq!(deleted.status, 204, "{}", deleted.body);
    compare(&w, "deleted").await;
    // Paid: ready for processing, then a vendor payment of its approval day.
    act(&w, &w.approver, &b, "move-to-ready-for-processing", json!({})).await;
    compare(&w, "ready for processing").await;
    let range = format!("{VP}?FiscalYearId={}&StartDate={d}&EndDate={d}&Size=500", w.fy);
    let preview = w.app.get(&range, &w.admin).await.ok().clone();
    assert_eq!(preview["totalCount"], 1, "{preview}");
    let paid = w
        .app
        .post(
            VP,
            Some(&w.admin),
            json!({"fiscalYearId": w.fy, "startDate": d, "endDate": d, "expectedCount": preview["totalCount"], "expectedTotal": preview["totals"]["amount"]}),
        )
        .await;
    paid.ok();
    let b = w.app.get(&format!("{PR}/F1/{}", id(&b)), &w.admin).await.ok().clone();
    assert_eq!(b["formStatus"], "Processed", "{b}");
    compare(&w, "paid").await;
    // Changes by hand: another program, year, fund and amount; a deletion.
    sql(&w, &format!("UPDATE payment_requests SET mentor_program_id = {}, fund_id = {f0}, approved_cents = 1234 WHERE id = {}", w.programs[0], id(&e))).await;
    sql(
        &w,
        &format!(
            "UPDATE payment_requests SET fiscal_year_id = {} WHERE id = {}",
            w.last_fy,
            id(&g)
        ),
    )
    .await;
    sql(
        &w,
        &format!(
            "UPDATE payment_requests SET deleted_at = '{d}T12:00:00+00:00' WHERE id = {}",
            id(&c)
        ),
    )
    .await;
    compare(&w, "changed by hand").await;

    // A kept figure that drifts is seen: the windows read them.
    let one_day = ReportQuery {
        startdate: Some(d),
        enddate: Some(d + Duration::days(3)),
        ..Default::default()
    }
    .filters()
    .unwrap();
    let db = &w.app.state.db;
    for table in [
        "payment_request_form_days SET submitted_count = submitted_count + 1",
        "payment_request_form_hours SET approved_cents = approved_cents + 1",
        "payment_request_line_hours SET approved_count = approved_count + 1",
    ] {
        sql(&w, &format!("UPDATE {table}")).await;
        let by_type = ApprovalsByRequestType::rows(db, &one_day, &Scope::All).await.unwrap()
            != approvals_by_request_type::grouped_rows(db, &one_day, &Scope::All).await.unwrap();
        let by_accounts = ApprovalsByAccounts::rows(db, &one_day, &Scope::All).await.unwrap()
            != approvals_by_accounts::grouped_rows(db, &one_day, &Scope::All).await.unwrap();
        assert!(by_type || by_accounts, "{table}: the drift goes unseen");
        assert!(support::window_figures_match_recount(db).await.is_err(), "{table}");
        sql(&w, &format!("UPDATE {}", table.replace(" + 1", " - 1"))).await;
    }
    support::window_figures_match_recount(db).await.unwrap();
}
