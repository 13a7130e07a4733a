//! The simulated phone's modules import one way: a test that reads the `use` lines (and every
//! other `crate::`/`super::` path) of `src/` and fails on a cycle, naming it. A module that
//! needs a type from a module above it is the sign that the type wants a home below both
//! (`app::geometry`'s `Rect`, `app::options`' `AppOptions`, `android`'s API levels).

#[allow(dead_code)]
#[path = "../../../tests/it/common/rust_source.rs"]
mod rust_source;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every module of `src/` by its path (`app::model`; `crate` for `lib.rs`) and its file, test
/// modules left out (`tests.rs`, `*_tests.rs`).
fn modules(src: &Path) -> BTreeMap<String, PathBuf> {
    let mut out = BTreeMap::new();
    let mut dirs = vec![src.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().map(Result::unwrap) {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            let rel = path.strip_prefix(src).unwrap().with_extension("");
            let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into()).collect();
            let last = parts.last().cloned().unwrap_or_default();
            if last == "tests"
                || last.ends_with("_tests")
                || path.extension() != Some("rs".as_ref())
            {
                continue;
            }
            if last == "mod" || last == "lib" {
                parts.pop();
            }
            let name = if parts.is_empty() {
                "crate".into()
            } else {
                parts.join("::")
            };
            out.insert(name, path);
        }
    }
    out
}

/// The source with comments, string literals and `#[cfg(test)]` items blanked (the player's
/// structure tests' scanner).
fn code(path: &Path) -> String {
    rust_source::scan(&std::fs::read_to_string(path).unwrap()).code
}

/// A `use` tree flattened: `super::{a, b::{C, D}}` gives `super::a`, `super::b::C`, `super::b::D`.
fn flatten(tree: &str) -> Vec<String> {
    let tree: String = tree.chars().filter(|c| !c.is_whitespace()).collect();
    let Some(open) = tree.find('{') else {
        return vec![tree];
    };
    let (prefix, inner) = (&tree[..open], &tree[open + 1..tree.len().saturating_sub(1)]);
    let (mut depth, mut start, mut out) = (0, 0, Vec::new());
    for (i, c) in inner.char_indices().chain([(inner.len(), ',')]) {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                let item = &inner[start..i];
                if !item.is_empty() {
                    out.extend(flatten(item).into_iter().map(|p| format!("{prefix}{p}")));
                }
                start = i + 1;
            }
            _ => {}
        }
    }
    out
}

/// Every path in `code`: the flattened `use` trees and the `a::b` paths elsewhere.
fn paths(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("use ") {
        out.extend(words(&rest[..i]));
        let keyword = rest[..i]
            .chars()
            .last()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        if !keyword {
            rest = &rest[i + 4..];
            continue;
        }
        let end = rest[i..].find(';').map_or(rest.len(), |e| i + e);
        out.extend(flatten(&rest[i + 4..end]));
        rest = &rest[end..];
    }
    out.extend(words(rest));
    out
}

fn words(code: &str) -> Vec<String> {
    code.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
        .filter(|w| w.contains("::"))
        .map(str::to_string)
        .collect()
}

/// The modules module `from` imports from (`dir_module`: a `mod.rs` or `lib.rs`, whose children
/// are named by their bare names): each path's longest prefix that is a module.
fn named(
    code: &str,
    from: &str,
    dir_module: bool,
    all: &BTreeMap<String, PathBuf>,
) -> BTreeSet<String> {
    let here: Vec<&str> = if from == "crate" {
        vec![]
    } else {
        from.split("::").collect()
    };
    let mut out = BTreeSet::new();
    for path in paths(code) {
        let segs: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
        let Some(first) = segs.first() else { continue };
        let (mut base, rest): (Vec<&str>, &[&str]) = match *first {
            "crate" => (vec![], &segs[1..]),
            "super" => {
                let ups = segs.iter().take_while(|s| **s == "super").count();
                let mut base = here.clone();
                base.truncate(base.len().saturating_sub(ups));
                (base, &segs[ups..])
            }
            "self" => (here.clone(), &segs[1..]),
            first if dir_module && all.contains_key(&join(&here, first)) => {
                (here.clone(), &segs[..])
            }
            _ => continue,
        };
        base.extend(rest);
        while !base.is_empty() && !all.contains_key(&base.join("::")) {
            base.pop();
        }
        let target = if base.is_empty() {
            "crate".to_string()
        } else {
            base.join("::")
        };
        if target != from {
            out.insert(target);
        }
    }
    out
}

fn join(base: &[&str], name: &str) -> String {
    base.iter()
        .copied()
        .chain([name])
        .collect::<Vec<_>>()
        .join("::")
}

/// A cycle through the graph, if there is one.
fn cycle(edges: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| p == node) {
            let mut found = path[i..].to_vec();
            found.push(node.to_string());
            return Some(found);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in edges.get(node).into_iter().flatten() {
            if let Some(c) = visit(next, edges, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    edges
        .keys()
        .find_map(|n| visit(n, edges, &mut Vec::new(), &mut done))
}

#[test]
fn the_sims_modules_import_one_way() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let all = modules(&src);
    assert!(
        all.contains_key("app::model") && all.contains_key("app"),
        "{all:?}"
    );
    let edges: BTreeMap<String, BTreeSet<String>> = all
        .iter()
        .map(|(name, path)| {
            let dir_module = path.ends_with("mod.rs") || path.ends_with("lib.rs");
            (name.clone(), named(&code(path), name, dir_module, &all))
        })
        .collect();
    // The check sees the imports it must see.
    assert!(
        edges["app::canvas"].contains("app::geometry"),
        "{:?}",
        edges["app::canvas"]
    );
    assert!(edges["app"].contains("app::model"), "{:?}", edges["app"]);
    if let Some(c) = cycle(&edges) {
        panic!(
            "the sim's modules import each other in a circle: {}; give the shared item a home \
             below its users",
            c.join(" -> ")
        );
    }
}

#[test]
fn a_child_importing_its_parent_is_a_cycle() {
    let all: BTreeMap<String, PathBuf> = ["crate", "app", "app::model"]
        .into_iter()
        .map(|m| (m.to_string(), PathBuf::new()))
        .collect();
    let parent = named("use model::Model;", "app", true, &all);
    let child = named(
        "use super::Key; fn f(_: crate::app::game::Game) {}",
        "app::model",
        false,
        &all,
    );
    assert_eq!(parent, BTreeSet::from(["app::model".to_string()]));
    assert_eq!(child, BTreeSet::from(["app".to_string()]));
    let edges = BTreeMap::from([
        ("app".to_string(), parent),
        ("app::model".to_string(), child),
    ]);
    assert!(cycle(&edges).is_some());
}
