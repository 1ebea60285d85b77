//! Lists at scale on the real app and a real SQLite file: counts that stop at
//! their bound and say so, and the participant search through its trigram index (case-
//! and accent-insensitive, kept in step with every insert, edit and delete).

use crate::common;

use common::*;
use sea_orm::ConnectionTrait;
use serde_json::{json, Value};

const PARTICIPANTS: &str = "/api/v1/participants";

fn person(first: &str, last: &str, email: &str) -> Value {
    json!({
        "firstName": first, "lastName": last, "email": email, "status": "Active", "roleCode": "Mentor",
        "workplaceSettingIds": [], "languageIds": [], "educationLevelIds": [], "permitLevelIds": [],
    })
}

async fn names(app: &TestApp, token: &str, query: &str) -> Vec<String> {
    let r = app.get(&format!("{PARTICIPANTS}?{query}&SortBy=fullName"), token).await;
    let body = r.ok();
    assert_eq!(body["totalCountIsExact"], true, "{body}");
    let items = body["items"].as_array().unwrap();
    assert_eq!(body["totalCount"].as_u64().unwrap() as usize, items.len());
    items.iter().map(|p| p["fullName"].as_str().unwrap().to_owned()).collect()
}

#[actix_web::test]
async fn participant_search_is_case_and_accent_insensitive_and_follows_every_change() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let mut ids = Vec::new();
    for (first, last, email) in [
        ("José", "Núñez", "jnunez@example.org"),
        ("Jose", "Smith", "jsmith@example.org"),
        ("Ana", "Lopez", "ana.lopez@example.org"),
        ("Zoë", "Ångström", "ZOE@Example.org"),
    ] {
        let r = app.post(PARTICIPANTS, Some(&admin), person(first, last, email)).await;
        assert_eq!(r.status, 201, "{}", r.body);
        ids.push(r.body["id"].as_i64().unwrap());
    }
    // Three characters and more: the trigram index.
    // Folded names sort without their accents: "jose nunez" before "jose smith".
    assert_eq!(names(&app, &admin, "FullName=jose").await, ["José Núñez", "Jose Smith"]);
    assert_eq!(names(&app, &admin, "FullName=NÚÑEZ").await, ["José Núñez"]);
    assert_eq!(names(&app, &admin, "FullName=nunez").await, ["José Núñez"]);
    assert_eq!(names(&app, &admin, "FullName=e%20n").await, ["José Núñez"]);
    assert_eq!(names(&app, &admin, "FullName=angstr").await, ["Zoë Ångström"]);
    assert_eq!(names(&app, &admin, "Email=NUNEZ@").await, ["José Núñez"]);
    assert_eq!(names(&app, &admin, "Email=example.org").await.len(), 4);
    assert_eq!(names(&app, &admin, "FullName=jose&Email=smith").await, ["Jose Smith"]);
    // Quotes and FTS syntax are plain text, never an error.
    assert!(names(&app, &admin, "FullName=%22jo%22%20OR%20x").await.is_empty());
    assert!(names(&app, &admin, "FullName=NEAR(a%20b)").await.is_empty());
    // Shorter parts scan the folded name, accents and case aside too.
    assert_eq!(names(&app, &admin, "FullName=LO").await, ["Ana Lopez"]);
    assert_eq!(names(&app, &admin, "FullName=ÑU").await, ["José Núñez"]);
    assert_eq!(names(&app, &admin, "FullName=oe").await, ["Zoë Ångström"]);
    assert_eq!(names(&app, &admin, "FullName=%25").await, Vec::<String>::new());

    // An edit moves the name in the index; a deletion leaves the list.
    let jose = app.get(&format!("{PARTICIPANTS}/{}", ids[0]), &admin).await.ok().clone();
    let mut body = person("Josefina", "Nadal", "jnadal@example.org");
    body["version"] = jose["version"].clone();
    app.put(&format!("{PARTICIPANTS}/{}", ids[0]), &admin, body).await.ok();
    assert!(names(&app, &admin, "FullName=nunez").await.is_empty());
    assert!(names(&app, &admin, "Email=jnunez").await.is_empty());
    assert_eq!(names(&app, &admin, "FullName=josefina").await, ["Josefina Nadal"]);
    assert_eq!(names(&app, &admin, "Email=jnadal").await, ["Josefina Nadal"]);
    assert_eq!(app.delete(&format!("{PARTICIPANTS}/{}", ids[1]), &admin).await.status, 204);
    assert_eq!(names(&app, &admin, "FullName=jose").await, ["Josefina Nadal"]);
}

#[actix_web::test]
async fn counts_stop_at_the_bound_and_say_so() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    mentorpay::demo::seed::participants(&app.state.db, 1_060).await.unwrap();

    // Page 1: counted up to 1,000, reported as "at least".
    let first = app.get(&format!("{PARTICIPANTS}?Size=25"), &admin).await.ok().clone();
    assert_eq!(
        (first["totalCount"].as_u64(), first["totalCountIsExact"].as_bool()),
        (Some(1_000), Some(false))
    );
    assert_eq!(first["items"].as_array().unwrap().len(), 25);
    // A page past the bound counts up to its end: still "at least", the page inside it.
    let far = app.get(&format!("{PARTICIPANTS}?Size=25&Page=42"), &admin).await.ok().clone();
    assert_eq!(
        (far["totalCount"].as_u64(), far["totalCountIsExact"].as_bool()),
        (Some(1_050), Some(false))
    );
    assert_eq!(far["items"].as_array().unwrap().len(), 25);
    // The last page sees the end: exact.
    let last = app.get(&format!("{PARTICIPANTS}?Size=25&Page=43"), &admin).await.ok().clone();
    assert_eq!(
        (last["totalCount"].as_u64(), last["totalCountIsExact"].as_bool()),
        (Some(1_060), Some(true))
    );
    assert_eq!(last["items"].as_array().unwrap().len(), 10);
    // The participants report (no totals to sum) counts the same way; its last page is exact.
    let report = app.get("/api/v1/reports/participants?Size=25", &admin).await.ok().clone();
    assert_eq!(
        (report["totalCount"].as_u64(), report["totalCountIsExact"].as_bool()),
        (Some(1_000), Some(false))
    );
    let report = app.get("/api/v1/reports/participants?Size=25&Page=43", &admin).await.ok().clone();
    assert_eq!(
        (report["totalCount"].as_u64(), report["totalCountIsExact"].as_bool()),
        (Some(1_060), Some(true))
    );
    assert_eq!(report["items"].as_array().unwrap().len(), 10);
    // A narrower filter under the bound is exact.
    let some =
        app.get(&format!("{PARTICIPANTS}?Status=Inactive&Size=25"), &admin).await.ok().clone();
    assert_eq!(some["totalCountIsExact"], true);
    assert!(some["totalCount"].as_u64().unwrap() < 1_000);
}

/// A search counts from the trigram index's matches joined to the live participants: past
/// the bound "at least", on the last page exact, and a deletion leaves the count.
#[actix_web::test]
async fn search_counts_follow_the_bound_and_deletions() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    mentorpay::demo::seed::participants(&app.state.db, 1_010).await.unwrap();
    let search = |page: u32| format!("{PARTICIPANTS}?Email=SEED.example&Size=25&Page={page}");

    let first = app.get(&search(1), &admin).await.ok().clone();
    assert_eq!(
        (first["totalCount"].as_u64(), first["totalCountIsExact"].as_bool()),
        (Some(1_000), Some(false))
    );
    let last = app.get(&search(41), &admin).await.ok().clone();
    assert_eq!(
        (last["totalCount"].as_u64(), last["totalCountIsExact"].as_bool()),
        (Some(1_010), Some(true))
    );
    assert_eq!(last["items"].as_array().unwrap().len(), 10);

    let gone = first["items"][0]["id"].as_i64().unwrap();
    assert_eq!(app.delete(&format!("{PARTICIPANTS}/{gone}"), &admin).await.status, 204);
    let after = app.get(&search(41), &admin).await.ok().clone();
    assert_eq!(
        (after["totalCount"].as_u64(), after["totalCountIsExact"].as_bool()),
        (Some(1_009), Some(true))
    );
    assert_eq!(after["items"].as_array().unwrap().len(), 9);
    let again = app.get(&search(1), &admin).await.ok().clone();
    assert!(again["items"].as_array().unwrap().iter().all(|p| p["id"].as_i64() != Some(gone)));
    // Joined with another filter, the count is the intersection.
    let active = app
        .get(&format!("{PARTICIPANTS}?Email=seed.example&Status=Active&Size=500&Page=3"), &admin)
        .await
        .ok()
        .clone();
    let all_active = app
        .get(&format!("{PARTICIPANTS}?Status=Active&Size=500&Page=3"), &admin)
        .await
        .ok()
        .clone();
    assert_eq!(active["totalCount"], all_active["totalCount"]);
    assert_eq!(active["totalCountIsExact"], true);
}

/// A search with more matches than the bound pages by walking the sort index and testing
/// each folded name (participants::store::list), one with fewer sorts the index's matches:
/// page after page, both must give exactly the matching rows of the plain sort, in order.
#[actix_web::test]
async fn a_search_with_many_matches_pages_like_the_plain_sort() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    mentorpay::demo::seed::participants(&app.state.db, 1_200).await.unwrap();
    // Nine in ten get a second family name, accented for half of them; the triggers keep
    // the search index in step and sort_name stays the folded name.
    app.state
        .db
        .execute_unprepared(
            "UPDATE participants SET full_name = full_name || CASE id % 2 WHEN 0 THEN ' Muñoz' ELSE ' Munoz' END, \
             sort_name = sort_name || ' munoz' WHERE id % 10 <> 0",
        )
        .await
        .unwrap();
    let items = |body: &Value| body["items"].as_array().unwrap().clone();
    let ids = |items: &[Value]| items.iter().map(|p| p["id"].as_i64().unwrap()).collect::<Vec<_>>();
    for sort in ["SortBy=fullName", "SortBy=fullName&IsDescending=true", "SortBy=email"] {
        let mut expected = Vec::new();
        for page in 1..=3 {
            let all = items(
                app.get(&format!("{PARTICIPANTS}?{sort}&Size=500&Page={page}"), &admin).await.ok(),
            );
            expected.extend(
                all.into_iter().filter(|p| p["fullName"].as_str().unwrap().contains(" Mu")),
            );
        }
        assert!(expected.len() > 1_000, "{}", expected.len());
        let mut searched = Vec::new();
        for page in 1.. {
            let found = app
                .get(&format!("{PARTICIPANTS}?FullName=MUÑOZ&{sort}&Size=25&Page={page}"), &admin)
                .await
                .ok()
                .clone();
            if page == 1 {
                assert_eq!(found["totalCountIsExact"], false, "{found}");
            }
            if items(&found).is_empty() {
                break;
            }
            searched.extend(ids(&items(&found)));
        }
        assert_eq!(searched, ids(&expected), "{sort}");
    }
    // Two searched parts: the walk tests both.
    let both = app
        .get(
            &format!(
                "{PARTICIPANTS}?FullName=munoz&Email=SEED.example&SortBy=fullName&Size=100&Page=2"
            ),
            &admin,
        )
        .await
        .ok()
        .clone();
    assert_eq!(both["totalCountIsExact"], false);
    let one = app
        .get(&format!("{PARTICIPANTS}?FullName=munoz&SortBy=fullName&Size=100&Page=2"), &admin)
        .await
        .ok()
        .clone();
    assert_eq!(ids(&items(&both)), ids(&items(&one)));
    let none = app
        .get(&format!("{PARTICIPANTS}?FullName=munoz&Email=nobody.example&Size=100"), &admin)
        .await
        .ok()
        .clone();
    assert_eq!((none["totalCount"].as_u64(), items(&none).len()), (Some(0), 0));
}

/// A list of several statuses in submission order is merged from one ordered range per
/// status (payment_requests::store::list::page_ids): every page, both directions, with and without
/// a program and a form type, must be exactly the rows the plain sort gives.
#[actix_web::test]
async fn several_statuses_in_submission_order_page_like_one_sort() {
    use sea_orm::Statement;
    let app = spawn().await;
    let admin = app.admin_token().await;
    mentorpay::demo::seed::participants(&app.state.db, 60).await.unwrap();
    mentorpay::demo::seed::requests(&app.state.db, 700).await.unwrap();
    let db = &app.state.db;
    for (statuses, program, form) in [
        ("Submitted,Approved", None, None),
        ("Approved,ReadyForProcessing,Submitted", Some(1), None),
        ("Submitted,Draft", Some(2), None),
        ("RevisionRequested,Submitted,Approved,Draft", None, Some("F1")),
    ] {
        for ascending in [true, false] {
            let quoted: Vec<String> = statuses.split(',').map(|s| format!("'{s}'")).collect();
            let mut sql = format!(
                "SELECT id FROM payment_requests WHERE deleted_at IS NULL AND status IN ({})",
                quoted.join(",")
            );
            let mut query =
                format!("FormStatus={statuses}&IsSubmittedOnSortedAscending={ascending}&Size=20");
            if let Some(p) = program {
                sql += &format!(" AND mentor_program_id = {p}");
                query += &format!("&MentorProgramId={p}");
            }
            if let Some(f) = form {
                sql += &format!(" AND form_type = '{f}'");
                query += &format!("&FormType={f}");
            }
            sql += if ascending {
                " ORDER BY submitted_on ASC NULLS FIRST, id ASC"
            } else {
                " ORDER BY submitted_on DESC NULLS LAST, id DESC"
            };
            let expected: Vec<i64> = db
                .query_all_raw(Statement::from_string(db.get_database_backend(), sql))
                .await
                .unwrap()
                .iter()
                .map(|r| r.try_get_by_index::<i32>(0).unwrap() as i64)
                .collect();
            assert!(
                expected.len() > 20,
                "{query}: the seed should fill more than a page ({})",
                expected.len()
            );
            let mut listed = Vec::new();
            for page in 1..=expected.len().div_ceil(20) + 1 {
                let body = app
                    .get(&format!("/api/v1/payment-requests?{query}&Page={page}"), &admin)
                    .await
                    .ok()
                    .clone();
                listed.extend(
                    body["items"].as_array().unwrap().iter().map(|i| i["id"].as_i64().unwrap()),
                );
            }
            assert_eq!(listed, expected, "{query}");
        }
    }
}
