//! Heavy reads take a bounded share of the server: with every export slot held by a
//! download nobody reads, the next export hears 503 with Retry-After, while lists and report
//! pages (their own slots) still answer; the slot comes back when the download ends.

use std::time::{Duration, Instant};

use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::{TcpSocket, TcpStream},
};

use crate::common::spawn_with;

const EXPORT: &str = "/api/v1/reports/payment-requests-details/retrieve?ReportFormat=Csv";

/// Sends `GET path` on a raw connection and reads only the status line and a little of the
/// body: the client never reads on, so the server's writes stall once the socket buffers
/// are full and the export keeps its slot.
async fn stalled_download(base: &str, path: &str, token: &str) -> TcpStream {
    let address = base.trim_start_matches("http://");
    // A small receive buffer: the server can push little ahead of what is read.
    let socket = TcpSocket::new_v4().expect("socket");
    socket.set_recv_buffer_size(4096).expect("receive buffer");
    let mut stream = socket.connect(address.parse().expect("address")).await.expect("connect");
    let request =
        format!("GET {path} HTTP/1.1\r\nHost: {address}\r\nAuthorization: Bearer {token}\r\n\r\n");
    stream.write_all(request.as_bytes()).await.expect("send");
    let mut head = [0u8; 512];
    let n = stream.read(&mut head).await.expect("read");
    let head = String::from_utf8_lossy(&head[..n]);
    assert!(head.starts_with("HTTP/1.1 200"), "the first export runs: {head}");
    stream
}

#[actix_web::test]
async fn lists_and_report_pages_answer_while_exports_fill_their_share() {
    let app = spawn_with(&["--export-slots", "1", "--export-wait-seconds", "1"]).await;
    // Enough rows that the CSV (about 4.6 MB) cannot fit in the connection's buffers.
    mentorpay::demo::seed::participants(&app.state.db, 300).await.expect("participants");
    mentorpay::demo::seed::requests(&app.state.db, 30_000).await.expect("requests");
    let token = app.admin_token().await;

    let held = stalled_download(&app.base, EXPORT, &token).await;

    let started = Instant::now();
    let second = app.get(EXPORT, &token).await;
    assert_eq!(second.status, 503, "the second export waited for the only slot, then heard busy");
    second.problem(503);
    assert_eq!(second.headers.get("Retry-After").and_then(|v| v.to_str().ok()), Some("1"));
    assert!(started.elapsed() < Duration::from_secs(10), "the wait is bounded");

    // The interactive path and report pages are not behind the exports.
    for path in ["/api/v1/payment-requests?Page=1&Size=10", "/api/v1/participants?Page=1&Size=10"] {
        let started = Instant::now();
        app.get(path, &token).await.ok();
        assert!(started.elapsed() < Duration::from_secs(2), "{path} answered at once");
    }
    app.get("/api/v1/reports/all-approvals?Page=1&Size=10", &token).await.ok();

    // The download ends (the client went away): its slot is given back.
    drop(held);
    let mut freed = false;
    for _ in 0..50 {
        if app.get("/api/v1/reports/all-approvals/retrieve?ReportFormat=Csv", &token).await.status
            == 200
        {
            freed = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(freed, "the export slot came back when the stalled download was closed");
}
