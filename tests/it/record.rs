//! `--record`: the phone's own video of a run, chained past each recording's limit, read by
//! ffmpeg (an independent decoder); `replay --video`; and a phone that cannot record.

use crate::common::{AdbServer, autoplay_command, run_with_timeout, sim_calibrations};
use autoplay_sim::{SimConfig, SimHandle, profile, spawn};
use std::path::Path;
use std::process::Command;
use std::time::Duration;
use sudoku_autoplay::session::read_runs;

fn phone(quirks: profile::Quirks) -> (SimHandle, AdbServer) {
    let mut p = profile::profile("pixel").unwrap().clone();
    p.quirks = quirks;
    let sim = spawn(SimConfig::new(p)).unwrap();
    let adb = AdbServer::start();
    adb.connect(&sim.serial());
    (sim, adb)
}

/// `autoplay --level 3 --record ARGS` on `sim`, runs and sessions into `data`.
fn record(sim: &SimHandle, adb: &AdbServer, data: &Path, args: &[&str]) -> crate::common::Out {
    let mut cmd = autoplay_command();
    cmd.args(["--level", "3", "--record", "--quiet", "-s", &sim.serial()])
        .args(["-P", &adb.port.to_string()])
        .args(args)
        .arg("--calibration-dir")
        .arg(sim_calibrations())
        .arg("--data-dir")
        .arg(data);
    run_with_timeout(cmd, b"", Duration::from_secs(240))
}

/// ffprobe's answer on `video`: the streams' codecs, and the video's frame times (seconds).
fn probe(video: &Path) -> (String, Vec<f64>) {
    let run = |args: &[&str]| {
        let out = Command::new("ffprobe")
            .args(["-v", "error"])
            .args(args)
            .arg(video)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let streams = run(&[
        "-show_entries",
        "stream=codec_name,width,height",
        "-of",
        "csv=p=0",
    ]);
    let times = run(&[
        "-select_streams",
        "v:0",
        "-show_entries",
        "frame=pts_time",
        "-of",
        "csv=p=0",
    ]);
    let times = times
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect();
    (streams, times)
}

/// The boards on the frames of the video's last 5 seconds (those that show one), last first.
fn boards_at_the_end(video: &Path, dir: &Path) -> Vec<String> {
    let frames = dir.join("end");
    std::fs::create_dir_all(&frames).unwrap();
    let out = Command::new("ffmpeg")
        .args(["-v", "error", "-sseof", "-5", "-i"])
        .arg(video)
        .args(["-map", "0:v", "-fps_mode", "passthrough"])
        .arg(frames.join("%04d.png"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut pngs: Vec<_> = std::fs::read_dir(&frames)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    pngs.sort();
    pngs.iter()
        .rev()
        .filter_map(|p| {
            let image = image::open(p).unwrap().to_rgba8();
            sudoku_autoplay::vision::read_board(&image)
                .ok()
                .map(|r| r.board.to_line())
        })
        .collect()
}

/// Whether the video's last frame is `png` (the phone's screenshot), colours within what the
/// video's 4:2:0 compression changes.
fn last_frame_is(video: &Path, png: &[u8], dir: &Path) -> bool {
    let last = dir.join("video-end.png");
    let out = Command::new("ffmpeg")
        .args(["-v", "error", "-i"])
        .arg(video)
        .args(["-map", "0:v", "-update", "1"])
        .arg(&last)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let a = image::open(&last).unwrap().to_rgb8();
    let b = image::load_from_memory(png).unwrap().to_rgb8();
    let diff: u64 = a
        .as_raw()
        .iter()
        .zip(b.as_raw())
        .map(|(x, y)| u64::from(x.abs_diff(*y)))
        .sum();
    a.dimensions() == b.dimensions() && diff / (a.as_raw().len() as u64) < 4
}

#[test]
#[cfg_attr(
    not(ffmpeg),
    ignore = "needs ffmpeg and ffprobe on the PATH (Debian: apt-get install ffmpeg; then `touch build.rs`)"
)]
fn a_recorded_run_is_the_phones_own_video_chained_past_each_recordings_limit() {
    let (sim, adb) = phone(profile::Quirks::NONE);
    let data = tempfile::tempdir().unwrap();
    // Recordings of 4 s (the next one starting beside at 2.7 s) over a run of about 5 s.
    let out = record(
        &sim,
        &adb,
        data.path(),
        &["--pace", "15", "--record-segment", "4"],
    );
    assert_eq!(out.code(), 0, "{}\n{}", out.text(), out.stderr);
    let all = format!("{}{}", out.text(), out.stderr);
    assert!(all.contains("recording(s) chained"), "{all}");
    let run = read_runs(&data.path().join("runs.csv"))
        .unwrap()
        .pop()
        .unwrap();
    let session = data.path().join("sessions").join(&run.session);
    let video = session.join("screen.mp4");
    let (streams, times) = probe(&video);
    assert!(
        streams.contains("h264,1080,2400") && streams.contains("mov_text"),
        "{streams}"
    );
    let covered = times.last().unwrap() - times[0];
    assert!(
        covered * 1e3 >= 0.8 * run.perform_ms,
        "{covered} s of {} ms",
        run.perform_ms
    );
    // No frame more than a second from the next in the middle, seams included.
    let middle = &times[times.len() / 10..times.len() * 9 / 10];
    let longest = middle.windows(2).map(|w| w[1] - w[0]).fold(0.0, f64::max);
    assert!(longest <= 1.0, "{longest} s without a frame");
    // A frame of its last 5 seconds is the level solved (the app's completion dialog fades in
    // over it, as Android's dialogs do), and it ends on the phone's screen as it is now.
    let solved = sudoku_autoplay::session::SessionMeta::load(&session)
        .unwrap()
        .solution;
    let boards = boards_at_the_end(&video, data.path());
    // (On a loaded host the recording may miss the fade's first frames, which show every
    // digit: then the frame before the completing write, all digits but one, right.)
    let agrees = |b: &String| {
        b.chars()
            .zip(solved.chars())
            .all(|(x, y)| x == '.' || x == y)
            && b.chars().filter(|&c| c == '.').count() <= 1
    };
    assert!(boards.iter().any(agrees), "{boards:?}");
    let end = adb.on(&sim.serial(), &["exec-out", "screencap -p"]);
    assert!(
        last_frame_is(&video, &end.stdout, data.path()),
        "the video ends on the phone's screen"
    );
    let vtt = std::fs::read_to_string(session.join("screen.vtt")).unwrap();
    assert!(
        vtt.starts_with("WEBVTT") && vtt.contains(" placements · "),
        "{vtt}"
    );
    replay_writes_the_video_out(&session, data.path(), times.len());
}

/// `replay --video` writes the session's video out (`frames` of them), captions beside it.
fn replay_writes_the_video_out(session: &Path, dir: &Path, frames: usize) {
    let copy = dir.join("copy.mp4");
    let mut cmd = autoplay_command();
    cmd.arg("replay").arg(session).arg("--video").arg(&copy);
    let replayed = run_with_timeout(cmd, b"", Duration::from_secs(60));
    assert_eq!(
        replayed.code(),
        0,
        "{}\n{}",
        replayed.text(),
        replayed.stderr
    );
    assert!(replayed.text().contains("video:   "), "{}", replayed.text());
    assert_eq!(probe(&copy).1.len(), frames);
    assert!(copy.with_extension("vtt").exists());
}

#[test]
fn a_phone_that_cannot_record_plays_on_and_says_why_once() {
    let q = profile::Quirks {
        no_screenrecord: true,
        ..profile::Quirks::NONE
    };
    let (sim, adb) = phone(q);
    let data = tempfile::tempdir().unwrap();
    let out = record(&sim, &adb, data.path(), &["--pace", "0"]);
    assert_eq!(out.code(), 0, "{}\n{}", out.text(), out.stderr);
    let all = format!("{}{}", out.text(), out.stderr);
    let said = "no video of this run: the phone said: /system/bin/sh: screenrecord: inaccessible or not found";
    assert_eq!(all.matches(said).count(), 1, "{all}");
    let run = read_runs(&data.path().join("runs.csv"))
        .unwrap()
        .pop()
        .unwrap();
    assert_eq!(run.result, "solved");
    let session = data.path().join("sessions").join(&run.session);
    assert!(!session.join("screen.mp4").exists() && !session.join("screen.h264").exists());
    // Replaying it says there is no video, and how to get one.
    let mut cmd = autoplay_command();
    cmd.arg("replay")
        .arg(&session)
        .arg("--video")
        .arg(data.path().join("x.mp4"));
    let replayed = run_with_timeout(cmd, b"", Duration::from_secs(60));
    assert_eq!(replayed.code(), 1);
    assert!(
        replayed.stderr.contains("has no video") && replayed.stderr.contains("--record"),
        "{}",
        replayed.stderr
    );
}
