//! Incremental H.264 Annex B splitter: raw byte stream in, access units out.
//!
//! `adb exec-out screenrecord --output-format=h264 -` writes an Annex B byte stream
//! (ITU-T H.264 Annex B): NAL units, each preceded by a start code `00 00 01` or
//! `00 00 00 01`. The stream carries no timestamps, so the host stamps the bytes with
//! its own clock as they arrive and pushes them here in whatever pieces the pipe
//! delivered them; start codes may be split across pushes anywhere.
//!
//! [`AccessUnits`] groups NAL units into access units (one coded picture plus the
//! parameter sets and SEI that precede it) with the rules of clause 7.4.1.2.3, reduced
//! to what a single-layer stream needs. A new access unit starts, once the current one
//! holds a slice:
//! - before an access unit delimiter (9), SPS (7), PPS (8), SEI (6) or a NAL unit of
//!   type 14..=18;
//! - before a slice (1, 2 or 5) whose `first_mb_in_slice` is 0: its `ue(v)` then is the
//!   single bit `1`, so the byte after the NAL header has its top bit set.
//!
//! The decision is taken as soon as the first two bytes of the next NAL unit are known,
//! so a unit is returned by the push that delivers the start of the next picture.
//!
//! Robustness: bytes before the first start code are ignored; a NAL unit longer than
//! [`MAX_NAL_BYTES`], a unit longer than [`MAX_UNIT_BYTES`] or with more than
//! [`MAX_NALS_PER_UNIT`] NAL units is dropped rather than grown, and since the pictures
//! after a lost one reference it, the units after a dropped one are dropped too until
//! the next key frame. [`AccessUnits::dropped`] counts the dropped units. Memory use is
//! bounded by these caps whatever the input.

/// Largest access unit kept, in bytes of NAL payload.
pub const MAX_UNIT_BYTES: usize = 64 << 20;

/// Largest NAL unit kept, in bytes (a NAL unit cannot be larger than its access unit).
pub const MAX_NAL_BYTES: usize = MAX_UNIT_BYTES;

/// Most NAL units one access unit may hold (a picture has at most a few hundred slices).
pub const MAX_NALS_PER_UNIT: usize = 4096;

/// nal_unit_type of a coded slice of an IDR picture.
pub const NAL_IDR: u8 = 5;
/// nal_unit_type of a sequence parameter set.
pub const NAL_SPS: u8 = 7;
/// nal_unit_type of a picture parameter set.
pub const NAL_PPS: u8 = 8;
/// nal_unit_type of an access unit delimiter.
pub const NAL_AUD: u8 = 9;

/// One access unit: the NAL units of one coded picture, in stream order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Unit {
    /// NAL units without start codes, trailing zero bytes trimmed (header byte first).
    pub nals: Vec<Vec<u8>>,
    /// The unit holds a slice of an IDR picture (nal_unit_type 5): decoding can start here.
    pub key: bool,
    /// Host clock time (microseconds) at which the first byte of the unit arrived.
    pub at_us: u64,
}

impl Unit {
    /// True if the unit holds at least one coded slice (nal_unit_type 1..=5).
    pub fn has_slice(&self) -> bool {
        self.nals.iter().any(|n| is_slice(nal_type(n)))
    }

    /// Total size of the NAL units in bytes (start codes and length fields excluded).
    pub fn size(&self) -> usize {
        self.nals.iter().map(Vec::len).sum()
    }
}

/// nal_unit_type (the low five bits of the header byte); 0 ("unspecified") for an empty NAL.
pub fn nal_type(nal: &[u8]) -> u8 {
    nal.first().map_or(0, |b| b & 0x1f)
}

/// True for the NAL unit types that carry (part of) a coded slice.
pub fn is_slice(nal_type: u8) -> bool {
    (1..=5).contains(&nal_type)
}

/// True for the slice NAL unit types whose payload starts with a slice header, so with
/// `first_mb_in_slice` (partitions B and C, types 3 and 4, do not).
fn has_slice_header(nal_type: u8) -> bool {
    matches!(nal_type, 1 | 2 | 5)
}

/// The incremental splitter. Feed it with [`AccessUnits::push`]; call
/// [`AccessUnits::finish`] at the end of the stream for the last unit. One splitter per
/// screenrecord run; after `finish` it starts afresh (waiting for a start code).
#[derive(Debug, Default)]
pub struct AccessUnits {
    /// A start code has been seen: bytes now belong to NAL units.
    synced: bool,
    /// Zero bytes seen but not yet known to be NAL data (they may open a start code).
    zeros: usize,
    /// Arrival time of the first of those zero bytes.
    zeros_at: u64,
    /// The NAL unit being received, without its start code.
    nal: Vec<u8>,
    /// Arrival time of the first byte of its start code.
    nal_at: u64,
    /// The NAL unit grew past [`MAX_NAL_BYTES`]: its bytes are being discarded.
    nal_overflow: bool,
    /// Whether the NAL unit being received starts a new access unit is already decided.
    decided: bool,
    /// The access unit being assembled.
    cur: Unit,
    /// `cur.size()`, kept up to date.
    cur_bytes: usize,
    /// `cur.has_slice()`, kept up to date.
    cur_slice: bool,
    /// A unit was dropped: drop the following ones until a key unit.
    skip_until_key: bool,
    /// Number of units dropped so far.
    dropped: u64,
}

impl AccessUnits {
    /// A splitter waiting for the first start code.
    pub fn new() -> AccessUnits {
        AccessUnits::default()
    }

    /// Number of access units dropped so far (oversized, or following a dropped one
    /// before the next key frame).
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// Takes the next piece of the byte stream, which arrived at host time `at_us`
    /// (microseconds), and returns the access units it completed, in stream order.
    pub fn push(&mut self, bytes: &[u8], at_us: u64) -> Vec<Unit> {
        let mut out = Vec::new();
        let mut i = 0;
        while let Some(&b) = bytes.get(i) {
            if b == 0 {
                if self.zeros == 0 {
                    self.zeros_at = at_us;
                }
                self.zeros = self.zeros.saturating_add(1);
                i += 1;
            } else if b == 1 && self.zeros >= 2 {
                self.start_code();
                i += 1;
            } else {
                // Ordinary bytes up to the next zero: no start code can be among them.
                let rest = bytes.get(i..).unwrap_or_default();
                let run = rest.iter().position(|&x| x == 0).unwrap_or(rest.len());
                if self.synced {
                    self.flush_zeros(&mut out);
                    self.append(rest.get(..run).unwrap_or_default(), &mut out);
                }
                self.zeros = 0;
                i += run;
            }
        }
        out
    }

    /// Ends the stream: completes the last NAL unit and returns the last access unit, if
    /// any. Zero bytes at the very end are trailing padding and are discarded. The
    /// splitter is then reset (only the [`AccessUnits::dropped`] count is kept).
    pub fn finish(&mut self) -> Option<Unit> {
        self.end_nal();
        let mut out = Vec::new();
        self.emit(&mut out);
        *self = AccessUnits {
            dropped: self.dropped,
            ..AccessUnits::default()
        };
        out.pop()
    }

    /// A start code completed: the NAL unit before it (if any) is complete.
    fn start_code(&mut self) {
        self.end_nal();
        self.synced = true;
        self.nal_at = self.zeros_at;
        self.zeros = 0;
        self.decided = false;
        self.nal_overflow = false;
    }

    /// Pending zero bytes turned out to be NAL data (a non-zero byte followed them).
    fn flush_zeros(&mut self, out: &mut Vec<Unit>) {
        if self.zeros == 0 || self.nal_overflow {
            return;
        }
        if self.zeros > MAX_NAL_BYTES.saturating_sub(self.nal.len()) {
            self.overflow(&[0, 0], out);
            return;
        }
        self.nal.resize(self.nal.len() + self.zeros, 0);
        self.maybe_decide(out);
    }

    /// Appends NAL payload bytes, discarding them once the NAL is over its cap.
    fn append(&mut self, data: &[u8], out: &mut Vec<Unit>) {
        if self.nal_overflow || data.is_empty() {
            return;
        }
        if data.len() > MAX_NAL_BYTES.saturating_sub(self.nal.len()) {
            self.overflow(data, out);
            return;
        }
        self.nal.extend_from_slice(data);
        self.maybe_decide(out);
    }

    /// The NAL unit being received is too large: forget its bytes. Its first bytes
    /// (from `next` if not yet received) still decide which unit it belongs to, so that
    /// dropping it does not drop the complete unit before it.
    fn overflow(&mut self, next: &[u8], out: &mut Vec<Unit>) {
        let missing = 2usize.saturating_sub(self.nal.len());
        self.nal.extend(next.iter().take(missing));
        self.maybe_decide(out);
        self.nal_overflow = true;
        self.nal = Vec::new();
    }

    /// Once enough of the NAL unit is known, decides whether it starts a new access unit
    /// and if so emits the current one.
    fn maybe_decide(&mut self, out: &mut Vec<Unit>) {
        let Some(&header) = self.nal.first() else {
            return;
        };
        let t = header & 0x1f;
        if self.decided || (has_slice_header(t) && self.nal.len() < 2) {
            return;
        }
        self.decided = true;
        let starts_unit = match t {
            6..=9 | 14..=18 => self.cur_slice,
            1 | 2 | 5 => self.cur_slice && self.nal.get(1).is_some_and(|b| b & 0x80 != 0),
            _ => false,
        };
        if starts_unit {
            self.emit(out);
        }
    }

    /// The NAL unit being received is complete: adds it to the current access unit.
    /// (It never starts a new unit here: that was decided when its first bytes came,
    /// except for a one-byte slice NAL, which cannot carry first_mb_in_slice = 0.)
    fn end_nal(&mut self) {
        if !self.synced {
            return;
        }
        let mut nal = std::mem::take(&mut self.nal);
        if std::mem::take(&mut self.nal_overflow) {
            self.drop_current();
            return;
        }
        while nal.last() == Some(&0) {
            nal.pop();
        }
        if nal.is_empty() {
            return;
        }
        if self.cur.nals.len() >= MAX_NALS_PER_UNIT
            || nal.len() > MAX_UNIT_BYTES.saturating_sub(self.cur_bytes)
        {
            self.drop_current();
            return;
        }
        if self.cur.nals.is_empty() {
            self.cur.at_us = self.nal_at;
        }
        let t = nal_type(&nal);
        self.cur.key |= t == NAL_IDR;
        self.cur_slice |= is_slice(t);
        self.cur_bytes += nal.len();
        self.cur.nals.push(nal);
    }

    /// Discards the current unit because it broke a cap.
    fn drop_current(&mut self) {
        self.cur = Unit::default();
        self.cur_bytes = 0;
        self.cur_slice = false;
        self.dropped += 1;
        self.skip_until_key = true;
    }

    /// Moves the current unit to `out` (unless it is empty or must be skipped).
    fn emit(&mut self, out: &mut Vec<Unit>) {
        let unit = std::mem::take(&mut self.cur);
        self.cur_bytes = 0;
        self.cur_slice = false;
        if unit.nals.is_empty() {
            return;
        }
        if self.skip_until_key && !unit.key {
            self.dropped += 1;
            return;
        }
        self.skip_until_key = false;
        out.push(unit);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Builds an Annex B stream from (start code length, NAL) pairs.
    fn stream(nals: &[(usize, &[u8])]) -> Vec<u8> {
        let mut s = Vec::new();
        for (sc, nal) in nals {
            s.extend(std::iter::repeat_n(0u8, sc - 1));
            s.push(1);
            s.extend_from_slice(nal);
        }
        s
    }

    fn split_all(bytes: &[u8], chunk: usize) -> Vec<Unit> {
        let mut au = AccessUnits::new();
        let mut out = Vec::new();
        for (i, c) in bytes.chunks(chunk.max(1)).enumerate() {
            out.extend(au.push(c, i as u64));
        }
        out.extend(au.finish());
        out
    }

    #[test]
    fn groups_parameter_sets_sei_and_slices() {
        let sps: &[u8] = &[0x67, 0x42, 0xc0, 0x1e];
        let pps: &[u8] = &[0x68, 0xce, 0x38, 0x80];
        let idr: &[u8] = &[0x65, 0x88, 0x84, 0x00, 0x00, 0x03, 0x01];
        let second_slice: &[u8] = &[0x65, 0x40, 0x11]; // first_mb_in_slice != 0
        let p: &[u8] = &[0x41, 0x9a, 0x22];
        let sei: &[u8] = &[0x06, 0x05, 0x01, 0x80];
        let aud: &[u8] = &[0x09, 0xf0];
        let s = stream(&[
            (4, sps),
            (3, pps),
            (3, idr),
            (3, second_slice),
            (4, sei),
            (3, p),
            (4, aud),
            (3, p),
            (3, p),
        ]);
        for chunk in [1, 2, 3, 5, 7, s.len()] {
            let units = split_all(&s, chunk);
            let nals: Vec<Vec<&[u8]>> = units
                .iter()
                .map(|u| u.nals.iter().map(Vec::as_slice).collect())
                .collect();
            assert_eq!(
                nals,
                vec![
                    vec![sps, pps, idr, second_slice],
                    vec![sei, p],
                    vec![aud, p],
                    vec![p]
                ],
                "chunk {chunk}"
            );
            let keys: Vec<bool> = units.iter().map(|u| u.key).collect();
            assert_eq!(keys, [true, false, false, false]);
        }
    }

    #[test]
    fn trims_trailing_zeros_and_ignores_leading_garbage() {
        let mut s = vec![0x12, 0x00, 0x34, 0x00, 0x00];
        s.extend(stream(&[(4, &[0x65, 0x88, 0x00]), (3, &[0x41, 0x9a])]));
        s.extend([0, 0, 0, 0]);
        let units = split_all(&s, 1);
        assert_eq!(units.len(), 2);
        assert_eq!(units[0].nals, vec![vec![0x65, 0x88]]);
        assert_eq!(units[1].nals, vec![vec![0x41, 0x9a]]);
    }

    #[test]
    fn arrival_time_is_that_of_the_first_start_code_byte() {
        // The zero bytes of the second unit's start code arrive in the first push.
        let mut au = AccessUnits::new();
        assert!(
            au.push(&[0, 0, 0, 1, 0x65, 0x88, 0x10, 0, 0], 10)
                .is_empty()
        );
        assert!(au.push(&[1], 20).is_empty());
        let done = au.push(&[0x41], 30);
        assert!(done.is_empty(), "a slice NAL is decided on its second byte");
        let done = au.push(&[0x9a, 0x01], 40);
        assert_eq!(done.len(), 1);
        assert_eq!((done[0].at_us, done[0].key), (10, true));
        let last = au.finish().expect("last unit");
        assert_eq!(
            (last.at_us, last.nals.clone()),
            (10, vec![vec![0x41, 0x9a, 0x01]])
        );
        assert!(au.finish().is_none(), "the splitter is reset after finish");
    }

    #[test]
    fn oversized_units_are_dropped_until_the_next_key_frame() {
        let mut au = AccessUnits::new();
        let mut out = au.push(&stream(&[(4, &[0x65, 0x88, 0x10])]), 0);
        let mut big = vec![0x41, 0x9a];
        big.resize(MAX_NAL_BYTES + 10, 0x55);
        out.extend(au.push(&stream(&[(4, &big)]), 1));
        out.extend(au.push(&stream(&[(4, &[0x41, 0x9a, 0x20])]), 2));
        out.extend(au.push(&stream(&[(4, &[0x65, 0x88, 0x30])]), 3));
        out.extend(au.finish());
        let times: Vec<u64> = out.iter().map(|u| u.at_us).collect();
        assert_eq!(times, [0, 3]);
        assert_eq!(au.dropped(), 2);
    }

    #[test]
    fn too_many_nal_units_in_one_unit_are_dropped() {
        let mut au = AccessUnits::new();
        let mut s = Vec::new();
        for _ in 0..=MAX_NALS_PER_UNIT {
            s.extend([0, 0, 1, 0x0c, 0xff]); // filler data NAL units
        }
        assert!(au.push(&s, 0).is_empty());
        assert!(au.finish().is_none());
        assert_eq!(au.dropped(), 1);
    }

    #[test]
    fn long_zero_runs_do_not_grow_memory() {
        let mut au = AccessUnits::new();
        let zeros = vec![0u8; 1 << 20];
        for _ in 0..8 {
            assert!(au.push(&zeros, 0).is_empty());
        }
        assert!(au.push(&[1, 0x65, 0x88, 0x10], 1).is_empty());
        assert_eq!(
            au.finish().map(|u| u.nals),
            Some(vec![vec![0x65, 0x88, 0x10]])
        );
    }
}
