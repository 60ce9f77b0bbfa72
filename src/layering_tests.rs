//! The crate's layering, checked on its sources: no two modules import each other, directly or
//! through others (a module is a file, or a folder's `mod.rs`); record analysis does not use the
//! match runner; the library prints nothing outside the USI session. Test code (`tests.rs`,
//! `*_tests.rs`, a file's `mod tests`) and comments are left out.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The `.rs` files under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src/ is readable").flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module a file is, as a path from the crate root (`arena::game` for `arena/game/mod.rs`);
/// the crate root is `""`.
fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).expect("under src/").with_extension("");
    let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib" || p == "main") {
        parts.pop();
    }
    parts.join("::")
}

/// The file's code without comments and without its `#[cfg(test)] mod tests`.
fn code_of(text: &str) -> String {
    let text = text.split("#[cfg(test)]\nmod tests").next().unwrap_or("");
    let text = text.split("#[cfg(test)]\npub(crate) mod tests").next().unwrap_or("");
    text.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
}

/// The paths a `use` tree names: `a::{b, c::{d, e}}` is `a::b`, `a::c::d`, `a::c::e`.
fn expand(tree: &str) -> Vec<String> {
    let tree: String = tree.chars().filter(|c| !c.is_whitespace()).collect();
    let Some(open) = tree.find('{') else { return vec![tree] };
    let (prefix, inner) = (&tree[..open], tree[open + 1..].strip_suffix('}').unwrap_or(&tree[open + 1..]));
    let (mut items, mut depth, mut start) = (Vec::new(), 0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(&inner[start..]);
    items.into_iter().filter(|i| !i.is_empty()).flat_map(|i| expand(&format!("{prefix}{i}"))).collect()
}

/// The module that `path` (from a `use`, or `crate::…`/`super::…` in code) in module `from`
/// reaches: the longest known module its path starts with.
fn resolve(from: &str, path: &str, modules: &BTreeSet<String>) -> Option<String> {
    let mut parts: Vec<&str> = path.split("::").collect();
    let mut base: Vec<&str> = if from.is_empty() { Vec::new() } else { from.split("::").collect() };
    match parts.first().copied() {
        Some("crate") => base.clear(),
        Some("super") => {
            while parts.first() == Some(&"super") {
                base.pop();
                parts.remove(0);
            }
            parts.insert(0, "self");
        }
        Some("self") => {}
        _ => return None,
    }
    parts.remove(0);
    (0..=parts.len()).rev().map(|n| [&base[..], &parts[..n]].concat().join("::")).find(|m| modules.contains(m))
}

/// Each module's imports of other modules (not of its own parents or children).
fn imports(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let files: Vec<PathBuf> = files
        .into_iter()
        .filter(|f| f.file_stem().is_some_and(|s| s != "tests" && !s.to_string_lossy().ends_with("_tests")))
        .collect();
    let modules: BTreeSet<String> = files.iter().map(|f| module_of(src, f)).collect();
    let mut graph = BTreeMap::new();
    for file in &files {
        let from = module_of(src, file);
        let code = code_of(&std::fs::read_to_string(file).expect("readable"));
        let mut paths: Vec<String> = Vec::new();
        for statement in code.split(';') {
            if let Some(at) = statement.find("use ") {
                paths.extend(expand(&statement[at + 4..]));
            }
        }
        for (at, _) in code.match_indices("crate::").chain(code.match_indices("super::")) {
            let end = code[at..]
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .map_or(code.len(), |e| at + e);
            paths.push(code[at..end].to_string());
        }
        let related =
            |m: &String| *m == from || from.starts_with(&format!("{m}::")) || m.starts_with(&format!("{from}::"));
        let targets: BTreeSet<String> =
            paths.iter().filter_map(|p| resolve(&from, p, &modules)).filter(|m| !m.is_empty() && !related(m)).collect();
        graph.insert(from, targets);
    }
    graph
}

/// The modules that reach themselves through the graph's edges, each with one cycle.
fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    for start in graph.keys() {
        // Breadth-first from `start`, remembering each module's predecessor.
        let mut before: BTreeMap<&String, &String> = BTreeMap::new();
        let mut queue = std::collections::VecDeque::from([start]);
        while let Some(m) = queue.pop_front() {
            for next in graph.get(m).into_iter().flatten() {
                if next == start {
                    let mut cycle = vec![m.clone()];
                    let mut at = m;
                    while at != start {
                        at = before[at];
                        cycle.push(at.clone());
                    }
                    cycle.reverse();
                    found.push(cycle);
                    queue.clear();
                    break;
                }
                if !before.contains_key(next) && next != start {
                    before.insert(next, m);
                    queue.push_back(next);
                }
            }
        }
    }
    found
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn no_module_imports_itself_through_others() {
    let cycles = cycles(&imports(&src()));
    assert!(cycles.is_empty(), "import circles: {cycles:?}");
}

#[test]
fn the_checker_finds_a_circle_and_expands_use_trees() {
    let graph: BTreeMap<String, BTreeSet<String>> = [("a", "b"), ("b", "c"), ("c", "a"), ("d", "a")]
        .into_iter()
        .map(|(x, y)| (x.to_string(), BTreeSet::from([y.to_string()])))
        .collect();
    let found = cycles(&graph);
    assert_eq!(found.len(), 3, "a, b and c each lie on the circle: {found:?}");
    assert!(found.iter().all(|c| c.len() == 3));
    assert_eq!(expand("super::{a::B, c::{d, e}}"), ["super::a::B", "super::c::d", "super::c::e"]);
    let modules: BTreeSet<String> = ["arena", "arena::game", "arena::game::rules", "record"].map(String::from).into();
    assert_eq!(resolve("arena::game::rules", "super::super::game::Rules", &modules).as_deref(), Some("arena::game"));
    assert_eq!(resolve("arena::game", "crate::record::Format", &modules).as_deref(), Some("record"));
}

#[test]
fn record_analysis_does_not_use_the_match_runner() {
    let graph = imports(&src());
    let uses_arena: Vec<_> = graph
        .iter()
        .filter(|(m, to)| m.starts_with("analyze") && to.iter().any(|t| t == "arena" || t.starts_with("arena::")))
        .collect();
    assert!(uses_arena.is_empty(), "{uses_arena:?}");
}

#[test]
fn the_library_prints_only_in_the_usi_session() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let printing: Vec<String> = files
        .iter()
        .filter(|f| {
            let m = module_of(&src(), f);
            !(m.starts_with("usi") || m.starts_with("cli") || m.is_empty() || m.ends_with("tests"))
        })
        .filter(|f| {
            let code = code_of(&std::fs::read_to_string(f).expect("readable"));
            ["println!", "eprintln!", "print!(", "eprint!("].iter().any(|p| code.contains(p))
        })
        .map(|f| f.display().to_string())
        .collect();
    assert!(printing.is_empty(), "printing outside usi/ and the binary: {printing:?}");
}
