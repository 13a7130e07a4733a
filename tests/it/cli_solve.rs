//! `autoplay solve` as a user runs it: arguments, files, stdin, JSON, exit codes.

use crate::common::{autoplay, text};
use std::io::Write;
use std::process::Stdio;

const LEET: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const LEET_SOLUTION: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

#[test]
fn solves_an_argument_with_counts() {
    let out = autoplay(&["solve", LEET, "--strategy", "rowmajor", "--unique"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(s.starts_with("5 3 4 | 6 7 8 | 9 1 2\n"), "{s}");
    assert!(
        s.contains("rowmajor: 4,208 placements, 4,157 undos, 4,209 calls, max depth 51"),
        "{s}"
    );
    assert!(s.contains("unique"), "{s}");
}

#[test]
fn json_lines_from_stdin_with_bad_lines_in_between() {
    let input = format!(
        "{LEET}\n\n# a comment\n{}\n{}\n12345678........9{}\n{LEET}\n",
        LEET.replacen('3', "x", 1),
        LEET.replacen('3', "5", 1),
        ".".repeat(64)
    );
    let out = autoplay(
        &["solve", "--json", "--strategy", "mrv", "--unique"],
        &input,
    );
    assert_eq!(
        out.status.code(),
        Some(1),
        "failures make the exit code non-zero"
    );
    let lines: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    assert_eq!(
        lines.len(),
        5,
        "every puzzle line is reported, including after errors"
    );
    assert_eq!(lines[0]["solution"], LEET_SOLUTION);
    assert_eq!(lines[0]["placements"], 51);
    assert_eq!(lines[0]["calls"], 52);
    assert_eq!(lines[0]["unique"], true);
    assert_eq!(lines[0]["strategy"], "mrv");
    assert!(lines[0]["micros"].is_u64());
    assert_eq!(lines[1]["status"], "invalid");
    assert_eq!(lines[1]["line"], 4);
    assert!(
        lines[1]["error"]
            .as_str()
            .unwrap()
            .contains("line 4, column 2")
    );
    assert_eq!(lines[2]["status"], "invalid");
    assert!(
        lines[2]["error"]
            .as_str()
            .unwrap()
            .contains("row 1 has two 5s: r1c1 and r1c2")
    );
    assert_eq!(lines[3]["status"], "unsolvable");
    assert_eq!(lines[4]["status"], "solved");
    let err = text(&out.stderr);
    assert!(
        err.contains("5 puzzles: 2 solved, 2 invalid, 1 unsolvable"),
        "{err}"
    );
}

#[test]
fn file_input_and_quiet_summary() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.txt");
    std::fs::write(&path, format!("{LEET}\n{LEET}\n")).unwrap();
    let out = autoplay(&["solve", "-f", path.to_str().unwrap(), "--quiet"], "");
    assert!(out.status.success());
    let s = text(&out.stdout);
    assert!(
        s.starts_with("# 2 puzzles: 2 solved, 0 invalid, 0 unsolvable in "),
        "{s}"
    );
    let missing = autoplay(&["solve", "-f", "/nonexistent/p.txt"], "");
    assert_eq!(missing.status.code(), Some(1));
    assert!(text(&missing.stderr).contains("cannot open puzzle file /nonexistent/p.txt"));
}

#[test]
fn step_budget_is_reported() {
    let vaste = ".......12....35......6...7.7.....3.....4..8..1...........12.....8.....4..5....6..";
    let out = autoplay(
        &[
            "solve",
            vaste,
            "--strategy",
            "rowmajor",
            "--max-steps",
            "5000",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("stopped after 5,000 placements (--max-steps)"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn bad_usage_is_explained() {
    let out = autoplay(&["solve", "--strategy", "greedy", LEET], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("rowmajor"));
    let help = autoplay(&["--help"], "");
    assert!(text(&help.stdout).contains("solve"));
}

#[test]
fn grids_are_read_from_files_and_stdin_and_the_output_reads_back() {
    // The 9-line grid file shipped for `solve --help`.
    let out = autoplay(
        &["solve", "-f", "tests/data/puzzles/leetcode37.grid", "-u"],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let printed = text(&out.stdout);
    assert!(printed.contains("5 3 4 | 6 7 8 | 9 1 2\n"), "{printed}");
    assert!(printed.contains("# fast: 51 placements"), "{printed}");

    // Grids on stdin, with and without separators, between an 81-character line and a comment.
    let grid = std::fs::read_to_string("tests/data/puzzles/leetcode37.grid").unwrap();
    let bare: String = grid
        .lines()
        .filter(|l| !l.starts_with('-'))
        .map(|l| format!("{}\n", l.replace(" | ", "").replace(' ', "")))
        .collect();
    let input = format!("{grid}\n# two more\n{LEET}\n{bare}");
    let out = autoplay(&["solve", "--json"], &input);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lines: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3, "{}", text(&out.stdout));
    assert!(lines.iter().all(|l| l["solution"] == LEET_SOLUTION));
    assert_eq!(
        lines
            .iter()
            .map(|l| l["line"].as_u64().unwrap())
            .collect::<Vec<_>>(),
        vec![1, 14, 15],
        "each puzzle is named by its first line"
    );

    // The printed output is valid input: the solved grid, with its counts as comments.
    let again = autoplay(&["solve", "-f", "-"], &printed);
    assert!(again.status.success(), "{}", text(&again.stderr));
    assert!(text(&again.stdout).contains("# fast: 0 placements"));

    // A grid cut short is an error naming its line; the next puzzle is still solved.
    let cut: String = grid.lines().take(5).map(|l| format!("{l}\n")).collect();
    let out = autoplay(&["solve"], format!("{cut}\n{LEET}\n"));
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("line 1: expected 9 grid rows, found 4"),
        "{err}"
    );
    assert!(text(&out.stdout).contains("1 solved, 1 invalid"));
    let out = autoplay(&["solve"], grid.replacen("8 . .", "8 . x", 1));
    assert!(
        text(&out.stderr).contains("line 5, column 5: unexpected character 'x'"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn several_solutions_with_unique_is_a_failure() {
    let two = LEET
        .replacen('5', ".", 1)
        .replacen('3', ".", 1)
        .replacen('7', ".", 1);
    let out = autoplay(&["solve", &two, "--unique", "--strategy", "rowmajor"], "");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    assert!(text(&out.stdout).contains("NOT unique"));
    assert!(text(&out.stderr).contains("has several solutions"));
    // Without --unique one solution is all that was asked for.
    let out = autoplay(&["solve", &two, "--strategy", "rowmajor"], "");
    assert!(out.status.success());
}

#[test]
fn quiet_counts_several_solutions_without_a_line_each() {
    // Every puzzle of the serg sample has several solutions: solved once each, counted, and
    // named only without --quiet.
    let path = "tests/data/puzzles/serg_sample.txt";
    let quiet = autoplay(&["solve", "-f", path, "--unique", "--quiet"], "");
    assert_eq!(quiet.status.code(), Some(1), "not unique is a failure");
    assert_eq!(text(&quiet.stderr), "");
    assert!(
        text(&quiet.stdout).starts_with(
            "# 100 puzzles: 100 solved, 0 invalid, 0 unsolvable, 100 not unique \
             (run without --quiet to see which) in "
        ),
        "{}",
        text(&quiet.stdout)
    );
    let full = autoplay(&["solve", "-f", path, "--unique"], "");
    assert_eq!(text(&full.stderr).matches("NOT unique").count(), 100);
    // Without --unique one solution is all that was asked for.
    let plain = autoplay(&["solve", "-f", path, "--quiet"], "");
    assert!(plain.status.success(), "{}", text(&plain.stdout));
}

#[test]
fn rowmajor_on_an_unsolvable_grid_says_so_at_once() {
    // Legal givens, but r1c9 can hold nothing; the row-major search would run for days.
    let unsolvable = format!("12345678........9{}", ".".repeat(64));
    let out = autoplay(&["solve", &unsolvable, "--strategy", "rowmajor"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("no solution"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_closed_pipe_ends_quietly() {
    use std::io::{BufRead, BufReader};
    let what = "autoplay solve | head -1";
    crate::common::with_timeout(std::time::Duration::from_secs(120), what, || {
        let input = format!("{LEET}\n").repeat(3000);
        let mut child = crate::common::autoplay_command()
            .args(["solve", "--strategy", "rowmajor"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(input.as_bytes());
        });
        // Like `| head -1`: read one line, then close the pipe.
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        assert!(first.starts_with("# line 1:"), "{first}");
        let out = child.wait_with_output().unwrap();
        let _ = writer.join();
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        assert_eq!(text(&out.stderr), "", "nothing said about the pipe");
    });
}

#[test]
fn help_examples_name_files_that_exist_in_a_clone() {
    // "" is the top level (play).
    let commands = [
        "",
        "demo",
        "devices",
        "calibrate",
        "read",
        "solve",
        "stats",
        "replay",
        "resume",
        "watch",
        "sim",
    ];
    let mut named = 0;
    for command in commands {
        let args: Vec<&str> = [command, "--help"]
            .into_iter()
            .filter(|a| !a.is_empty())
            .collect();
        let out = autoplay(&args, "");
        assert!(out.status.success(), "{command}: {}", text(&out.stderr));
        let help = text(&out.stdout);
        assert!(!help.contains("../shared"), "{command} --help: {help}");
        let words: Vec<&str> = help.split_whitespace().collect();
        for (i, w) in words.iter().enumerate() {
            // Files an example reads from the repository (not the ones it writes with --out).
            let read = ["tests/", "screenshots/", "calibration/"]
                .iter()
                .any(|d| w.starts_with(d))
                && w.contains('.')
                && (i == 0 || words[i - 1] != "--out");
            if read {
                named += 1;
                assert!(
                    std::path::Path::new(w).exists(),
                    "`{command} --help` names {w}, which is not in the repository"
                );
            }
        }
    }
    assert!(named >= 5, "the examples name repository files: {named}");
}

#[test]
fn a_missing_file_is_said_once_with_exit_1() {
    let cases: [&[&str]; 5] = [
        &["solve", "-f", "/nonexistent/puzzles.txt"],
        &["read", "/nonexistent/shot.png"],
        &[
            "read",
            "screenshots/sim/pixel-light-row.png",
            "--calibration",
            "/nonexistent/c.toml",
        ],
        &["replay", "/nonexistent/session"],
        &["calibrate", "--screenshot", "/nonexistent/shot.png"],
    ];
    for args in cases {
        let out = autoplay(args, "");
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains("/nonexistent/"),
            "{args:?} names the file: {err}"
        );
        assert_eq!(
            err.matches("No such file or directory").count(),
            1,
            "{args:?}: the cause once: {err}"
        );
    }
}

#[test]
fn each_command_shows_only_the_options_it_uses() {
    let help = |command: &str| text(&autoplay(&[command, "--help"], "").stdout);
    for command in ["solve", "read", "stats", "sim", "demo"] {
        assert!(!help(command).contains("--serial"), "{command} --help");
    }
    for command in ["devices", "calibrate", "replay", "resume", "watch"] {
        assert!(help(command).contains("--port"), "{command} --help");
    }
    for command in ["replay", "resume", "calibrate"] {
        assert!(help(command).contains("--serial"), "{command} --help");
    }
    let resume = help("resume");
    for unused in ["--strategy", "--level", "--all-devices"] {
        assert!(!resume.contains(unused), "resume --help offers {unused}");
    }
    assert!(
        !help("watch").contains("--level "),
        "watch has --levels only"
    );
}

#[test]
fn quiet_reports_every_bad_line_like_the_full_output() {
    // `--quiet` with `fast` solves plain lines straight from their bytes; every other line must
    // still get the general path's message, line number and count.
    let two = LEET
        .replacen('5', ".", 1)
        .replacen('3', ".", 1)
        .replacen('7', ".", 1);
    let grid = std::fs::read_to_string("tests/data/puzzles/leetcode37.grid").unwrap();
    let input = [
        LEET.to_string(),
        format!("  {}\r", LEET.replace('.', "0")),
        format!("11{}", &LEET[2..]),
        format!("12345678........9{}", ".".repeat(64)),
        two,
        LEET.replacen('3', "x", 1),
        LEET[..80].to_string(),
        "# a comment".into(),
        String::new(),
        grid,
        LEET.to_string(),
    ]
    .join("\n");
    let (full, quiet) = full_and_quiet(&input);
    assert!(text(&full.stderr).contains("line 5: NOT unique"));
    let summary = "# 9 puzzles: 5 solved, 3 invalid, 1 unsolvable, 1 not unique";
    assert!(
        text(&quiet.stdout)
            .starts_with(&format!("{summary} (run without --quiet to see which) in ")),
        "{}",
        text(&quiet.stdout)
    );
    assert!(
        text(&full.stdout).contains(&format!("{summary} in ")),
        "{}",
        text(&full.stdout)
    );
    for expected in [
        "line 3: the board breaks the Sudoku rules",
        "line 4: no solution",
        "line 6, column 2: unexpected character 'x'",
        "line 7: ",
    ] {
        assert!(
            text(&quiet.stderr).contains(expected),
            "{expected}: {}",
            text(&quiet.stderr)
        );
    }
}

/// `autoplay solve --unique` on `input` without and with `--quiet`, having checked that both
/// name the same bad lines, but `--quiet` only counts those with several solutions.
fn full_and_quiet(input: &str) -> (std::process::Output, std::process::Output) {
    let full = autoplay(&["solve", "--unique"], input);
    let quiet = autoplay(&["solve", "--unique", "--quiet"], input);
    assert_eq!(quiet.status.code(), Some(1));
    let named: String = text(&full.stderr)
        .lines()
        .filter(|l| !l.contains("NOT unique"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(text(&quiet.stderr), named);
    (full, quiet)
}

#[test]
fn quiet_reads_lines_that_straddle_the_read_buffer() {
    // `--quiet` takes the lines whole in the read buffer where they lie; one the buffer cuts
    // (stdin's holds 8 KiB) goes the general way. Both count, and number lines, alike.
    let lines: Vec<String> = (0..400)
        .map(|i| match i % 4 {
            0 => LEET.to_string(),
            1 => LEET
                .replacen('5', ".", 1)
                .replacen('3', ".", 1)
                .replacen('7', ".", 1),
            2 => format!("11{}", &LEET[2..]),
            _ => "# a comment".into(),
        })
        .collect();
    let (full, quiet) = full_and_quiet(&lines.join("\n"));
    assert!(text(&full.stderr).contains("line 399: the board breaks the Sudoku rules"));
    let summary = "# 300 puzzles: 200 solved, 100 invalid, 0 unsolvable, 100 not unique";
    assert!(
        text(&quiet.stdout).starts_with(summary),
        "{}",
        text(&quiet.stdout)
    );
}
