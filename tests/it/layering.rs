//! The player's layers (ARCHITECTURE.md, "Layers"): each file of `crates/player/src` may use
//! (`use crate::...`, `crate::...` and `super::...` paths in its code, its tests left out) only
//! the layers below its own, as the table says. A new top-level module, or an import the table
//! forbids, fails here.

use crate::common::rust_source::{player_sources, scan};

/// Each layer, its modules, and the layers it may use (besides itself). The same table as
/// ARCHITECTURE.md's.
const LAYERS: &[(&str, &[&str], &[&str])] = &[
    (
        "base",
        &["board", "text", "draw", "remedy", "adb_packet"],
        &[],
    ),
    ("solver", &["solver"], &["base"]),
    ("capture", &["capture"], &["base"]),
    ("device", &["device"], &["base", "capture"]),
    ("vision", &["vision"], &["base", "solver", "capture"]),
    (
        "calibration",
        &["calibration"],
        &["base", "solver", "capture", "vision"],
    ),
    ("play", &["play"], &["base", "solver", "calibration"]),
    (
        "probe",
        &["probe"],
        &["base", "solver", "vision", "calibration", "play"],
    ),
    (
        "phone",
        &["phone"],
        &[
            "base",
            "solver",
            "capture",
            "device",
            "vision",
            "calibration",
            "probe",
            "play",
        ],
    ),
    ("session", &["session"], &["base", "solver", "play"]),
    (
        "recheck",
        &["recheck"],
        &[
            "base",
            "solver",
            "capture",
            "vision",
            "calibration",
            "play",
            "session",
        ],
    ),
    ("doctor", &["doctor"], &["base", "capture", "device"]),
    (
        "video",
        &["video"],
        &["base", "solver", "device", "session"],
    ),
    (
        "level",
        &["level"],
        &[
            "base",
            "solver",
            "capture",
            "device",
            "vision",
            "calibration",
            "probe",
            "play",
            "phone",
            "session",
            "recheck",
            "video",
        ],
    ),
];

/// The layer of a module path (`["play", "perform"]` -> `play`); `None` for the crate root.
fn layer(module: &[String]) -> Option<&'static str> {
    let first = module.first()?;
    let two = module.get(1).map(|s| format!("{first}::{s}"));
    LAYERS
        .iter()
        .find(|(_, mods, _)| two.as_deref().is_some_and(|t| mods.contains(&t)))
        .or_else(|| {
            LAYERS
                .iter()
                .find(|(_, mods, _)| mods.contains(&first.as_str()))
        })
        .map(|(name, _, _)| *name)
}

/// The modules a file's code names: each `crate::a::b` and `super::...` path (with `{...}`
/// groups), resolved against the file's module `module`.
fn imports(code: &str, module: &[String]) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for start in ["crate::", "super::"] {
        let mut from = 0;
        while let Some(at) = code[from..].find(start) {
            let at = from + at;
            from = at + start.len();
            let before = code[..at].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let mut base: Vec<String> = if start == "crate::" {
                Vec::new()
            } else {
                // `super` of a file `a/b.rs` (module a::b) is `a`; of `a/b/mod.rs` too.
                let mut m = module.to_vec();
                m.pop();
                m
            };
            let mut rest = &code[from..];
            while let Some(r) = rest.strip_prefix("super::") {
                base.pop();
                rest = r;
            }
            for path in paths(rest) {
                let mut full = base.clone();
                full.extend(path);
                out.push(full);
            }
        }
    }
    out
}

/// The paths at the start of `rest`: `a::b::C` -> [[a, b, C]], `{a::X, b::{c, d}}` -> each.
fn paths(rest: &str) -> Vec<Vec<String>> {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    if let Some(group) = rest.strip_prefix('{') {
        let mut depth = 1;
        let mut end = group.len();
        for (i, c) in group.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = i;
                        break;
                    }
                }
                _ => {}
            }
        }
        let inner = &group[..end];
        let mut items = Vec::new();
        let (mut level, mut item_start) = (0, 0);
        for (i, c) in inner.char_indices() {
            match c {
                '{' => level += 1,
                '}' => level -= 1,
                ',' if level == 0 => {
                    items.push(&inner[item_start..i]);
                    item_start = i + 1;
                }
                _ => {}
            }
        }
        items.push(&inner[item_start..]);
        return items
            .into_iter()
            .map(str::trim)
            .filter(|i| !i.is_empty() && *i != "self")
            .flat_map(paths)
            .collect();
    }
    let mut path = Vec::new();
    let mut s = rest;
    loop {
        let name: String = s.chars().take_while(|&c| ident(c)).collect();
        if name.is_empty() {
            break;
        }
        s = &s[name.len()..];
        path.push(name);
        match s.strip_prefix("::") {
            Some(r) if r.starts_with('{') => {
                return paths(r)
                    .into_iter()
                    .map(|p| path.iter().cloned().chain(p).collect())
                    .collect();
            }
            Some(r) => s = r,
            None => break,
        }
    }
    vec![path]
}

/// The imports of a file that its layer may not use: (module named, its layer).
fn forbidden(code: &str, module: &[String]) -> Vec<(String, String)> {
    let Some(own) = layer(module) else {
        return Vec::new();
    };
    let allowed = LAYERS
        .iter()
        .find(|(name, _, _)| *name == own)
        .map_or(&[][..], |l| l.2);
    imports(code, module)
        .into_iter()
        .filter_map(|path| {
            let to = layer(&path)?;
            (to != own && !allowed.contains(&to)).then(|| (path.join("::"), to.to_string()))
        })
        .collect()
}

#[test]
fn every_module_is_in_a_layer() {
    let mut loose = Vec::new();
    for file in player_sources() {
        if file.module.first().is_some_and(|m| m != "real_outputs") && layer(&file.module).is_none()
        {
            loose.push(file.path.display().to_string());
        }
    }
    assert!(
        loose.is_empty(),
        "modules in no layer (add them to ARCHITECTURE.md's layers and to LAYERS here): {loose:?}"
    );
}

#[test]
fn no_file_imports_across_a_layer_it_may_not_use() {
    let mut crossing = Vec::new();
    for file in player_sources() {
        for (path, to) in forbidden(&file.code, &file.module) {
            crossing.push(format!(
                "crates/player/src/{} ({}) uses {path} ({to})",
                file.path.display(),
                layer(&file.module).unwrap_or("?")
            ));
        }
    }
    assert!(
        crossing.is_empty(),
        "imports across the layers ARCHITECTURE.md allows:\n{}",
        crossing.join("\n")
    );
}

#[test]
fn the_layers_are_read_from_the_code() {
    // What the test would catch: the pure play importing the phone, and the probe the device.
    let m = |s: &str| s.split("::").map(str::to_string).collect::<Vec<_>>();
    let code = scan(
        "use crate::phone::link::Link;\nuse super::super::super::device::Device;\n\
         use crate::{board::Board, play::{Point, Target}};\n// crate::level in a comment\n",
    )
    .code;
    let bad = forbidden(&code, &m("play::perform::verify"));
    assert_eq!(
        bad,
        [
            ("phone::link::Link".to_string(), "phone".to_string()),
            ("device::Device".to_string(), "device".to_string())
        ]
    );
    let probe = forbidden(
        "use crate::device::android::UiNode;\nuse crate::play::Target;\n",
        &m("probe::keys"),
    );
    assert_eq!(probe.len(), 1, "{probe:?}");
    assert_eq!(layer(&m("probe::keys")), Some("probe"));
    assert_eq!(layer(&m("calibration::lookup")), Some("calibration"));
}

/// ARCHITECTURE.md's "one concept per file": no file of the player is over 800 lines, its
/// tests left out (counted to its last line of code outside test items).
#[test]
fn no_player_file_is_over_800_lines() {
    let long: Vec<String> = player_sources()
        .iter()
        .filter_map(|file| {
            let code: Vec<&str> = file.code.lines().collect();
            let lines = code.iter().rposition(|l| !l.trim().is_empty())? + 1;
            (lines > 800).then(|| format!("crates/player/src/{} ({lines})", file.path.display()))
        })
        .collect();
    assert!(
        long.is_empty(),
        "files over 800 lines, split them: {long:?}"
    );
}

/// The player's files as a graph: for each file (by module path), the files its code names
/// (each import resolved to the longest module path a file has; a file naming itself left out).
fn file_graph(files: &[crate::common::rust_source::SourceFile]) -> Vec<(String, Vec<String>)> {
    let modules: Vec<&[String]> = files.iter().map(|f| f.module.as_slice()).collect();
    files
        .iter()
        .map(|f| {
            let mut to: Vec<String> = imports(&f.code, &f.module)
                .iter()
                .filter_map(|path| {
                    (1..=path.len())
                        .rev()
                        .find_map(|n| modules.iter().find(|m| **m == &path[..n]))
                })
                .filter(|m| **m != f.module.as_slice())
                .map(|m| m.join("::"))
                .collect();
            to.sort();
            to.dedup();
            (f.module.join("::"), to)
        })
        .collect()
}

/// Tarjan's walk over a graph of named nodes: its strongly connected parts.
struct Walk<'a> {
    graph: &'a [(String, Vec<String>)],
    index: Vec<Option<usize>>,
    low: Vec<usize>,
    stack: Vec<usize>,
    on_stack: Vec<bool>,
    next: usize,
    parts: Vec<Vec<String>>,
}

impl Walk<'_> {
    fn visit(&mut self, v: usize) {
        self.index[v] = Some(self.next);
        self.low[v] = self.next;
        self.next += 1;
        self.stack.push(v);
        self.on_stack[v] = true;
        for name in &self.graph[v].1 {
            let Some(w) = self.graph.iter().position(|(n, _)| n == name) else {
                continue;
            };
            match self.index[w] {
                None => {
                    self.visit(w);
                    self.low[v] = self.low[v].min(self.low[w]);
                }
                Some(i) if self.on_stack[w] => self.low[v] = self.low[v].min(i),
                Some(_) => {}
            }
        }
        if Some(self.low[v]) == self.index[v] {
            let mut part = Vec::new();
            while let Some(w) = self.stack.pop() {
                self.on_stack[w] = false;
                part.push(self.graph[w].0.clone());
                if w == v {
                    break;
                }
            }
            part.sort();
            self.parts.push(part);
        }
    }
}

/// The circles of a graph: its strongly connected parts of more than one node.
fn circles(graph: &[(String, Vec<String>)]) -> Vec<Vec<String>> {
    let n = graph.len();
    let mut walk = Walk {
        graph,
        index: vec![None; n],
        low: vec![0; n],
        stack: Vec::new(),
        on_stack: vec![false; n],
        next: 0,
        parts: Vec::new(),
    };
    for v in 0..n {
        if walk.index[v].is_none() {
            walk.visit(v);
        }
    }
    walk.parts.into_iter().filter(|p| p.len() > 1).collect()
}

/// The one circle ARCHITECTURE.md allows: the fast solver's state and its triads, two halves
/// of one hot loop.
const ALLOWED_CIRCLE: [&str; 2] = ["solver::fast::state", "solver::fast::triads"];

/// The circles of files that are not the allowed one.
fn file_circles(graph: &[(String, Vec<String>)]) -> Vec<Vec<String>> {
    circles(graph)
        .into_iter()
        .filter(|c| c.as_slice() != ALLOWED_CIRCLE)
        .collect()
}

/// Pairs of top-level modules that use each other.
fn mutual_modules(graph: &[(String, Vec<String>)]) -> Vec<(String, String)> {
    let top = |m: &str| m.split("::").next().unwrap_or("").to_string();
    let mut edges = std::collections::BTreeSet::new();
    for (from, tos) in graph {
        for to in tos {
            if top(from) != top(to) {
                edges.insert((top(from), top(to)));
            }
        }
    }
    edges
        .iter()
        .filter(|(a, b)| a < b && edges.contains(&(b.clone(), a.clone())))
        .cloned()
        .collect()
}

#[test]
fn no_circle_of_files_and_no_two_modules_that_use_each_other() {
    let graph = file_graph(&player_sources());
    let (found, mutual) = (file_circles(&graph), mutual_modules(&graph));
    assert!(
        found.is_empty() && mutual.is_empty(),
        "files that use each other round a circle (ARCHITECTURE.md, invariants):\n{found:#?}\n\
         top-level modules that use each other: {mutual:?}"
    );
}

#[test]
fn circles_and_mutual_modules_are_found() {
    let g = |edges: &[(&str, &[&str])]| -> Vec<(String, Vec<String>)> {
        edges
            .iter()
            .map(|(a, b)| (a.to_string(), b.iter().map(|s| s.to_string()).collect()))
            .collect()
    };
    let graph = g(&[
        ("play::a", &["play::b"]),
        ("play::b", &["play::c", "board"]),
        ("play::c", &["play::a"]),
        ("board", &[]),
        ("solver::fast::state", &["solver::fast::triads"]),
        ("solver::fast::triads", &["solver::fast::state"]),
        ("probe::x", &["play::a"]),
        ("play::d", &["probe::x"]),
    ]);
    assert_eq!(
        file_circles(&graph),
        [vec!["play::a", "play::b", "play::c"]]
    );
    assert_eq!(
        mutual_modules(&graph),
        [("play".to_string(), "probe".to_string())]
    );
    // Read from code: a file's `super::` and `crate::` paths resolved to files.
    let files = [
        ("play/perform/engine.rs", "use super::proof::Proof;\n"),
        ("play/perform/proof.rs", "use super::engine::Performance;\n"),
    ]
    .map(|(p, code)| crate::common::rust_source::SourceFile {
        path: p.into(),
        module: crate::common::rust_source::module_of(std::path::Path::new(p)),
        code: code.to_string(),
        strings: Vec::new(),
    });
    assert_eq!(
        file_circles(&file_graph(&files)),
        [vec!["play::perform::engine", "play::perform::proof"]]
    );
}

/// The named fields of each struct in `code`: (struct name, field count). Fields are the
/// `name:` lines at the struct body's own depth.
fn struct_fields(code: &str) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("struct ") {
        let before = rest[..at].chars().next_back();
        rest = &rest[at + "struct ".len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let Some(open) = rest.find(['{', ';', '(']) else {
            break;
        };
        if rest.as_bytes()[open] != b'{' {
            continue;
        }
        let (mut depth, mut fields, mut line_start) = (0usize, 0usize, true);
        let mut previous = ' ';
        for (i, c) in rest[open..].char_indices() {
            let arrow = previous == '-' && c == '>';
            previous = c;
            match c {
                '{' | '(' | '<' | '[' => depth += 1,
                '>' if arrow => {}
                '}' | ')' | '>' | ']' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        rest = &rest[open + i..];
                        break;
                    }
                }
                ':' if depth == 1 && line_start => {
                    fields += 1;
                    line_start = false;
                }
                '\n' => line_start = true,
                _ => {}
            }
            // `a::b` paths in a type are not fields: only the first colon of a line counts.
            if c == ',' && depth == 1 {
                line_start = true;
            }
        }
        out.push((name, fields));
    }
    out
}

/// The structs of `play/` (its tests included: their fakes are state too) over 12 fields.
#[test]
fn no_struct_in_play_has_more_than_12_fields() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/player/src/play");
    let mut big = Vec::new();
    let mut stack = vec![root.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let code = scan(&std::fs::read_to_string(&path).unwrap()).code;
                for (name, n) in struct_fields(&code) {
                    if n > 12 {
                        big.push(format!("{name} ({n} fields) in {}", path.display()));
                    }
                }
            }
        }
    }
    big.sort();
    assert!(big.is_empty(), "split these into named parts: {big:#?}");
}

#[test]
fn struct_fields_are_counted() {
    let code = "pub struct A<'a> {\n    pub x: u8,\n    y: Vec<(u8, u8)>,\n    z: std::collections::HashMap<u8, u8>,\n    f: Box<dyn Fn(u64) -> bool>,\n    g: u8,\n}\nstruct B(u8, u8);\nstruct C;\nstruct D { a: u8, b: [u8; 2] }\n";
    assert_eq!(
        struct_fields(code),
        [("A".to_string(), 5), ("D".to_string(), 2)]
    );
}
