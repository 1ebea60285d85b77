//! `mentorpay demo`: a newcomer's database shows a living app, and loading twice changes nothing.

mod common;

use common::*;

#[actix_web::test]
async fn the_demo_world_fills_every_screen_once() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let loaded = mentorpay::demo::world::load(&app.state.db).await.unwrap().expect("an empty database takes the demo");
    assert_eq!((loaded.participants, loaded.requests), (200, 600));
    assert!(loaded.budget_lines > 0);

    assert_eq!(app.get("/api/v1/participants?Size=1", &admin).await.ok()["totalCount"], 200);
    let summary = app.get("/api/v1/payment-requests/summary", &admin).await.ok().clone();
    let counts: Vec<i64> = summary.as_array().unwrap().iter().map(|s| s["count"].as_i64().unwrap()).collect();
    assert_eq!(counts.iter().sum::<i64>(), 600);
    assert!(counts.iter().all(|c| *c > 0), "requests in every status: {summary}");

    let years = app.get("/api/v1/budgets", &admin).await.ok().clone();
    let years = years.as_array().unwrap_or_else(|| panic!("{years}")).clone();
    assert_eq!(years.len(), 2, "{years:?}");
    for y in &years {
        let id = y["fiscalYearId"].as_i64().unwrap();
        assert!(y["approved"].as_f64().unwrap() > 0.0 && y["remaining"].as_f64().unwrap() > 0.0, "{y}");
        let detail = app.get(&format!("/api/v1/budgets/{id}"), &admin).await.ok().clone();
        let lines = detail["lines"].as_array().unwrap();
        assert!(!lines.is_empty(), "{detail}");
        for line in lines {
            assert!(line["remaining"].as_f64().unwrap() > 0.0, "room left on every line: {line}");
            assert!(line["approved"].as_f64().unwrap() > 0.0, "{line}");
        }
    }

    // A second load (or one on real data) writes nothing.
    assert!(mentorpay::demo::world::load(&app.state.db).await.unwrap().is_none());
    assert_eq!(app.get("/api/v1/payment-requests?Size=1", &admin).await.ok()["totalCount"], 600);
}
