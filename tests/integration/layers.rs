//! Dependencies run one way (docs/ARCHITECTURE.md): main → app → areas → kernel. Read from the source's
//! `crate::` paths, so a new import against the grain fails here, naming the file and line.
//!   - the kernel names no area and nothing above it;
//!   - an area names nothing above the areas (app, cli, openapi);
//!   - an area takes another area's rules, store or types, never a file that holds handlers
//!     (one with a `#[utoipa::path]`), so handlers can move without breaking other areas;
//!   - no two areas, and no two files, import each other, directly or round a circle.

use std::{
    collections::{BTreeMap, BTreeSet},
    path::{Path, PathBuf},
};

const KERNEL: &[&str] = &[
    "activity",
    "assets",
    "auth",
    "config",
    "db",
    "drain",
    "entities",
    "error",
    "idempotency",
    "file_store",
    "mail",
    "memory",
    "money",
    "routes",
    "state",
    "web",
];
const AREAS: &[&str] = &[
    "audit_log",
    "budgets",
    "demo",
    "forms",
    "identity",
    "notifications",
    "packets",
    "participants",
    "payment_requests",
    "reference",
    "reports",
    "settings",
    "system",
    "vendor_payments",
];
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
            if line.matches('{').count() > line.matches('}').count()
                && line.trim_start().starts_with(['u', 'p'])
            {
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
        let word: String = rest
            .chars()
            .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_')
            .collect();
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
    files
        .iter()
        .filter(|f| std::fs::read_to_string(f).unwrap().contains("#[utoipa::path"))
        .map(|f| module_of(f))
        .collect()
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
            let at = format!(
                "{}:{line}: crate::{}",
                file.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap().display(),
                path.join("::")
            );
            if KERNEL.contains(&my_top.as_str())
                && (AREAS.contains(&target.as_str()) || ABOVE.contains(&target.as_str()))
            {
                wrong.push(format!("{at}  (the kernel names an area or the app)"));
            }
            if AREAS.contains(&my_top.as_str()) && ABOVE.contains(&target.as_str()) {
                wrong.push(format!("{at}  (an area names the app)"));
            }
            if AREAS.contains(&my_top.as_str())
                && AREAS.contains(&target.as_str())
                && *target != my_top
            {
                // The file the path reaches: its longest prefix that is a module of src/.
                let file =
                    (1..=path.len()).rev().map(|n| &path[..n]).find(|m| modules.contains(*m));
                if file.is_some_and(|m| handlers.contains(m)) {
                    wrong.push(format!("{at}  (another area's handler file: move what is shared to its store or rules)"));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against the layers (docs/ARCHITECTURE.md):\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_reader_sees_groups_and_nesting() {
    let paths: Vec<Vec<String>> = crate_paths("use crate::{auth::{CurrentUser, scope::Scope}, settings::limits,\n    web::Json};\nlet x = crate::money::Money::ZERO;")
        .into_iter()
        .map(|(_, p)| p)
        .collect();
    let want: Vec<Vec<String>> =
        [&["auth"][..], &["auth", "scope"], &["settings", "limits"], &["web"], &["money"]]
            .iter()
            .map(|p| p.iter().map(|s| s.to_string()).collect())
            .collect();
    assert_eq!(paths, want);
}

/// Every module a file names through `crate::` or `super::` paths (outside its tests),
/// resolved to the file that holds it.
fn file_graph(files: &[PathBuf]) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| module_of(f)).collect();
    let mut graph = BTreeMap::new();
    for file in files {
        let me = module_of(file);
        let text = std::fs::read_to_string(file).unwrap();
        let text = without_tests(&text);
        // `super::` from `a/b.rs` and from `a/mod.rs`'s children alike: the module above.
        let parent = &me[..me.len().saturating_sub(1)];
        let mut targets = BTreeSet::new();
        for (_, path) in crate_paths(&text.replace("super::", "crate::super::")) {
            // `super::super::x`: one module further up for each further `super`.
            let ups = path.iter().take_while(|p| *p == "super").count();
            let path: Vec<String> = if ups == 0 {
                path
            } else {
                parent[..parent.len().saturating_sub(ups - 1)]
                    .iter()
                    .chain(&path[ups..])
                    .cloned()
                    .collect()
            };
            if let Some(target) =
                (1..=path.len()).rev().map(|n| path[..n].to_vec()).find(|m| modules.contains(m))
            {
                if target != me {
                    targets.insert(target);
                }
            }
        }
        graph.insert(me, targets);
    }
    graph
}

/// The areas each area names (outside its tests).
fn area_graph(files: &[PathBuf]) -> BTreeMap<String, BTreeSet<String>> {
    let mut graph: BTreeMap<String, BTreeSet<String>> =
        AREAS.iter().map(|a| (a.to_string(), BTreeSet::new())).collect();
    for (me, targets) in file_graph(files) {
        let Some(my_top) = me.first().filter(|t| AREAS.contains(&t.as_str())) else { continue };
        for t in targets
            .iter()
            .filter_map(|t| t.first())
            .filter(|t| AREAS.contains(&t.as_str()) && *t != my_top)
        {
            graph.get_mut(my_top).unwrap().insert(t.clone());
        }
    }
    graph
}

/// One cycle of the graph, as the nodes around it, if there is any.
fn a_cycle<N: Ord + Clone>(graph: &BTreeMap<N, BTreeSet<N>>) -> Option<Vec<N>> {
    fn visit<N: Ord + Clone>(
        n: &N,
        graph: &BTreeMap<N, BTreeSet<N>>,
        path: &mut Vec<N>,
        done: &mut BTreeSet<N>,
    ) -> Option<Vec<N>> {
        if let Some(at) = path.iter().position(|p| p == n) {
            return Some(path[at..].to_vec());
        }
        if done.contains(n) {
            return None;
        }
        path.push(n.clone());
        for next in graph.get(n).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(n.clone());
        None
    }
    let mut done = BTreeSet::new();
    graph.keys().find_map(|n| visit(n, graph, &mut Vec::new(), &mut done))
}

#[test]
fn no_import_cycles() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    if let Some(cycle) = a_cycle(&area_graph(&files)) {
        panic!("areas depend on each other in a circle: {} → back", cycle.join(" → "));
    }
    if let Some(cycle) = a_cycle(&file_graph(&files)) {
        panic!(
            "files import each other in a circle: {} → back",
            cycle.iter().map(|m| m.join("::")).collect::<Vec<_>>().join(" → ")
        );
    }
}

#[test]
fn a_cycle_is_found_and_named() {
    let graph: BTreeMap<&str, BTreeSet<&str>> =
        [("a", ["b"].into()), ("b", ["c"].into()), ("c", ["a"].into()), ("d", BTreeSet::new())]
            .into();
    assert_eq!(a_cycle(&graph), Some(vec!["a", "b", "c"]));
    let graph: BTreeMap<&str, BTreeSet<&str>> =
        [("a", ["b"].into()), ("b", BTreeSet::new())].into();
    assert_eq!(a_cycle(&graph), None);
}

/// Lines of handler files (those with `#[utoipa::path`), tests left out, that contain one of
/// `patterns`: `file:line: pattern`.
fn in_handler_files(patterns: &[&str]) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut found = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        if !text.contains("#[utoipa::path") {
            continue;
        }
        for (i, line) in without_tests(&text).lines().enumerate() {
            if let Some(p) = patterns.iter().find(|p| line.contains(**p)) {
                found.push(format!(
                    "{}:{}: {p}",
                    file.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap().display(),
                    i + 1
                ));
            }
        }
    }
    found
}

/// Handlers stay thin: a file that holds handlers writes nothing itself (its area's store does).
#[test]
fn handler_files_do_not_write() {
    const WRITES: &[&str] = &[
        "update_many()",
        "delete_many()",
        "insert_many(",
        ".exec(",
        "ActiveModel {",
        ".update(&",
        ".insert(&",
        "exec_without_returning(",
    ];
    let wrong = in_handler_files(WRITES);
    assert!(
        wrong.is_empty(),
        "writes in handler files (move them to the area's store):\n{}",
        wrong.join("\n")
    );
}

/// An action is one command that owns its transaction (the area's `commands`): a file that
/// holds handlers neither opens a transaction nor builds an update, so every change of state
/// and its activity entry are found in one function.
#[test]
fn handler_files_open_no_transaction_and_build_no_update() {
    const TRANSACTIONS_AND_UPDATES: &[&str] = &[
        "db::write(",
        ".begin(",
        "begin_with_options(",
        ".commit()",
        ".rollback()",
        "col_expr(",
        "Set(",
        "ActiveModel",
        "ModelTrait::delete",
    ];
    let wrong = in_handler_files(TRANSACTIONS_AND_UPDATES);
    assert!(
        wrong.is_empty(),
        "transactions or updates in handler files (move them to the area's commands):\n{}",
        wrong.join("\n")
    );
}

/// Which statuses an action starts from, and which are charged, is said once, in the
/// workflow: no other file writes a list of request statuses.
#[test]
fn status_lists_live_in_the_workflow() {
    let own =
        |f: &Path| f.ends_with("payment_requests/workflow.rs") || f.ends_with("entities/codes.rs");
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut wrong = Vec::new();
    for file in files.iter().filter(|f| !own(f)) {
        let text = std::fs::read_to_string(file).unwrap();
        for (i, line) in without_tests(&text).lines().enumerate() {
            let squeezed: String = line.split_whitespace().collect();
            if squeezed.contains("[Status::") || squeezed.contains("vec![Status::") {
                wrong.push(format!(
                    "{}:{}: {}",
                    file.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap().display(),
                    i + 1,
                    line.trim()
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "status lists outside the workflow:\n{}", wrong.join("\n"));
}

/// The SQLite-only speed code sits in one module, beside the portable path: no other file
/// edits generated SQL to pin an index or reads the database through rusqlite.
#[test]
fn sqlite_only_code_stays_in_its_seam() {
    const SEAM: &str = "src/db/sqlite_speed";
    const SQLITE_ONLY: &[&str] = &["INDEXED BY", "rusqlite"];
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut wrong = Vec::new();
    for file in files.iter().filter(|f| !f.starts_with(root.join(SEAM))) {
        let text = std::fs::read_to_string(file).unwrap();
        for (i, line) in text.lines().enumerate() {
            if let Some(p) = SQLITE_ONLY.iter().find(|p| line.contains(**p)) {
                wrong.push(format!(
                    "{}:{}: {p}",
                    file.strip_prefix(root).unwrap().display(),
                    i + 1
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "SQLite-only code outside {SEAM}:\n{}", wrong.join("\n"));
}
