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
        &["calibration::probe"],
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
        &m("calibration::probe::keys"),
    );
    assert_eq!(probe.len(), 1, "{probe:?}");
    assert_eq!(layer(&m("calibration::probe::keys")), Some("probe"));
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
