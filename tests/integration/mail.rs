//! With an SMTP relay configured, password links leave by SMTP: a minimal relay on
//! loopback records the conversation lettre holds with it.

use crate::common;

use std::{net::TcpListener, time::Duration};

use clap::Parser;
use tokio::{
    io::{AsyncBufReadExt, AsyncWriteExt, BufReader},
    sync::mpsc,
};

/// Accepts one SMTP session and sends the DATA it received.
async fn fake_relay(listener: tokio::net::TcpListener, out: mpsc::UnboundedSender<String>) {
    let (socket, _) = listener.accept().await.unwrap();
    let (read, mut write) = socket.into_split();
    let mut lines = BufReader::new(read).lines();
    write.write_all(b"220 relay.test ESMTP\r\n").await.unwrap();
    let mut data = String::new();
    let mut in_data = false;
    while let Ok(Some(line)) = lines.next_line().await {
        if in_data {
            if line == "." {
                in_data = false;
                write.write_all(b"250 OK queued\r\n").await.unwrap();
                out.send(std::mem::take(&mut data)).unwrap();
            } else {
                data.push_str(&line);
                data.push('\n');
            }
            continue;
        }
        let verb = line.split_whitespace().next().unwrap_or("").to_ascii_uppercase();
        let reply: &[u8] = match verb.as_str() {
            "EHLO" | "HELO" => b"250 relay.test\r\n",
            "MAIL" | "RCPT" | "RSET" | "NOOP" => b"250 OK\r\n",
            "DATA" => {
                in_data = true;
                b"354 go ahead\r\n"
            }
            "QUIT" => {
                write.write_all(b"221 bye\r\n").await.unwrap();
                break;
            }
            _ => b"502 not implemented\r\n",
        };
        write.write_all(reply).await.unwrap();
    }
}

#[actix_web::test]
async fn reset_links_are_sent_through_the_configured_relay() {
    let relay = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let relay_port = relay.local_addr().unwrap().port().to_string();
    let (tx, mut rx) = mpsc::unbounded_channel();
    actix_web::rt::spawn(fake_relay(relay, tx));

    let dir = tempfile::tempdir().unwrap();
    let db = common::database::url_for(dir.path(), "mail.db").await;
    let cli = mentorpay::cli::Cli::try_parse_from([
        "mentorpay",
        "--database-url",
        &db,
        "--admin-email",
        "admin@example.org",
        "--admin-password",
        "admin password 123",
        "--smtp-host",
        "127.0.0.1",
        "--smtp-port",
        &relay_port,
        "--smtp-security",
        "none",
        "--smtp-from",
        "MentorPay <mentorpay@example.org>",
        "--public-url",
        "https://mentorpay.example.org",
    ])
    .unwrap();
    let state = mentorpay::app::prepare(cli.config).await.unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    actix_web::rt::spawn(mentorpay::app::serve(state, listener).unwrap());

    let r = reqwest::Client::new()
        .post(format!("{base}/api/v1/identity/user/reset-password"))
        .json(&serde_json::json!({"email": "admin@example.org"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);

    let mail = tokio::time::timeout(Duration::from_secs(10), rx.recv())
        .await
        .expect("mail within 10 s")
        .unwrap();
    assert!(mail.contains("To: admin@example.org"), "{mail}");
    assert!(mail.contains("From: MentorPay <mentorpay@example.org>"), "{mail}");
    let unfolded = mail.replace("=\n", "");
    assert!(
        unfolded.contains(
            "https://mentorpay.example.org/set-password?email=3Dadmin%40example.org&token=3D"
        ) || unfolded.contains(
            "https://mentorpay.example.org/set-password?email=admin%40example.org&token="
        ),
        "{mail}"
    );
}
