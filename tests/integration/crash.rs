//! Crash safety: the real binary on a SQLite file, 50 concurrent
//! clients creating, editing and moving participants and payment requests, killed with
//! SIGKILL at a random moment, ten rounds. After each kill the file passes
//! `PRAGMA integrity_check`, the kept totals equal a recount, and every write that got a
//! 2xx is there in the state it was acknowledged in (or in the state of the one write
//! that was still in flight on that row when the process died); after each restart the
//! server answers with that same state.

use crate::common::dates::{shifted, shifted_fy};
use crate::support;

use std::{
    collections::HashMap,
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
    sync::{
        atomic::{AtomicBool, AtomicUsize, Ordering},
        Arc,
    },
    time::{Duration, Instant},
};

use mentorpay::entities::{participant, payment_request};
use rand::{rngs::StdRng, Rng, SeedableRng};
use sea_orm::EntityTrait;
use serde_json::{json, Value};

const ROUNDS: usize = 10;
const CLIENTS: usize = 50;
const ADMIN: &str = "admin@example.org";
const APPROVER: &str = "approver@example.org";
const PASSWORD: &str = "crash test password";
const SECRET: &str = "crash test secret that is long enough 0123456789";

struct Server {
    child: Child,
    base: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

async fn start(dir: &Path) -> Server {
    // Another process on this machine may take the free port between our check and the
    // server's bind; our server then exits at once, and whoever holds the port (maybe another
    // MentorPay) must not be mistaken for it: retry on a new port.
    for _ in 0..5 {
        if let Some(server) = try_start(dir).await {
            return server;
        }
    }
    panic!("the server did not start");
}

async fn try_start(dir: &Path) -> Option<Server> {
    let port = free_port();
    let child = Command::new(env!("CARGO_BIN_EXE_mentorpay"))
        .current_dir(dir)
        .env_clear()
        .envs(crate::common::dates::clock_env())
        .env("MENTORPAY_LISTEN", format!("127.0.0.1:{port}"))
        .env(
            "MENTORPAY_DATABASE_URL",
            format!("sqlite://{}?mode=rwc", dir.join("mentorpay.db").display()),
        )
        .env("MENTORPAY_DATA_DIR", dir.join("data"))
        .env("MENTORPAY_JWT_SECRET", SECRET)
        .env("MENTORPAY_ADMIN_EMAIL", ADMIN)
        .env("MENTORPAY_ADMIN_PASSWORD", PASSWORD)
        .env("MENTORPAY_LOGIN_ATTEMPTS_PER_MINUTE", "10000")
        .env("MENTORPAY_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the binary");
    let mut server = Server { child, base: format!("http://127.0.0.1:{port}") };
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(30) {
        if server.child.try_wait().unwrap().is_some() {
            return None;
        }
        if let Ok(r) = reqwest::get(format!("{}/api/v1/health", server.base)).await {
            if r.status() == 200 {
                // The bind happens before anything else: still running now means it is ours.
                tokio::time::sleep(Duration::from_millis(50)).await;
                return server.child.try_wait().unwrap().is_none().then_some(server);
            }
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    None
}

/// A row's state as the API acknowledged it, compared with the file afterwards.
#[derive(Clone, Debug, PartialEq)]
enum State {
    Participant { version: i64, last_name: String },
    Request { version: i64, status: String, requested: i64, approved: Option<i64> },
}

fn cents(v: &Value) -> Option<i64> {
    v.as_f64().map(|x| (x * 100.0).round() as i64)
}

fn participant_state(b: &Value) -> State {
    State::Participant {
        version: b["version"].as_i64().unwrap(),
        last_name: b["lastName"].as_str().unwrap().to_owned(),
    }
}

fn request_state(b: &Value) -> State {
    State::Request {
        version: b["version"].as_i64().unwrap(),
        status: b["formStatus"].as_str().unwrap().to_owned(),
        requested: cents(&b["requestedAmount"]).unwrap(),
        approved: cents(&b["approvedAmount"]),
    }
}

/// What is known about one row: its acknowledged state, and the state a write in flight
/// when the server died would have given it.
#[derive(Clone, Debug)]
struct Tracked {
    acked: State,
    pending: Option<State>,
}

type Ledger = HashMap<(char, i64), Tracked>;

struct Ctx {
    base: String,
    http: reqwest::Client,
    admin: String,
    approver: String,
    payees: Vec<i64>,
    code: i64,
    fund: i64,
    account: i64,
    server_errors: AtomicUsize,
    acks: AtomicUsize,
    dead: AtomicBool,
}

enum Outcome {
    Ok(Value),
    Refused,
    Lost,
}

impl Ctx {
    async fn send(&self, method: reqwest::Method, path: &str, token: &str, body: Value) -> Outcome {
        let req = self
            .http
            .request(method, format!("{}{path}", self.base))
            .bearer_auth(token)
            .json(&body);
        match req.send().await {
            Ok(res) => {
                let status = res.status().as_u16();
                match res.text().await {
                    Ok(text) if (200..300).contains(&status) => {
                        self.acks.fetch_add(1, Ordering::Relaxed);
                        Outcome::Ok(serde_json::from_str(&text).unwrap_or(Value::Null))
                    }
                    Ok(text) if status >= 500 => {
                        eprintln!("{status} on {path}: {text}");
                        self.server_errors.fetch_add(1, Ordering::Relaxed);
                        Outcome::Refused
                    }
                    Ok(_) => Outcome::Refused,
                    // The body was cut off: the answer never arrived, the outcome is unknown.
                    Err(_) => Outcome::Lost,
                }
            }
            Err(_) => Outcome::Lost,
        }
    }

    fn person(&self, key: &str, last_name: &str) -> Value {
        json!({
            "firstName": "Crash", "lastName": last_name, "email": format!("{key}@example.org"), "phone": "(916) 555-0100",
            "address": "1 Capitol Mall, Sacramento", "status": "Active", "roleCode": "Mentor",
            "districtSetType": "Assembly", "districtId": 7, "caucusRegionId": 1,
            "workplaceSettingIds": [1], "languageIds": [1], "educationLevelIds": [3], "permitLevelIds": [2],
        })
    }

    fn request(&self, payee: i64, amount: i64) -> Value {
        json!({"participationId": payee, "description": "Seminar", "requestedAmount": amount,
            "details": {"seminarDate": shifted("2026-10-01"), "topic": "Play", "hours": 3}})
    }
}

/// A call planned on a row (none for a create), as `token`, and the state it gives the row.
type Plan<'a> = (Option<(char, i64)>, String, reqwest::Method, Value, &'a str, Option<State>);

/// One client: random actions on its own rows until the server dies. Returns its ledger.
async fn client(ctx: Arc<Ctx>, id: usize, round: usize, seed: u64) -> Ledger {
    use reqwest::Method as M;
    let mut rng = StdRng::seed_from_u64(seed);
    let mut ledger: Ledger = HashMap::new();
    // Own rows: participant id -> e-mail; request id -> payee.
    let mut people: Vec<(i64, String)> = Vec::new();
    let mut requests: Vec<(i64, i64)> = Vec::new();
    let mut n = 0;
    while !ctx.dead.load(Ordering::Relaxed) {
        n += 1;
        let pick = rng.gen_range(0..100);
        // The row, the call, and the state it gives the row, so an unanswered call is known.
        let (key, path, method, body, token, expect): Plan = if pick < 15 || people.is_empty() {
            (
                None,
                "/api/v1/participants".into(),
                M::POST,
                ctx.person(&format!("c{id}r{round}n{n}"), "Created"),
                &ctx.admin,
                None,
            )
        } else if pick < 35 {
            let (pid, email) = people[rng.gen_range(0..people.len())].clone();
            let State::Participant { version, .. } = ledger[&('p', pid)].acked.clone() else {
                unreachable!()
            };
            let last = format!("Edited{n}");
            let mut b = ctx.person(&email, &last);
            b["version"] = json!(version);
            (
                Some(('p', pid)),
                format!("/api/v1/participants/{pid}"),
                M::PUT,
                b,
                &ctx.admin,
                Some(State::Participant { version: version + 1, last_name: last }),
            )
        } else if pick < 55 || requests.is_empty() {
            let payee = ctx.payees[rng.gen_range(0..ctx.payees.len())];
            (
                None,
                "/api/v1/payment-requests/F5".into(),
                M::POST,
                ctx.request(payee, rng.gen_range(10..200)),
                &ctx.admin,
                None,
            )
        } else {
            let (rid, payee) = requests[rng.gen_range(0..requests.len())];
            let State::Request { version, status, requested, approved } =
                ledger[&('r', rid)].acked.clone()
            else {
                unreachable!()
            };
            let url = format!("/api/v1/payment-requests/F5/{rid}");
            let next = |status: &str, requested: i64, approved: Option<i64>| {
                Some(State::Request {
                    version: version + 1,
                    status: status.into(),
                    requested,
                    approved,
                })
            };
            match status.as_str() {
                "Draft" if pick < 80 => {
                    let amount = rng.gen_range(10..200);
                    let mut b = ctx.request(payee, amount);
                    b["version"] = json!(version);
                    (
                        Some(('r', rid)),
                        url,
                        M::PUT,
                        b,
                        &ctx.admin,
                        next("Draft", amount * 100, approved),
                    )
                }
                "Draft" => (
                    Some(('r', rid)),
                    format!("{url}/submit"),
                    M::POST,
                    json!({}),
                    &ctx.admin,
                    next("Submitted", requested, approved),
                ),
                "Submitted" => {
                    let amount = rng.gen_range(1..=requested / 100);
                    let a = json!({"approvedAmount": amount, "approvalCodeId": ctx.code, "fundId": ctx.fund, "expenseAccountId": ctx.account, "acknowledgeWarnings": true});
                    (
                        Some(('r', rid)),
                        format!("{url}/approve"),
                        M::POST,
                        a,
                        &ctx.approver,
                        next("Approved", requested, Some(amount * 100)),
                    )
                }
                _ => (
                    Some(('r', rid)),
                    format!("{url}/move-back-to-submitted"),
                    M::POST,
                    json!({}),
                    &ctx.approver,
                    next("Submitted", requested, None),
                ),
            }
        };
        if let (Some(k), Some(e)) = (key, &expect) {
            ledger.get_mut(&k).unwrap().pending = Some(e.clone());
        }
        match ctx.send(method, &path, token, body.clone()).await {
            Outcome::Ok(b) => match key {
                Some(k) => {
                    let state = if k.0 == 'p' { participant_state(&b) } else { request_state(&b) };
                    ledger.insert(k, Tracked { acked: state, pending: None });
                }
                None if path.ends_with("/participants") => {
                    let pid = b["id"].as_i64().unwrap();
                    people.push((
                        pid,
                        body["email"].as_str().unwrap().trim_end_matches("@example.org").to_owned(),
                    ));
                    ledger.insert(
                        ('p', pid),
                        Tracked { acked: participant_state(&b), pending: None },
                    );
                }
                None => {
                    let rid = b["id"].as_i64().unwrap();
                    requests.push((rid, body["participationId"].as_i64().unwrap()));
                    ledger.insert(('r', rid), Tracked { acked: request_state(&b), pending: None });
                }
            },
            Outcome::Refused => {
                if let Some(k) = key {
                    ledger.get_mut(&k).unwrap().pending = None;
                }
            }
            // The server is gone; what was in flight stays pending.
            Outcome::Lost => break,
        }
    }
    ledger
}

/// The state of every tracked row in the file, checked against what was acknowledged.
async fn check_file(db_path: &Path, ledger: &mut Ledger) -> Result<(), String> {
    let db = support::open_sqlite(db_path).await;
    support::integrity_ok(&db).await?;
    support::totals_match_recount(&db).await?;
    let people: HashMap<i64, State> = participant::Entity::find()
        .all(&db)
        .await
        .map_err(|e| e.to_string())?
        .into_iter()
        .map(|p| {
            (p.id as i64, State::Participant { version: p.version as i64, last_name: p.last_name })
        })
        .collect();
    let requests: HashMap<i64, State> = payment_request::Entity::find()
        .all(&db)
        .await
        .map_err(|e| e.to_string())?
        .into_iter()
        .map(|r| {
            (
                r.id as i64,
                State::Request {
                    version: r.version as i64,
                    status: r.status.as_str().to_owned(),
                    requested: r.requested_cents,
                    approved: r.approved_cents,
                },
            )
        })
        .collect();
    db.close().await.map_err(|e| e.to_string())?;
    let mut problems = Vec::new();
    for (key, tracked) in ledger.iter_mut() {
        let stored = if key.0 == 'p' { people.get(&key.1) } else { requests.get(&key.1) };
        match stored {
            Some(s) if *s == tracked.acked => {}
            Some(s) if Some(s) == tracked.pending.as_ref() => {}
            other => problems.push(format!(
                "{key:?}: acknowledged {:?} (in flight {:?}), stored {other:?}",
                tracked.acked, tracked.pending
            )),
        }
        // From now on the stored state is the known one.
        if let Some(s) = stored {
            tracked.acked = s.clone();
            tracked.pending = None;
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} rows lost or wrong:\n{}",
            problems.len(),
            problems[..problems.len().min(10)].join("\n")
        ))
    }
}

async fn login(base: &str, http: &reqwest::Client, email: &str) -> String {
    let r = http
        .post(format!("{base}/api/v1/identity/login"))
        .json(&json!({"email": email, "password": PASSWORD}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    r.json::<Value>().await.unwrap()["accessToken"].as_str().unwrap().to_owned()
}

async fn ok(
    http: &reqwest::Client,
    base: &str,
    token: &str,
    method: reqwest::Method,
    path: &str,
    body: Value,
) -> Value {
    let r = http
        .request(method, format!("{base}{path}"))
        .bearer_auth(token)
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = r.status();
    let body: Value = r.json().await.unwrap_or(Value::Null);
    assert!(status.is_success(), "{path}: {status} {body}");
    body
}

/// The world every round works in: a fiscal year, two payees in two programs, an approver.
async fn prepare(dir: &Path) -> (Vec<i64>, i64, i64, i64) {
    use reqwest::Method as M;
    let server = start(dir).await;
    let (base, http) = (server.base.clone(), reqwest::Client::new());
    let admin = login(&base, &http, ADMIN).await;
    let fy = ok(
        &http,
        &base,
        &admin,
        M::POST,
        "/api/v1/system-settings/fiscal-years",
        json!({"name": shifted_fy("FY 2026-27"), "startDate": shifted("2026-07-01"), "endDate": shifted("2027-06-30")}),
    )
    .await["id"]
        .as_i64()
        .unwrap();
    let first = |v: Value| v.as_array().unwrap()[0]["id"].as_i64().unwrap();
    let programs: Vec<i64> =
        ok(&http, &base, &admin, M::GET, "/api/v1/mentor-programs", Value::Null)
            .await
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["id"].as_i64().unwrap())
            .collect();
    let fund = first(ok(&http, &base, &admin, M::GET, "/api/v1/funds", Value::Null).await);
    let account =
        first(ok(&http, &base, &admin, M::GET, "/api/v1/expense-accounts", Value::Null).await);
    let codes = ok(&http, &base, &admin, M::GET, "/api/v1/approval-codes", Value::Null).await;
    let code = codes.as_array().unwrap().iter().find(|c| c["paymentRequestType"] == "F5").unwrap()
        ["id"]
        .as_i64()
        .unwrap();
    let mut payees = Vec::new();
    for (i, program) in programs.iter().take(2).enumerate() {
        let body = json!({
            "firstName": "Payee", "lastName": format!("No {i}"), "email": format!("payee{i}@example.org"), "phone": "(916) 555-0100",
            "address": "1 Capitol Mall, Sacramento", "status": "Active", "roleCode": "Mentor",
            "districtSetType": "Assembly", "districtId": 7, "caucusRegionId": 1,
            "workplaceSettingIds": [1], "languageIds": [1], "educationLevelIds": [3], "permitLevelIds": [2],
            "participations": [{"mentorProgramId": program, "fiscalYearId": fy, "roleCode": "Mentor", "collegeId": 1, "startDate": shifted("2026-07-01"), "endDate": shifted("2027-06-30")}],
        });
        payees.push(
            ok(&http, &base, &admin, M::POST, "/api/v1/participants", body).await["participations"]
                [0]["id"]
                .as_i64()
                .unwrap(),
        );
    }
    let user = json!({"email": APPROVER, "firstName": "Ap", "lastName": "Prover", "roles": ["Administrator"], "password": PASSWORD});
    ok(&http, &base, &admin, M::POST, "/api/v1/identity/users", user).await;
    (payees, code, fund, account)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn acknowledged_writes_survive_sigkill() {
    if support::skip_on_postgres(
        "this kills a server writing a SQLite file; it runs in the SQLite pass",
    ) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let db_path: PathBuf = dir.path().join("mentorpay.db");
    let (payees, code, fund, account) = prepare(dir.path()).await;
    let mut ledger: Ledger = HashMap::new();
    // A random run each time; CRASH_SEED=n replays one (the seed is printed).
    let seed: u64 =
        std::env::var("CRASH_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(rand::random);
    eprintln!("CRASH_SEED={seed}");
    let mut seed_rng = StdRng::seed_from_u64(seed);
    for round in 0..ROUNDS {
        let mut server = start(dir.path()).await;
        let http = reqwest::Client::builder().pool_max_idle_per_host(CLIENTS).build().unwrap();
        // After a restart the server answers with the state the file holds.
        let admin = login(&server.base, &http, ADMIN).await;
        for (key, tracked) in ledger.iter().take(20) {
            let path = match key.0 {
                'p' => format!("/api/v1/participants/{}", key.1),
                _ => format!("/api/v1/payment-requests/F5/{}", key.1),
            };
            let b = ok(&http, &server.base, &admin, reqwest::Method::GET, &path, Value::Null).await;
            let served = if key.0 == 'p' { participant_state(&b) } else { request_state(&b) };
            assert_eq!(
                served, tracked.acked,
                "CRASH_SEED={seed} round {round}: {path} after restart"
            );
        }
        let ctx = Arc::new(Ctx {
            base: server.base.clone(),
            http,
            approver: login(&server.base, &reqwest::Client::new(), APPROVER).await,
            admin,
            payees: payees.clone(),
            code,
            fund,
            account,
            server_errors: AtomicUsize::new(0),
            acks: AtomicUsize::new(0),
            dead: AtomicBool::new(false),
        });
        let clients: Vec<_> = (0..CLIENTS)
            .map(|c| tokio::spawn(client(ctx.clone(), c, round, seed_rng.gen())))
            .collect();
        // The random moment counts from the first acknowledged write (a loaded machine may
        // take a while to get going).
        let waiting = Instant::now();
        while ctx.acks.load(Ordering::Relaxed) == 0 {
            assert!(
                waiting.elapsed() < Duration::from_secs(30),
                "round {round}: no write acknowledged"
            );
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let kill_after = Duration::from_millis(seed_rng.gen_range(100..1200));
        tokio::time::sleep(kill_after).await;
        server.child.kill().expect("SIGKILL");
        server.child.wait().unwrap();
        ctx.dead.store(true, Ordering::Relaxed);
        for c in clients {
            ledger.extend(c.await.unwrap());
        }
        let acks = ctx.acks.load(Ordering::Relaxed);
        assert_eq!(ctx.server_errors.load(Ordering::Relaxed), 0, "round {round}: 5xx answers");
        if let Err(e) = check_file(&db_path, &mut ledger).await {
            panic!("CRASH_SEED={seed} round {round} (killed {kill_after:?} after the first write, {acks} acknowledged writes): {e}");
        }
        eprintln!("round {round}: killed {kill_after:?} after the first write, {acks} acknowledged writes, {} rows tracked", ledger.len());
    }
}
