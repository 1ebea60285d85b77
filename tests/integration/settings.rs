//! Every settings call on the real app and a real SQLite file: fiscal years, general
//! settings (and their token lifetimes), form limits, the coordinator sign-in block and
//! notification banners; bad input, permissions and the activity log.

use crate::common;
use crate::common::dates::{shifted, shifted_fy};

use common::*;
use reqwest::Method;
use serde_json::{json, Value};

const COORD_EMAIL: &str = "coord@example.org";
const COORD_PASSWORD: &str = "coordinator pass 1";
const FY: &str = "/api/v1/system-settings/fiscal-years";
const GENERAL: &str = "/api/v1/system-settings/general";
const LIMITS: &str = "/api/v1/system-settings/form-validation-limits";
const BLOCK: &str = "/api/v1/system-settings/block-coordinator-login";
const BANNERS: &str = "/api/v1/system-settings/notification-banners";

/// (admin token, coordinator token)
async fn admin_and_coordinator(app: &TestApp) -> (String, String) {
    let admin = app.admin_token().await;
    app.create_user(&admin, COORD_EMAIL, &["Coordinator"], COORD_PASSWORD).await;
    let (coord, _) = app.login(COORD_EMAIL, COORD_PASSWORD).await;
    (admin, coord)
}

fn fiscal_year(name: impl AsRef<str>, start: impl AsRef<str>, end: impl AsRef<str>) -> Value {
    json!({"name": name.as_ref(), "startDate": start.as_ref(), "endDate": end.as_ref()})
}

fn errors(body: &Value) -> Vec<String> {
    body["errors"].as_object().map(|o| o.keys().cloned().collect()).unwrap_or_default()
}

async fn setting_actions(app: &TestApp) -> Vec<String> {
    use mentorpay::entities::activity_log;
    use sea_orm::EntityTrait;
    let entries = activity_log::Entity::find().all(&app.state.db).await.unwrap();
    entries.iter().filter(|e| e.entity_type == "setting").map(|e| e.action.clone()).collect()
}

// ---- fiscal years ----

#[actix_web::test]
async fn fiscal_years_are_created_and_listed_newest_first() {
    let app = spawn().await;
    let (admin, coord) = admin_and_coordinator(&app).await;
    assert_eq!(app.get(FY, &admin).await.ok(), &json!([]));
    let r = app
        .post(
            FY,
            Some(&admin),
            fiscal_year(
                format!(" {} ", shifted_fy("FY 2025-26")),
                shifted("2025-07-01"),
                shifted("2026-06-30"),
            ),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.body["name"], shifted_fy("FY 2025-26"));
    assert_eq!(r.body["startDate"], shifted("2025-07-01"));
    assert_eq!(r.body["endDate"], shifted("2026-06-30"));
    assert!(r.body["id"].is_i64());
    // The next year may start the day after.
    app.post(
        FY,
        Some(&admin),
        fiscal_year(shifted_fy("FY 2026-27"), shifted("2026-07-01"), shifted("2027-06-30")),
    )
    .await
    .ok();
    app.post(
        FY,
        Some(&admin),
        fiscal_year(shifted_fy("FY 2024-25"), shifted("2024-07-01"), shifted("2025-06-30")),
    )
    .await
    .ok();
    // Every signed-in user can list them (the UI's filters need them), newest first.
    let list = app.get(FY, &coord).await.ok().clone();
    let names: Vec<&str> =
        list.as_array().unwrap().iter().map(|y| y["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [shifted_fy("FY 2026-27"), shifted_fy("FY 2025-26"), shifted_fy("FY 2024-25")]
    );
    app.call(Method::GET, FY, None, None).await.problem(401);
    assert_eq!(
        setting_actions(&app).await.iter().filter(|a| *a == "fiscal-year-created").count(),
        3
    );
}

#[actix_web::test]
async fn bad_fiscal_years_are_refused_and_change_nothing() {
    let app = spawn().await;
    let (admin, coord) = admin_and_coordinator(&app).await;
    app.post(
        FY,
        Some(&admin),
        fiscal_year(shifted_fy("FY 2025-26"), shifted("2025-07-01"), shifted("2026-06-30")),
    )
    .await
    .ok();

    // Wrong types and shapes: 400 naming the field.
    for (body, field) in [
        (
            json!({"name": "X", "startDate": "2030-13-01", "endDate": shifted("2031-01-01")}),
            "startDate",
        ),
        (
            json!({"name": "X", "startDate": "07/01/2030", "endDate": shifted("2031-01-01")}),
            "startDate",
        ),
        (json!({"name": "X", "startDate": shifted("2030-01-01"), "endDate": 20310101}), "endDate"),
        (
            json!({"name": 5, "startDate": shifted("2030-01-01"), "endDate": shifted("2031-01-01")}),
            "name",
        ),
        (json!({"startDate": shifted("2030-01-01"), "endDate": shifted("2031-01-01")}), "name"),
        (json!({"name": "X", "endDate": shifted("2031-01-01")}), "startDate"),
        (
            json!({"name": "  ", "startDate": shifted("2030-01-01"), "endDate": shifted("2031-01-01")}),
            "name",
        ),
    ] {
        let r = app.post(FY, Some(&admin), body.clone()).await;
        assert!(r.invalid()["errors"][field].is_array(), "{body}: {}", r.body);
    }
    // Start not before end: 422 naming endDate.
    let r = app
        .post(
            FY,
            Some(&admin),
            fiscal_year("Backwards", shifted("2031-06-30"), shifted("2030-07-01")),
        )
        .await;
    assert_eq!(errors(r.problem(422)), ["endDate"]);
    let r = app
        .post(
            FY,
            Some(&admin),
            fiscal_year("One day", shifted("2031-06-30"), shifted("2031-06-30")),
        )
        .await;
    assert_eq!(errors(r.problem(422)), ["endDate"]);
    // Overlaps: 422 naming the date inside another year.
    let r = app
        .post(FY, Some(&admin), fiscal_year("Late", shifted("2026-06-30"), shifted("2027-06-29")))
        .await;
    let body = r.problem(422);
    assert_eq!(errors(body), ["startDate"]);
    assert!(body["detail"].as_str().unwrap().contains(&shifted_fy("FY 2025-26")), "{body}");
    let r = app
        .post(FY, Some(&admin), fiscal_year("Early", shifted("2024-07-01"), shifted("2025-07-01")))
        .await;
    assert_eq!(errors(r.problem(422)), ["endDate"]);
    let r = app
        .post(FY, Some(&admin), fiscal_year("Wide", shifted("2025-01-01"), shifted("2027-01-01")))
        .await;
    assert_eq!(errors(r.problem(422)), ["endDate", "startDate"]);
    // Duplicate name (any case): 409.
    app.post(
        FY,
        Some(&admin),
        fiscal_year(shifted_fy("fy 2025-26"), shifted("2040-07-01"), shifted("2041-06-30")),
    )
    .await
    .problem(409);
    // A Coordinator may not create years.
    app.post(
        FY,
        Some(&coord),
        fiscal_year(shifted_fy("FY 2030-31"), shifted("2030-07-01"), shifted("2031-06-30")),
    )
    .await
    .problem(403);

    assert_eq!(app.get(FY, &admin).await.ok().as_array().unwrap().len(), 1);
}

// ---- general ----

fn general_body(current: &Value) -> Value {
    json!({
        "organisationName": "State Mentor Program",
        "supportEmail": "Help@Example.org",
        "mileageRate": 0.67,
        "mealRates": {"breakfast": 12.5, "lunch": 15, "dinner": 25.75},
        "accessTokenTtlSeconds": 600,
        "refreshTokenTtlSeconds": 3600,
        "version": current["version"],
    })
}

#[actix_web::test]
async fn general_settings_read_and_update_with_versions() {
    let app = spawn_with(&["--access-token-ttl", "1200", "--refresh-token-ttl", "7200"]).await;
    let (admin, _) = admin_and_coordinator(&app).await;
    let current = app.get(GENERAL, &admin).await.ok().clone();
    for key in ["id", "organisationName", "supportEmail", "mileageRate", "mealRates", "version"] {
        assert!(!current[key].is_null(), "{key} in {current}");
    }
    // Until saved, the flags are the lifetimes.
    assert_eq!(current["accessTokenTtlSeconds"], 1200);
    assert_eq!(current["refreshTokenTtlSeconds"], 7200);
    assert_eq!(current["mileageRate"], 0.7);
    let id = current["id"].as_i64().unwrap();

    let r = app.put(&format!("{GENERAL}/{id}"), &admin, general_body(&current)).await;
    let saved = r.ok().clone();
    assert_eq!(saved["organisationName"], "State Mentor Program");
    assert_eq!(saved["supportEmail"], "help@example.org");
    assert_eq!(saved["mileageRate"], 0.67);
    assert_eq!(saved["mealRates"], json!({"breakfast": 12.5, "lunch": 15.0, "dinner": 25.75}));
    assert_eq!(saved["version"], current["version"].as_i64().unwrap() + 1);
    assert_eq!(app.get(GENERAL, &admin).await.ok(), &saved);

    // The GET body can be sent back as is (with its id).
    let mut again = saved.clone();
    again["organisationName"] = json!("Renamed");
    app.put(&format!("{GENERAL}/{id}"), &admin, again.clone()).await.ok();
    // Based on a stale version: 409, nothing changes.
    again["organisationName"] = json!("Lost update");
    app.put(&format!("{GENERAL}/{id}"), &admin, again).await.problem(409);
    assert_eq!(app.get(GENERAL, &admin).await.ok()["organisationName"], "Renamed");
    // Unknown id: 404; id in the body not matching the path: 400.
    let latest = app.get(GENERAL, &admin).await.ok().clone();
    app.put(&format!("{GENERAL}/999"), &admin, general_body(&latest)).await.problem(404);
    let mut other = general_body(&latest);
    other["id"] = json!(999);
    assert_eq!(errors(app.put(&format!("{GENERAL}/{id}"), &admin, other).await.invalid()), ["id"]);
    assert!(setting_actions(&app).await.iter().any(|a| a == "general-updated"));
}

#[actix_web::test]
async fn bad_general_settings_are_400_naming_the_field() {
    let app = spawn().await;
    let (admin, coord) = admin_and_coordinator(&app).await;
    let current = app.get(GENERAL, &admin).await.ok().clone();
    let path = format!("{GENERAL}/{}", current["id"]);
    for (change, field) in [
        (json!({"mileageRate": 0.675}), "mileageRate"),
        (json!({"mileageRate": -0.5}), "mileageRate"),
        (json!({"mileageRate": "0.67"}), "mileageRate"),
        (
            json!({"mealRates": {"breakfast": 1.001, "lunch": 1, "dinner": 1}}),
            "mealRates.breakfast",
        ),
        (json!({"mealRates": {"breakfast": 1, "lunch": -1, "dinner": 1}}), "mealRates.lunch"),
        (json!({"mealRates": {"breakfast": 1, "lunch": 1}}), "mealRates.dinner"),
        (json!({"organisationName": ""}), "organisationName"),
        (json!({"supportEmail": "not an email"}), "supportEmail"),
        (json!({"accessTokenTtlSeconds": 5}), "accessTokenTtlSeconds"),
        (json!({"accessTokenTtlSeconds": "600"}), "accessTokenTtlSeconds"),
        (json!({"refreshTokenTtlSeconds": 300}), "refreshTokenTtlSeconds"),
        (json!({"version": "one"}), "version"),
        (json!({"surprise": 1}), "surprise"),
    ] {
        let mut body = general_body(&current);
        for (k, v) in change.as_object().unwrap() {
            body[k] = v.clone();
        }
        let r = app.put(&path, &admin, body).await;
        let problem = r.invalid();
        let named = errors(problem).iter().any(|f| f == field)
            || problem["detail"].as_str().unwrap().contains(field);
        assert!(named, "{change}: {problem}");
    }
    // Coordinators can neither read nor change general settings.
    app.get(GENERAL, &coord).await.problem(403);
    app.put(&path, &coord, general_body(&current)).await.problem(403);
    // Nothing changed.
    assert_eq!(app.get(GENERAL, &admin).await.ok(), &current);
}

fn lifetime(token: &str) -> i64 {
    use base64::{engine::general_purpose::URL_SAFE_NO_PAD, Engine};
    let payload = token.split('.').nth(1).unwrap();
    let claims: Value = serde_json::from_slice(&URL_SAFE_NO_PAD.decode(payload).unwrap()).unwrap();
    claims["exp"].as_i64().unwrap() - claims["iat"].as_i64().unwrap()
}

#[actix_web::test]
async fn saved_token_lifetimes_govern_new_tokens() {
    use mentorpay::entities::refresh_token;
    use sea_orm::{EntityTrait, QueryOrder};
    let app = spawn().await;
    let admin = app.admin_token().await;
    // The flag's default until saved.
    assert_eq!(lifetime(&admin), 900);
    let current = app.get(GENERAL, &admin).await.ok().clone();
    app.put(&format!("{GENERAL}/{}", current["id"]), &admin, general_body(&current)).await.ok();

    let (access, refresh) = app.login(ADMIN_EMAIL, ADMIN_PASSWORD).await;
    assert_eq!(lifetime(&access), 600);
    let newest = refresh_token::Entity::find()
        .order_by_desc(refresh_token::Column::Id)
        .one(&app.state.db)
        .await
        .unwrap()
        .unwrap();
    let sign_in = (newest.expires_at - newest.created_at).num_seconds();
    assert!((3599..=3601).contains(&sign_in), "{sign_in}");
    let r = app
        .post("/api/v1/identity/refresh", None, json!({"token": access, "refreshToken": refresh}))
        .await;
    assert_eq!(lifetime(r.ok()["token"].as_str().unwrap()), 600);
}

// ---- form validation limits ----

#[actix_web::test]
async fn form_limits_are_seeded_read_and_replaced() {
    let app = spawn().await;
    let (admin, coord) = admin_and_coordinator(&app).await;
    let limits = app.get(LIMITS, &admin).await.ok().clone();
    let list = limits.as_array().unwrap();
    assert_eq!(list.len(), 14);
    for (i, l) in list.iter().enumerate() {
        assert_eq!(l["formType"], format!("F{}", i + 1));
        assert!(
            l["maxAmount"].as_f64().unwrap() > 0.0
                && l["submissionWindowDays"].as_i64().unwrap() > 0,
            "{l}"
        );
    }
    assert!(list[2]["maxMilesPerTrip"].is_i64());
    assert!(list[0]["maxMilesPerTrip"].is_null() && list[0]["maxHours"].is_i64());
    assert!(list[10]["maxNights"].is_i64());

    let mut changed = limits.clone();
    changed[2]["maxAmount"] = json!(1234.56);
    changed[2]["maxMilesPerTrip"] = json!(300);
    changed[0]["submissionWindowDays"] = json!(30);
    let saved = app.put(LIMITS, &admin, changed.clone()).await.ok().clone();
    assert_eq!(saved, changed);
    assert_eq!(app.get(LIMITS, &admin).await.ok(), &changed);

    // Other areas read them through settings::limits::for_form.
    let f3 = mentorpay::settings::store::for_form(&app.state.db, "f3").await.unwrap();
    assert_eq!(f3.form_type, "F3");
    assert_eq!(f3.max_amount, mentorpay::money::Money(123_456));
    assert_eq!(f3.max_miles_per_trip, Some(300));
    assert_eq!(f3.max_hours, None);
    assert!(mentorpay::settings::store::for_form(&app.state.db, "F15").await.is_err());

    app.get(LIMITS, &coord).await.problem(403);
    app.put(LIMITS, &coord, changed).await.problem(403);
    assert!(setting_actions(&app).await.iter().any(|a| a == "form-validation-limits-updated"));
}

#[actix_web::test]
async fn bad_form_limits_are_400_and_change_nothing() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let limits = app.get(LIMITS, &admin).await.ok().clone();
    for (index, key, value, field) in [
        (2, "maxAmount", json!(10.005), "[2].maxAmount"),
        (2, "maxAmount", json!(-1), "[2].maxAmount"),
        (2, "maxAmount", json!("10"), "[2].maxAmount"),
        (4, "submissionWindowDays", json!(-1), "[4].submissionWindowDays"),
        (4, "submissionWindowDays", json!(1.5), "[4].submissionWindowDays"),
        (2, "maxMilesPerTrip", json!(-3), "[2].maxMilesPerTrip"),
        (2, "maxMilesPerTrip", Value::Null, "[2].maxMilesPerTrip"),
        (1, "maxNights", json!(3), "[1].maxNights"),
        (5, "formType", json!("F99"), "[5].formType"),
        (5, "formType", json!("F1"), "[5].formType"),
    ] {
        let mut body = limits.clone();
        body[index][key] = value.clone();
        let r = app.put(LIMITS, &admin, body).await;
        let problem = r.invalid();
        let named = errors(problem).iter().any(|f| f == field)
            || problem["detail"].as_str().unwrap().contains(field);
        assert!(named, "{key}={value}: {problem}");
    }
    // All fourteen are required.
    let short: Vec<Value> = limits.as_array().unwrap()[1..].to_vec();
    app.put(LIMITS, &admin, json!(short)).await.invalid();
    app.put(LIMITS, &admin, json!({"F1": {}})).await.problem(400);
    assert_eq!(app.get(LIMITS, &admin).await.ok(), &limits);
}

// ---- coordinator sign-in block ----

#[actix_web::test]
async fn blocking_coordinator_login() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    app.create_user(&admin, COORD_EMAIL, &["Coordinator"], COORD_PASSWORD).await;
    // Administrator first with Coordinator too: still an Administrator, unaffected.
    app.create_user(&admin, "both@example.org", &["Coordinator", "Administrator"], COORD_PASSWORD)
        .await;
    let (coord_access, coord_refresh) = app.login(COORD_EMAIL, COORD_PASSWORD).await;
    let (_, admin_refresh) = app.login(ADMIN_EMAIL, ADMIN_PASSWORD).await;
    assert_eq!(app.get(BLOCK, &admin).await.ok(), &json!({"isBlocked": false, "message": null}));

    // A message is required while blocked; Coordinators may not change or read the block.
    let r = app.post(BLOCK, Some(&admin), json!({"isBlocked": true})).await;
    assert_eq!(errors(r.invalid()), ["message"]);
    app.post(BLOCK, Some(&admin), json!({"isBlocked": true, "message": "  "})).await.invalid();
    app.post(BLOCK, Some(&admin), json!({"isBlocked": "yes", "message": "x"})).await.problem(400);
    app.post(BLOCK, Some(&coord_access), json!({"isBlocked": true, "message": "x"}))
        .await
        .problem(403);
    app.get(BLOCK, &coord_access).await.problem(403);

    let message = "Closed for fiscal year end until July 5.";
    let r = app.post(BLOCK, Some(&admin), json!({"isBlocked": true, "message": message})).await;
    assert_eq!(r.ok(), &json!({"isBlocked": true, "message": message}));
    assert_eq!(app.get(BLOCK, &admin).await.ok(), &json!({"isBlocked": true, "message": message}));

    // Coordinator: sign-in and refresh refused with the message (the block also ended the
    // sign-in she had open).
    let r = app.login_reply(COORD_EMAIL, COORD_PASSWORD).await;
    assert_eq!(r.problem(403)["detail"], message);
    let coord_refresh_call = json!({"token": coord_access, "refreshToken": coord_refresh});
    let r = app.post("/api/v1/identity/refresh", None, coord_refresh_call.clone()).await;
    assert_eq!(r.problem(403)["detail"], message);
    // Administrators (also those holding Coordinator) are unaffected.
    let (admin_access, _) = app.login(ADMIN_EMAIL, ADMIN_PASSWORD).await;
    app.login("both@example.org", COORD_PASSWORD).await;
    app.post(
        "/api/v1/identity/refresh",
        None,
        json!({"token": admin_access, "refreshToken": admin_refresh}),
    )
    .await
    .ok();

    // Unblocking lets them sign in again; the sign-in the block ended stays ended.
    let r = app.post(BLOCK, Some(&admin), json!({"isBlocked": false})).await;
    assert_eq!(r.ok()["isBlocked"], false);
    app.login(COORD_EMAIL, COORD_PASSWORD).await;
    app.post("/api/v1/identity/refresh", None, coord_refresh_call).await.problem(401);

    let actions = setting_actions(&app).await;
    assert!(
        actions.iter().any(|a| a == "coordinator-login-blocked")
            && actions.iter().any(|a| a == "coordinator-login-unblocked"),
        "{actions:?}"
    );
}

// ---- notification banners ----

#[actix_web::test]
async fn banners_are_replaced_and_the_active_ones_shown_to_everyone() {
    let app = spawn().await;
    let (admin, coord) = admin_and_coordinator(&app).await;
    assert_eq!(app.get(BANNERS, &admin).await.ok(), &json!([]));
    let now = mentorpay::clock::now();
    let at = |hours: i64| (now + chrono::Duration::hours(hours)).to_rfc3339();
    let list = json!([
        {"message": "Showing now", "severity": "Info", "isActive": true},
        {"message": "Window open", "severity": "Warning", "startsAt": at(-1), "endsAt": at(1), "isActive": true},
        {"message": "Future", "severity": "Error", "startsAt": at(2), "isActive": true},
        {"message": "Past", "severity": "Info", "endsAt": at(-1), "isActive": true},
        {"message": "Switched off", "severity": "Info", "isActive": false},
    ]);
    let saved = app.put(BANNERS, &admin, list).await.ok().clone();
    assert_eq!(saved.as_array().unwrap().len(), 5);
    assert!(saved.as_array().unwrap().iter().all(|b| b["id"].is_i64()));

    // Every signed-in user sees the active ones, in order.
    let shown = app.get(&format!("{BANNERS}?ActiveOnly=true"), &coord).await.ok().clone();
    let messages: Vec<&str> =
        shown.as_array().unwrap().iter().map(|b| b["message"].as_str().unwrap()).collect();
    assert_eq!(messages, ["Showing now", "Window open"]);
    assert_eq!(app.get(&format!("{BANNERS}?activeonly=true"), &admin).await.ok(), &shown);
    // The full list and changes need setting permissions.
    app.get(BANNERS, &coord).await.problem(403);
    app.get(&format!("{BANNERS}?ActiveOnly=false"), &coord).await.problem(403);
    app.put(BANNERS, &coord, json!([])).await.problem(403);
    app.call(Method::GET, &format!("{BANNERS}?ActiveOnly=true"), None, None).await.problem(401);

    // Replacing: keep the first (edited), drop the rest, add one.
    let first = saved[0]["id"].as_i64().unwrap();
    let r = app
        .put(
            BANNERS,
            &admin,
            json!([
                {"message": "Added", "severity": "Error", "isActive": true},
                {"id": first, "message": "Edited", "severity": "Warning", "isActive": true},
            ]),
        )
        .await;
    let after = r.ok().as_array().unwrap().clone();
    assert_eq!(after.len(), 2);
    assert_eq!(after[0]["message"], "Added");
    assert_eq!(after[1]["id"], first);
    assert_eq!(after[1]["severity"], "Warning");
    assert_eq!(app.get(BANNERS, &admin).await.ok().as_array().unwrap().len(), 2);
    assert!(setting_actions(&app).await.iter().any(|a| a == "notification-banners-replaced"));
}

#[actix_web::test]
async fn bad_banner_lists_are_400_and_change_nothing() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let saved = app
        .put(BANNERS, &admin, json!([{"message": "Keep me", "severity": "Info", "isActive": true}]))
        .await
        .ok()
        .clone();
    for (body, field) in [
        (json!([{"message": "x", "severity": "Critical", "isActive": true}]), "[0].severity"),
        (json!([{"message": "x", "severity": "Info"}]), "[0].isActive"),
        (json!([{"message": "", "severity": "Info", "isActive": true}]), "[0].message"),
        (
            json!([{"message": "x", "severity": "Info", "isActive": true, "startsAt": "tomorrow"}]),
            "[0].startsAt",
        ),
        (
            json!([{"message": "x", "severity": "Info", "isActive": true, "startsAt": "2030-01-02T00:00:00Z", "endsAt": "2030-01-01T00:00:00Z"}]),
            "[0].endsAt",
        ),
        (json!([{"id": 999, "message": "x", "severity": "Info", "isActive": true}]), "[0].id"),
        (
            json!([{"message": "ok", "severity": "Info", "isActive": true}, {"message": 3, "severity": "Info", "isActive": true}]),
            "[1].message",
        ),
    ] {
        let r = app.put(BANNERS, &admin, body.clone()).await;
        let problem = r.invalid();
        let named = errors(problem).iter().any(|f| f == field)
            || problem["detail"].as_str().unwrap().contains(field);
        assert!(named, "{body}: {problem}");
    }
    app.get(&format!("{BANNERS}?ActiveOnly=maybe"), &admin).await.problem(400);
    assert_eq!(app.get(BANNERS, &admin).await.ok(), &saved);
}

#[actix_web::test]
async fn the_openapi_document_lists_every_settings_route() {
    let app = spawn().await;
    let doc = app.call(Method::GET, "/api/v1/openapi.json", None, None).await;
    let paths = &doc.ok()["paths"];
    // Every schema the settings bodies refer to is in the document (Money included).
    let schemas = &doc.body["components"]["schemas"];
    for name in [
        "Money",
        "FiscalYearDto",
        "GeneralSettingsDto",
        "MealRates",
        "FormLimitDto",
        "LoginBlockDto",
        "BannerDto",
        "BannerInput",
        "BannerSeverity",
    ] {
        assert!(schemas[name].is_object(), "{name}");
    }
    for (path, methods) in [
        ("/api/v1/system-settings/fiscal-years", &["get", "post"][..]),
        ("/api/v1/system-settings/general", &["get"]),
        ("/api/v1/system-settings/general/{id}", &["put"]),
        ("/api/v1/system-settings/form-validation-limits", &["get", "put"]),
        ("/api/v1/system-settings/block-coordinator-login", &["get", "post"]),
        ("/api/v1/system-settings/notification-banners", &["get", "put"]),
    ] {
        for m in methods {
            assert!(paths[path][m].is_object(), "{m} {path}");
        }
    }
}

#[actix_web::test]
async fn reminders_come_before_escalations_and_absent_days_keep_their_saved_value() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let general = app.get("/api/v1/system-settings/general", &admin).await.ok().clone();
    assert_eq!(
        (general["reminderDays"].as_i64(), general["escalationDays"].as_i64()),
        (Some(3), Some(7))
    );
    let path = format!("/api/v1/system-settings/general/{}", general["id"]);
    let with = |reminder: Value, escalation: Value| {
        let mut body = general.clone();
        body["reminderDays"] = reminder;
        body["escalationDays"] = escalation;
        body
    };
    let r = app.put(&path, &admin, with(json!(7), json!(7))).await;
    assert!(r.problem(422)["errors"]["escalationDays"].is_array(), "{}", r.body);
    // Only the reminder sent: the saved escalation (7) is what it is held against.
    let r = app.put(&path, &admin, with(json!(8), Value::Null)).await;
    assert!(r.problem(422)["errors"]["escalationDays"].is_array(), "{}", r.body);
    assert_eq!(app.put(&path, &admin, with(json!(0), json!(5))).await.status, 400);
    let saved = app.put(&path, &admin, with(json!(2), json!(10))).await.ok().clone();
    assert_eq!(
        (saved["reminderDays"].as_i64(), saved["escalationDays"].as_i64()),
        (Some(2), Some(10))
    );
}

#[actix_web::test]
async fn the_date_format_is_one_of_its_set_saved_audited_and_kept_when_absent() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let general = app.get(GENERAL, &admin).await.ok().clone();
    assert_eq!(general["dateFormat"], "MM/DD/YYYY", "the US format until one is chosen");
    let path = format!("{GENERAL}/{}", general["id"]);
    for refused in ["M/D/YY", "", "DD.MM.YYYY"] {
        let mut body = general.clone();
        body["dateFormat"] = json!(refused);
        let r = app.put(&path, &admin, body).await;
        assert!(r.problem(422)["errors"]["dateFormat"].is_array(), "{refused}: {}", r.body);
    }
    let mut body = general.clone();
    body["dateFormat"] = json!(5);
    assert!(errors(app.put(&path, &admin, body).await.invalid()).contains(&"dateFormat".to_owned()));
    assert_eq!(app.get(GENERAL, &admin).await.ok(), &general, "nothing changed");

    let mut body = general.clone();
    body["dateFormat"] = json!("dd/mm/yyyy");
    let saved = app.put(&path, &admin, body).await.ok().clone();
    assert_eq!(saved["dateFormat"], "DD/MM/YYYY");
    let entry = app
        .get(
            &format!("/api/v1/audit-log?EntityType=setting&EntityId={}&Size=1", general["id"]),
            &admin,
        )
        .await
        .ok()["items"][0]
        .clone();
    assert_eq!(
        (&entry["before"]["dateFormat"], &entry["after"]["dateFormat"]),
        (&json!("MM/DD/YYYY"), &json!("DD/MM/YYYY")),
        "{entry}"
    );
    // A body without it keeps the saved format.
    let mut body = saved.clone();
    body.as_object_mut().unwrap().remove("dateFormat");
    assert_eq!(app.put(&path, &admin, body).await.ok()["dateFormat"], "DD/MM/YYYY");
}
