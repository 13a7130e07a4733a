//! Bitstream writing: RBSP bit writer with Exp-Golomb codes (clause 9.1), NAL unit
//! packaging with emulation prevention (clause 7.4.1) and CAVLC residual block coding
//! (clause 9.2) with the VLC tables of clause 9.2.

/// MSB-first bit writer for an RBSP.
#[derive(Default)]
pub(crate) struct BitWriter {
    buf: Vec<u8>,
    acc: u64,
    nbits: u32,
}

impl BitWriter {
    /// Writes the `n` (<= 56) low bits of `value`, most significant first.
    pub(crate) fn put(&mut self, value: u64, n: u32) {
        if n == 0 {
            return;
        }
        self.acc = (self.acc << n) | (value & ((1u64 << n) - 1));
        self.nbits += n;
        while self.nbits >= 8 {
            self.nbits -= 8;
            self.buf.push((self.acc >> self.nbits) as u8);
        }
    }

    pub(crate) fn flag(&mut self, b: bool) {
        self.put(u64::from(b), 1);
    }

    /// ue(v), clause 9.1.
    pub(crate) fn ue(&mut self, v: u32) {
        let x = u64::from(v) + 1;
        let len = 64 - x.leading_zeros();
        self.put(0, len - 1);
        self.put(x, len);
    }

    /// se(v), clause 9.1.1 (Table 9-3).
    pub(crate) fn se(&mut self, v: i32) {
        let k = if v > 0 {
            2 * v.unsigned_abs() - 1
        } else {
            2 * v.unsigned_abs()
        };
        self.ue(k);
    }

    /// rbsp_trailing_bits() (clause 7.3.2.11): a one bit, then zero bits to a byte boundary.
    pub(crate) fn finish(mut self) -> Vec<u8> {
        self.put(1, 1);
        let pad = (8 - self.nbits % 8) % 8;
        self.put(0, pad);
        self.buf
    }
}

/// Appends one NAL unit in Annex B format: start code, header, payload with
/// emulation_prevention_three_byte inserted (clause 7.4.1).
pub(crate) fn write_nal(out: &mut Vec<u8>, nal_ref_idc: u8, nal_type: u8, rbsp: &[u8]) {
    out.extend_from_slice(&[0, 0, 0, 1, (nal_ref_idc << 5) | nal_type]);
    let mut zeros = 0;
    for &b in rbsp {
        if zeros >= 2 && b <= 3 {
            out.push(3);
            zeros = 0;
        }
        out.push(b);
        zeros = if b == 0 { zeros + 1 } else { 0 };
    }
}

/// coeff_token codes (code, length) from Table 9-5 (clause 9.2.1), indexed
/// [table][TotalCoeff][TrailingOnes]; tables: 0 <= nC < 2, 2 <= nC < 4, 4 <= nC < 8,
/// nC == -1 (4:2:0 chroma DC). nC >= 8 uses the 6-bit fixed-length code instead.
#[rustfmt::skip]
pub(crate) const COEFF_TOKEN: [[[(u8, u8); 4]; 17]; 4] = [
    [
        [(1, 1), (0, 0), (0, 0), (0, 0)], [(5, 6), (1, 2), (0, 0), (0, 0)],
        [(7, 8), (4, 6), (1, 3), (0, 0)], [(7, 9), (6, 8), (5, 7), (3, 5)],
        [(7, 10), (6, 9), (5, 8), (3, 6)], [(7, 11), (6, 10), (5, 9), (4, 7)],
        [(15, 13), (6, 11), (5, 10), (4, 8)], [(11, 13), (14, 13), (5, 11), (4, 9)],
        [(8, 13), (10, 13), (13, 13), (4, 10)], [(15, 14), (14, 14), (9, 13), (4, 11)],
        [(11, 14), (10, 14), (13, 14), (12, 13)], [(15, 15), (14, 15), (9, 14), (12, 14)],
        [(11, 15), (10, 15), (13, 15), (8, 14)], [(15, 16), (1, 15), (9, 15), (12, 15)],
        [(11, 16), (14, 16), (13, 16), (8, 15)], [(7, 16), (10, 16), (9, 16), (12, 16)],
        [(4, 16), (6, 16), (5, 16), (8, 16)],
    ],
    [
        [(3, 2), (0, 0), (0, 0), (0, 0)], [(11, 6), (2, 2), (0, 0), (0, 0)],
        [(7, 6), (7, 5), (3, 3), (0, 0)], [(7, 7), (10, 6), (9, 6), (5, 4)],
        [(7, 8), (6, 6), (5, 6), (4, 4)], [(4, 8), (6, 7), (5, 7), (6, 5)],
        [(7, 9), (6, 8), (5, 8), (8, 6)], [(15, 11), (6, 9), (5, 9), (4, 6)],
        [(11, 11), (14, 11), (13, 11), (4, 7)], [(15, 12), (10, 11), (9, 11), (4, 9)],
        [(11, 12), (14, 12), (13, 12), (12, 11)], [(8, 12), (10, 12), (9, 12), (8, 11)],
        [(15, 13), (14, 13), (13, 13), (12, 12)], [(11, 13), (10, 13), (9, 13), (12, 13)],
        [(7, 13), (11, 14), (6, 13), (8, 13)], [(9, 14), (8, 14), (10, 14), (1, 13)],
        [(7, 14), (6, 14), (5, 14), (4, 14)],
    ],
    [
        [(15, 4), (0, 0), (0, 0), (0, 0)], [(15, 6), (14, 4), (0, 0), (0, 0)],
        [(11, 6), (15, 5), (13, 4), (0, 0)], [(8, 6), (12, 5), (14, 5), (12, 4)],
        [(15, 7), (10, 5), (11, 5), (11, 4)], [(11, 7), (8, 5), (9, 5), (10, 4)],
        [(9, 7), (14, 6), (13, 6), (9, 4)], [(8, 7), (10, 6), (9, 6), (8, 4)],
        [(15, 8), (14, 7), (13, 7), (13, 5)], [(11, 8), (14, 8), (10, 7), (12, 6)],
        [(15, 9), (10, 8), (13, 8), (12, 7)], [(11, 9), (14, 9), (9, 8), (12, 8)],
        [(8, 9), (10, 9), (13, 9), (8, 8)], [(13, 10), (7, 9), (9, 9), (12, 9)],
        [(9, 10), (12, 10), (11, 10), (10, 10)], [(5, 10), (8, 10), (7, 10), (6, 10)],
        [(1, 10), (4, 10), (3, 10), (2, 10)],
    ],
    [
        [(1, 2), (0, 0), (0, 0), (0, 0)], [(7, 6), (1, 1), (0, 0), (0, 0)],
        [(4, 6), (6, 6), (1, 3), (0, 0)], [(3, 6), (3, 7), (2, 7), (5, 6)],
        [(2, 6), (3, 8), (2, 8), (0, 7)], [(0, 0), (0, 0), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (0, 0), (0, 0)], [(0, 0), (0, 0), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (0, 0), (0, 0)], [(0, 0), (0, 0), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (0, 0), (0, 0)], [(0, 0), (0, 0), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (0, 0), (0, 0)], [(0, 0), (0, 0), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (0, 0), (0, 0)], [(0, 0), (0, 0), (0, 0), (0, 0)],
        [(0, 0), (0, 0), (0, 0), (0, 0)],
    ],
];
/// total_zeros for 4x4 blocks, Tables 9-7 and 9-8: [TotalCoeff - 1][total_zeros] = (code, length).
#[rustfmt::skip]
pub(crate) const TOTAL_ZEROS: [&[(u8, u8)]; 15] = [
    &[(1, 1), (3, 3), (2, 3), (3, 4), (2, 4), (3, 5), (2, 5), (3, 6),
      (2, 6), (3, 7), (2, 7), (3, 8), (2, 8), (3, 9), (2, 9), (1, 9)],
    &[(7, 3), (6, 3), (5, 3), (4, 3), (3, 3), (5, 4), (4, 4), (3, 4),
      (2, 4), (3, 5), (2, 5), (3, 6), (2, 6), (1, 6), (0, 6)],
    &[(5, 4), (7, 3), (6, 3), (5, 3), (4, 4), (3, 4), (4, 3), (3, 3),
      (2, 4), (3, 5), (2, 5), (1, 6), (1, 5), (0, 6)],
    &[(3, 5), (7, 3), (5, 4), (4, 4), (6, 3), (5, 3), (4, 3), (3, 4),
      (3, 3), (2, 4), (2, 5), (1, 5), (0, 5)],
    &[(5, 4), (4, 4), (3, 4), (7, 3), (6, 3), (5, 3), (4, 3), (3, 3),
      (2, 4), (1, 5), (1, 4), (0, 5)],
    &[(1, 6), (1, 5), (7, 3), (6, 3), (5, 3), (4, 3), (3, 3), (2, 3),
      (1, 4), (1, 3), (0, 6)],
    &[(1, 6), (1, 5), (5, 3), (4, 3), (3, 3), (3, 2), (2, 3), (1, 4),
      (1, 3), (0, 6)],
    &[(1, 6), (1, 4), (1, 5), (3, 3), (3, 2), (2, 2), (2, 3), (1, 3),
      (0, 6)],
    &[(1, 6), (0, 6), (1, 4), (3, 2), (2, 2), (1, 3), (1, 2), (1, 5)],
    &[(1, 5), (0, 5), (1, 3), (3, 2), (2, 2), (1, 2), (1, 4)],
    &[(0, 4), (1, 4), (1, 3), (2, 3), (1, 1), (3, 3)],
    &[(0, 4), (1, 4), (1, 2), (1, 1), (1, 3)],
    &[(0, 3), (1, 3), (1, 1), (1, 2)],
    &[(0, 2), (1, 2), (1, 1)],
    &[(0, 1), (1, 1)],
];
/// total_zeros for 2x2 chroma DC, Table 9-9 (a): [TotalCoeff - 1][total_zeros].
#[rustfmt::skip]
pub(crate) const TOTAL_ZEROS_DC: [&[(u8, u8)]; 3] = [
    &[(1, 1), (1, 2), (1, 3), (0, 3)],
    &[(1, 1), (1, 2), (0, 2)],
    &[(1, 1), (0, 1)],
];
/// run_before, Table 9-10: [min(zerosLeft, 7) - 1][run_before] = (code, length).
#[rustfmt::skip]
pub(crate) const RUN_BEFORE: [&[(u8, u8)]; 7] = [
    &[(1, 1), (0, 1)],
    &[(1, 1), (1, 2), (0, 2)],
    &[(3, 2), (2, 2), (1, 2), (0, 2)],
    &[(3, 2), (2, 2), (1, 2), (1, 3), (0, 3)],
    &[(3, 2), (2, 2), (3, 3), (2, 3), (1, 3), (0, 3)],
    &[(3, 2), (0, 3), (1, 3), (3, 3), (2, 3), (5, 3), (4, 3)],
    &[(7, 3), (6, 3), (5, 3), (4, 3), (3, 3), (2, 3), (1, 3), (1, 4),
      (1, 5), (1, 6), (1, 7), (1, 8), (1, 9), (1, 10), (1, 11)],
];

/// Writes one residual_block_cavlc() (clauses 7.3.5.3.2 and 9.2). `coeffs` holds the
/// levels in scan order; its length is maxNumCoeff (4 for chroma DC, 15 for AC, 16).
/// `nc` is the nC of clause 9.2.1 (-1 for chroma DC). Every |level| must be <= 2063,
/// the largest magnitude that fits level_prefix <= 15 as Baseline requires.
pub(crate) fn write_block(bw: &mut BitWriter, coeffs: &[i32], nc: i32) {
    // Nonzero levels in increasing frequency, each with the zeros just below it.
    let (mut levels, mut runs, mut total, mut zeros) = ([0i32; 16], [0usize; 16], 0, 0);
    for &c in coeffs.iter().take(16) {
        if c == 0 {
            zeros += 1;
        } else {
            (levels[total], runs[total], zeros) = (c, zeros, 0);
            total += 1;
        }
    }
    let trailing = levels[..total]
        .iter()
        .rev()
        .take(3)
        .take_while(|l| l.abs() == 1)
        .count();
    write_coeff_token(bw, nc, total, trailing);
    if total == 0 {
        return;
    }
    // Levels are sent from the highest frequency down (clause 9.2.2).
    let rev = || levels[..total].iter().rev();
    for l in rev().take(trailing) {
        bw.flag(*l < 0); // trailing_ones_sign_flag
    }
    write_levels(bw, rev().skip(trailing), total, trailing);
    let total_zeros: usize = runs[..total].iter().sum();
    if total < coeffs.len() {
        let (code, len) = if nc == -1 {
            TOTAL_ZEROS_DC[total - 1][total_zeros]
        } else {
            TOTAL_ZEROS[total - 1][total_zeros]
        };
        bw.put(code.into(), len.into());
    }
    let mut zeros_left = total_zeros;
    for &run in runs[1..total].iter().rev() {
        if zeros_left == 0 {
            break;
        }
        let (code, len) = RUN_BEFORE[zeros_left.min(7) - 1][run];
        bw.put(code.into(), len.into());
        zeros_left -= run;
    }
}

/// coeff_token (clause 9.2.1, Table 9-5).
fn write_coeff_token(bw: &mut BitWriter, nc: i32, total: usize, trailing: usize) {
    if nc >= 8 {
        // 6-bit FLC: TotalCoeff - 1 then TrailingOnes; 000011 for no coefficients.
        let code = if total == 0 {
            3
        } else {
            ((total - 1) << 2) | trailing
        };
        bw.put(code as u64, 6);
        return;
    }
    let table = match nc {
        -1 => 3,
        0 | 1 => 0,
        2 | 3 => 1,
        _ => 2,
    };
    let (code, len) = COEFF_TOKEN[table][total][trailing];
    bw.put(code.into(), len.into());
}

/// level_prefix / level_suffix for the non-trailing-one levels (clause 9.2.2.1), with the
/// suffixLength adaptation and the 12-bit escape (level_prefix 14 and 15).
fn write_levels<'a>(
    bw: &mut BitWriter,
    levels: impl Iterator<Item = &'a i32>,
    total: usize,
    trailing: usize,
) {
    let mut suffix_len: u32 = if total > 10 && trailing < 3 { 1 } else { 0 };
    for (i, &level) in levels.enumerate() {
        let mut code = if level > 0 {
            2 * level - 2
        } else {
            -2 * level - 1
        };
        if i == 0 && trailing < 3 {
            code -= 2; // the first level cannot be +-1 here, so its code is shifted down
        }
        let code = code as u32;
        let (prefix, suffix, suffix_size) = match suffix_len {
            0 if code < 14 => (code, 0, 0),
            0 if code < 30 => (14, code - 14, 4),
            0 => (15, code - 30, 12),
            s if code < (15 << s) => (code >> s, code & ((1 << s) - 1), s),
            s => (15, code - (15 << s), 12),
        };
        debug_assert!(suffix < 4096, "level too large for level_prefix <= 15");
        bw.put(1, prefix + 1);
        bw.put(suffix.into(), suffix_size);
        if suffix_len == 0 {
            suffix_len = 1;
        }
        if level.unsigned_abs() > (3 << (suffix_len - 1)) && suffix_len < 6 {
            suffix_len += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bits(f: impl FnOnce(&mut BitWriter)) -> String {
        let mut bw = BitWriter::default();
        f(&mut bw);
        let n = bw.buf.len() * 8 + bw.nbits as usize;
        let bytes = bw.finish();
        let s: String = bytes.iter().map(|b| format!("{b:08b}")).collect();
        s[..n].to_string()
    }

    #[test]
    fn exp_golomb() {
        assert_eq!(bits(|b| (0..5).for_each(|v| b.ue(v))), "10100110010000101");
        assert_eq!(
            bits(|b| [0, 1, -1, 2].iter().for_each(|&v| b.se(v))),
            "101001100100"
        );
        assert_eq!(bits(|b| b.ue(u32::MAX)).len(), 65);
    }

    #[test]
    fn emulation_prevention() {
        let mut out = Vec::new();
        write_nal(&mut out, 3, 5, &[0, 0, 1, 0, 0, 0, 0, 0, 3, 0, 0]);
        assert_eq!(
            out,
            [0, 0, 0, 1, 0x65, 0, 0, 3, 1, 0, 0, 3, 0, 0, 3, 0, 3, 0, 0]
        );
    }

    #[test]
    fn residual_block_example() {
        // The classic example (Richardson): 0,3,-1,0 / 0,-1,1,0 / 1,0,0,0 / 0,0,0,0 in
        // zig-zag order is 0,3,0,1,-1,-1,0,1,0..., nC = 0.
        let mut c = [0; 16];
        c[..8].copy_from_slice(&[0, 3, 0, 1, -1, -1, 0, 1]);
        assert_eq!(bits(|b| write_block(b, &c, 0)), "000010001110010111101101");
    }
}
