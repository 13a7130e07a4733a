//! Reads back an MP4 written by [`super::mp4out::write_mp4`]: the video samples with their
//! times and sync flags, the SPS and PPS of the avcC box, and the captions.
//!
//! The boxes are parsed by the private `boxes` module (not by the `mp4` crate's reader, which can
//! loop forever on a damaged file, see there), and the sample tables (stts, stsz, stsc,
//! stco/co64, stss) are resolved here with checked arithmetic, every offset checked
//! against the file's size and every count against the bytes that hold it: a damaged
//! or hostile file gives an error, never a panic, a hang or a huge allocation. Only the
//! moov box and one sample at a time are held in memory while reading.
//!
//! Times come back in microseconds from the start of the track (rounded from the
//! track's timescale, so within a few microseconds of what was written). Segment
//! boundaries are not stored in an MP4 (a seam is only a longer sample), so the file
//! reads back as one sequence of samples; [`Recording::into_segment`] turns it into a
//! [`Segment`] that [`super::mp4out::write_mp4`] accepts again, which is how [`super::concat::concat()`]
//! joins files.

use super::annexb::{NAL_AUD, NAL_IDR, NAL_PPS, NAL_SPS, Unit, nal_type};
use super::boxes::{Mp4Box, Reader, boxes, child, header};
use super::cue::Cue;
use super::error::{MuxError, io_error};
use super::mp4out::Segment;
use super::stbl::sample_table;
use std::fs::File;
use std::io::{BufReader, Read, Seek, SeekFrom};
use std::path::Path;

/// One video sample (frame) read back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sample {
    /// Start time from the start of the track, in microseconds.
    pub at_us: u64,
    /// Duration in microseconds.
    pub duration_us: u64,
    /// Marked as a sync sample (an IDR frame) in the file.
    pub sync: bool,
    /// The NAL units (without length prefixes), header byte first.
    pub nals: Vec<Vec<u8>>,
}

/// The content of an MP4 written by [`super::mp4out::write_mp4`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recording {
    /// The SPS of the avcC box (the first, if it holds several).
    pub sps: Vec<u8>,
    /// The PPS of the avcC box (the first, if it holds several).
    pub pps: Vec<u8>,
    /// Width from the avc1 sample entry.
    pub width: u16,
    /// Height from the avc1 sample entry.
    pub height: u16,
    /// The video samples in decoding order.
    pub samples: Vec<Sample>,
    /// Non-empty caption samples, in track time (microseconds).
    pub captions: Vec<Cue>,
    /// Duration of the video track (the sum of its sample durations), in microseconds.
    pub duration_us: u64,
}

impl Recording {
    /// The samples as one [`Segment`] of access units whose times are shifted by
    /// `offset_us`. The avcC's SPS and PPS are put in front of the first unit (unless
    /// it carries its own), as screenrecord's stream would have them.
    pub fn into_segment(self, offset_us: u64) -> Segment {
        let mut units: Vec<Unit> = self
            .samples
            .into_iter()
            .map(|s| Unit {
                key: s.nals.iter().any(|n| nal_type(n) == NAL_IDR),
                nals: s.nals,
                at_us: s.at_us.saturating_add(offset_us),
            })
            .collect();
        if let Some(first) = units.first_mut() {
            let at = usize::from(first.nals.first().is_some_and(|n| nal_type(n) == NAL_AUD));
            for (t, ps) in [(NAL_PPS, self.pps), (NAL_SPS, self.sps)] {
                if !first.nals.iter().any(|n| nal_type(n) == t) {
                    first.nals.insert(at, ps);
                }
            }
        }
        Segment { units }
    }
}

/// Reads an MP4 written by [`super::mp4out::write_mp4`] (any MP4 with an H.264 track, and
/// optionally a tx3g text track, in a non-fragmented moov will do).
pub fn read_mp4(path: impl AsRef<Path>) -> Result<Recording, MuxError> {
    let path = path.as_ref();
    let file = File::open(path).map_err(io_error(path))?;
    let len = file.metadata().map_err(io_error(path))?.len();
    let mut file = BufReader::new(file);
    let moov = read_moov(&mut file, len).map_err(|e| e.into_error(path))?;
    let tracks = tracks(&moov).map_err(|what| ReadError::Bad(what).into_error(path))?;
    let Some(video) = tracks.iter().find(|t| &t.entry.kind == b"avc1") else {
        return Err(ReadError::Bad("no H.264 (avc1) video track".into()).into_error(path));
    };
    let mut rec = read_video(video, &mut file, len).map_err(|e| e.into_error(path))?;
    if let Some(text) = tracks.iter().find(|t| &t.entry.kind == b"tx3g") {
        rec.captions = read_captions(text, &mut file, len).map_err(|e| e.into_error(path))?;
    }
    Ok(rec)
}

/// An error found while reading: either I/O or a description of what is wrong.
enum ReadError {
    Io(std::io::Error),
    Bad(String),
}

impl ReadError {
    fn into_error(self, path: &Path) -> MuxError {
        match self {
            ReadError::Io(e) => io_error(path)(e),
            ReadError::Bad(what) => MuxError::BadFile {
                path: path.to_path_buf(),
                what,
            },
        }
    }
}

impl From<std::io::Error> for ReadError {
    fn from(e: std::io::Error) -> ReadError {
        ReadError::Io(e)
    }
}

impl From<String> for ReadError {
    fn from(what: String) -> ReadError {
        ReadError::Bad(what)
    }
}

/// Walks the top-level boxes (seeking over mdat) and returns the moov box's payload.
fn read_moov<R: Read + Seek>(file: &mut R, len: u64) -> Result<Vec<u8>, ReadError> {
    let mut pos = 0;
    while pos < len {
        file.seek(SeekFrom::Start(pos))?;
        let mut head = [0u8; 16];
        let n = (len - pos).min(16) as usize;
        file.read_exact(&mut head[..n])?;
        let (kind, head_len, size) = header(&head[..n], len - pos)?;
        if &kind == b"moov" {
            // size <= len - pos: the allocation is bounded by the file's real size.
            let mut body = vec![0; (size - head_len) as usize];
            file.seek(SeekFrom::Start(pos + head_len))?;
            file.read_exact(&mut body)?;
            return Ok(body);
        }
        pos += size;
    }
    Err(ReadError::Bad(
        "no 'moov' box: the file was not finished".into(),
    ))
}

/// What is needed of one trak box.
struct Track<'a> {
    timescale: u32,
    /// The first sample entry of its stsd box (avc1, tx3g, ...).
    entry: Mp4Box<'a>,
    /// The stbl box's payload.
    stbl: &'a [u8],
}

fn tracks(moov: &[u8]) -> Result<Vec<Track<'_>>, String> {
    let mut out = Vec::new();
    for trak in boxes(moov)?.into_iter().filter(|b| &b.kind == b"trak") {
        let mdia = child(trak.body, b"mdia", "trak")?;
        let mut mdhd = Reader::new(child(mdia, b"mdhd", "mdia")?, "mdhd");
        let version = mdhd.u8()?;
        mdhd.take(if version == 1 { 3 + 16 } else { 3 + 8 })?; // flags, creation, modification
        let timescale = mdhd.u32()?;
        if timescale == 0 {
            return Err("a track's timescale is 0".into());
        }
        let stbl = child(child(mdia, b"minf", "mdia")?, b"stbl", "minf")?;
        let mut stsd = Reader::new(child(stbl, b"stsd", "stbl")?, "stsd");
        stsd.take(8)?; // version, flags, entry_count
        let entry = boxes(stsd.rest())?
            .into_iter()
            .next()
            .ok_or("a track's stsd box is empty")?;
        out.push(Track {
            timescale,
            entry,
            stbl,
        });
    }
    Ok(out)
}

/// What is needed of the avc1 sample entry.
struct Avc1 {
    width: u16,
    height: u16,
    sps: Vec<u8>,
    pps: Vec<u8>,
    /// Bytes of each NAL unit's length prefix in the samples.
    length_size: usize,
}

fn avc1(body: &[u8]) -> Result<Avc1, String> {
    let mut r = Reader::new(body, "avc1");
    r.take(24)?; // reserved, data_reference_index, pre_defined, reserved
    let (width, height) = (r.u16()?, r.u16()?);
    r.take(50)?; // resolutions, reserved, frame_count, compressorname, depth, pre_defined
    let mut c = Reader::new(child(r.rest(), b"avcC", "avc1")?, "avcC");
    c.take(4)?; // configurationVersion, profile, compatibility, level
    let length_size = usize::from(c.u8()? & 3) + 1;
    let mut sets: [Vec<Vec<u8>>; 2] = Default::default();
    for (i, sets) in sets.iter_mut().enumerate() {
        let count = if i == 0 { c.u8()? & 0x1f } else { c.u8()? };
        for _ in 0..count {
            let n = usize::from(c.u16()?);
            sets.push(c.take(n)?.to_vec());
        }
    }
    let [sps, pps] = sets.map(|s| s.into_iter().next());
    let (Some(sps), Some(pps)) = (sps, pps) else {
        return Err("the avcC box lacks an SPS or a PPS".into());
    };
    Ok(Avc1 {
        width,
        height,
        sps,
        pps,
        length_size,
    })
}

fn read_video<R: Read + Seek>(
    track: &Track,
    file: &mut R,
    len: u64,
) -> Result<Recording, ReadError> {
    let Avc1 {
        width,
        height,
        sps,
        pps,
        length_size,
    } = avc1(track.entry.body)?;
    let table = sample_table(track.stbl, len, "video")?;
    let mut samples = Vec::with_capacity(table.len());
    for (i, e) in table.iter().enumerate() {
        let data = read_at(file, e.offset, e.size)?;
        let nals = split_lengths(&data, length_size)
            .map_err(|what| format!("video sample {} of {}: {what}", i + 1, table.len()))?;
        let at_us = to_us(e.start, track.timescale);
        let duration_us = to_us(e.start + u64::from(e.duration), track.timescale) - at_us;
        samples.push(Sample {
            at_us,
            duration_us,
            sync: e.sync,
            nals,
        });
    }
    let end = table.last().map_or(0, |e| e.start + u64::from(e.duration));
    let duration_us = to_us(end, track.timescale);
    Ok(Recording {
        sps,
        pps,
        width,
        height,
        samples,
        captions: Vec::new(),
        duration_us,
    })
}

fn read_captions<R: Read + Seek>(
    track: &Track,
    file: &mut R,
    len: u64,
) -> Result<Vec<Cue>, ReadError> {
    let mut cues = Vec::new();
    for e in sample_table(track.stbl, len, "text")? {
        let data = read_at(file, e.offset, e.size)?;
        let text_len = data
            .get(..2)
            .map_or(0, |b| usize::from(u16::from_be_bytes([b[0], b[1]])));
        let text = data.get(2..).unwrap_or_default();
        let text = String::from_utf8_lossy(text.get(..text_len).unwrap_or(text)).into_owned();
        if !text.is_empty() {
            let start_us = to_us(e.start, track.timescale);
            let end_us = to_us(e.start + u64::from(e.duration), track.timescale);
            cues.push(Cue {
                start_us,
                end_us,
                text,
            });
        }
    }
    Ok(cues)
}

/// Track ticks to microseconds, rounded to nearest.
fn to_us(ticks: u64, timescale: u32) -> u64 {
    let ts = u128::from(timescale.max(1));
    u64::try_from((u128::from(ticks) * 1_000_000 + ts / 2) / ts).unwrap_or(u64::MAX)
}

fn read_at<R: Read + Seek>(file: &mut R, offset: u64, size: u32) -> Result<Vec<u8>, ReadError> {
    file.seek(SeekFrom::Start(offset))?;
    let mut data = vec![0; size as usize];
    file.read_exact(&mut data)?;
    Ok(data)
}

/// Splits an AVCC sample into its NAL units.
fn split_lengths(mut data: &[u8], length_size: usize) -> Result<Vec<Vec<u8>>, String> {
    let mut nals = Vec::new();
    while !data.is_empty() {
        let (head, rest) = data.split_at_checked(length_size).ok_or_else(|| {
            format!(
                "{} bytes left where a {length_size}-byte NAL length was expected",
                data.len()
            )
        })?;
        let n = head
            .iter()
            .fold(0usize, |acc, &b| (acc << 8) | usize::from(b));
        let (nal, rest) = rest.split_at_checked(n).ok_or_else(|| {
            format!(
                "NAL length {n} runs past the end of the sample ({} bytes left)",
                rest.len()
            )
        })?;
        nals.push(nal.to_vec());
        data = rest;
    }
    Ok(nals)
}
