//! The library knows nothing of the command line: no string literal of `crates/player/src`
//! outside its tests names one of `autoplay`'s own options (`--level`, ...) or subcommands
//! (`autoplay calibrate`, ...). The library returns reasons as data (`remedy::Remedy`, the
//! stop reasons, ...); the binary words them with its flags (`src/cli/explain.rs`). The names come
//! from `autoplay --help` and each subcommand's `--help`. Android's own options (`am start
//! --ei`, `monkey --pct-syskeys`) are not `autoplay`'s, and short options (`-s`) are too
//! ambiguous with Android's to tell apart, so neither is looked for.

use crate::common::rust_source::player_sources;
use crate::common::{autoplay_command, run_with_timeout};
use std::collections::BTreeSet;
use std::time::Duration;

fn help(args: &[&str]) -> String {
    let mut cmd = autoplay_command();
    cmd.args(args).arg("--help");
    let out = run_with_timeout(cmd, b"", Duration::from_secs(30));
    assert_eq!(out.code(), 0, "{args:?} --help: {}", out.stderr);
    out.text()
}

/// The subcommands a `--help` lists under `Commands:`.
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        // A command's own line; its description's wrapped lines are indented further.
        .filter(|l| !l[2..].starts_with(' '))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| *w != "help")
        .map(str::to_string)
        .collect()
}

/// The long options a `--help` shows (`-l, --level <N>` -> `level`): the first long option of
/// each option's own line (indented 2 with a short option, else 6; a description's wrapped
/// lines are indented further, and an example's later words are not the command line's).
fn options(help: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in help.lines() {
        let indent = line.len() - line.trim_start().len();
        let line = line.trim_start();
        if !line.starts_with('-') || !matches!(indent, 2 | 6) {
            continue;
        }
        let first_long = line
            .split([' ', ',', '='])
            .find_map(|word| word.strip_prefix("--"))
            .filter(|name| {
                !name.is_empty()
                    && name
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c == '-' || c.is_ascii_digit())
            });
        out.extend(first_long.map(str::to_string));
    }
    out
}

/// Every long option and subcommand of `autoplay`, from its help.
fn command_line() -> (BTreeSet<String>, Vec<String>) {
    let top = help(&[]);
    let commands = subcommands(&top);
    let mut opts = options(&top);
    for c in &commands {
        opts.extend(options(&help(&[c])));
    }
    (opts, commands)
}

/// Where `text` names an option (`--name` as a whole word) or a subcommand (`autoplay name`).
fn names_in(text: &str, opts: &BTreeSet<String>, commands: &[String]) -> Vec<String> {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    let mut found = Vec::new();
    for (at, _) in text.match_indices("--") {
        if text[..at].chars().next_back().is_some_and(word) {
            continue;
        }
        let name: String = text[at + 2..].chars().take_while(|&c| word(c)).collect();
        if opts.contains(&name) {
            found.push(format!("--{name}"));
        }
    }
    for c in commands {
        let named = format!("autoplay {c}");
        for (at, _) in text.match_indices(&named) {
            let after = text[at + named.len()..].chars().next();
            if !after.is_some_and(word) {
                found.push(named.clone());
            }
        }
    }
    found
}

#[test]
fn no_library_string_names_the_command_lines_options() {
    let (opts, commands) = command_line();
    // The names are there to be found: the play options, the subcommands.
    for o in [
        "level",
        "strategy",
        "max-visible-steps",
        "budget",
        "calibration",
        "erase",
    ] {
        assert!(opts.contains(o), "--{o} not in the help: {opts:?}");
    }
    assert!(commands.iter().any(|c| c == "calibrate"), "{commands:?}");
    // ... and would be found in a string (and not in Android's options).
    let sample =
        "play with --strategy fast, or run `autoplay calibrate -s X`; am start --ei level 3";
    assert_eq!(
        names_in(sample, &opts, &commands),
        ["--strategy", "autoplay calibrate"]
    );
    let (mut named, mut strings) = (Vec::new(), 0);
    for file in player_sources() {
        strings += file.strings.len();
        for (line, text) in &file.strings {
            for name in names_in(text, &opts, &commands) {
                named.push(format!(
                    "crates/player/src/{}:{line}: {name} in {text:?}",
                    file.path.display()
                ));
            }
        }
    }
    assert!(strings > 1000, "only {strings} string literals read");
    assert!(
        named.is_empty(),
        "the library names the command line (return a remedy::Remedy or a typed reason, and \
         word it in src/cli/explain.rs):\n{}",
        named.join("\n")
    );
}
