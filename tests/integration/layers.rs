//! Dependencies run one way (DESIGN §2): main → app → areas → kernel. Read from the source's
//! `crate::` paths, so a new import against the grain fails here, naming the file and line.
//!   - the kernel names no area and nothing above it;
//!   - an area names nothing above the areas (app, cli, openapi);
//!   - an area takes another area's rules, store or types, never a file that holds handlers
//!     (one with a `#[utoipa::path]`), so handlers can move without breaking other areas.

use std::{
    collections::BTreeSet,
    path::{Path, PathBuf},
};

const KERNEL: &[&str] = &["activity", "assets", "auth", "config", "db", "drain", "entities", "error", "file_store", "mail", "money", "routes", "state", "web"];
const AREAS: &[&str] = &["budgets", "demo", "identity", "participants", "payment_requests", "reference", "reports", "settings", "system"];
const ABOVE: &[&str] = &["app", "cli", "openapi", "main"];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a file under src/: `src/settings/limits.rs` → ["settings", "limits"].
fn module_of(file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src()).unwrap().with_extension("");
    let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
        parts.pop();
    }
    parts
}

/// Every `crate::a::b::…` path a line names, `use crate::{a::{b, c}, d}` groups expanded.
/// Paths are cut at the first segment that is not a module name (lower-case words).
fn crate_paths(text: &str) -> Vec<(usize, Vec<String>)> {
    let mut found = Vec::new();
    // Join `use` groups spread over several lines into the line they start on.
    let mut pending: Option<(usize, String)> = None;
    for (i, line) in text.lines().enumerate() {
        let line = line.split("//").next().unwrap_or("");
        if let Some((start, mut acc)) = pending.take() {
            acc.push_str(line);
            if acc.matches('{').count() > acc.matches('}').count() {
                pending = Some((start, acc));
            } else {
                expand(start, &acc, &mut found);
            }
            continue;
        }
        if line.contains("crate::") {
            if line.matches('{').count() > line.matches('}').count() && line.trim_start().starts_with(['u', 'p']) {
                pending = Some((i + 1, line.to_owned()));
            } else {
                expand(i + 1, line, &mut found);
            }
        }
    }
    found
}

fn expand(line_no: usize, line: &str, out: &mut Vec<(usize, Vec<String>)>) {
    let mut rest = line;
    while let Some(at) = rest.find("crate::") {
        rest = &rest[at + "crate::".len()..];
        let mut paths = Vec::new();
        group(rest, Vec::new(), &mut paths);
        out.extend(paths.into_iter().map(|p| (line_no, p)));
    }
}

/// Reads `a::b::{c, d::e}` at the start of `text` into whole paths of module-like names.
fn group(text: &str, prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
    let mut path = prefix;
    let mut rest = text.trim_start();
    loop {
        if let Some(inner) = rest.strip_prefix('{') {
            let mut depth = 1;
            let mut start = 0;
            for (i, c) in inner.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' | ',' if depth == 1 => {
                        group(&inner[start..i], path.clone(), out);
                        start = i + 1;
                        if c == '}' {
                            return;
                        }
                    }
                    '}' => depth -= 1,
                    _ => {}
                }
            }
            return;
        }
        let word: String = rest.chars().take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_').collect();
        if word.is_empty() || word == "self" {
            break;
        }
        path.push(word.clone());
        rest = &rest[word.len()..];
        match rest.strip_prefix("::") {
            Some(r) => rest = r,
            None => break,
        }
    }
    if !path.is_empty() {
        out.push(path);
    }
}

/// Files that hold handlers, as module paths.
fn handler_modules(files: &[PathBuf]) -> BTreeSet<Vec<String>> {
    files.iter().filter(|f| std::fs::read_to_string(f).unwrap().contains("#[utoipa::path")).map(|f| module_of(f)).collect()
}

/// The source without its `#[cfg(test)]` tail (tests may reach anywhere).
fn without_tests(text: &str) -> &str {
    text.split("#[cfg(test)]").next().unwrap_or(text)
}

#[test]
fn dependencies_run_one_way() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    files.sort();
    let handlers = handler_modules(&files);
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| module_of(f)).collect();
    let mut wrong = Vec::new();
    for file in &files {
        let me = module_of(file);
        let Some(my_top) = me.first().cloned() else { continue };
        let text = std::fs::read_to_string(file).unwrap();
        for (line, path) in crate_paths(without_tests(&text)) {
            let target = &path[0];
            let at = format!("{}:{line}: crate::{}", file.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap().display(), path.join("::"));
            if KERNEL.contains(&my_top.as_str()) && (AREAS.contains(&target.as_str()) || ABOVE.contains(&target.as_str())) {
                wrong.push(format!("{at}  (the kernel names an area or the app)"));
            }
            if AREAS.contains(&my_top.as_str()) && ABOVE.contains(&target.as_str()) {
                wrong.push(format!("{at}  (an area names the app)"));
            }
            if AREAS.contains(&my_top.as_str()) && AREAS.contains(&target.as_str()) && *target != my_top {
                // The file the path reaches: its longest prefix that is a module of src/.
                let file = (1..=path.len()).rev().map(|n| &path[..n]).find(|m| modules.contains(*m));
                if file.is_some_and(|m| handlers.contains(m)) {
                    wrong.push(format!("{at}  (another area's handler file: move what is shared to its store or rules)"));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "imports against the layers of DESIGN §2:\n{}", wrong.join("\n"));
}

#[test]
fn the_reader_sees_groups_and_nesting() {
    let paths: Vec<Vec<String>> = crate_paths("use crate::{auth::{CurrentUser, scope::Scope}, settings::limits,\n    web::Json};\nlet x = crate::money::Money::ZERO;")
        .into_iter()
        .map(|(_, p)| p)
        .collect();
    let want: Vec<Vec<String>> = [&["auth"][..], &["auth", "scope"], &["settings", "limits"], &["web"], &["money"]]
        .iter()
        .map(|p| p.iter().map(|s| s.to_string()).collect())
        .collect();
    assert_eq!(paths, want);
}

/// The areas each area names (outside its tests).
fn area_graph(files: &[PathBuf]) -> std::collections::BTreeMap<String, BTreeSet<String>> {
    let mut graph: std::collections::BTreeMap<String, BTreeSet<String>> = AREAS.iter().map(|a| (a.to_string(), BTreeSet::new())).collect();
    for file in files {
        let me = module_of(file);
        let Some(my_top) = me.first().filter(|t| AREAS.contains(&t.as_str())) else { continue };
        let text = std::fs::read_to_string(file).unwrap();
        for (_, path) in crate_paths(without_tests(&text)) {
            if AREAS.contains(&path[0].as_str()) && path[0] != *my_top {
                graph.get_mut(my_top).unwrap().insert(path[0].clone());
            }
        }
    }
    graph
}

#[test]
fn no_two_areas_depend_on_each_other() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let graph = area_graph(&files);
    eprintln!("{graph:#?}");
}
