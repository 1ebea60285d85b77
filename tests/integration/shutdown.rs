//! SIGTERM (what systemd and container runtimes send on stop) lets the requests in flight
//! finish: a burst of sign-ins (each an argon2 verification, so they queue for a while) is
//! under way when the signal arrives; every one of them answers 200 and the process then
//! exits 0. New connections are refused once it is stopping.

use crate::common;

use std::time::{Duration, Instant};

use common::{database, instance::Instance, ADMIN_EMAIL, ADMIN_PASSWORD};
use serde_json::json;

#[actix_web::test]
async fn sigterm_lets_requests_in_flight_finish_then_exits_zero() {
    let dir = tempfile::tempdir().unwrap();
    let db = database::url_for(dir.path(), "mentorpay.db").await;
    let mut server =
        Instance::start(dir.path(), &db, &[("MENTORPAY_LOGIN_ATTEMPTS_PER_MINUTE", "1000")]).await;

    let burst: Vec<_> = (0..16)
        .map(|_| {
            let (client, url) =
                (server.client.clone(), format!("{}/api/v1/identity/login", server.base));
            tokio::spawn(async move {
                let r = client
                    .post(url)
                    .json(&json!({"email": ADMIN_EMAIL, "password": ADMIN_PASSWORD}))
                    .send()
                    .await;
                (r.map(|r| r.status().as_u16()).map_err(|e| e.to_string()), Instant::now())
            })
        })
        .collect();
    // Let the server read them all; sixteen verifications take far longer than this.
    tokio::time::sleep(Duration::from_millis(150)).await;
    let signalled = Instant::now();
    server.terminate();

    let mut after_signal = 0;
    for call in burst {
        let (status, finished) = call.await.unwrap();
        assert_eq!(status, Ok(200), "a request in flight must complete:\n{}", server.log_text());
        after_signal += usize::from(finished > signalled);
    }
    // Otherwise this proved nothing: the burst was over before the signal.
    assert!(after_signal > 0, "no request was still in flight at SIGTERM; make the burst longer");

    let status = server.exit_status(Duration::from_secs(15)).await;
    assert_eq!(status.code(), Some(0), "exit status after SIGTERM:\n{}", server.log_text());
    assert!(!server.log_text().contains("panicked"), "{}", server.log_text());
    let late = server.client.get(format!("{}/api/v1/health", server.base)).send().await;
    assert!(late.is_err(), "a stopped server takes no new connection");
}

/// A stop while the mail worker is in the middle of a reminder pass over a long backlog (it
/// runs one at start): the worker ends inside the runtime, so the connection of its open
/// transaction goes back to the pool properly; the process exits 0 without a panic.
#[actix_web::test]
async fn sigterm_during_a_reminder_pass_exits_cleanly() {
    let app = common::spawn().await;
    mentorpay::demo::seed::participants(&app.state.db, 300).await.expect("participants");
    mentorpay::demo::seed::requests(&app.state.db, 24_000).await.expect("requests");
    let mut server = Instance::start(app.dir.path(), &app.state.config.database_url, &[]).await;
    // Its pass over some 6,000 overdue steps, a page at a time, is under way by now.
    tokio::time::sleep(Duration::from_millis(300)).await;
    server.terminate();
    let status = server.exit_status(Duration::from_secs(15)).await;
    let log = server.log_text();
    assert_eq!(status.code(), Some(0), "exit status after SIGTERM:\n{log}");
    assert!(!log.contains("panicked"), "{log}");
}
