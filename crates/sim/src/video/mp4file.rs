//! A recording written as an MP4 file when it stops, as screenrecord's MediaMuxer does: the
//! encoder's SPS and PPS in the track's `avcC`, each frame a sample (NAL units with 4-byte
//! lengths) lasting until the next, timed in microseconds from the first.

use std::io::Cursor;
use std::time::Instant;

/// The frames of a recording: each an Annex B access unit and when it was encoded.
#[derive(Default)]
pub struct Frames(pub Vec<(Instant, Vec<u8>)>);

impl Frames {
    /// The MP4 file's bytes; `end` closes the last frame. `Err`: the phone's words.
    pub fn mp4(&self, (width, height): (u32, u32), end: Instant) -> Result<Vec<u8>, String> {
        let first = self.0.first().ok_or("no frames were recorded")?;
        let nals = nal_units(&first.1);
        let find = |t: u8| {
            nals.iter()
                .find(|n| n.first().is_some_and(|b| b & 0x1f == t))
        };
        let (Some(sps), Some(pps)) = (find(7), find(8)) else {
            return Err("the first frame has no SPS and PPS".into());
        };
        let config = mp4::Mp4Config {
            major_brand: "mp42".parse().map_err(|_| "brand")?,
            minor_version: 0,
            compatible_brands: vec!["isom".parse().map_err(|_| "brand")?],
            timescale: 1000,
        };
        let mut writer = mp4::Mp4Writer::write_start(Cursor::new(Vec::new()), &config)
            .map_err(|e| e.to_string())?;
        let avc = mp4::AvcConfig {
            width: width.min(u32::from(u16::MAX)) as u16,
            height: height.min(u32::from(u16::MAX)) as u16,
            seq_param_set: sps.to_vec(),
            pic_param_set: pps.to_vec(),
        };
        let track = mp4::TrackConfig {
            track_type: mp4::TrackType::Video,
            timescale: 1_000_000,
            language: "und".into(),
            media_conf: mp4::MediaConfig::AvcConfig(avc),
        };
        writer.add_track(&track).map_err(|e| e.to_string())?;
        let t0 = first.0;
        for (i, (at, unit)) in self.0.iter().enumerate() {
            let next = self.0.get(i + 1).map_or(end, |(t, _)| *t);
            let sample = mp4::Mp4Sample {
                start_time: at.duration_since(t0).as_micros() as u64,
                duration: next.saturating_duration_since(*at).as_micros().max(1) as u32,
                rendering_offset: 0,
                is_sync: nal_units(unit).iter().any(|n| n[0] & 0x1f == 5),
                bytes: avcc(unit).into(),
            };
            writer.write_sample(1, &sample).map_err(|e| e.to_string())?;
        }
        writer.write_end().map_err(|e| e.to_string())?;
        Ok(writer.into_writer().into_inner())
    }
}

/// The NAL units of an Annex B access unit (the encoder's own output: start codes only
/// between units).
fn nal_units(unit: &[u8]) -> Vec<&[u8]> {
    let mut starts = Vec::new();
    let mut i = 0;
    while i + 3 <= unit.len() {
        if unit[i..i + 3] == [0, 0, 1] {
            starts.push(i + 3);
            i += 3;
        } else {
            i += 1;
        }
    }
    let ends = starts.iter().skip(1).map(|s| s - 3).chain([unit.len()]);
    starts
        .iter()
        .zip(ends)
        .map(|(&s, e)| trim_zeros(&unit[s..e.max(s)]))
        .filter(|n| !n.is_empty())
        .collect()
}

fn trim_zeros(nal: &[u8]) -> &[u8] {
    let end = nal.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1);
    &nal[..end]
}

/// The frame's slices with 4-byte lengths (SPS and PPS live in `avcC`).
fn avcc(unit: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(unit.len());
    for nal in nal_units(unit) {
        if matches!(nal[0] & 0x1f, 7 | 8) {
            continue;
        }
        out.extend((nal.len() as u32).to_be_bytes());
        out.extend_from_slice(nal);
    }
    out
}
