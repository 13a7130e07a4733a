//! Writes the recording as one MP4: an H.264 video track and a mov_text caption track.
//!
//! Input: the [`Segment`]s of the recording, one per screenrecord run, each the access
//! units that [`super::annexb::AccessUnits`] split from that run's byte stream, with
//! arrival times on the host clock; the captions ([`Cue`]) on the same clock; and the
//! host time at which the recording ended.
//!
//! Video track (timescale [`VIDEO_TIMESCALE`], 90 kHz):
//! - time 0 is the arrival time of the first frame written; every sample starts at its
//!   unit's arrival time and lasts until the next one (the last one until `end_us`, at
//!   least [`MIN_LAST_FRAME_US`]). Times are rounded to the tick, from the origin, so
//!   rounding never accumulates; should two units share a tick (or go backwards), the
//!   later one is moved one tick after the earlier one. A seam between two runs is just
//!   a longer sample: MP4 has no gaps on a track;
//! - samples are AVCC: NAL units with 4-byte big-endian lengths;
//! - a segment's units before its first IDR are dropped (they reference pictures the
//!   decoder never saw), and so are units without a slice (nothing to show);
//! - sync samples are the units holding an IDR slice;
//! - parameter sets: the `mp4` crate's avcC holds one SPS and one PPS; they are the ones
//!   in effect at the first key frame of the first segment that has one. When every
//!   SPS and PPS of the recording equals them (the usual case: each run of screenrecord
//!   on one device starts with identical ones), SPS and PPS NAL units are removed from
//!   the samples. If any differs (a later run re-configured the encoder), the file is
//!   "mixed": no parameter set is removed, and every key frame sample that does not
//!   carry an SPS and a PPS in-band gets the ones in effect inserted (after an access
//!   unit delimiter, if any). Then decoding works in order across every seam, and also
//!   after seeking to any key frame, whatever the decoder kept from before.
//!
//! Caption track (timescale [`TEXT_TIMESCALE`], 1 kHz): mov_text / 3GPP timed text
//! ("tx3g"), written by the `mp4` crate from `MediaConfig::TtxtConfig`. A sample is a
//! 16-bit big-endian length and the UTF-8 text. Samples of a track follow each other
//! without gaps, so a gap between two captions is an empty sample (length 0), as
//! ffmpeg writes them. The cues go through [`super::cue::normalize`] with the video's
//! origin and duration: shifted, clipped, sorted, overlaps trimmed. An empty sample
//! also follows the last cue up to the end of the video (ffmpeg's demuxer stretches the
//! last sample of a text track to the end of the movie, so without it the last caption
//! would stay up until the end); with no caption at all the track is one empty sample
//! as long as the video.

use super::annexb::{NAL_AUD, NAL_IDR, NAL_PPS, NAL_SPS, Unit, is_slice, nal_type};
use super::cue::{Cue, normalize, us_to_ms};
use super::error::{MuxError, io_error};
use super::sps::Sps;
use mp4::{
    AvcConfig, FourCC, MediaConfig, Mp4Config, Mp4Sample, Mp4Writer, TrackConfig, TrackType,
    TtxtConfig,
};
use std::fs::File;
use std::io::{BufWriter, Seek, Write};
use std::path::{Path, PathBuf};

/// Ticks per second of the video track (and of the movie header).
pub const VIDEO_TIMESCALE: u32 = 90_000;

/// Ticks per second of the caption track.
pub const TEXT_TIMESCALE: u32 = 1_000;

/// The last frame lasts at least this long, even if `end_us` says otherwise.
pub const MIN_LAST_FRAME_US: u64 = 1_000;

/// Longest sample duration written, in ticks: a u32 (the stts field), less a margin the
/// `mp4` crate's chunk bookkeeping (which adds durations in u32) needs.
const MAX_SAMPLE_TICKS: u64 = u32::MAX as u64 - 4 * VIDEO_TIMESCALE as u64;

/// The access units of one screenrecord run, in stream order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Segment {
    /// The units, as [`super::annexb::AccessUnits`] returned them.
    pub units: Vec<Unit>,
}

/// What was written.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    /// Video samples (frames) written.
    pub frames: u64,
    /// Duration of the video track, in microseconds.
    pub duration_us: u64,
    /// Size of the MP4 in bytes.
    pub bytes: u64,
    /// One entry per seam between two segments that both have frames: (track time of
    /// the later segment's first frame, time since the earlier segment's last frame),
    /// both in microseconds.
    pub seams: Vec<(u64, u64)>,
    /// The longest time one frame stays on screen (the longest sample duration,
    /// including the last frame's), in microseconds.
    pub longest_gap_us: u64,
}

/// Writes the MP4 to `path` (through `<path>.part`, renamed when complete, so a failed
/// write leaves no half-written file at `path`). See [`write_mp4`].
pub fn write_mp4_file(
    path: impl AsRef<Path>,
    video: &[Segment],
    captions: &[Cue],
    end_us: u64,
) -> Result<Summary, MuxError> {
    let path = path.as_ref();
    let mut part = path.as_os_str().to_owned();
    part.push(".part");
    let part = PathBuf::from(part);
    let result = write_to(&part, video, captions, end_us).and_then(|s| {
        std::fs::rename(&part, path)
            .map(|()| s)
            .map_err(io_error(path))
    });
    if result.is_err() {
        let _ = std::fs::remove_file(&part);
    }
    result
}

fn write_to(
    path: &Path,
    video: &[Segment],
    captions: &[Cue],
    end_us: u64,
) -> Result<Summary, MuxError> {
    let file = File::create(path).map_err(io_error(path))?;
    let mut out = BufWriter::new(file);
    let summary = write_mp4(&mut out, video, captions, end_us)?;
    out.flush().map_err(io_error(path))?;
    out.get_ref().sync_all().map_err(io_error(path))?;
    Ok(summary)
}

fn mp4_error(source: mp4::Error) -> MuxError {
    MuxError::Mp4Write { source }
}

/// Writes the recording as MP4 to `out`. `video`: one [`Segment`] per screenrecord run;
/// `captions` and `end_us` (when the recording ended): on the host clock of the units'
/// arrival times. See the module documentation for the rules.
pub fn write_mp4<W: Write + Seek>(
    out: W,
    video: &[Segment],
    captions: &[Cue],
    end_us: u64,
) -> Result<Summary, MuxError> {
    let params = avcc_parameter_sets(video)?;
    let info = Sps::parse(&params.sps)?;
    let mixed = is_mixed(video, &params);
    let mut refs = Vec::new();
    each_sample(video, &params, mixed, |r, _| {
        refs.push(r);
        Ok(())
    })?;
    let origin_us = refs.first().map_or(0, |r| r.at_us);
    let timing = Timing::new(&refs, origin_us, end_us)?;
    let text = text_samples(captions, origin_us, ticks_to_us(timing.end))?;
    let bytes = mux(out, video, &params, &info, mixed, &timing, &text)?;
    Ok(timing.summary(&refs, bytes))
}

/// The SPS and PPS that go into the avcC box.
struct ParamSets {
    sps: Vec<u8>,
    pps: Vec<u8>,
}

fn is_key(unit: &Unit) -> bool {
    unit.nals.iter().any(|n| nal_type(n) == NAL_IDR)
}

/// The last SPS and PPS at or before the first key frame of the first segment that has
/// one.
fn avcc_parameter_sets(video: &[Segment]) -> Result<ParamSets, MuxError> {
    for (segment, seg) in video.iter().enumerate() {
        let Some(first_key) = seg.units.iter().position(is_key) else {
            continue;
        };
        let nals = seg.units.iter().take(first_key + 1).flat_map(|u| &u.nals);
        let last_of = |t: u8| nals.clone().rfind(|n| nal_type(n) == t);
        let sps = last_of(NAL_SPS).ok_or(MuxError::NoParameterSet {
            segment,
            what: "SPS",
        })?;
        let pps = last_of(NAL_PPS).ok_or(MuxError::NoParameterSet {
            segment,
            what: "PPS",
        })?;
        for (what, ps) in [("SPS", sps), ("PPS", pps)] {
            if ps.len() > usize::from(u16::MAX) {
                return Err(MuxError::ParameterSetTooLong {
                    what,
                    len: ps.len(),
                });
            }
        }
        return Ok(ParamSets {
            sps: sps.clone(),
            pps: pps.clone(),
        });
    }
    Err(MuxError::NoKeyFrame)
}

/// True if some segment that is written carries an SPS or PPS other than the avcC's.
fn is_mixed(video: &[Segment], params: &ParamSets) -> bool {
    let written = video.iter().filter(|s| s.units.iter().any(is_key));
    written
        .flat_map(|s| &s.units)
        .flat_map(|u| &u.nals)
        .any(|n| match nal_type(n) {
            NAL_SPS => *n != params.sps,
            NAL_PPS => *n != params.pps,
            _ => false,
        })
}

/// Where a sample comes from.
#[derive(Debug, Clone, Copy)]
struct SampleRef {
    at_us: u64,
    sync: bool,
    segment: usize,
}

/// Calls `f` for every sample to write, in order, with the NAL units it holds.
fn each_sample<'a, F>(
    video: &'a [Segment],
    params: &'a ParamSets,
    mixed: bool,
    mut f: F,
) -> Result<(), MuxError>
where
    F: FnMut(SampleRef, &[&[u8]]) -> Result<(), MuxError>,
{
    let (mut sps, mut pps) = (params.sps.as_slice(), params.pps.as_slice());
    for (segment, seg) in video.iter().enumerate() {
        let Some(first_key) = seg.units.iter().position(is_key) else {
            continue;
        };
        for (i, unit) in seg.units.iter().enumerate() {
            for n in &unit.nals {
                match nal_type(n) {
                    NAL_SPS => sps = n,
                    NAL_PPS => pps = n,
                    _ => {}
                }
            }
            if i < first_key || !unit.nals.iter().any(|n| is_slice(nal_type(n))) {
                continue;
            }
            let sync = is_key(unit);
            let nals = sample_nals(unit, mixed && sync, mixed, [sps, pps]);
            f(
                SampleRef {
                    at_us: unit.at_us,
                    sync,
                    segment,
                },
                &nals,
            )?;
        }
    }
    Ok(())
}

/// The NAL units of one sample: without SPS/PPS in a file that is not mixed; in a mixed
/// one, with `in_effect` (SPS, PPS) inserted into a key frame that lacks them.
fn sample_nals<'a>(
    unit: &'a Unit,
    insert: bool,
    mixed: bool,
    in_effect: [&'a [u8]; 2],
) -> Vec<&'a [u8]> {
    let keep = |n: &&Vec<u8>| !n.is_empty() && (mixed || !matches!(nal_type(n), NAL_SPS | NAL_PPS));
    let mut nals: Vec<&[u8]> = unit.nals.iter().filter(keep).map(Vec::as_slice).collect();
    if insert {
        let at = usize::from(nals.first().is_some_and(|n| nal_type(n) == NAL_AUD));
        for (t, ps) in [NAL_PPS, NAL_SPS]
            .into_iter()
            .zip([in_effect[1], in_effect[0]])
        {
            if !nals.iter().any(|n| nal_type(n) == t) {
                nals.insert(at, ps);
            }
        }
    }
    nals
}

/// NAL units with 4-byte big-endian length prefixes.
fn avcc(nals: &[&[u8]], at_us: u64) -> Result<Vec<u8>, MuxError> {
    let total: u64 = nals.iter().map(|n| 4 + n.len() as u64).sum();
    if total > u64::from(u32::MAX) {
        return Err(MuxError::SampleTooLarge {
            at_us,
            bytes: total,
        });
    }
    let mut out = Vec::with_capacity(total as usize);
    for n in nals {
        out.extend_from_slice(&(n.len() as u32).to_be_bytes());
        out.extend_from_slice(n);
    }
    Ok(out)
}

/// Microseconds to 90 kHz ticks, rounded to nearest.
fn us_to_ticks(us: u64) -> u64 {
    let t = (u128::from(us) * u128::from(VIDEO_TIMESCALE) + 500_000) / 1_000_000;
    u64::try_from(t).unwrap_or(u64::MAX)
}

/// 90 kHz ticks to microseconds, rounded to nearest.
fn ticks_to_us(ticks: u64) -> u64 {
    let ts = u128::from(VIDEO_TIMESCALE);
    let us = (u128::from(ticks) * 1_000_000 + ts / 2) / ts;
    u64::try_from(us).unwrap_or(u64::MAX)
}

/// Sample start times on the video track, in ticks, and the track's end.
struct Timing {
    starts: Vec<u64>,
    end: u64,
}

impl Timing {
    fn new(refs: &[SampleRef], origin_us: u64, end_us: u64) -> Result<Timing, MuxError> {
        let mut starts: Vec<u64> = Vec::with_capacity(refs.len());
        for r in refs {
            let t = us_to_ticks(r.at_us.saturating_sub(origin_us));
            let t = starts
                .last()
                .map_or(t, |&prev| t.max(prev.saturating_add(1)));
            starts.push(t);
        }
        let min_end = starts
            .last()
            .map_or(0, |&t| t.saturating_add(us_to_ticks(MIN_LAST_FRAME_US)));
        let end = us_to_ticks(end_us.saturating_sub(origin_us)).max(min_end);
        let timing = Timing { starts, end };
        for i in 0..timing.starts.len() {
            let duration = timing.duration(i);
            if duration > MAX_SAMPLE_TICKS {
                let (at_us, duration_us) = (ticks_to_us(timing.starts[i]), ticks_to_us(duration));
                return Err(MuxError::GapTooLong { at_us, duration_us });
            }
        }
        Ok(timing)
    }

    /// Duration of sample `i` in ticks.
    fn duration(&self, i: usize) -> u64 {
        let next = self.starts.get(i + 1).copied().unwrap_or(self.end);
        next.saturating_sub(self.starts.get(i).copied().unwrap_or(0))
    }

    fn summary(&self, refs: &[SampleRef], bytes: u64) -> Summary {
        let mut seams = Vec::new();
        for (i, pair) in refs.windows(2).enumerate() {
            if pair[0].segment != pair[1].segment {
                seams.push((
                    ticks_to_us(self.starts[i + 1]),
                    ticks_to_us(self.duration(i)),
                ));
            }
        }
        let longest = (0..self.starts.len())
            .map(|i| self.duration(i))
            .max()
            .unwrap_or(0);
        Summary {
            frames: refs.len() as u64,
            duration_us: ticks_to_us(self.end),
            bytes,
            seams,
            longest_gap_us: ticks_to_us(longest),
        }
    }
}

/// One mov_text sample: start and duration in milliseconds, and its bytes.
struct TextSample {
    start: u64,
    duration: u32,
    bytes: Vec<u8>,
}

/// The caption track's samples: cues and the empty samples between them.
fn text_samples(
    captions: &[Cue],
    origin_us: u64,
    video_us: u64,
) -> Result<Vec<TextSample>, MuxError> {
    let mut out = Vec::new();
    let mut cursor = 0u64;
    let mut push = |start: u64, end: u64, text: &str| {
        let duration = u32::try_from(end - start).map_err(|_| MuxError::GapTooLong {
            at_us: start.saturating_mul(1000),
            duration_us: (end - start).saturating_mul(1000),
        })?;
        out.push(TextSample {
            start,
            duration,
            bytes: tx3g(text),
        });
        Ok::<(), MuxError>(())
    };
    for cue in normalize(captions, origin_us, video_us) {
        let (start, end) = (us_to_ms(cue.start_us).max(cursor), us_to_ms(cue.end_us));
        if end <= start {
            continue;
        }
        if start > cursor {
            push(cursor, start, "")?;
        }
        push(start, end, &cue.text)?;
        cursor = end;
    }
    let end = us_to_ms(video_us).max(1);
    if cursor < end {
        push(cursor, end, "")?;
    }
    Ok(out)
}

/// A tx3g sample: u16 big-endian byte length, then the UTF-8 text (cut at a character
/// boundary if longer than 65535 bytes).
fn tx3g(text: &str) -> Vec<u8> {
    let mut len = text.len().min(usize::from(u16::MAX));
    while !text.is_char_boundary(len) {
        len -= 1;
    }
    let mut out = Vec::with_capacity(2 + len);
    out.extend_from_slice(&(len as u16).to_be_bytes());
    out.extend_from_slice(&text.as_bytes()[..len]);
    out
}

/// Track ids given by the `mp4` crate in the order the tracks are added.
const VIDEO_TRACK: u32 = 1;
const TEXT_TRACK: u32 = 2;

fn start_writer<W: Write + Seek>(
    out: W,
    params: &ParamSets,
    info: &Sps,
) -> Result<Mp4Writer<W>, MuxError> {
    let (width, height) = (u16::try_from(info.width), u16::try_from(info.height));
    let (Ok(width), Ok(height)) = (width, height) else {
        return Err(MuxError::PictureTooLarge {
            width: info.width,
            height: info.height,
        });
    };
    let brands = [*b"isom", *b"iso2", *b"avc1", *b"mp41"].map(FourCC::from);
    let config = Mp4Config {
        major_brand: brands[0],
        minor_version: 512,
        compatible_brands: brands.to_vec(),
        timescale: VIDEO_TIMESCALE,
    };
    let mut w = Mp4Writer::write_start(out, &config).map_err(mp4_error)?;
    let avc = AvcConfig {
        width,
        height,
        seq_param_set: params.sps.clone(),
        pic_param_set: params.pps.clone(),
    };
    let tracks = [
        (
            TrackType::Video,
            VIDEO_TIMESCALE,
            MediaConfig::AvcConfig(avc),
        ),
        (
            TrackType::Subtitle,
            TEXT_TIMESCALE,
            MediaConfig::TtxtConfig(TtxtConfig {}),
        ),
    ];
    for (track_type, timescale, media_conf) in tracks {
        let language = String::from("und");
        let track = TrackConfig {
            track_type,
            timescale,
            language,
            media_conf,
        };
        w.add_track(&track).map_err(mp4_error)?;
    }
    Ok(w)
}

/// Writes both tracks, interleaved by time, and returns the size of the file.
fn mux<W: Write + Seek>(
    out: W,
    video: &[Segment],
    params: &ParamSets,
    info: &Sps,
    mixed: bool,
    timing: &Timing,
    text: &[TextSample],
) -> Result<u64, MuxError> {
    let mut w = start_writer(out, params, info)?;
    let mut texts = text.iter().peekable();
    let mut i = 0;
    each_sample(video, params, mixed, |r, nals| {
        let start = timing.starts.get(i).copied().unwrap_or(0);
        while let Some(t) = texts.next_if(|t| t.start.saturating_mul(90) <= start) {
            write_text(&mut w, t)?;
        }
        let bytes = avcc(nals, ticks_to_us(start))?.into();
        let duration = timing.duration(i) as u32; // checked against MAX_SAMPLE_TICKS
        let sample = Mp4Sample {
            start_time: start,
            duration,
            rendering_offset: 0,
            is_sync: r.sync,
            bytes,
        };
        i += 1;
        w.write_sample(VIDEO_TRACK, &sample).map_err(mp4_error)
    })?;
    for t in texts {
        write_text(&mut w, t)?;
    }
    w.write_end().map_err(mp4_error)?;
    let mut out = w.into_writer();
    out.stream_position().map_err(|e| mp4_error(e.into()))
}

fn write_text<W: Write + Seek>(w: &mut Mp4Writer<W>, t: &TextSample) -> Result<(), MuxError> {
    let sample = Mp4Sample {
        start_time: t.start,
        duration: t.duration,
        rendering_offset: 0,
        is_sync: true,
        bytes: t.bytes.clone().into(),
    };
    w.write_sample(TEXT_TRACK, &sample).map_err(mp4_error)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refs(times: &[u64]) -> Vec<SampleRef> {
        times
            .iter()
            .map(|&at_us| SampleRef {
                at_us,
                sync: false,
                segment: 0,
            })
            .collect()
    }

    #[test]
    fn timing_rounds_from_the_origin_and_keeps_samples_apart() {
        let t = Timing::new(
            &refs(&[1_000_000, 1_000_011, 1_000_011, 1_000_005, 1_033_333]),
            1_000_000,
            0,
        )
        .expect("timing");
        assert_eq!(t.starts, [0, 1, 2, 3, 3000]);
        assert_eq!(t.end, 3000 + 90, "the last frame lasts at least 1 ms");
        assert_eq!(
            (0..5).map(|i| t.duration(i)).collect::<Vec<_>>(),
            [1, 1, 1, 2997, 90]
        );
        let t = Timing::new(&refs(&[500, 2_000_500]), 500, 3_000_500).expect("timing");
        assert_eq!((t.starts, t.end), (vec![0, 180_000], 270_000));
        let s = Timing::new(&refs(&[0, 10_000]), 0, 20_000)
            .expect("timing")
            .summary(&refs(&[0, 10_000]), 7);
        assert_eq!(
            (s.frames, s.duration_us, s.bytes, s.longest_gap_us),
            (2, 20_000, 7, 10_000)
        );
    }

    #[test]
    fn text_track_fills_gaps_and_runs_to_the_end_of_the_video() {
        let cues = [
            Cue {
                start_us: 1_500_000,
                end_us: 2_000_000,
                text: "b".into(),
            },
            Cue {
                start_us: 1_000_000,
                end_us: 1_200_000,
                text: "a".into(),
            },
        ];
        let samples = text_samples(&cues, 1_000_000, 3_000_000).expect("samples");
        let got: Vec<(u64, u32, Vec<u8>)> = samples
            .into_iter()
            .map(|s| (s.start, s.duration, s.bytes))
            .collect();
        let want = [
            (0, 200, vec![0, 1, b'a']),
            (200, 300, vec![0, 0]),
            (500, 500, vec![0, 1, b'b']),
            (1_000, 2_000, vec![0, 0]),
        ];
        assert_eq!(got, want);
        let empty = text_samples(&[], 0, 2_500).expect("samples");
        assert_eq!(
            (empty.len(), empty[0].duration, empty[0].bytes.clone()),
            (1, 3, vec![0, 0])
        );
    }

    #[test]
    fn tx3g_samples_cut_long_text_at_a_character_boundary() {
        let long = "é".repeat(40_000); // 80000 bytes
        let s = tx3g(&long);
        assert_eq!(u16::from_be_bytes([s[0], s[1]]), 65_534);
        assert!(std::str::from_utf8(&s[2..]).is_ok());
    }

    #[test]
    fn parameter_sets_are_inserted_after_the_delimiter() {
        let unit = Unit {
            nals: vec![vec![0x09, 0xf0], vec![0x06, 1], vec![0x65, 0x88]],
            key: true,
            at_us: 0,
        };
        let (sps, pps): (&[u8], &[u8]) = (&[0x67, 1], &[0x68, 2]);
        let nals = sample_nals(&unit, true, true, [sps, pps]);
        assert_eq!(
            nals,
            [&[0x09, 0xf0][..], sps, pps, &[0x06, 1], &[0x65, 0x88]]
        );
        let mut with_own = unit.clone();
        with_own.nals.insert(1, vec![0x67, 9]);
        with_own.nals.insert(2, vec![0x68, 9]);
        assert_eq!(
            sample_nals(&with_own, true, true, [sps, pps]).len(),
            5,
            "its own are kept"
        );
        assert_eq!(
            sample_nals(&with_own, false, false, [sps, pps]).len(),
            3,
            "not mixed: stripped"
        );
        assert_eq!(avcc(&[&[1, 2, 3]], 0).expect("avcc"), [0, 0, 0, 3, 1, 2, 3]);
    }
}
