//! Helpers shared by the integration tests: a seeded PRNG, synthetic screen frames,
//! encoding runs with the simulated phone's encoder, splitting them with `AccessUnits`, and running
//! ffmpeg/ffprobe (which must be installed: the tests fail loudly if they are not).
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use sudoku_autoplay::video::annexb::{AccessUnits, Unit};
use sudoku_autoplay::video::mp4out::Segment;

/// xorshift64: deterministic "random" numbers.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform-ish in `0..n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| (self.next() >> 32) as u8).collect()
    }
}

/// Fails the test, loudly, if `tool` cannot be run.
pub fn require(tool: &str) {
    let ok = Command::new(tool)
        .arg("-version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        ok,
        "`{tool}` is not installed or not on the PATH: these tests need ffmpeg and ffprobe (apt-get install ffmpeg)"
    );
}

/// A fresh directory for one test's files.
pub fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("autoplay-videomux-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create temp dir");
    dir
}

/// Runs ffprobe/ffmpeg with `args`, requires success and returns stdout.
pub fn run(tool: &str, args: &[&str]) -> Vec<u8> {
    require(tool);
    let out = Command::new(tool)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("run {tool}: {e}"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{tool} {args:?} failed: {stderr}");
    // Run with `-v error`: anything on stderr is an error ffmpeg recovered from.
    assert!(
        stderr.trim().is_empty(),
        "{tool} {args:?} complained: {stderr}"
    );
    out.stdout
}

/// Same as `run`, stdout as text.
pub fn run_text(tool: &str, args: &[&str]) -> String {
    String::from_utf8(run(tool, args)).expect("utf-8 output")
}

pub fn path_str(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// A synthetic phone screen for frame `i`: status bar, a list whose highlighted row
/// moves, a counter block that changes size, and a noisy "image" that changes rarely.
pub fn screen(w: usize, h: usize, i: usize) -> Vec<u8> {
    let mut px = vec![255u8; w * h * 4];
    let mut rect = |x0: usize, y0: usize, rw: usize, rh: usize, rgb: [u8; 3]| {
        for y in y0.min(h)..(y0 + rh).min(h) {
            for x in x0.min(w)..(x0 + rw).min(w) {
                px[(y * w + x) * 4..][..3].copy_from_slice(&rgb);
            }
        }
    };
    rect(0, 0, w, h, [245, 245, 250]);
    rect(0, 0, w, h / 16, [30, 60, 120]);
    for row in 0..8 {
        let rgb = if row == i % 8 {
            [187, 222, 251]
        } else {
            [235, 235, 240]
        };
        rect(8, h / 8 + row * (h / 12), w - 16, h / 14, rgb);
    }
    rect(
        w / 4,
        h * 7 / 8,
        (i * 13) % (w / 2) + 4,
        h / 20,
        [200, 40, 40],
    );
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ (i as u64 / 5 + 1));
    for y in h / 2..h / 2 + h / 10 {
        for x in w / 2..w - 8 {
            let v = (rng.next() >> 40) as u8;
            px[(y * w + x) * 4..][..3].copy_from_slice(&[v, v / 2, 255 - v]);
        }
    }
    px
}

/// One encoded screenrecord run: its access units (Annex B) with host arrival times,
/// and the encoder's reconstruction after each.
pub struct Run {
    pub aus: Vec<Vec<u8>>,
    pub times: Vec<u64>,
    pub recon: Vec<Vec<u8>>,
}

/// Encodes frames `first..first + times.len()` of `screen` at `w` x `h`, forcing IDRs at
/// the indices (relative to the run) in `keys`.
pub fn encode_run(w: usize, h: usize, qp: u8, first: usize, times: &[u64], keys: &[usize]) -> Run {
    let mut enc = autoplay_sim::video::h264::Encoder::new(w as u32, h as u32, qp);
    let mut run = Run {
        aus: Vec::new(),
        times: times.to_vec(),
        recon: Vec::new(),
    };
    for k in 0..times.len() {
        run.aus
            .push(enc.encode(&screen(w, h, first + k), keys.contains(&k)));
        run.recon.push(enc.reconstruction());
    }
    run
}

/// Host times: `start`, then the gaps (in microseconds).
pub fn times_from(start: u64, gaps: &[u64]) -> Vec<u64> {
    let mut t = vec![start];
    for g in gaps {
        t.push(t[t.len() - 1] + g);
    }
    t
}

/// Pushes the run's bytes into a fresh splitter as a pipe would deliver them: each
/// access unit at its time, cut into random pieces of 1..=max_chunk bytes.
pub fn split_run(aus: &[Vec<u8>], times: &[u64], rng: &mut Rng, max_chunk: u64) -> Vec<Unit> {
    let mut splitter = AccessUnits::new();
    let mut units = Vec::new();
    for (au, &t) in aus.iter().zip(times) {
        let mut rest = au.as_slice();
        while !rest.is_empty() {
            let n = (1 + rng.below(max_chunk) as usize).min(rest.len());
            units.extend(splitter.push(&rest[..n], t));
            rest = &rest[n..];
        }
    }
    units.extend(splitter.finish());
    assert_eq!(splitter.dropped(), 0);
    units
}

/// Checks that the units are exactly the access units (4-byte start codes) at their times.
pub fn assert_units_match(units: &[Unit], aus: &[Vec<u8>], times: &[u64]) {
    assert_eq!(units.len(), aus.len(), "one unit per access unit");
    for (i, (u, au)) in units.iter().zip(aus).enumerate() {
        let joined: Vec<u8> = u
            .nals
            .iter()
            .flat_map(|n| [&[0, 0, 0, 1][..], n].concat())
            .collect();
        assert!(
            joined == *au,
            "unit {i}: NAL units differ from the encoder's access unit"
        );
        assert_eq!(u.at_us, times[i], "unit {i}: arrival time");
        assert_eq!(u.key, idr_at(au).is_some(), "unit {i}: key flag");
    }
}

/// Where the IDR slice NAL unit (with its 4-byte start code) of an access unit starts.
pub fn idr_at(au: &[u8]) -> Option<usize> {
    au.windows(5)
        .position(|w| w[..4] == [0, 0, 0, 1] && w[4] & 0x1f == 5)
}

/// The access unit without its SPS and PPS, as an encoder that sends its configuration
/// only once would produce a later key frame.
pub fn without_parameter_sets(au: &[u8]) -> Vec<u8> {
    au[idr_at(au).expect("an IDR access unit")..].to_vec()
}

/// Splits each run (random chunking) into a segment, checking the split.
pub fn segments(runs: &[&Run], seed: u64) -> Vec<Segment> {
    let mut rng = Rng(seed);
    runs.iter()
        .map(|r| {
            let units = split_run(&r.aus, &r.times, &mut rng, 700);
            assert_units_match(&units, &r.aus, &r.times);
            Segment { units }
        })
        .collect()
}

/// 90 kHz ticks of a host-time difference, rounded to nearest (the expected MP4 times).
pub fn ticks(us: u64) -> u64 {
    (us * 9 + 50) / 100
}

/// `key=value` lines of ffprobe's default output, per section.
pub fn ffprobe_sections(path: &Path, args: &[&str]) -> Vec<Vec<(String, String)>> {
    let mut full = vec!["-v", "error"];
    full.extend_from_slice(args);
    full.push(path_str(path));
    let text = run_text("ffprobe", &full);
    let mut sections = Vec::new();
    for line in text.lines() {
        if line.starts_with("[/") {
            continue;
        } else if line.starts_with('[') {
            sections.push(Vec::new());
        } else if let (Some((k, v)), Some(s)) = (line.split_once('='), sections.last_mut()) {
            s.push((k.to_string(), v.to_string()));
        }
    }
    sections
}

pub fn field<'a>(section: &'a [(String, String)], key: &str) -> &'a str {
    section
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
        .unwrap_or_else(|| panic!("no {key} in {section:?}"))
}

/// Decodes the video track with ffmpeg to raw yuv420p, every frame as coded.
pub fn decode(path: &Path) -> Vec<u8> {
    let args = [
        "-v",
        "error",
        "-xerror",
        "-i",
        path_str(path),
        "-map",
        "0:v",
    ];
    let tail = [
        "-fps_mode",
        "passthrough",
        "-f",
        "rawvideo",
        "-pix_fmt",
        "yuv420p",
        "-",
    ];
    run("ffmpeg", &[&args[..], &tail[..]].concat())
}

/// Requires the decoded frames to equal the reconstructions, in order.
pub fn assert_frames(decoded: &[u8], recon: &[&Vec<u8>], tag: &str) {
    let len = recon.first().map_or(1, |r| r.len());
    assert_eq!(
        decoded.len() % len,
        0,
        "{tag}: decoded size is not whole frames"
    );
    assert_eq!(
        decoded.len() / len,
        recon.len(),
        "{tag}: decoded frame count"
    );
    for (i, (d, r)) in decoded.chunks(len).zip(recon).enumerate() {
        if let Some(at) = d.iter().zip(r.iter()).position(|(a, b)| a != b) {
            panic!("{tag}: frame {i} differs from the encoder's reconstruction at byte {at}");
        }
    }
}

/// Cues of a WebVTT document as (start ms, end ms, text), empty ones left out.
pub fn parse_vtt(vtt: &str) -> Vec<(u64, u64, String)> {
    let ms = |t: &str| -> u64 {
        let (hms, frac) = t
            .trim()
            .split_once('.')
            .expect("timestamp has milliseconds");
        let secs = hms
            .split(':')
            .fold(0u64, |acc, p| acc * 60 + p.parse::<u64>().expect("number"));
        secs * 1000 + frac.parse::<u64>().expect("ms")
    };
    let mut cues = Vec::new();
    let mut lines = vtt.lines().peekable();
    while let Some(line) = lines.next() {
        let Some((a, b)) = line.split_once("-->") else {
            continue;
        };
        let b = b.split_whitespace().next().unwrap_or_default();
        let mut text = Vec::new();
        while let Some(l) = lines.next_if(|l| !l.trim().is_empty()) {
            text.push(l.to_string());
        }
        if !text.is_empty() {
            cues.push((ms(a), ms(b), text.join("\n")));
        }
    }
    cues
}
