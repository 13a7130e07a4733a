//! The simulated phone's `screenrecord` through the real adb server, its video read by ffmpeg
//! (an independent decoder): a stream of the screen as it changes, a file on the phone, and
//! what it says when it cannot record.

use crate::common::AdbServer;
use autoplay_sim::{SimConfig, SimHandle, profile, spawn};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

fn phone(quirks: Option<profile::Quirks>) -> (SimHandle, AdbServer, String) {
    let mut p = profile::profile("pixel").expect("profile").clone();
    if let Some(q) = quirks {
        p.quirks = q;
    }
    let sim = spawn(SimConfig::new(p)).expect("start sim");
    let adb = AdbServer::start();
    let serial = sim.serial();
    adb.connect(&serial);
    let out = adb.on(
        &serial,
        &[
            "shell",
            "am start -n org.autoplay.sudoku/.GameActivity --ei level 3",
        ],
    );
    assert_eq!(out.code(), 0, "{}", out.stderr);
    (sim, adb, serial)
}

/// ffprobe's `key=value` lines for `path`'s first video stream and its format.
fn probe(path: &Path) -> String {
    let out = Command::new("ffprobe")
        .args([
            "-v",
            "error",
            "-count_frames",
            "-select_streams",
            "v:0",
            "-show_entries",
        ])
        .args(["stream=codec_name,width,height,nb_read_frames:format=format_name"])
        .args(["-of", "default=nw=1"])
        .arg(path)
        .output()
        .expect("run ffprobe");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The video's last frame as PNG bytes (ffmpeg writes each frame over the one before).
fn last_frame(video: &Path, dir: &Path) -> Vec<u8> {
    let last = dir.join("last.png");
    let decoded = Command::new("ffmpeg")
        .args(["-v", "error", "-i"])
        .arg(video)
        .args(["-update", "1"])
        .arg(&last)
        .output()
        .unwrap();
    assert!(
        decoded.status.success(),
        "{}",
        String::from_utf8_lossy(&decoded.stderr)
    );
    std::fs::read(&last).unwrap()
}

fn frames(probe: &str) -> u32 {
    probe
        .lines()
        .find_map(|l| l.strip_prefix("nb_read_frames="))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

#[test]
#[cfg_attr(
    not(ffmpeg),
    ignore = "needs ffmpeg and ffprobe on the PATH (Debian: apt-get install ffmpeg; then `touch build.rs`)"
)]
fn the_screen_streams_as_it_changes_and_its_last_frame_reads_as_the_board() {
    let (_sim, adb, serial) = phone(None);
    let dir = tempfile::tempdir().unwrap();
    // The recording's stream, read as it comes: the taps begin once its first frame is out
    // (a loaded host may take a while to start the recording).
    let mut recording = Command::new(crate::common::adb_path())
        .args(["-P", &adb.port.to_string(), "-s", &serial, "exec-out"])
        .arg("screenrecord --output-format=h264 --time-limit 8 -")
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let stream = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let reader = {
        let (mut out, stream) = (recording.stdout.take().unwrap(), stream.clone());
        std::thread::spawn(move || {
            let mut chunk = [0u8; 65536];
            while let Ok(n @ 1..) = std::io::Read::read(&mut out, &mut chunk) {
                stream.lock().unwrap().extend_from_slice(&chunk[..n]);
            }
        })
    };
    let started = std::time::Instant::now();
    while stream.lock().unwrap().is_empty() {
        assert!(started.elapsed() < Duration::from_secs(8), "no frame");
        std::thread::sleep(Duration::from_millis(20));
    }
    // A cell, then a digit key, three times; one adb process each, as a real phone's `input`
    // takes its own time for each.
    for (x, y) in [
        (300, 410),
        (537, 1473),
        (650, 640),
        (749, 1474),
        (80, 990),
        (115, 1474),
    ] {
        let out = adb.on(&serial, &["shell", &format!("input tap {x} {y}")]);
        assert_eq!(out.code(), 0, "{}", out.stderr);
    }
    assert!(recording.wait().unwrap().success());
    reader.join().unwrap();
    let stream = std::mem::take(&mut *stream.lock().unwrap());
    let video = dir.path().join("screen.h264");
    std::fs::write(&video, &stream).unwrap();
    let probe = probe(&video);
    assert!(
        probe.contains("codec_name=h264") && probe.contains("width=1080"),
        "{probe}"
    );
    assert!(
        frames(&probe) >= 4,
        "a frame at the start and one per change: {probe}"
    );
    let last = last_frame(&video, dir.path());
    let shot = adb.on(&serial, &["exec-out", "screencap -p"]);
    let read = |bytes: &[u8]| {
        let image = image::load_from_memory(bytes).unwrap().to_rgba8();
        sudoku_autoplay::vision::read_board(&image).unwrap().board
    };
    assert_eq!(read(&last), read(&shot.stdout));
}

#[test]
#[cfg_attr(
    not(ffmpeg),
    ignore = "needs ffmpeg and ffprobe on the PATH (Debian: apt-get install ffmpeg; then `touch build.rs`)"
)]
fn a_file_on_the_phone_is_an_mp4_and_what_cannot_be_recorded_is_said() {
    let (_sim, adb, serial) = phone(None);
    let file = "/data/local/tmp/run.mp4";
    let out = adb.on(
        &serial,
        &[
            "shell",
            &format!("screenrecord --time-limit 1 --bit-rate 4M {file}"),
        ],
    );
    assert_eq!(out.code(), 0, "{}", out.stderr);
    let pulled = adb.on(&serial, &["exec-out", &format!("cat {file}")]);
    let dir = tempfile::tempdir().unwrap();
    let mp4 = dir.path().join("run.mp4");
    std::fs::write(&mp4, &pulled.stdout).unwrap();
    let probe = probe(&mp4);
    assert!(
        probe.contains("format_name=mov,mp4") && frames(&probe) >= 1,
        "{probe}"
    );
    // MP4 (the default) cannot go to stdout.
    let out = adb.on(&serial, &["exec-out", "screenrecord -"]);
    assert!(
        out.stdout.starts_with(b"ERROR: couldn't open file"),
        "{}",
        out.text()
    );
    // A phone without screenrecord.
    let q = profile::Quirks {
        no_screenrecord: true,
        ..profile::Quirks::NONE
    };
    let (_sim, adb, serial) = phone(Some(q));
    let out = adb.on(&serial, &["shell", "screenrecord --output-format=h264 -"]);
    assert_eq!(out.code(), 127, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("screenrecord: inaccessible or not found"),
        "{}",
        out.stderr
    );
}
