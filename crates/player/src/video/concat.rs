//! Joins several recorded MP4s into one.
//!
//! Each input is read back with [`read_mp4`] and becomes one
//! [`Segment`](super::mp4out::Segment) of the output;
//! the files follow each other with [`CONCAT_GAP_US`] between the end of one and the
//! first frame of the next (the last frame of a file stays on screen through the gap).
//! Captions move with their file. The output is written by [`write_mp4_file`], so the
//! same rules apply: if the files' SPS/PPS differ, they are carried in-band, and the
//! returned [`Summary`] lists one seam per join.

use super::cue::Cue;
use super::error::MuxError;
use super::mp4in::read_mp4;
use super::mp4out::{Summary, write_mp4_file};
use std::path::Path;

/// Time between the end of one file and the first frame of the next, in microseconds.
pub const CONCAT_GAP_US: u64 = 500_000;

/// Writes the recordings `inputs`, in order, one after another into `out`. All inputs
/// are read before `out` is written, so `out` may be one of them.
pub fn concat<P: AsRef<Path>>(inputs: &[P], out: impl AsRef<Path>) -> Result<Summary, MuxError> {
    if inputs.is_empty() {
        return Err(MuxError::NoInputs);
    }
    let mut segments = Vec::with_capacity(inputs.len());
    let mut captions: Vec<Cue> = Vec::new();
    let mut offset = 0u64;
    let mut end = 0u64;
    for input in inputs {
        let rec = read_mp4(input)?;
        end = offset.saturating_add(rec.duration_us);
        captions.extend(rec.captions.iter().map(|c| Cue {
            start_us: c.start_us.saturating_add(offset),
            end_us: c.end_us.saturating_add(offset),
            text: c.text.clone(),
        }));
        segments.push(rec.into_segment(offset));
        offset = end.saturating_add(CONCAT_GAP_US);
    }
    write_mp4_file(out, &segments, &captions, end)
}
