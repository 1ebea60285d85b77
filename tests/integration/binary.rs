//! The built binary, copied alone into an empty folder, starts on a new database,
//! serves the UI and the API, and backs the database up while running.

use std::{
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};

struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

#[test]
fn the_binary_alone_serves_everything() {
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("mentorpay");
    std::fs::copy(env!("CARGO_BIN_EXE_mentorpay"), &exe).unwrap();
    let port = free_port();
    let child = Command::new(&exe)
        .current_dir(dir.path())
        .env_clear()
        .envs(crate::common::dates::clock_env())
        .env("MENTORPAY_LISTEN", format!("127.0.0.1:{port}"))
        .env("MENTORPAY_LOG_FORMAT", "json")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut child = Killed(child);
    let base = format!("http://127.0.0.1:{port}");
    let started = Instant::now();
    let health = loop {
        if let Ok(r) = reqwest::blocking_get(&format!("{base}/api/v1/health")) {
            break r;
        }
        assert!(started.elapsed() < Duration::from_secs(30), "server did not start");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(health.0, 200);
    assert!(dir.path().join("mentorpay.db").exists(), "database created next to it");
    let index = reqwest::blocking_get(&format!("{base}/participant/list")).unwrap();
    assert_eq!(index.0, 200);
    assert!(index.1.contains("<html"), "{}", index.1);

    // Online backup.
    let backup = dir.path().join("backup.db");
    let status = Command::new(&exe)
        .current_dir(dir.path())
        .env_clear()
        .envs(crate::common::dates::clock_env())
        .arg("backup")
        .arg(&backup)
        .status()
        .unwrap();
    assert!(status.success());
    assert!(std::fs::metadata(&backup).unwrap().len() > 0);

    // The first Administrator's one-time link went to the log, as JSON lines.
    let _ = child.0.kill();
    let output = child.0.stderr.take().map(|mut e| {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut e, &mut s).unwrap();
        s
    });
    let log = output.unwrap_or_default();
    assert!(log.contains("/set-password?email=admin%40localhost&token="), "{log}");
    assert!(
        log.lines().filter(|l| !l.trim().is_empty() && l.starts_with('{')).count() > 0,
        "json log lines: {log}"
    );
}

/// Minimal blocking GET over reqwest's async client (no extra feature needed).
mod reqwest {
    pub fn blocking_get(url: &str) -> Result<(u16, String), String> {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        rt.block_on(async {
            let r = ::reqwest::get(url).await.map_err(|e| e.to_string())?;
            let status = r.status().as_u16();
            Ok((status, r.text().await.map_err(|e| e.to_string())?))
        })
    }
}
