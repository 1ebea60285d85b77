//! A long backlog of waiting approval steps (more than a reminder pass reads at once): every
//! step reminded and escalated once and on its record, each person one mail a page listing the
//! longest waiting and counting the rest, and saves going on while the pass runs. Her
//! "Waiting for you" counts to a hundred and pages on past it.

use std::process::Stdio;

use sea_orm::{ConnectionTrait, DatabaseConnection, Statement};

use crate::common::*;
use serde_json::json;

const SECOND: &str = "second.admin@example.org";

/// Steps a pass reads at once (`notifications::commands`).
const PAGE: u64 = 5_000;

async fn count(db: &DatabaseConnection, sql: &str) -> u64 {
    let row = db
        .query_one_raw(Statement::from_string(db.get_database_backend(), sql))
        .await
        .unwrap()
        .unwrap();
    row.try_get_by_index::<i64>(0).unwrap() as u64
}

#[actix_web::test]
async fn a_long_backlog_is_reminded_in_pages_while_people_save() {
    let app = spawn().await;
    let db = &app.state.db;
    mentorpay::demo::seed::participants(db, 300).await.expect("participants");
    mentorpay::demo::seed::requests(db, 24_000).await.expect("requests");
    // A second Administrator, after the seed: she made none of its requests, so every
    // waiting step is hers to take.
    let admin = app.admin_token().await;
    app.create_user(&admin, SECOND, &["Administrator"], "second admin pass 123").await;
    let waiting = count(
        db,
        "SELECT count(*) FROM request_steps s JOIN payment_requests r ON r.id = s.payment_request_id \
         WHERE s.state = 'current' AND r.status = 'Submitted' AND r.deleted_at IS NULL",
    )
    .await;
    assert!(waiting > PAGE, "the seed should wait on more than one page: {waiting}");

    // The waiting list counts to a hundred, or to the end of the page asked for.
    let second = app.login(SECOND, "second admin pass 123").await.0;
    let list = "/api/v1/payment-requests?WaitingForMe=true";
    let home = app.get(&format!("{list}&Size=1"), &second).await.ok().clone();
    assert_eq!(
        (home["totalCount"].as_u64(), home["totalCountIsExact"].as_bool()),
        (Some(100), Some(false))
    );
    let fifth = app.get(&format!("{list}&Page=5&Size=25"), &second).await.ok().clone();
    assert_eq!(fifth["items"].as_array().unwrap().len(), 25, "past the count, pages go on");
    assert_eq!(
        (fifth["totalCount"].as_u64(), fifth["totalCountIsExact"].as_bool()),
        (Some(125), Some(false))
    );
    // Every page is a slice of one order: the second of 25 is the second half of one of 50.
    let ids = |v: &serde_json::Value| -> Vec<i64> {
        v["items"].as_array().unwrap().iter().map(|i| i["id"].as_i64().unwrap()).collect()
    };
    let oldest = format!("{list}&IsSubmittedOnSortedAscending=true");
    let fifty = app.get(&format!("{oldest}&Size=50"), &second).await.ok().clone();
    let next = app.get(&format!("{oldest}&Page=2&Size=25"), &second).await.ok().clone();
    assert_eq!(ids(&fifty)[25..], ids(&next)[..]);
    // Past the last match: no rows, and the count runs to the end.
    let beyond = app.get(&format!("{list}&Page=100000&Size=25"), &second).await.ok().clone();
    assert!(ids(&beyond).is_empty(), "{beyond}");
    assert_eq!(
        (beyond["totalCount"].as_u64(), beyond["totalCountIsExact"].as_bool()),
        (Some(waiting), Some(true))
    );

    // Far enough ahead that every seeded step is past both limits.
    let as_of = (mentorpay::clock::now() + chrono::Duration::days(60)).to_rfc3339();
    let mut running = app.remind(&as_of).stdout(Stdio::piped()).spawn().unwrap();
    // People go on saving while it runs (something the pass does not read): each save takes
    // the write lock between pages.
    let mut saved = 0;
    while running.try_wait().unwrap().is_none() {
        let fund = json!({"name": format!("Fund {saved}"), "code": format!("S{saved}")});
        let r = app.post("/api/v1/funds", Some(&admin), fund).await;
        assert_eq!(r.status, 201, "a save during the pass: {}", r.body);
        saved += 1;
    }
    let out = running.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{text}");
    let n: Vec<u64> =
        text.split(|c: char| !c.is_ascii_digit()).filter_map(|t| t.parse().ok()).collect();
    let pages = waiting.div_ceil(PAGE);
    assert_eq!(n, [waiting, waiting, 3 * pages], "every step reminded and escalated once: {text}");
    assert!(saved > 0);

    // The second Administrator may take every seeded step, and both hear of the escalations,
    // at once: a mail a page of each kind, listing fifty and counting the rest.
    for (to, subject) in
        [(SECOND, "Reminder: "), (SECOND, "Escalation: "), (ADMIN_EMAIL, "Escalation: ")]
    {
        let sql = format!(
            "SELECT event FROM outbox_mails WHERE recipient = '{to}' AND subject LIKE '{subject}%'"
        );
        let rows =
            db.query_all_raw(Statement::from_string(db.get_database_backend(), sql)).await.unwrap();
        assert_eq!(rows.len() as u64, pages, "{to}: {subject}");
        let mut told = 0;
        for row in rows {
            let event: serde_json::Value =
                serde_json::from_str(&row.try_get_by_index::<String>(0).unwrap()).unwrap();
            let listed = event["waiting"].as_array().unwrap().len() as u64;
            assert_eq!(listed, 50, "{event}");
            told += listed + event["more"].as_u64().unwrap();
        }
        assert_eq!(told, waiting, "{to}: {subject} every step once");
    }
    let creator = format!(
        "SELECT count(*) FROM outbox_mails WHERE recipient = '{ADMIN_EMAIL}' AND subject LIKE 'Reminder: %'"
    );
    assert_eq!(count(db, &creator).await, 0, "who made the requests may not take their steps");
    for action in ["approval-reminded", "approval-escalated"] {
        let noted = format!("SELECT count(*) FROM activity_log WHERE action = '{action}'");
        assert_eq!(count(db, &noted).await, waiting, "{action} on each request's record");
    }

    // The same day again: nothing more.
    let again = beside(app.remind(&as_of)).await;
    let text = String::from_utf8_lossy(&again.stdout).into_owned();
    assert!(again.status.success(), "{text}{}", String::from_utf8_lossy(&again.stderr));
    let n: Vec<u64> =
        text.split(|c: char| !c.is_ascii_digit()).filter_map(|t| t.parse().ok()).collect();
    assert_eq!(n, [0, 0, 0], "{text}");
}
