//! The built binary in a process of its own, on a test's database: several instances on
//! one database (scale-out), and signals (graceful shutdown).
#![allow(dead_code)]

use std::{
    path::{Path, PathBuf},
    process::{Child, Command, ExitStatus, Stdio},
    time::{Duration, Instant},
};

use reqwest::Method;
use serde_json::Value;

use super::{send, Reply, ADMIN_EMAIL, ADMIN_PASSWORD};

pub struct Instance {
    pub base: String,
    pub client: reqwest::Client,
    /// The process's log (stderr), for failure messages.
    pub log: PathBuf,
    child: Option<Child>,
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

impl Instance {
    /// Starts `mentorpay serve` on a free port over `db` with files in `dir`, the test
    /// Administrator, no fixed signing secret (instances share the one kept in the database)
    /// and `env` on top. Returns at once: see `ready`.
    pub fn launch(dir: &Path, db: &str, env: &[(&str, &str)]) -> Self {
        Self::launch_under(&[], dir, db, env)
    }

    /// As `launch`, the binary started by the command `wrapper` (its arguments, then the
    /// binary's path), which must end by exec'ing it so the child's pid is the server's.
    pub fn launch_under(wrapper: &[&str], dir: &Path, db: &str, env: &[(&str, &str)]) -> Self {
        let port = free_port();
        let log = dir.join(format!("instance-{port}.log"));
        let binary = env!("CARGO_BIN_EXE_mentorpay");
        let mut command = match wrapper.split_first() {
            None => Command::new(binary),
            Some((program, args)) => {
                let mut c = Command::new(program);
                c.args(args).arg(binary);
                c
            }
        };
        command
            .current_dir(dir)
            .env_clear()
            .envs(crate::common::dates::clock_env())
            .env("MENTORPAY_LISTEN", format!("127.0.0.1:{port}"))
            .env("MENTORPAY_DATABASE_URL", db)
            .env("MENTORPAY_DATA_DIR", dir.join("data"))
            .env("MENTORPAY_ADMIN_EMAIL", ADMIN_EMAIL)
            .env("MENTORPAY_ADMIN_PASSWORD", ADMIN_PASSWORD)
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap());
        for (key, value) in env {
            command.env(key, value);
        }
        let child = command.spawn().expect("start the binary");
        Self {
            base: format!("http://127.0.0.1:{port}"),
            client: reqwest::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .unwrap(),
            log,
            child: Some(child),
        }
    }

    /// Waits until health answers 200 (the instance migrated and set up), at most 60 s.
    pub async fn ready(&mut self) {
        let started = Instant::now();
        loop {
            if let Ok(r) = self.client.get(format!("{}/api/v1/health", self.base)).send().await {
                if r.status() == 200 {
                    return;
                }
            }
            if let Some(status) = self.child.as_mut().unwrap().try_wait().unwrap() {
                panic!(
                    "the instance exited with {status} before it was ready:\n{}",
                    self.log_text()
                );
            }
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "not ready after 60 s:\n{}",
                self.log_text()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    pub async fn start(dir: &Path, db: &str, env: &[(&str, &str)]) -> Self {
        let mut instance = Self::launch(dir, db, env);
        instance.ready().await;
        instance
    }

    pub fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    pub fn pid(&self) -> u32 {
        self.child.as_ref().expect("running").id()
    }

    pub async fn call(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> Reply {
        send(&self.client, &self.base, method, path, token, body).await
    }

    /// Signs in and returns (access token, refresh token).
    pub async fn login(&self, email: &str, password: &str) -> (String, String) {
        let r = self
            .call(
                Method::POST,
                "/api/v1/identity/login",
                None,
                Some(serde_json::json!({"email": email, "password": password})),
            )
            .await;
        let body = r.ok();
        (
            body["accessToken"].as_str().unwrap().to_owned(),
            body["refreshToken"].as_str().unwrap().to_owned(),
        )
    }

    /// Ends the process with SIGKILL (a crash: no shutdown runs) and waits for it.
    pub fn kill(&mut self) {
        let mut child = self.child.take().expect("running");
        child.kill().expect("SIGKILL");
        child.wait().expect("reaped");
    }

    /// Sends SIGTERM (what systemd and container runtimes send) without waiting.
    pub fn terminate(&self) {
        let status =
            Command::new("kill").args(["-TERM", &self.pid().to_string()]).status().expect("kill");
        assert!(status.success(), "kill -TERM failed");
    }

    /// Waits for the process to end, at most `limit`.
    pub async fn exit_status(&mut self, limit: Duration) -> ExitStatus {
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.as_mut().expect("running").try_wait().unwrap() {
                self.child = None;
                return status;
            }
            assert!(
                started.elapsed() < limit,
                "still running after {limit:?}:\n{}",
                self.log_text()
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        if let Some(child) = self.child.as_mut() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}
