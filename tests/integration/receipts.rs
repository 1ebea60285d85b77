//! F2 receipt uploads: signed, single-use, expiring URLs; type and size checked on the PUT.

use crate::common;

use reqwest::StatusCode;
use serde_json::{json, Value};

const PDF: &[u8] = b"%PDF-1.7\n1 0 obj\n<<>>\nendobj\n%%EOF\n";

async fn announce(app: &common::TestApp, token: &str, files: Value) -> common::Reply {
    app.post("/api/v1/fileupload/generate-upload-urls", Some(token), json!({ "files": files }))
        .await
}

async fn put(
    app: &common::TestApp,
    url: &str,
    content_type: &str,
    body: Vec<u8>,
) -> (StatusCode, Value) {
    let res = app
        .client
        .put(format!("{}{url}", app.base))
        .header("Content-Type", content_type)
        .body(body)
        .send()
        .await
        .unwrap();
    let status = res.status();
    let text = res.text().await.unwrap();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

#[actix_web::test]
async fn upload_once_then_the_url_is_spent() {
    let app = common::spawn().await;
    let admin = app.admin_token().await;
    let r = announce(
        &app,
        &admin,
        json!([{"fileName": "receipt.pdf", "contentType": "application/pdf", "size": PDF.len()}]),
    )
    .await;
    let urls = r.ok().as_array().unwrap().clone();
    assert_eq!(urls.len(), 1);
    let url = urls[0]["uploadUrl"].as_str().unwrap();
    assert!(urls[0]["fileId"].is_string() && urls[0]["expiresAt"].is_string());
    let (status, _) = put(&app, url, "application/pdf", PDF.to_vec()).await;
    assert_eq!(status, 204);
    let (status, body) = put(&app, url, "application/pdf", PDF.to_vec()).await;
    assert_eq!(status, 409, "{body}");
    // The bytes are stored under the data directory.
    let id = urls[0]["fileId"].as_str().unwrap();
    let stored = app.dir.path().join("data/uploads/receipts").join(id);
    assert_eq!(std::fs::read(stored).unwrap(), PDF);
}

#[actix_web::test]
async fn announcements_are_checked() {
    let app = common::spawn().await;
    let admin = app.admin_token().await;
    let r = announce(
        &app,
        &admin,
        json!([{"fileName": "a.gif", "contentType": "image/gif", "size": 10}, {"fileName": "b.pdf", "contentType": "application/pdf", "size": 10 * 1024 * 1024 + 1}]),
    )
    .await;
    let body = r.problem(400);
    assert!(body["errors"]["files[0].contentType"].is_array(), "{body}");
    assert!(body["errors"]["files[1].size"].is_array(), "{body}");
    assert_eq!(announce(&app, &admin, json!([])).await.status, 400);
    // Without a token, 401.
    let r = app.post("/api/v1/fileupload/generate-upload-urls", None, json!({"files": []})).await;
    r.problem(401);
}

#[actix_web::test]
async fn the_put_must_match_the_announcement() {
    let app = common::spawn().await;
    let admin = app.admin_token().await;
    let r = announce(
        &app,
        &admin,
        json!([{"fileName": "r.pdf", "contentType": "application/pdf", "size": PDF.len()}]),
    )
    .await;
    let url = r.ok()[0]["uploadUrl"].as_str().unwrap().to_owned();
    // Another type than announced.
    let (status, body) = put(&app, &url, "image/png", PDF.to_vec()).await;
    assert_eq!(status, 400, "{body}");
    // Larger than announced.
    let mut big = PDF.to_vec();
    big.extend_from_slice(&[b'x'; 100]);
    let (status, body) = put(&app, &url, "application/pdf", big).await;
    assert_eq!(status, 400, "{body}");
    assert!(body["errors"]["size"].is_array(), "{body}");
    // Bytes that are not a PDF.
    let (status, _) = put(&app, &url, "application/pdf", vec![b'M'; PDF.len()]).await;
    assert_eq!(status, 400);
    // Failed attempts did not spend the URL.
    let (status, _) = put(&app, &url, "application/pdf", PDF.to_vec()).await;
    assert_eq!(status, 204);
}

#[actix_web::test]
async fn altered_or_expired_urls_are_refused() {
    let app = common::spawn().await;
    let admin = app.admin_token().await;
    let r = announce(
        &app,
        &admin,
        json!([{"fileName": "r.pdf", "contentType": "application/pdf", "size": PDF.len()}]),
    )
    .await;
    let id = r.ok()[0]["fileId"].as_str().unwrap().to_owned();
    let url = r.body[0]["uploadUrl"].as_str().unwrap().to_owned();
    // A later expiry with the old signature.
    let (base, _) = url.split_once("?expires=").unwrap();
    let forged =
        format!("{base}?expires=9999999999&signature={}", url.rsplit_once("signature=").unwrap().1);
    assert_eq!(put(&app, &forged, "application/pdf", PDF.to_vec()).await.0, 403);
    // A correctly signed URL whose time has passed.
    let past = mentorpay::clock::now().timestamp() - 1;
    let expired = format!(
        "/api/v1/fileupload/{id}?expires={past}&signature={}",
        app.state.files.sign(&id, past)
    );
    assert_eq!(put(&app, &expired, "application/pdf", PDF.to_vec()).await.0, 403);
    // Unknown file id with a valid signature.
    let ghost = uuid::Uuid::new_v4().to_string();
    let future = mentorpay::clock::now().timestamp() + 60;
    let unknown = format!(
        "/api/v1/fileupload/{ghost}?expires={future}&signature={}",
        app.state.files.sign(&ghost, future)
    );
    assert_eq!(put(&app, &unknown, "application/pdf", PDF.to_vec()).await.0, 404);
}

#[actix_web::test]
async fn coordinators_may_announce_auditors_may_not() {
    let app = common::spawn().await;
    let admin = app.admin_token().await;
    let r = app
        .post(
            "/api/v1/identity/roles",
            Some(&admin),
            json!({"name": "Auditor", "permissions": ["request:read"]}),
        )
        .await;
    r.ok();
    app.create_user(&admin, "auditor@example.org", &["Auditor"], "auditor password 123").await;
    let (auditor, _) = app.login("auditor@example.org", "auditor password 123").await;
    let r = announce(
        &app,
        &auditor,
        json!([{"fileName": "r.pdf", "contentType": "application/pdf", "size": 10}]),
    )
    .await;
    r.problem(403);
}
