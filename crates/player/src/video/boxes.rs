//! Strict, bounded reading of ISO base media file format boxes (ISO/IEC 14496-12 §4.2).
//!
//! [`super::mp4in::read_mp4`] does not use the `mp4` crate's reader: in mp4 0.14 a box of size
//! 0 (or less than its header) inside a container makes it seek backwards and loop
//! forever (alfg/mp4-rust PR #148, still open), and its per-sample lookups unwrap on
//! inconsistent tables. Here every box is a slice of its parent: a size smaller than
//! the header or larger than what is left is an error, so parsing always moves forward
//! and never reads out of bounds, and every count is checked against the bytes that
//! hold it before anything is allocated.

/// A big-endian cursor over a byte slice; every read is bounds-checked.
pub(crate) struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
    /// What is being read, for error messages.
    what: &'static str,
}

impl<'a> Reader<'a> {
    pub(crate) fn new(data: &'a [u8], what: &'static str) -> Reader<'a> {
        Reader { data, pos: 0, what }
    }

    /// The next `n` bytes.
    pub(crate) fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.data.len());
        let Some(end) = end else {
            let left = self.data.len() - self.pos;
            return Err(format!(
                "'{}' ends early: {n} bytes needed at offset {}, {left} left",
                self.what, self.pos
            ));
        };
        let bytes = &self.data[self.pos..end];
        self.pos = end;
        Ok(bytes)
    }

    pub(crate) fn u8(&mut self) -> Result<u8, String> {
        Ok(self.take(1)?[0])
    }

    pub(crate) fn u16(&mut self) -> Result<u16, String> {
        let b = self.take(2)?;
        Ok(u16::from_be_bytes([b[0], b[1]]))
    }

    pub(crate) fn u32(&mut self) -> Result<u32, String> {
        let b = self.take(4)?;
        Ok(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }

    pub(crate) fn u64(&mut self) -> Result<u64, String> {
        let hi = self.u32()?;
        Ok(u64::from(hi) << 32 | u64::from(self.u32()?))
    }

    /// Bytes not read yet.
    pub(crate) fn rest(&self) -> &'a [u8] {
        &self.data[self.pos..]
    }

    /// Reads a u32 entry count and checks that `count` entries of `entry_size` bytes fit
    /// in what is left, so that a vector of `count` entries can be allocated safely.
    pub(crate) fn count(&mut self, entry_size: usize) -> Result<usize, String> {
        let count = self.u32()? as usize;
        if count
            .checked_mul(entry_size)
            .is_none_or(|n| n > self.data.len() - self.pos)
        {
            let left = self.data.len() - self.pos;
            return Err(format!(
                "'{}' claims {count} entries of {entry_size} bytes; {left} bytes left",
                self.what
            ));
        }
        Ok(count)
    }
}

/// One box: its four-character type and its payload (after the header).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Mp4Box<'a> {
    pub(crate) kind: [u8; 4],
    pub(crate) body: &'a [u8],
}

/// Header of a box at the start of `data`: (type, header length, total size). A size
/// of 0 means "to the end of `data`".
pub(crate) fn header(data: &[u8], available: u64) -> Result<([u8; 4], u64, u64), String> {
    let mut r = Reader::new(data, "box header");
    let size = r.u32()?;
    let kind: [u8; 4] = r
        .take(4)?
        .try_into()
        .map_err(|_| "box header".to_string())?;
    let (head, size) = match size {
        0 => (8, available),
        1 => (16, r.u64()?),
        s => (8, u64::from(s)),
    };
    if size < head || size > available {
        let name = String::from_utf8_lossy(&kind).into_owned();
        return Err(format!(
            "box '{name}' claims {size} bytes: it needs at least {head}, and {available} are left"
        ));
    }
    Ok((kind, head, size))
}

/// The boxes that make up `data` (a container's payload), in order.
pub(crate) fn boxes(mut data: &[u8]) -> Result<Vec<Mp4Box<'_>>, String> {
    let mut out = Vec::new();
    while !data.is_empty() {
        let (kind, head, size) = header(data, data.len() as u64)?;
        // size <= data.len() was checked, so these conversions and slices hold.
        let (this, rest) = data.split_at(size as usize);
        out.push(Mp4Box {
            kind,
            body: &this[head as usize..],
        });
        data = rest;
    }
    Ok(out)
}

/// The payload of the first box of type `kind` in `data`, which must exist.
pub(crate) fn child<'a>(data: &'a [u8], kind: &[u8; 4], parent: &str) -> Result<&'a [u8], String> {
    let found = boxes(data)?.into_iter().find(|b| &b.kind == kind);
    found
        .map(|b| b.body)
        .ok_or_else(|| format!("no '{}' box in '{parent}'", String::from_utf8_lossy(kind)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_below_the_header_or_past_the_end_are_errors() {
        let ok = [
            0, 0, 0, 12, b'f', b'r', b'e', b'e', 1, 2, 3, 4, 0, 0, 0, 8, b's', b'k', b'i', b'p',
        ];
        let b = boxes(&ok).expect("valid");
        assert_eq!(
            (b.len(), b[0].body, b[1].body.len()),
            (2, &[1, 2, 3, 4][..], 0)
        );
        for size in [1u8, 4, 7, 21] {
            let bad = [
                0, 0, 0, size, b'f', b'r', b'e', b'e', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
            ];
            assert!(boxes(&bad).is_err(), "size {size}");
        }
        let large = [0, 0, 0, 1, b'm', b'd', b'a', b't', 0, 0, 0, 0, 0, 0, 0, 8];
        assert!(boxes(&large).is_err(), "largesize below 16");
        let to_end = [0, 0, 0, 0, b'm', b'd', b'a', b't', 9, 9];
        assert_eq!(boxes(&to_end).expect("size 0")[0].body, [9, 9]);
        assert!(
            child(&ok, b"moov", "file")
                .unwrap_err()
                .contains("no 'moov' box in 'file'")
        );
    }

    #[test]
    fn counts_must_fit() {
        let data = [0, 0, 0, 3, 1, 2, 3, 4, 5, 6, 7, 8];
        assert!(Reader::new(&data, "stts").count(4).is_err());
        assert_eq!(Reader::new(&data, "stts").count(2), Ok(3));
        let huge = [0xff, 0xff, 0xff, 0xff];
        assert!(Reader::new(&huge, "stsz").count(usize::MAX).is_err());
    }
}
