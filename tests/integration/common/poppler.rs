//! A PDF read back through poppler-utils: the HTTP tests and the PDF writer's own unit tests
//! (which include this file by path) check files the same way.

use std::process::Command;

/// `tool` of poppler-utils over the PDF `bytes`, with `args` before the file's path; its error
/// output must be empty: poppler complains of any damage it meets.
pub fn poppler(bytes: &[u8], tool: &str, args: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("file.pdf");
    std::fs::write(&path, bytes).unwrap();
    let mut cmd = Command::new(tool);
    cmd.args(args).arg(&path);
    if tool == "pdftotext" {
        cmd.arg("-");
    }
    let out = cmd.output().expect("poppler-utils are installed");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && err.trim().is_empty(), "{tool}: {err}");
    String::from_utf8(out.stdout).unwrap()
}

/// What `pdfinfo` says for `key`.
pub fn info(bytes: &[u8], key: &str) -> String {
    let info = poppler(bytes, "pdfinfo", &[]);
    let value = info.lines().find_map(|l| l.strip_prefix(key)?.strip_prefix(':'));
    value.unwrap_or_else(|| panic!("no {key} in {info}")).trim().to_owned()
}
