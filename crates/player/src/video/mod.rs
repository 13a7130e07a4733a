//! The phone's own video of a run (`--record`): `screenrecord` chained past its 3-minute
//! limit ([`recorder`]), its raw H.264 split into access units stamped with the host's clock
//! ([`annexb`]), muxed into one MP4 with the search's counts as a caption track
//! ([`captions`], [`mp4out`]) and a WebVTT file beside it ([`vtt`]); recorded videos read back
//! and put one after another for `replay --video` ([`mp4in`], [`concat`]).
//!
//! A run's video is `screen.mp4` in its session (`screen-2.mp4`, ... for the runs that resumed
//! it), with `screen.vtt`; while it records, `screen.h264` (the raw stream, which a crash
//! leaves behind, playable as it is).

pub mod annexb;
mod boxes;
pub mod captions;
pub mod concat;
pub mod cue;
mod error;
pub mod mp4in;
pub mod mp4out;
pub mod recorder;
pub mod sps;
mod stbl;
pub mod vtt;

pub use cue::Cue;
pub use error::MuxError;
pub use recorder::{RecordOptions, Recorder};

use annexb::AccessUnits;
use mp4out::Segment;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A run's video, as written.
#[derive(Debug, Clone, PartialEq)]
pub struct Recorded {
    pub frames: u64,
    /// From the first frame to the end of the recording.
    pub duration: Duration,
    pub bytes: u64,
    /// The gaps where one recording took over from the next, in order.
    pub seams: Vec<Duration>,
    /// The longest time one frame stayed (a still screen sends no frames).
    pub longest_gap: Duration,
}

/// The names of a session's videos, in the order they were recorded.
pub fn session_videos(dir: &Path) -> Vec<PathBuf> {
    (1..)
        .map(|n| dir.join(video_name(n)))
        .take_while(|p| p.exists())
        .collect()
}

fn video_name(n: u32) -> String {
    match n {
        1 => "screen.mp4".into(),
        n => format!("screen-{n}.mp4"),
    }
}

/// Stops `recorder` and writes its video into `dir` (the next free `screen[-N].mp4`, with
/// `.vtt` beside it) with `captions` (on the recorder's clock). `Err`: why there is no video
/// (the raw stream, if any, is left in `dir`).
pub fn finish(
    recorder: Recorder,
    dir: &Path,
    captions: &[Cue],
) -> Result<(PathBuf, Recorded), String> {
    let end_us = recorder.epoch().elapsed().as_micros() as u64;
    let (raw, stored, problem) = recorder.stop();
    let Some(raw) = raw else {
        return Err(problem.unwrap_or_else(|| "the phone sent no frame".into()));
    };
    if stored.is_empty() {
        let _ = std::fs::remove_file(&raw);
        return Err(problem.unwrap_or_else(|| "the phone sent no frame".into()));
    }
    let bytes = std::fs::read(&raw).map_err(|e| format!("cannot read {}: {e}", raw.display()))?;
    let mut segments: Vec<Segment> = Vec::new();
    let mut last_recording = None;
    for s in &stored {
        let Some(unit) = bytes
            .get(s.offset as usize..(s.offset + s.len) as usize)
            .and_then(|b| split_one(b, s.at_us))
        else {
            continue;
        };
        if last_recording != Some(s.recording) {
            segments.push(Segment::default());
            last_recording = Some(s.recording);
        }
        if let Some(segment) = segments.last_mut() {
            segment.units.push(unit);
        }
    }
    let n = (1..)
        .find(|&n| !dir.join(video_name(n)).exists())
        .unwrap_or(1);
    let path = dir.join(video_name(n));
    let summary = mp4out::write_mp4_file(&path, &segments, captions, end_us)
        .map_err(|e| format!("the video could not be written: {e}"))?;
    let origin = segments
        .first()
        .and_then(|s| s.units.first())
        .map_or(0, |u| u.at_us);
    let _ = std::fs::write(path.with_extension("vtt"), vtt::write_vtt(captions, origin));
    let _ = std::fs::remove_file(&raw);
    Ok((path, recorded(&summary)))
}

/// Writes a session's videos, one after another, to `out` with their captions (and `out` with
/// `.vtt` beside it). `Err`: the session has no video, or it could not be read or written.
pub fn export(dir: &Path, out: &Path) -> anyhow::Result<Recorded> {
    let videos = session_videos(dir);
    if videos.is_empty() {
        let message = format!(
            "{} has no video: it was played without recording",
            dir.display()
        );
        return Err(crate::remedy::Advised::new(message, &[crate::remedy::Remedy::Record]).into());
    }
    let summary = concat::concat(&videos, out)?;
    let captions = mp4in::read_mp4(out)?.captions;
    let vtt = out.with_extension("vtt");
    std::fs::write(&vtt, vtt::write_vtt(&captions, 0))
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", vtt.display()))?;
    Ok(recorded(&summary))
}

/// What a written video holds, from its muxer's summary.
fn recorded(summary: &mp4out::Summary) -> Recorded {
    let us = Duration::from_micros;
    Recorded {
        frames: summary.frames,
        duration: us(summary.duration_us),
        bytes: summary.bytes,
        seams: summary.seams.iter().map(|(_, gap)| us(*gap)).collect(),
        longest_gap: us(summary.longest_gap_us),
    }
}

/// One stored access unit's bytes back as a unit.
fn split_one(bytes: &[u8], at_us: u64) -> Option<annexb::Unit> {
    let mut split = AccessUnits::new();
    let mut units = split.push(bytes, at_us);
    units.extend(split.finish());
    units.into_iter().next()
}
