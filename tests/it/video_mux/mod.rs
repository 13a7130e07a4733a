//! The player's video of a run (`sudoku_autoplay::video`), end to end: streams of the
//! simulated phone's encoder, split by `AccessUnits` from randomly chunked bytes, muxed by
//! `write_mp4_file`, checked with ffprobe and decoded by ffmpeg (an independent demuxer and
//! decoder) against the encoder's reconstruction. Without ffmpeg and ffprobe on the PATH the
//! tests that need them are ignored, with the reason.

mod annexb;
mod common;
mod garbage;
mod sps;

use common::*;
use std::path::{Path, PathBuf};
use sudoku_autoplay::video::Cue;
use sudoku_autoplay::video::concat::concat;
use sudoku_autoplay::video::mp4in::read_mp4;
use sudoku_autoplay::video::mp4out::{Segment, Summary, write_mp4_file};
use sudoku_autoplay::video::vtt::write_vtt;

const W: usize = 192;
const H: usize = 320;
/// Host time of the first frame: the MP4's time 0.
const T0: u64 = 5_000_000;

/// Gaps between the frames of the first run (microseconds): irregular, as a screen
/// that changes when the user acts, with a 1.2 s idle stretch.
const GAPS1: [u64; 19] = [
    33_301, 16_702, 50_013, 16_650, 300_007, 17_001, 16_998, 1_200_003, 33_337, 16_666, 17_123,
    16_877, 100_011, 16_001, 17_555, 33_100, 250_000, 17_017, 16_983,
];
const GAPS2: [u64; 14] = [
    16_667, 16_666, 66_700, 400_001, 16_667, 16_666, 16_667, 33_333, 500_002, 16_000, 17_000,
    16_500, 16_800, 83_456,
];

/// A recorded MP4 and what it should contain.
struct Recorded {
    mp4: PathBuf,
    segments: Vec<Segment>,
    /// Reconstructions of the frames that must be in the file, in order.
    recon: Vec<Vec<u8>>,
    /// Host times of those frames.
    times: Vec<u64>,
    /// Their key flags.
    keys: Vec<bool>,
    end_us: u64,
    /// Expected caption cues: (start ms, end ms, text) on the MP4's timeline.
    cues: Vec<(u64, u64, String)>,
    /// Expected cues of the WebVTT file: the same, but not cut at the end of the video.
    vtt_cues: Vec<(u64, u64, String)>,
    captions: Vec<Cue>,
    summary: Summary,
}

fn cue(start_ms: u64, end_ms: u64, text: &str) -> Cue {
    Cue {
        start_us: T0 + start_ms * 1000,
        end_us: T0 + end_ms * 1000,
        text: text.to_string(),
    }
}

/// ~20 captions (host clock) exercising every normalisation rule, and the cues expected
/// on the MP4 timeline whose video ends at `end_ms`, and in the WebVTT file (which
/// `write_vtt` does not cut at the end of the video).
type Expected = Vec<(u64, u64, String)>;
fn captions(end_ms: u64) -> (Vec<Cue>, Expected, Expected) {
    let mut input: Vec<Cue> = (0..14)
        .map(|k| cue(200 + 400 * k, 500 + 400 * k, &format!("found {k} of 100")))
        .collect();
    input.push(Cue {
        start_us: T0 - 500_000,
        end_us: T0 - 100_000,
        text: "before".into(),
    });
    input.push(Cue {
        start_us: T0 - 50_000,
        end_us: T0 + 150_000,
        text: "straddles".into(),
    });
    input.push(cue(5_500, 6_100, "overlaps found 13"));
    input.push(cue(end_ms - 200, end_ms + 800, "crosses the end"));
    input.push(cue(end_ms + 1_000, end_ms + 2_000, "after the end"));
    input.reverse(); // unsorted
    input.push(cue(1_400, 1_650, "same start as found 3, given later"));
    let mut want = vec![(0, 150, "straddles".to_string())];
    for k in 0..14 {
        let (s, e) = (200 + 400 * k, 500 + 400 * k);
        match k {
            3 => want.push((s, 1_650, "same start as found 3, given later".into())),
            13 => want.push((s, 5_500, format!("found {k} of 100"))),
            _ => want.push((s, e, format!("found {k} of 100"))),
        }
    }
    want.push((5_500, 6_100, "overlaps found 13".into()));
    let mut vtt = want.clone();
    want.push((end_ms - 200, end_ms, "crosses the end".into()));
    vtt.push((end_ms - 200, end_ms + 800, "crosses the end".into()));
    vtt.push((end_ms + 1_000, end_ms + 2_000, "after the end".into()));
    (input, want, vtt)
}

/// Two runs of the same encoder settings (identical SPS/PPS), the second starting
/// 2.5 s after the first one's last frame, with a forced key frame in each.
fn record_two_runs(dir: &Path) -> Recorded {
    let t1 = times_from(T0, &GAPS1);
    let r1 = encode_run(W, H, 24, 0, &t1, &[12]);
    let t2 = times_from(t1[t1.len() - 1] + 2_500_000, &GAPS2);
    let r2 = encode_run(W, H, 24, 100, &t2, &[9]);
    let segments = segments(&[&r1, &r2], 7);
    let last = t2[t2.len() - 1];
    let end_ms = (last - T0) / 1000 + 700;
    let end_us = T0 + end_ms * 1000;
    let (captions, cues, vtt_cues) = captions(end_ms);
    let mp4 = dir.join("two-runs.mp4");
    let summary = write_mp4_file(&mp4, &segments, &captions, end_us).expect("write_mp4");
    let keys: Vec<bool> = (0..35).map(|i| [0, 12, 20, 29].contains(&i)).collect();
    let recon = [r1.recon, r2.recon].concat();
    let times = [t1, t2].concat();
    Recorded {
        mp4,
        segments,
        recon,
        times,
        keys,
        end_us,
        cues,
        vtt_cues,
        captions,
        summary,
    }
}

/// Four runs: one of P frames only (no key frame: dropped), then QP 24, QP 34 (a
/// different PPS; its second key frame comes without SPS/PPS) and QP 24 again starting
/// with three P frames (dropped) before a key frame. The file is "mixed": parameter
/// sets must travel in-band, in every key frame.
fn record_mixed_runs(dir: &Path) -> Recorded {
    let t0 = times_from(T0 - 3_000_000, &[20_000, 20_000, 20_000]);
    let mut r0 = encode_run(W, H, 24, 50, &t0, &[]);
    r0.aus.remove(0);
    r0.times.remove(0);
    let t1 = times_from(T0, &GAPS1[..9]);
    let r1 = encode_run(W, H, 24, 0, &t1, &[]);
    let t2 = times_from(t1[9] + 1_000_000, &GAPS2[..9]);
    let mut r2 = encode_run(W, H, 34, 30, &t2, &[5]);
    r2.aus[5] = without_parameter_sets(&r2.aus[5]); // must be re-inserted
    let t3 = times_from(t2[9] + 700_000, &GAPS1[5..16]);
    let mut r3 = encode_run(W, H, 24, 60, &t3, &[4]);
    r3.aus.remove(0);
    r3.times.remove(0);
    let segments = segments(&[&r0, &r1, &r2, &r3], 11);
    let end_us = t3[11] + 333_333;
    let captions = vec![cue(100, 900, "mixed 1"), cue(2_000, 2_500, "mixed 2")];
    let cues = vec![
        (100, 900, "mixed 1".into()),
        (2_000, 2_500, "mixed 2".into()),
    ];
    let vtt_cues = cues.clone();
    let mp4 = dir.join("mixed.mp4");
    let summary = write_mp4_file(&mp4, &segments, &captions, end_us).expect("write_mp4");
    let recon = [r1.recon, r2.recon, r3.recon[4..].to_vec()].concat();
    let times = [t1, t2, t3[4..].to_vec()].concat();
    let keys = (0..28).map(|i| [0, 10, 15, 20].contains(&i)).collect();
    Recorded {
        mp4,
        segments,
        recon,
        times,
        keys,
        end_us,
        cues,
        vtt_cues,
        captions,
        summary,
    }
}

fn check_streams(rec: &Recorded) {
    let sections = ffprobe_sections(&rec.mp4, &["-show_streams", "-show_format"]);
    let codecs: Vec<&str> = sections
        .iter()
        .filter_map(|s| s.iter().find(|(k, _)| k == "codec_name"))
        .map(|(_, v)| v.as_str())
        .collect();
    assert_eq!(codecs, ["h264", "mov_text"], "streams: {sections:?}");
    let video = &sections[0];
    assert_eq!(
        (field(video, "width"), field(video, "height")),
        ("192", "320")
    );
    assert_eq!(field(video, "nb_frames"), rec.recon.len().to_string());
    let format = sections.last().expect("format section");
    let duration: f64 = field(format, "duration").parse().expect("duration");
    let want = (rec.end_us - rec.times[0]) as f64 / 1e6;
    assert!(
        (duration - want).abs() < 0.002,
        "format duration {duration} s, expected {want} s"
    );
    println!("ffprobe: {video:?}\nformat: {format:?}");
}

/// Packet and frame timestamps equal the host timestamps, to the 90 kHz tick.
fn check_timestamps(rec: &Recorded) {
    let args = [
        "-select_streams",
        "v:0",
        "-show_packets",
        "-show_entries",
        "packet=pts,dts,duration,flags",
    ];
    let packets = ffprobe_sections(&rec.mp4, &args);
    assert_eq!(packets.len(), rec.times.len(), "packet count");
    let origin = rec.times[0];
    let mut ends: Vec<u64> = rec
        .times
        .iter()
        .skip(1)
        .map(|&t| ticks(t - origin))
        .collect();
    ends.push(ticks(rec.end_us - origin));
    for (i, p) in packets.iter().enumerate() {
        let want = ticks(rec.times[i] - origin);
        assert_eq!(field(p, "pts"), want.to_string(), "packet {i} pts");
        assert_eq!(field(p, "dts"), want.to_string(), "packet {i} dts");
        assert_eq!(
            field(p, "duration"),
            (ends[i] - want).to_string(),
            "packet {i} duration"
        );
        assert_eq!(
            field(p, "flags").starts_with('K'),
            rec.keys[i],
            "packet {i} key flag"
        );
    }
    let args = [
        "-select_streams",
        "v:0",
        "-show_frames",
        "-show_entries",
        "frame=pts,key_frame",
    ];
    let frames = ffprobe_sections(&rec.mp4, &args);
    assert_eq!(frames.len(), rec.times.len(), "decoded frame count");
    for (i, f) in frames.iter().enumerate() {
        assert_eq!(
            field(f, "pts"),
            ticks(rec.times[i] - origin).to_string(),
            "frame {i} pts"
        );
        assert_eq!(
            field(f, "key_frame") == "1",
            rec.keys[i],
            "frame {i} key_frame"
        );
    }
}

fn check_captions(rec: &Recorded, dir: &Path) {
    let vtt = run_text(
        "ffmpeg",
        &[
            "-v",
            "error",
            "-i",
            path_str(&rec.mp4),
            "-map",
            "0:s",
            "-f",
            "webvtt",
            "-",
        ],
    );
    assert_eq!(
        parse_vtt(&vtt),
        rec.cues,
        "captions of the MP4 as ffmpeg reads them:\n{vtt}"
    );
    let file = dir.join("captions.vtt");
    std::fs::write(&file, write_vtt(&rec.captions, rec.times[0])).expect("write vtt");
    let vtt = run_text(
        "ffmpeg",
        &["-v", "error", "-i", path_str(&file), "-f", "webvtt", "-"],
    );
    assert_eq!(
        parse_vtt(&vtt),
        rec.vtt_cues,
        "the WebVTT file as ffmpeg reads it:\n{vtt}"
    );
}

#[test]
#[cfg_attr(
    not(ffmpeg),
    ignore = "needs ffmpeg and ffprobe on the PATH (Debian: apt-get install ffmpeg; then `touch build.rs`)"
)]
fn two_runs_match_host_timestamps_frames_and_captions() {
    let dir = temp_dir("two-runs");
    let rec = record_two_runs(&dir);
    let s = &rec.summary;
    println!("summary: {s:?}");
    assert_eq!(s.frames, 35);
    assert_eq!(s.duration_us, rec.end_us - T0);
    assert_eq!(s.bytes, std::fs::metadata(&rec.mp4).expect("mp4").len());
    let seam_at = rec.times[20] - T0;
    assert_eq!(s.seams.len(), 1, "{:?}", s.seams);
    assert!(s.seams[0].0.abs_diff(seam_at) <= 6, "{:?}", s.seams);
    assert!(s.seams[0].1.abs_diff(2_500_000) <= 12, "{:?}", s.seams);
    assert!(
        s.longest_gap_us.abs_diff(2_500_000) <= 12,
        "{}",
        s.longest_gap_us
    );
    check_streams(&rec);
    check_timestamps(&rec);
    assert_frames(
        &decode(&rec.mp4),
        &rec.recon.iter().collect::<Vec<_>>(),
        "two runs",
    );
    check_captions(&rec, &dir);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
#[cfg_attr(
    not(ffmpeg),
    ignore = "needs ffmpeg and ffprobe on the PATH (Debian: apt-get install ffmpeg; then `touch build.rs`)"
)]
fn runs_with_different_parameter_sets_decode_across_every_seam() {
    let dir = temp_dir("mixed");
    let rec = record_mixed_runs(&dir);
    println!("summary: {:?}", rec.summary);
    assert_eq!(rec.summary.frames, 28);
    assert_eq!(rec.summary.seams.len(), 2, "{:?}", rec.summary.seams);
    check_streams(&rec);
    check_timestamps(&rec);
    assert_frames(
        &decode(&rec.mp4),
        &rec.recon.iter().collect::<Vec<_>>(),
        "mixed",
    );
    check_captions(&rec, &dir);
    // Every key frame carries its SPS and PPS in-band, so a seek to it decodes too.
    let back = read_mp4(&rec.mp4).expect("read back");
    for (i, s) in back.samples.iter().enumerate().filter(|(_, s)| s.sync) {
        let types: Vec<u8> = s.nals.iter().map(|n| n[0] & 0x1f).collect();
        assert_eq!(types[..3], [7, 8, 5], "sample {i}");
    }
    let at = format!("{:.6}", ticks(rec.times[15] - T0) as f64 / 90_000.0);
    let args = [
        "-v",
        "error",
        "-ss",
        &at,
        "-i",
        path_str(&rec.mp4),
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
    let seeked = run("ffmpeg", &[&args[..], &tail[..]].concat());
    let from_15: Vec<&Vec<u8>> = rec.recon[15..].iter().collect();
    assert_frames(
        &seeked,
        &from_15,
        "after seeking to the key frame that had no SPS/PPS",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

fn check_read_back(rec: &Recorded) {
    let back = read_mp4(&rec.mp4).expect("read_mp4");
    let first = &rec.segments[0].units[0].nals;
    assert_eq!((&back.sps, &back.pps), (&first[0], &first[1]));
    assert_eq!((back.width, back.height), (W as u16, H as u16));
    assert_eq!(back.duration_us, rec.end_us - T0);
    let units: Vec<_> = rec.segments.iter().flat_map(|s| &s.units).collect();
    assert_eq!(back.samples.len(), units.len());
    for (i, (s, u)) in back.samples.iter().zip(&units).enumerate() {
        assert!(
            s.at_us.abs_diff(u.at_us - T0) <= 6,
            "sample {i} at {} us",
            s.at_us
        );
        assert_eq!(s.sync, u.key, "sample {i} sync");
        let slices: Vec<&Vec<u8>> = u
            .nals
            .iter()
            .filter(|n| !matches!(n[0] & 0x1f, 7 | 8))
            .collect();
        assert_eq!(
            s.nals.iter().collect::<Vec<_>>(),
            slices,
            "sample {i} NAL units"
        );
    }
    let cues: Vec<(u64, u64, String)> = back
        .captions
        .iter()
        .map(|c| (c.start_us / 1000, c.end_us / 1000, c.text.clone()))
        .collect();
    assert_eq!(cues, rec.cues);
}

#[test]
#[cfg_attr(
    not(ffmpeg),
    ignore = "needs ffmpeg and ffprobe on the PATH (Debian: apt-get install ffmpeg; then `touch build.rs`)"
)]
fn read_back_and_concat() {
    let dir = temp_dir("concat");
    let a = record_two_runs(&dir);
    check_read_back(&a);
    let b = record_mixed_runs(&dir);
    let out = dir.join("joined.mp4");
    let summary = concat(&[&a.mp4, &b.mp4], &out).expect("concat");
    println!("concat summary: {summary:?}");
    assert_eq!(summary.frames, 35 + 28);
    let gap_from = a.end_us - T0 + sudoku_autoplay::video::concat::CONCAT_GAP_US;
    assert_eq!(summary.seams.len(), 1);
    assert!(
        summary.seams[0].0.abs_diff(gap_from) <= 12,
        "{:?}",
        summary.seams
    );
    let streams = ffprobe_sections(&out, &["-show_streams", "-count_packets"]);
    assert_eq!(field(&streams[0], "nb_read_packets"), "63");
    let recon: Vec<&Vec<u8>> = a.recon.iter().chain(&b.recon).collect();
    assert_eq!(decode(&out).len(), recon.len() * recon[0].len());
    assert_frames(&decode(&out), &recon, "concat");
    let vtt = run_text(
        "ffmpeg",
        &[
            "-v",
            "error",
            "-i",
            path_str(&out),
            "-map",
            "0:s",
            "-f",
            "webvtt",
            "-",
        ],
    );
    let shift = gap_from / 1000;
    let b_cues = b
        .cues
        .iter()
        .map(|(s, e, t)| (s + shift, e + shift, t.clone()));
    let want: Vec<_> = a.cues.iter().cloned().chain(b_cues).collect();
    assert_eq!(parse_vtt(&vtt), want, "captions of the joined file:\n{vtt}");
    assert!(matches!(
        concat(&[] as &[&Path], &out),
        Err(sudoku_autoplay::video::MuxError::NoInputs)
    ));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
#[cfg_attr(
    not(ffmpeg),
    ignore = "needs ffmpeg and ffprobe on the PATH (Debian: apt-get install ffmpeg; then `touch build.rs`)"
)]
fn no_captions_and_a_single_frame() {
    let dir = temp_dir("single");
    let run = encode_run(W, H, 20, 3, &[T0], &[]);
    let segments = segments(&[&run], 5);
    let mp4 = dir.join("single.mp4");
    let summary = write_mp4_file(&mp4, &segments, &[], T0).expect("write_mp4");
    assert_eq!(
        (summary.frames, summary.duration_us, summary.seams.len()),
        (1, 1_000, 0)
    );
    let sections = ffprobe_sections(&mp4, &["-show_streams", "-count_packets"]);
    let codecs: Vec<&str> = sections.iter().map(|s| field(s, "codec_name")).collect();
    assert_eq!(codecs, ["h264", "mov_text"]);
    assert_eq!(field(&sections[0], "nb_read_packets"), "1");
    assert_frames(&decode(&mp4), &[&run.recon[0]], "single frame");
    let args = [
        "-v",
        "error",
        "-i",
        path_str(&mp4),
        "-map",
        "0:s",
        "-f",
        "webvtt",
        "-",
    ];
    assert_eq!(parse_vtt(&run_text("ffmpeg", &args)), []);
    let back = read_mp4(&mp4).expect("read back");
    assert_eq!(
        (back.samples.len(), back.captions.len(), back.duration_us),
        (1, 0, 1_000)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
