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
        Command::new("node").arg("build.mjs").arg(&out).current_dir(&frontend),
        "the UI build (node build.mjs)",
    );
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
