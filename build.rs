//! Builds the React UI with esbuild into $OUT_DIR/ui, which rust-embed puts into the
//! binary. Runs `npm ci` only when node_modules is missing or older than the lock file.
//! Without Node (or with MENTORPAY_SKIP_UI=1) the binary still builds, with a page that
//! says how to build the UI.

use std::{
    env, fs,
    path::{Path, PathBuf},
    process::Command,
};

fn main() {
    stamp_build();
    let out = PathBuf::from(env::var("OUT_DIR").expect("OUT_DIR")).join("ui");
    let frontend =
        PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("manifest dir")).join("frontend");
    for watched in
        ["src", "package.json", "package-lock.json", "build.mjs", "tsconfig.json", "public"]
    {
        println!("cargo:rerun-if-changed=frontend/{watched}");
    }
    println!("cargo:rerun-if-env-changed=MENTORPAY_SKIP_UI");

    let _ = fs::remove_dir_all(&out);
    fs::create_dir_all(&out).expect("create ui folder");

    if env::var_os("MENTORPAY_SKIP_UI").is_some_and(|v| v != "0") {
        return placeholder(&out, "MENTORPAY_SKIP_UI was set when this binary was built.");
    }
    if !frontend.join("package.json").exists() {
        return placeholder(&out, "frontend/package.json is missing.");
    }
    if !works("node", &["--version"]) || !works("npm", &["--version"]) {
        println!("cargo:warning=Node.js/npm not found: the binary will serve a placeholder page instead of the UI");
        return placeholder(
            &out,
            "Node.js 20 and npm were not installed when this binary was built.",
        );
    }
    if needs_install(&frontend) {
        run(
            Command::new("npm").args(["ci", "--no-audit", "--no-fund"]).current_dir(&frontend),
            "npm ci",
        );
    }
    run(
        Command::new("node").arg("build.mjs").arg(&out).arg("--gzip").current_dir(&frontend),
        "the UI build (node build.mjs)",
    );
}

/// `mentorpay --version` names the commit and the day of the build, so IT can tell which build a
/// server runs. SOURCE_DATE_EPOCH (reproducible builds) wins over the clock; outside a git
/// checkout the commit is "unknown".
fn stamp_build() {
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let commit = git(&["rev-parse", "--short=12", "HEAD"]).unwrap_or_else(|| "unknown".into());
    // A new commit changes HEAD (detached) or the branch's ref file.
    let branch = git(&["symbolic-ref", "-q", "HEAD"]);
    for name in std::iter::once("HEAD".to_string()).chain(branch) {
        if let Some(path) = git(&["rev-parse", "--git-path", &name]) {
            println!("cargo:rerun-if-changed={path}");
        }
    }
    println!("cargo:rerun-if-env-changed=SOURCE_DATE_EPOCH");
    let seconds = env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs())
        });
    println!("cargo:rustc-env=MENTORPAY_GIT_COMMIT={commit}");
    println!("cargo:rustc-env=MENTORPAY_BUILD_DATE={}", civil_date(seconds / 86_400));
}

/// Days since 1970-01-01 as YYYY-MM-DD (proleptic Gregorian; the usual era arithmetic).
fn civil_date(days: u64) -> String {
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

fn works(program: &str, args: &[&str]) -> bool {
    Command::new(program).args(args).output().is_ok_and(|o| o.status.success())
}

fn needs_install(frontend: &Path) -> bool {
    let modified = |p: PathBuf| fs::metadata(p).and_then(|m| m.modified()).ok();
    match (
        modified(frontend.join("package-lock.json")),
        modified(frontend.join("node_modules/.package-lock.json")),
    ) {
        (Some(lock), Some(installed)) => lock > installed,
        _ => true,
    }
}

fn run(command: &mut Command, what: &str) {
    let status = command.status().unwrap_or_else(|e| panic!("cannot start {what}: {e}"));
    assert!(status.success(), "{what} failed ({status}); see the output above");
}

fn placeholder(out: &Path, why: &str) {
    let page = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>MentorPay</title></head>\
         <body style=\"font-family:sans-serif;max-width:40rem;margin:4rem auto\"><h1>MentorPay</h1>\
         <p>The API is running, but this binary was built without its user interface: {why}</p>\
         <p>Install Node.js 20 and npm, then rebuild with <code>cargo build --release</code>.</p></body></html>"
    );
    fs::write(out.join("index.html"), page).expect("write placeholder");
}
