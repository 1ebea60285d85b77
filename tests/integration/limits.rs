//! Hostile files and greedy callers, over HTTP on the real app: a workbook whose cells span
//! the whole sheet, a receipt PDF whose small streams unpack to hundreds of megabytes, the
//! quota on receipts no request uses yet and the rate of announced files, and a disk that
//! fills up under the running server (a tmpfs of its own) and frees again. Every file is
//! made here, in the test.

use std::io::Write;
use std::time::{Duration, Instant};

use crate::common::{self, dates::Year, instance::Instance, *};
use reqwest::Method;
use serde_json::{json, Value};

const ANNOUNCE: &str = "/api/v1/fileupload/generate-upload-urls";

/// A workbook of one sheet with text at each (row, column), 0-based.
fn workbook(cells: &[(u32, u16)]) -> Vec<u8> {
    let mut book = rust_xlsxwriter::Workbook::new();
    let ws = book.add_worksheet();
    for (i, (r, c)) in cells.iter().enumerate() {
        ws.write_string(*r, *c, format!("cell {i}")).unwrap();
    }
    book.save_to_buffer().unwrap()
}

/// A zip whose one part, `xl/sharedStrings.xml`, unpacks to `mb` MB of one letter.
fn zip_bomb(mb: usize) -> Vec<u8> {
    let mut out = std::io::Cursor::new(Vec::new());
    let mut zip = zip::ZipWriter::new(&mut out);
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    zip.start_file("xl/sharedStrings.xml", options).unwrap();
    let block = vec![b'a'; 1024 * 1024];
    for _ in 0..mb {
        zip.write_all(&block).unwrap();
    }
    zip.finish().unwrap();
    out.into_inner()
}

/// A one-page PDF that also holds `streams` object streams, each a string object of
/// `mb` MB once unpacked: each under lopdf's per-stream limit, together far over.
fn pdf_bomb(streams: usize, mb: usize) -> Vec<u8> {
    // Every stream holds object 100 (a reader unpacks each to find out): one body, compressed once.
    let header = b"100 0 ";
    let data = {
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
        z.write_all(header).unwrap();
        z.write_all(b"(").unwrap();
        let block = vec![b'a'; 1024 * 1024];
        for _ in 0..mb {
            z.write_all(&block).unwrap();
        }
        z.write_all(b")").unwrap();
        z.finish().unwrap()
    };
    let stream = |dict: String, data: &[u8]| {
        let mut o = format!("{dict}\nstream\n").into_bytes();
        o.extend_from_slice(data);
        o.extend_from_slice(b"\nendstream");
        o
    };
    let content = b"0 0 m 100 100 l S";
    let mut objects: Vec<Vec<u8>> = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>".to_vec(),
        stream(format!("<< /Length {} >>", content.len()), content),
    ];
    for _ in 0..streams {
        let dict = format!(
            "<< /Type /ObjStm /N 1 /First {} /Filter /FlateDecode /Length {} >>",
            header.len(),
            data.len()
        );
        objects.push(stream(dict, &data));
    }
    let mut out = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n".to_vec();
    let mut offsets = Vec::new();
    for (i, o) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n", i + 1).as_bytes());
        out.extend_from_slice(o);
        out.extend_from_slice(b"\nendobj\n");
    }
    let xref = out.len();
    let size = objects.len() + 1;
    out.extend_from_slice(format!("xref\n0 {size}\n0000000000 65535 f \n").as_bytes());
    for off in offsets {
        out.extend_from_slice(format!("{off:010} 00000 n \n").as_bytes());
    }
    let trailer = format!("trailer\n<< /Size {size} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n");
    out.extend_from_slice(trailer.as_bytes());
    out
}

async fn import(app: &TestApp, token: &str, name: &str, bytes: Vec<u8>) -> Reply {
    let part = reqwest::multipart::Part::bytes(bytes).file_name(name.to_owned());
    let form = reqwest::multipart::Form::new().part("file", part);
    let res = app
        .client
        .post(format!("{}/api/v1/participants/import?DryRun=true", app.base))
        .bearer_auth(token)
        .multipart(form)
        .send()
        .await
        .unwrap();
    let (status, headers) = (res.status(), res.headers().clone());
    let text = res.text().await.unwrap();
    Reply { status, headers, body: serde_json::from_str(&text).unwrap_or(Value::String(text)) }
}

/// The message a 422 gives for the import's `file` field.
fn file_problem(r: &Reply) -> String {
    r.problem(422)["errors"]["file"][0].as_str().unwrap_or_default().to_owned()
}

#[actix_web::test]
async fn workbooks_spanning_the_sheet_or_unpacking_past_the_limit_are_a_422_naming_the_file() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let fy =
        app.post("/api/v1/system-settings/fiscal-years", Some(&admin), Year::this().body()).await;
    let fy = fy.ok()["id"].as_i64().unwrap();
    let program = ids(&app, &admin, "/api/v1/mentor-programs").await[0];
    let coord =
        app.coordinator_of(&admin, "cora@example.org", "coordinator pw 1", program, fy).await;

    // A1 and XFD1048576: 1.6 KB that would be a grid of 17 billion cells.
    let far = workbook(&[(0, 0), (1_048_575, 16_383)]);
    assert!(far.len() < 8 * 1024, "{} bytes", far.len());
    let started = Instant::now();
    let r = import(&app, &coord, "far.xlsx", far).await;
    assert_eq!(file_problem(&r), "row 1048576 has 16384 cells; a row may have at most 50");
    let r = import(&app, &coord, "wide.xlsx", workbook(&[(0, 0), (999, 16_383)])).await;
    assert_eq!(file_problem(&r), "row 1000 has 16384 cells; a row may have at most 50");
    let rows: Vec<(u32, u16)> = (0..10_002).map(|r| (r * 100, 0)).collect();
    let r = import(&app, &coord, "long.xlsx", workbook(&rows)).await;
    assert_eq!(file_problem(&r), "has more than 10000 rows");
    let r = import(&app, &coord, "bomb.xlsx", zip_bomb(100)).await;
    assert!(file_problem(&r).starts_with("unpacks to more than 64 MB"), "{}", r.body);
    assert!(started.elapsed() < Duration::from_secs(20), "{:?}", started.elapsed());
    // The server is still there, and the refused files changed nothing.
    let list = app.get("/api/v1/participants?Size=1", &admin).await;
    assert_eq!(list.ok()["totalCount"], 1, "only the coordinator");
}

#[actix_web::test]
async fn a_receipt_pdf_unpacking_past_its_budget_is_named_in_the_packet_not_read() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let fy =
        app.post("/api/v1/system-settings/fiscal-years", Some(&admin), Year::this().body()).await;
    let fy = fy.ok()["id"].as_i64().unwrap();
    let program = ids(&app, &admin, "/api/v1/mentor-programs").await[0];
    let mut payee = person("Pat", "pat@example.org", "Mentor");
    payee["participations"] = json!([taking(program, fy, "Mentor")]);
    let r = app.post("/api/v1/participants", Some(&admin), payee).await;
    let participation = r.ok()["participations"][0]["id"].as_i64().unwrap();

    // Eight streams of 60 MB: each under lopdf's own per-stream limit.
    let bomb = pdf_bomb(8, 60);
    assert!(bomb.len() < 1024 * 1024, "{} bytes", bomb.len());
    let file = app.uploaded(&admin, "bomb.pdf", "application/pdf", &bomb).await;
    let day = common::dates::recent().to_string();
    let body = json!({"participationId": participation, "description": "Books", "details": {"items": [{"date": day, "description": "Books", "amount": 12.5}], "fileIds": [file]}});
    let r = app.post("/api/v1/payment-requests/F2", Some(&admin), body).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.body["id"].as_i64().unwrap();

    let started = Instant::now();
    let res = app
        .client
        .get(format!("{}/api/v1/payment-requests/F2/{id}/packet", app.base))
        .bearer_auth(&admin)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let packet = res.bytes().await.unwrap();
    assert!(started.elapsed() < Duration::from_secs(20), "{:?}", started.elapsed());
    let text = common::poppler::poppler(&packet, "pdftotext", &[]);
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words.contains("Receipt 1 of 1: bomb.pdf"), "{words}");
    assert!(words.contains("The PDF unpacks to more than 16 MB and was not read"), "{words}");
}

/// Sets the quota on receipts not yet attached (the other general settings as they are).
async fn set_quota(app: &TestApp, admin: &str, mb: Value) -> Reply {
    let mut g = app.get("/api/v1/system-settings/general", admin).await.ok().clone();
    g["unattachedReceiptQuotaMb"] = mb;
    app.put(&format!("/api/v1/system-settings/general/{}", g["id"]), admin, g).await
}

fn announcement(n: usize, size: usize) -> Value {
    let files: Vec<Value> = (0..n)
        .map(|i| json!({"fileName": format!("r{i}.pdf"), "contentType": "application/pdf", "size": size}))
        .collect();
    json!({ "files": files })
}

#[actix_web::test]
async fn receipts_not_yet_attached_have_a_quota_per_person_and_announcements_a_rate() {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let g = app.get("/api/v1/system-settings/general", &admin).await;
    assert_eq!(g.ok()["unattachedReceiptQuotaMb"], 100, "the default");
    set_quota(&app, &admin, json!(0)).await.problem(400);
    set_quota(&app, &admin, json!(10_241)).await.problem(400);
    set_quota(&app, &admin, json!(25)).await.ok();

    // 10 MB receipts, as the hostile caller sent: two fit in 25 MB, the third does not.
    const TEN_MB: usize = 10 * 1024 * 1024;
    let pdf = {
        let mut b = b"%PDF-1.7\n".to_vec();
        b.resize(TEN_MB, b' ');
        b
    };
    app.uploaded(&admin, "one.pdf", "application/pdf", &pdf).await;
    // An announced slot counts before its bytes arrive.
    app.post(ANNOUNCE, Some(&admin), announcement(1, TEN_MB)).await.ok();
    let r = app.post(ANNOUNCE, Some(&admin), announcement(1, TEN_MB)).await;
    let message = r.problem(422)["errors"]["files"][0].as_str().unwrap().to_owned();
    assert!(message.contains("the limit is 25 MB per person (20.0 MB held now)"), "{message}");
    // The quota is per person: another user starts with nothing held.
    app.create_user(&admin, "other@example.org", &["Administrator"], "other pass 1234").await;
    let (other, _) = app.login("other@example.org", "other pass 1234").await;
    app.post(ANNOUNCE, Some(&other), announcement(1, TEN_MB)).await.ok();
    // Raising the setting lets the same announcement through.
    set_quota(&app, &admin, json!(100)).await.ok();
    app.post(ANNOUNCE, Some(&admin), announcement(1, TEN_MB)).await.ok();

    // The rate counts files, whatever their size: the other user has announced 1 of 60.
    for _ in 0..2 {
        app.post(ANNOUNCE, Some(&other), announcement(20, 10)).await.ok();
    }
    let r = app.post(ANNOUNCE, Some(&other), announcement(20, 10)).await;
    r.problem(429);
    let wait: u64 = r.headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=60).contains(&wait), "{wait}");
    assert!(r.body["detail"].as_str().unwrap().contains("Try again in"), "{}", r.body);
    app.post(ANNOUNCE, Some(&other), announcement(19, 10)).await.ok();
}

// ---- a full disk ----

/// `unshare` with a user and a mount namespace: the server then runs over a tmpfs of its
/// own without root. Checked, not assumed: where the kernel refuses user namespaces the
/// test fails saying so rather than passing without running.
fn unshare() -> String {
    let found = std::process::Command::new("sh")
        .args(["-c", "command -v unshare"])
        .output()
        .expect("sh runs");
    let path = String::from_utf8(found.stdout).unwrap().trim().to_owned();
    assert!(!path.is_empty(), "the disk-full test needs unshare (util-linux)");
    let probe = std::process::Command::new(&path)
        .args(["--user", "--map-root-user", "--mount", "true"])
        .output()
        .expect("unshare runs");
    assert!(
        probe.status.success(),
        "the disk-full test runs the server in a user namespace (unshare --user --map-root-user --mount), which this kernel refuses: {}",
        String::from_utf8_lossy(&probe.stderr)
    );
    path
}

/// Writes a file of ones into `dir` until the disk is full; its path.
fn fill(dir: &std::path::Path) -> std::path::PathBuf {
    let path = dir.join("filler");
    let mut file = std::fs::File::create(&path).unwrap();
    let block = vec![1u8; 64 * 1024];
    loop {
        match file.write_all(&block).and_then(|_| file.sync_data()) {
            Ok(()) => {}
            Err(e) if e.raw_os_error() == Some(libc::ENOSPC) => return path,
            Err(e) => panic!("filling the disk: {e}"),
        }
    }
}

async fn announce_and_put(i: &Instance, token: &str) -> (u16, Value) {
    let r = i.call(Method::POST, ANNOUNCE, Some(token), Some(announcement(1, 256 * 1024))).await;
    if r.status != 200 {
        return (r.status.as_u16(), r.body);
    }
    let mut bytes = b"%PDF-1.7\n".to_vec();
    bytes.resize(256 * 1024, b'x');
    let res = i
        .client
        .put(format!("{}{}", i.base, r.body[0]["uploadUrl"].as_str().unwrap()))
        .header("Content-Type", "application/pdf")
        .body(bytes)
        .send()
        .await
        .unwrap();
    let status = res.status().as_u16();
    (status, serde_json::from_str(&res.text().await.unwrap()).unwrap_or(Value::Null))
}

/// A write that grows the database: a participant.
async fn write(i: &Instance, token: &str, n: usize) -> Reply {
    let body = person(&format!("Full{n}"), &format!("full{n}@example.org"), "Mentor");
    i.call(Method::POST, "/api/v1/participants", Some(token), Some(body)).await
}

#[actix_web::test]
async fn a_full_disk_is_a_503_in_words_health_says_so_and_space_coming_back_needs_no_restart() {
    let unshare = unshare();
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    // SQLite: the database file is on the tmpfs too. PostgreSQL: only the receipts are.
    let on_sqlite = !common::database::on_postgres();
    let db = common::database::url_for(&data, "mentorpay.db").await;
    let script = r#"mount -t tmpfs -o size=24m tmpfs "$0" && exec "$@" serve"#;
    let data_arg = data.to_str().unwrap();
    let path = std::env::var("PATH").unwrap_or_default();
    let mut server = Instance::launch_under(
        &[&unshare, "--user", "--map-root-user", "--mount", "sh", "-c", script, data_arg],
        dir.path(),
        &db,
        &[("PATH", path.as_str())],
    );
    server.ready().await;
    // The tmpfs is seen through the server's own root: it is mounted in its namespace only.
    let inside = std::path::PathBuf::from(format!("/proc/{}/root{}", server.pid(), data.display()));
    assert_eq!(inside.join("mentorpay.db").exists(), on_sqlite, "the database is on the tmpfs");
    let (token, _) = server.login(ADMIN_EMAIL, ADMIN_PASSWORD).await;
    assert_eq!(announce_and_put(&server, &token).await.0, 204, "space to begin with");

    let filler = fill(&inside);
    let health = server.call(Method::GET, "/api/v1/health", None, None).await;
    assert_eq!(health.status, 503, "{}", health.body);
    assert!(health.body["detail"].as_str().unwrap().contains("disk"), "{}", health.body);
    let (status, body) = announce_and_put(&server, &token).await;
    assert!(status == 503 || status == 507, "{status} {body}");
    assert!(body["detail"].as_str().unwrap_or_default().contains("disk is full"), "{body}");
    // Writes until the database itself can grow no more: each is done or refused in words.
    let mut refused = 0;
    for n in 0..if on_sqlite { 400 } else { 0 } {
        let r = write(&server, &token, n).await;
        match r.status.as_u16() {
            201 => {}
            503 | 507 => {
                assert!(r.body["detail"].as_str().unwrap().contains("disk is full"), "{}", r.body);
                refused += 1;
                if refused == 3 {
                    break;
                }
            }
            other => {
                panic!("a write on a full disk answered {other}: {}\n{}", r.body, server.log_text())
            }
        }
    }
    assert_eq!(refused, if on_sqlite { 3 } else { 0 }, "the database never filled up");
    let signin = server
        .call(
            Method::POST,
            "/api/v1/identity/login",
            None,
            Some(json!({"email": ADMIN_EMAIL, "password": ADMIN_PASSWORD})),
        )
        .await;
    assert!(matches!(signin.status.as_u16(), 200 | 503), "{} {}", signin.status, signin.body);

    // Space comes back: health, sign-ins, uploads and writes work again, no restart.
    std::fs::remove_file(filler).unwrap();
    let health = server.call(Method::GET, "/api/v1/health", None, None).await;
    assert_eq!(health.status, 200, "{}", health.body);
    for n in 1000..1005 {
        // Several sign-ins: each may take another pooled connection, and none may be one a
        // failed write left inside its transaction.
        let (again, _) = server.login(ADMIN_EMAIL, ADMIN_PASSWORD).await;
        let r = write(&server, &again, n).await;
        assert_eq!(r.status, 201, "{}\n{}", r.body, server.log_text());
    }
    assert_eq!(announce_and_put(&server, &token).await.0, 204);
}
