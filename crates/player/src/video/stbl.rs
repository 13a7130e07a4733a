//! Resolving a track's sample tables (ISO/IEC 14496-12 §8.6-8.7: stsz, stts, stss,
//! stsc, stco/co64) into one entry per sample: where its bytes are, when it plays, and
//! whether it is a sync sample.
//!
//! Everything is checked: each count against the bytes that hold it (before
//! allocating), the tables against each other (stts and stsc must describe exactly the
//! samples of stsz), chunk numbers against the chunk offsets, and every sample's end
//! against the file's size, with checked arithmetic throughout. Errors are sentences
//! naming the track and the table.

use super::boxes::{Reader, boxes};

/// Most samples accepted in one track (about 92 hours at 60 frames per second).
pub const MAX_SAMPLES: u32 = 20_000_000;

/// The raw sample tables of one track.
struct Tables {
    sizes: Vec<u32>,
    /// stts: (sample_count, sample_delta).
    stts: Vec<(u32, u32)>,
    /// stss: 1-based sync sample numbers; `None` if every sample is a sync sample.
    stss: Option<Vec<u32>>,
    /// stsc: (first_chunk, samples_per_chunk).
    stsc: Vec<(u32, u32)>,
    /// stco / co64: chunk offsets.
    chunks: Vec<u64>,
}

/// `count` entries of `read` from `r`, the count having been checked to fit.
fn entries<T>(
    r: &mut Reader,
    size: usize,
    read: impl Fn(&mut Reader) -> Result<T, String>,
) -> Result<Vec<T>, String> {
    let count = r.count(size)?;
    (0..count).map(|_| read(r)).collect()
}

fn tables(stbl: &[u8]) -> Result<Tables, String> {
    let all = boxes(stbl)?;
    let find = |kind: &[u8; 4], what| {
        all.iter()
            .find(|b| &b.kind == kind)
            .map(|b| Reader::new(b.body, what))
    };
    let need = |kind: &[u8; 4], what: &'static str| {
        find(kind, what).ok_or(format!("no '{what}' box in 'stbl'"))
    };
    let mut stsz = need(b"stsz", "stsz")?;
    stsz.take(4)?;
    let sizes = match stsz.u32()? {
        0 => entries(&mut stsz, 4, |r| r.u32())?,
        fixed => match stsz.u32()? {
            n if n > MAX_SAMPLES => {
                return Err(format!("stsz claims {n} samples (at most {MAX_SAMPLES})"));
            }
            n => vec![fixed; n as usize],
        },
    };
    let mut stts = need(b"stts", "stts")?;
    stts.take(4)?;
    let stts = entries(&mut stts, 8, |r| Ok((r.u32()?, r.u32()?)))?;
    let stss =
        find(b"stss", "stss").map(|mut r| r.take(4).and_then(|_| entries(&mut r, 4, |r| r.u32())));
    let mut stsc = need(b"stsc", "stsc")?;
    stsc.take(4)?;
    let stsc = entries(&mut stsc, 12, |r| {
        let entry = (r.u32()?, r.u32()?);
        r.u32()?; // sample_description_index
        Ok(entry)
    })?;
    let chunks = if let Some(mut r) = find(b"stco", "stco") {
        r.take(4)?;
        entries(&mut r, 4, |r| r.u32().map(u64::from))?
    } else {
        let mut r = need(b"co64", "co64")?;
        r.take(4)?;
        entries(&mut r, 8, |r| r.u64())?
    };
    Ok(Tables {
        sizes,
        stts,
        stss: stss.transpose()?,
        stsc,
        chunks,
    })
}

/// Where one sample is and when it plays (in track ticks).
pub(crate) struct Entry {
    pub(crate) offset: u64,
    pub(crate) size: u32,
    pub(crate) start: u64,
    pub(crate) duration: u32,
    pub(crate) sync: bool,
}

/// Resolves the sample tables of one track.
pub(crate) fn sample_table(stbl: &[u8], file_len: u64, track: &str) -> Result<Vec<Entry>, String> {
    let t = tables(stbl).map_err(|w| format!("{track} track: {w}"))?;
    let n = t.sizes.len();
    if n > MAX_SAMPLES as usize {
        return Err(format!(
            "the {track} track has {n} samples (at most {MAX_SAMPLES} accepted)"
        ));
    }
    let times = sample_times(&t.stts, n).map_err(|w| format!("{track} track: {w}"))?;
    let offsets = sample_offsets(&t, n).map_err(|w| format!("{track} track: {w}"))?;
    let mut sync = vec![t.stss.is_none(); n];
    for &s in t.stss.iter().flatten() {
        if let Some(flag) = (s as usize).checked_sub(1).and_then(|i| sync.get_mut(i)) {
            *flag = true;
        }
    }
    let mut table = Vec::with_capacity(n);
    for (i, (((&size, (start, duration)), offset), sync)) in
        t.sizes.iter().zip(times).zip(offsets).zip(sync).enumerate()
    {
        if offset
            .checked_add(u64::from(size))
            .is_none_or(|end| end > file_len)
        {
            return Err(format!(
                "{track} sample {} ({size} bytes at offset {offset}) lies past the end of the file ({file_len} bytes)",
                i + 1
            ));
        }
        table.push(Entry {
            offset,
            size,
            start,
            duration,
            sync,
        });
    }
    Ok(table)
}

/// (start, duration) of each of the `n` samples, from stts.
fn sample_times(stts: &[(u32, u32)], n: usize) -> Result<Vec<(u64, u32)>, String> {
    let mut times = Vec::with_capacity(n);
    let mut t = 0u64;
    for &(count, delta) in stts {
        if count as usize > n - times.len() {
            return Err(format!("stts describes more than the {n} samples of stsz"));
        }
        for _ in 0..count {
            times.push((t, delta));
            t = t
                .checked_add(u64::from(delta))
                .ok_or("stts times overflow")?;
        }
    }
    if times.len() != n {
        return Err(format!("stts describes {} samples, stsz {n}", times.len()));
    }
    Ok(times)
}

/// File offset of each of the `n` samples, from stsc, the chunk offsets and the sizes.
fn sample_offsets(t: &Tables, n: usize) -> Result<Vec<u64>, String> {
    let mut offsets = Vec::with_capacity(n);
    for (i, &(first, per_chunk)) in t.stsc.iter().enumerate() {
        let next = t
            .stsc
            .get(i + 1)
            .map_or(t.chunks.len() as u64 + 1, |e| u64::from(e.0));
        let first = u64::from(first);
        if first == 0 || next <= first || (i == 0 && first != 1) || per_chunk == 0 {
            return Err(format!(
                "stsc entry {} (first chunk {first}) is out of order or empty",
                i + 1
            ));
        }
        for chunk in first..next {
            if offsets.len() == n {
                return Ok(offsets);
            }
            let Some(&start) = t.chunks.get(chunk as usize - 1) else {
                return Err(format!(
                    "stsc refers to chunk {chunk}, but there are {}",
                    t.chunks.len()
                ));
            };
            let mut offset = start;
            for _ in 0..per_chunk {
                let Some(&size) = t.sizes.get(offsets.len()) else {
                    break;
                };
                offsets.push(offset);
                offset = offset
                    .checked_add(u64::from(size))
                    .ok_or("sample offsets overflow")?;
            }
        }
    }
    if offsets.len() != n {
        return Err(format!(
            "stsc places {} of the {n} samples in chunks",
            offsets.len()
        ));
    }
    Ok(offsets)
}
