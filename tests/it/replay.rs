//! `autoplay replay` on sessions recorded by real plays on the simulated phone (through a
//! private adb server), verified and deliberately corrupted; GIFs decoded back; `stats --plot`.

use crate::common::play_config;
use crate::common::{AdbServer, run_with_timeout};
use autoplay_sim::{SimConfig, SimHandle, profile, spawn};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;
use sudoku_autoplay::board::Board;
use sudoku_autoplay::device::{Server, select};
use sudoku_autoplay::level::{PlayConfig, play};
use sudoku_autoplay::recheck::{Ending, check_session};
use sudoku_autoplay::session::anim::{Timeline, gif::write_gif};
use sudoku_autoplay::solver::{Options, Recorder, Strategy, search};

fn config(data: &Path, level: u32, max_visible_steps: Option<u64>) -> PlayConfig {
    PlayConfig {
        strategy: Strategy::RowMajor,
        max_visible_steps,
        ..play_config(data, level)
    }
}

fn sim() -> SimHandle {
    spawn(SimConfig::new(profile::profile("pixel").unwrap().clone())).unwrap()
}

/// Two sessions recorded once for the whole file: level 3 with every step shown, and level 5
/// with only the first 40 steps shown. The adb server is stopped before returning.
fn recorded() -> &'static (PathBuf, PathBuf) {
    static SESSIONS: OnceLock<(PathBuf, PathBuf)> = OnceLock::new();
    SESSIONS.get_or_init(|| {
        let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
        // Fixtures of earlier runs whose process is gone.
        for e in std::fs::read_dir(&tmp).into_iter().flatten().flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if let Some(pid) = name.strip_prefix("replay-fixture-")
                && !Path::new("/proc").join(pid).exists()
            {
                let _ = std::fs::remove_dir_all(e.path());
            }
        }
        let data = tmp.join(format!("replay-fixture-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&data);
        let sim = sim();
        let adb = AdbServer::start();
        adb.connect(&sim.serial());
        let device = select(&Server::new(adb.addr()), None).unwrap();
        let full = play(&device, &config(&data, 3, None), &mut |_| {}).unwrap();
        let partial = play(&device, &config(&data, 5, Some(40)), &mut |_| {}).unwrap();
        (full.session_dir, partial.session_dir)
    })
}

/// A copy of a recorded session to corrupt.
fn copy_of(dir: &Path) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let to = tmp.path().join(dir.file_name().unwrap());
    std::fs::create_dir_all(&to).unwrap();
    for e in std::fs::read_dir(dir).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
    (tmp, to)
}

/// `autoplay replay DIR ARGS`.
fn replay(dir: &Path, args: &[&str]) -> crate::common::Out {
    let mut cmd = crate::common::autoplay_command();
    cmd.arg("replay").arg(dir).args(args);
    run_with_timeout(cmd, b"", Duration::from_secs(120))
}

#[test]
fn recorded_sessions_replay_as_recorded() {
    let (full, partial) = recorded();
    let out = replay(full, &[]);
    assert_eq!(out.code(), 0, "{}\n{}", out.text(), out.stderr);
    let text = out.text();
    assert!(text.contains("ocr:     ok"), "{text}");
    assert!(text.contains("136 of 136 steps match"), "{text}");
    assert!(text.contains("replays as recorded"), "{text}");

    // Only 40 steps shown: the rest is not in the journal, and that is not a divergence.
    let c = check_session(partial).unwrap();
    assert!(c.ok(), "{:?}", c.divergence);
    assert_eq!(c.journaled_steps, 40);
    assert!(c.fills > 0);
    assert_eq!(c.final_board, Board::parse_line(&c.meta.solution).unwrap());
    let out = replay(partial, &[]);
    assert_eq!(out.code(), 0, "{}", out.text());
    assert!(
        out.text()
            .contains("searched on the host only (--max-visible-steps 40)"),
        "{}",
        out.text()
    );
}

#[test]
fn a_changed_event_is_a_divergence_with_its_step() {
    let (_tmp, dir) = copy_of(&recorded().0);
    let path = dir.join("journal.jsonl");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    // Line 1 is the start; line 12 is step 10.
    let line = &mut lines[11];
    assert!(line.contains("\"i\":10,"), "{line}");
    let digit_at = line.find("\"digit\":").unwrap() + 8;
    let old = line.as_bytes()[digit_at] - b'0';
    let new = if old == 9 { 1 } else { old + 1 };
    line.replace_range(digit_at..digit_at + 1, &new.to_string());
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();

    let out = replay(&dir, &[]);
    assert_eq!(out.code(), 2, "{}\n{}", out.text(), out.stderr);
    let text = out.text();
    assert!(
        text.contains("journal: DIVERGES at step 10 (journal line 12): expected "),
        "{text}"
    );
    assert!(
        text.contains(&format!("found place {new} at"))
            || text.contains(&format!("found undo {new} at")),
        "{text}"
    );
}

#[test]
fn an_interrupted_session_replays_up_to_where_it_stopped() {
    let (_tmp, dir) = copy_of(&recorded().0);
    let path = dir.join("journal.jsonl");
    let text = std::fs::read_to_string(&path).unwrap();
    // Keep the start line and steps 0..=59, then half of the next line.
    let cut: usize = text.lines().take(61).map(|l| l.len() + 1).sum();
    let next_len = text[cut..].find('\n').unwrap();
    std::fs::write(&path, &text[..cut + next_len / 2]).unwrap();

    let c = check_session(&dir).unwrap();
    assert_eq!(c.journaled_steps, 60);
    assert_eq!(
        c.ending,
        Ending::Interrupted {
            torn_line: Some(62)
        }
    );
    assert!(c.ok());
    let out = replay(&dir, &[]);
    assert_eq!(out.code(), 0, "{}\n{}", out.text(), out.stderr);
    assert!(
        out.text().contains(
            "interrupted after step 60 of 136: no End line, and journal line 62 was cut mid-write"
        ),
        "{}",
        out.text()
    );

    // Cut on a line boundary: no torn line, still no End line.
    std::fs::write(&path, &text[..cut]).unwrap();
    let c = check_session(&dir).unwrap();
    assert_eq!(c.ending, Ending::Interrupted { torn_line: None });
    assert!(
        c.ending_text()
            .contains("interrupted after step 60 of 136: the journal has no End line")
    );
}

#[test]
fn bad_sessions_are_clear_errors() {
    let (_tmp, dir) = copy_of(&recorded().0);
    let meta = dir.join("session.toml");
    let text = std::fs::read_to_string(&meta).unwrap();
    std::fs::write(&meta, text.replace("version = 1", "version = 7")).unwrap();
    let out = replay(&dir, &[]);
    assert_eq!(out.code(), 1);
    assert!(
        out.stderr
            .contains("session.toml: session format version 7 is newer"),
        "{}",
        out.stderr
    );
    std::fs::write(&meta, &text).unwrap();

    // Garbage in the middle of the journal: an error naming the file and line.
    let journal = dir.join("journal.jsonl");
    let j = std::fs::read_to_string(&journal).unwrap();
    let mut lines: Vec<&str> = j.lines().collect();
    lines[5] = "{\"kind\":\"event\",\"t_ms\":";
    std::fs::write(&journal, lines.join("\n") + "\n").unwrap();
    let out = replay(&dir, &[]);
    assert_eq!(out.code(), 1);
    assert!(
        out.stderr.contains("journal.jsonl: line 6"),
        "{}",
        out.stderr
    );
    assert!(!out.stderr.contains("panicked"), "{}", out.stderr);

    let out = replay(Path::new("/nonexistent/session"), &[]);
    assert_eq!(out.code(), 1);
    assert!(
        out.stderr.contains("is this a session directory"),
        "{}",
        out.stderr
    );
}

#[test]
fn another_levels_first_frame_is_an_ocr_mismatch() {
    let (full, partial) = recorded();
    let (_tmp, dir) = copy_of(full);
    std::fs::copy(partial.join("first.png"), dir.join("first.png")).unwrap();
    let out = replay(&dir, &[]);
    assert_eq!(out.code(), 2, "{}", out.text());
    assert!(
        out.text().contains("ocr:     MISMATCH in "),
        "{}",
        out.text()
    );
}

#[test]
fn a_session_without_its_first_frame_is_an_error_not_a_mismatch() {
    let (_tmp, dir) = copy_of(&recorded().0);
    std::fs::remove_file(dir.join("first.png")).unwrap();
    let out = replay(&dir, &[]);
    assert_eq!(out.code(), 1, "{}\n{}", out.text(), out.stderr);
    assert!(
        out.stderr.contains("first.png") && out.stderr.contains("first screenshot is needed"),
        "{}",
        out.stderr
    );
}

/// A GIF's size, its frames' delays (1/100 s) and its first frame (RGBA).
fn gif_frames(path: &Path) -> (u16, u16, Vec<u16>, Vec<u8>) {
    let mut opts = gif::DecodeOptions::new();
    opts.set_color_output(gif::ColorOutput::RGBA);
    let mut d = opts.read_info(std::fs::File::open(path).unwrap()).unwrap();
    let mut delays = Vec::new();
    let mut first = Vec::new();
    while let Some(f) = d.read_next_frame().unwrap() {
        if first.is_empty() {
            first = f.buffer.to_vec();
        }
        delays.push(f.delay);
    }
    (d.width(), d.height(), delays, first)
}

#[test]
fn gif_of_a_short_search_has_every_step() {
    let (full, _) = recorded();
    let tmp = tempfile::tempdir().unwrap();
    let gif_path = tmp.path().join("l3.gif");
    let out = replay(
        full,
        &["--gif", gif_path.to_str().unwrap(), "--duration", "20"],
    );
    assert_eq!(out.code(), 0, "{}\n{}", out.text(), out.stderr);
    assert!(
        out.text().contains("137 frames, every step"),
        "{}",
        out.text()
    );
    let (w, h, delays, first) = gif_frames(&gif_path);
    assert_eq!((w, h), (360, 446));
    assert_eq!(delays.len(), 137, "the givens, then one frame per step");
    // The caption (level, strategy, counts) is written in the band above the board, in dark ink.
    let dark = |row: usize| {
        first[row * 360 * 4..(row + 1) * 360 * 4]
            .chunks(4)
            .filter(|p| p[..3].iter().all(|&c| c < 100))
            .count()
    };
    assert!((8..24).any(|row| dark(row) > 20), "no title line");
    assert!((28..42).any(|row| dark(row) > 20), "no line of counts");
    assert!(std::fs::metadata(&gif_path).unwrap().len() < 400_000);
}

#[test]
fn gif_of_a_long_search_is_sampled_to_the_duration() {
    let givens = Board::parse_line(
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
    )
    .unwrap();
    let mut rec = Recorder::default();
    search(Strategy::RowMajor, &givens, &Options::default(), &mut rec);
    assert!(rec.0.len() > 8000);
    let timeline = Timeline::new(givens, &rec.0, 12.0);
    let mut bytes = Vec::new();
    let report = write_gif(&timeline, &mut bytes).unwrap();
    assert!(!report.every_step);
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("long.gif");
    std::fs::write(&path, &bytes).unwrap();
    let (_, _, delays, _) = gif_frames(&path);
    assert_eq!(delays.len(), 120, "10 frames a second for 12 s");
    let shown: u32 = delays[..delays.len() - 1].iter().map(|&d| d as u32).sum();
    assert_eq!(shown, 1190);
}

#[test]
fn tui_playback_draws_the_search() {
    let (full, _) = recorded();
    let out = replay(full, &["--tui", "--duration", "2"]);
    assert_eq!(out.code(), 0, "{}", out.stderr);
    let text = out.text();
    // A caption first: what is played, its counts, where and when it was recorded.
    assert!(text.contains("Level 3, rowmajor search"), "{text}");
    assert!(text.contains("86 placements, 50 undos, 87 calls"), "{text}");
    assert!(text.contains("Pixel_7, 20"), "{text}");
    assert!(text.contains("step 136 of 136"), "{text}");
    assert!(
        text.contains("placements \x1b[34m86\x1b[0m  undos \x1b[31m50"),
        "{text}"
    );
}

#[test]
fn to_device_sends_the_recorded_taps_again() {
    let data = tempfile::tempdir().unwrap();
    let sim = sim();
    let adb = AdbServer::start();
    adb.connect(&sim.serial());
    let device = select(&Server::new(adb.addr()), None).unwrap();
    let report = play(&device, &config(data.path(), 3, None), &mut |_| {}).unwrap();
    let taps_first = sim.dumpsys()["taps"].as_u64().unwrap();
    assert_eq!(taps_first, report.performed.taps + report.warmup_taps);

    let port = adb.addr().port().to_string();
    let out = replay(
        &report.session_dir,
        &[
            "--to-device",
            "--pace",
            "0",
            "-P",
            &port,
            "-s",
            &sim.serial(),
        ],
    );
    assert_eq!(out.code(), 0, "{}\n{}", out.text(), out.stderr);
    assert!(
        out.text()
            .contains(&format!("sent {} recorded taps", report.performed.taps)),
        "{}",
        out.text()
    );
    let state = sim.dumpsys();
    assert_eq!(
        state["taps"].as_u64().unwrap(),
        taps_first + report.performed.taps,
        "{state}"
    );
    assert_eq!(state["solved"], true, "{state}");
}

#[test]
fn stats_plot_marks_every_series_and_breaks_lines_at_missing_levels() {
    let tmp = tempfile::tempdir().unwrap();
    let mut csv = String::from(
        "time,device,level,strategy,givens,placements,undos,calls,taps,repairs,search_ms,replay_ms,result\n",
    );
    // rowmajor misses levels 4-8; mrv and static have the same counts (one over the other).
    for level in 1..=10u64 {
        for (strategy, p) in [
            ("rowmajor", 40 * 7u64.pow(level as u32)),
            ("mrv", 30 + level * 20),
            ("static", 30 + level * 20),
        ] {
            if strategy == "rowmajor" && (4..=8).contains(&level) {
                continue;
            }
            csv.push_str(&format!(
                "2026-11-22T00:00:00Z,sim,{level},{strategy},30,{p},{},{},{},0,1.0,10.0,solved\n",
                p - 1,
                p + 1,
                3 * p
            ));
        }
    }
    std::fs::write(tmp.path().join("runs.csv"), csv).unwrap();
    let png = tmp.path().join("plot.png");
    let mut cmd = crate::common::autoplay_command();
    cmd.args(["stats", "--data-dir"])
        .arg(tmp.path())
        .arg("--plot")
        .arg(&png);
    let out = run_with_timeout(cmd, b"", Duration::from_secs(60));
    assert_eq!(out.code(), 0, "{}", out.stderr);
    assert!(out.text().contains("rowmajor"));
    let img = image::open(&png).unwrap().to_rgb8();
    assert_eq!(img.dimensions(), (900, 540));
    let count = |rgb: [u8; 3], xs: std::ops::Range<u32>| {
        img.enumerate_pixels()
            .filter(|(x, _, p)| xs.contains(x) && p.0 == rgb)
            .count()
    };
    let (rowmajor, mrv, stat) = ([0, 90, 160], [200, 75, 0], [0, 125, 85]);
    // Dark series colours, each visible, also the one drawn under another.
    for (name, rgb) in [("rowmajor", rowmajor), ("mrv", mrv), ("static", stat)] {
        assert!(count(rgb, 0..900) > 150, "{name} is hardly drawn");
        let luma = rgb.iter().map(|&c| c as u32).sum::<u32>() / 3;
        assert!(luma < 120, "{name}: a faint colour on white");
    }
    // The x axis runs from level 0 to 11 over about x = 95..885: levels 5-7 lie around
    // x = 450..600, where rowmajor has no run and so no line.
    assert_eq!(count(rowmajor, 440..610), 0, "a line across missing levels");
    assert!(count(mrv, 440..610) > 0 && count(stat, 440..610) > 0);
}
