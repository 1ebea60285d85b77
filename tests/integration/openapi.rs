//! The OpenAPI document against the route table: every registered route is documented
//! (and nothing else is), with the statuses the kernel answers before any handler.

use crate::common;

use std::collections::BTreeSet;

use common::*;
use mentorpay::routes::Access;
use serde_json::Value;

const METHODS: [&str; 5] = ["get", "post", "put", "delete", "patch"];

async fn document(app: &TestApp) -> Value {
    let r = app.client.get(format!("{}/api/v1/openapi.json", app.base)).send().await.unwrap();
    assert_eq!(r.status(), 200);
    r.json().await.unwrap()
}

#[actix_web::test]
async fn every_registered_route_is_documented_and_nothing_else() {
    let app = spawn().await;
    let doc = document(&app).await;
    let table = mentorpay::app::route_table().specs();
    let registered: BTreeSet<(String, String)> =
        table.iter().map(|s| (s.method.as_str().to_lowercase(), s.full_path())).collect();
    assert_eq!(registered.len(), table.len(), "a route is declared twice");
    let mut documented = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for method in METHODS {
            if item.get(method).is_some() {
                documented.insert((method.to_owned(), path.clone()));
            }
        }
    }
    let undocumented: Vec<_> = registered.difference(&documented).collect();
    assert!(
        undocumented.is_empty(),
        "registered but missing from the OpenAPI document: {undocumented:?}"
    );
    let unregistered: Vec<_> = documented.difference(&registered).collect();
    assert!(unregistered.is_empty(), "documented but not in the route table: {unregistered:?}");
}

#[actix_web::test]
async fn every_operation_lists_the_kernel_statuses() {
    let app = spawn().await;
    let doc = document(&app).await;
    for spec in mentorpay::app::route_table().specs() {
        let op = &doc["paths"][spec.full_path()][spec.method.as_str().to_lowercase()];
        let responses =
            op["responses"].as_object().unwrap_or_else(|| panic!("{} {}", spec.method, spec.path));
        let has = |s: &str| responses.contains_key(s);
        let at = format!("{} {}", spec.method, spec.path);
        if spec.access != Access::Public {
            assert!(has("401"), "{at}: 401");
            assert!(op["security"].is_array(), "{at}: security");
        } else {
            assert!(op.get("security").is_none(), "{at}: a public route needs no token");
        }
        if !matches!(spec.access, Access::Public | Access::SignedIn) {
            assert!(has("403"), "{at}: 403");
        }
        if op.get("requestBody").is_some() {
            assert!(has("400") && has("413"), "{at}: 400 and 413 for the body");
        }
        if spec.path.contains("{id}") {
            assert!(has("400"), "{at}: 400 for an id beyond 32 bits");
        }
        assert!(
            op["description"].as_str().unwrap_or("").contains("Access: "),
            "{at}: says who may call it"
        );
        // A success, or the redirect a browser is sent on (the single sign-on trip).
        let success = |k: &String| k.starts_with('2') || k.starts_with('3');
        assert!(responses.keys().any(success), "{at}: a success status");
    }
    // Logout answers 204 with no body.
    assert!(doc["paths"]["/api/v1/identity/logout"]["post"]["responses"]["204"].is_object());
}
