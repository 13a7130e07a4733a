//! A tiny H.264 (ITU-T Rec. H.264 / ISO 14496-10) encoder for screen content.
//!
//! Constrained Baseline profile, CAVLC, one slice per picture, deblocking off. Every
//! coded macroblock is Intra_16x16 (clause 8.3.3) with residual; in P pictures a
//! macroblock whose source pixels did not change is P_Skip, which with only intra and
//! skipped neighbours always predicts motion vector (0,0) (clause 8.4.1.1), so it copies
//! the reference exactly. The encoder keeps the decoder's exact reconstruction.
//!
//! ```
//! let (w, h) = (64, 32);
//! let mut enc = autoplay_sim::video::h264::Encoder::new(w, h, autoplay_sim::video::h264::DEFAULT_QP);
//! let frame = vec![200u8; (w * h * 4) as usize];
//! let idr = enc.encode(&frame, false); // SPS + PPS + IDR picture
//! let p = enc.encode(&frame, false); // nothing changed: a P picture of skipped macroblocks
//! assert!(p.len() < 20 && idr.len() > p.len());
//! assert_eq!(enc.reconstruction().len(), 64 * 32 * 3 / 2);
//! ```

mod cavlc;

use cavlc::{BitWriter, write_block, write_nal};

/// Default luma quantiser: crisp text on flat UI backgrounds at a modest size.
pub const DEFAULT_QP: u8 = 24;

/// Largest accepted width or height; larger values are clamped.
const MAX_DIM: u32 = 8192;

/// Zig-zag scan for 4x4 frame blocks (clause 8.5.6, Table 8-13): scan index -> raster index.
const ZIGZAG: [usize; 16] = [0, 1, 4, 8, 5, 2, 3, 6, 9, 12, 13, 10, 7, 11, 14, 15];

/// luma4x4BlkIdx -> raster index (y * 4 + x) of the 4x4 block (clause 6.4.3, Figure 6-10).
const BLK_RASTER: [usize; 16] = [0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13, 10, 11, 14, 15];

/// normAdjust4x4 v(m, class) of clause 8.5.9 (Eq. 8-315); classes: both coordinates
/// even, both odd, otherwise. With flat scaling lists LevelScale4x4 = 16 * v.
const DEQUANT: [[i32; 3]; 6] = [
    [10, 16, 13],
    [11, 18, 14],
    [13, 20, 16],
    [14, 23, 18],
    [16, 25, 20],
    [18, 29, 23],
];

/// Forward quantisation multipliers MF (the JM reference encoder's), per DEQUANT class:
/// level = (|c| * MF + f) >> (15 + qP / 6).
#[rustfmt::skip]
const QUANT: [[i32; 3]; 6] = [
    [13107, 5243, 8066], [11916, 4660, 7490], [10082, 4194, 6554],
    [9362, 3647, 5825], [8192, 3355, 5243], [7282, 2893, 4559],
];

/// QPc for qPI >= 30 (clause 8.5.8, Table 8-15); below 30 QPc = qPI.
const CHROMA_QP: [u8; 22] = [
    29, 30, 31, 32, 32, 33, 34, 34, 35, 35, 36, 36, 37, 37, 37, 38, 38, 38, 39, 39, 39, 39,
];

/// Levels are clamped so that level_prefix never exceeds 15 (Baseline, clause 9.2.2.1).
const MAX_LEVEL: i32 = 2063;

/// (level_idc, MaxMBPS, MaxFS) from Table A-1.
#[rustfmt::skip]
const LEVELS: [(u8, u32, u32); 19] = [
    (10, 1485, 99), (11, 3000, 396), (12, 6000, 396), (13, 11880, 396),
    (20, 11880, 396), (21, 19800, 792), (22, 20250, 1620), (30, 40500, 1620),
    (31, 108000, 3600), (32, 216000, 5120), (40, 245760, 8192), (41, 245760, 8192),
    (42, 522240, 8704), (50, 589824, 22080), (51, 983040, 36864), (52, 2073600, 36864),
    (60, 4177920, 139264), (61, 8355840, 139264), (62, 16711680, 139264),
];

/// Intra prediction kinds shared by luma 16x16 (clause 8.3.3) and chroma (clause 8.3.4).
#[derive(Clone, Copy)]
enum Pred {
    Vertical,
    Horizontal,
    Dc,
    Plane,
}

impl Pred {
    /// Intra16x16PredMode (Table 8-4) and intra_chroma_pred_mode (Table 7-16) codes.
    fn code(self, luma: bool) -> u32 {
        match (self, luma) {
            (Pred::Vertical, true) | (Pred::Dc, false) => 0,
            (Pred::Horizontal, _) => 1,
            (Pred::Dc, true) | (Pred::Vertical, false) => 2,
            (Pred::Plane, _) => 3,
        }
    }
}

/// Reconstructed neighbour samples of an n x n block (n = 16 luma, 8 chroma).
struct Neighbours {
    top: Option<[u8; 16]>,
    left: Option<[u8; 16]>,
    corner: u8,
}

/// Quantised levels of one plane of a macroblock, raster order inside each 4x4 block.
struct Coded {
    mode: Pred,
    /// DC levels (luma: 4x4 in raster block order; chroma: the 2x2 in the first 4).
    dc: [i32; 16],
    /// AC levels per 4x4 block (raster block order); index 0 (DC) is unused.
    ac: [[i32; 16]; 16],
}

/// The encoder. See the crate docs.
pub struct Encoder {
    width: usize,
    height: usize,
    mbw: usize,
    mbh: usize,
    qp: u8,
    /// The PPS's `pic_init_qp`: the quantiser at the last IDR (slices say their own from it).
    init_qp: u8,
    frames: u64,
    frame_num: u32,
    idr_id: u32,
    /// Previous RGBA source, for change detection.
    prev: Vec<u8>,
    /// Reconstruction (= the reference picture), padded to whole macroblocks: Y, Cb, Cr.
    planes: [Vec<u8>; 3],
    /// TotalCoeff of each 4x4 block per macroblock: 16 luma (raster), 4 Cb, 4 Cr (clause 9.2.1).
    nz: Vec<[u8; 24]>,
}

impl Encoder {
    /// Creates an encoder for `width` x `height` RGBA frames (clamped to 1..=8192) at
    /// luma quantiser `qp` (clamped to 0..=51).
    pub fn new(width: u32, height: u32, qp: u8) -> Encoder {
        let width = width.clamp(1, MAX_DIM) as usize;
        let height = height.clamp(1, MAX_DIM) as usize;
        let (mbw, mbh) = (width.div_ceil(16), height.div_ceil(16));
        let luma = mbw * mbh * 256;
        Encoder {
            width,
            height,
            mbw,
            mbh,
            qp: qp.min(51),
            init_qp: qp.min(51),
            frames: 0,
            frame_num: 0,
            idr_id: 0,
            prev: Vec::new(),
            planes: [vec![0; luma], vec![0; luma / 4], vec![0; luma / 4]],
            nz: vec![[0; 24]; mbw * mbh],
        }
    }

    /// Sets the luma quantiser (clamped to 0..=51) from the next frame on (a rate control's
    /// lever: each slice says its own).
    pub fn set_qp(&mut self, qp: u8) {
        self.qp = qp.min(51);
    }

    /// The luma quantiser of the next frame.
    pub fn qp(&self) -> u8 {
        self.qp
    }

    /// The picture size the stream signals. 4:2:0 cropping works in units of two samples
    /// (clause 7.4.2.1.1, CropUnitX/Y = 2), so odd sizes are rounded up to even; the extra
    /// column / row repeats the last one.
    pub fn stream_size(&self) -> (u32, u32) {
        let even = |v: usize| (v + (v & 1)) as u32;
        (even(self.width), even(self.height))
    }

    /// Encodes one RGBA frame (width * height * 4 bytes; a shorter buffer is padded with
    /// zeros, a longer one truncated) into one Annex B access unit. The first frame and
    /// every frame with `key` set is an IDR picture preceded by SPS and PPS.
    pub fn encode(&mut self, rgba: &[u8], key: bool) -> Vec<u8> {
        let need = self.width * self.height * 4;
        let padded;
        let rgba = if rgba.len() == need {
            rgba
        } else {
            let mut v = rgba[..rgba.len().min(need)].to_vec();
            v.resize(need, 0);
            padded = v;
            &padded
        };
        let idr = key || self.frames == 0;
        self.prev.resize(need, 0);
        let mut out = Vec::new();
        if idr {
            self.frame_num = 0;
            self.init_qp = self.qp;
            write_nal(&mut out, 3, 7, &self.sps());
            write_nal(&mut out, 3, 8, &self.pps());
        }
        let mut bw = BitWriter::default();
        self.slice_header(&mut bw, idr);
        self.slice_data(&mut bw, rgba, idr);
        let (ref_idc, nal_type) = if idr { (3, 5) } else { (2, 1) };
        write_nal(&mut out, ref_idc, nal_type, &bw.finish());
        if idr {
            self.idr_id = (self.idr_id + 1) % 65536;
        }
        self.frame_num = (self.frame_num + 1) % 16;
        self.frames += 1;
        out
    }

    /// The decoder-side picture of the last encoded frame as planar YUV 4:2:0: Y
    /// (width x height), then Cb and Cr ((width + 1) / 2 x (height + 1) / 2).
    pub fn reconstruction(&self) -> Vec<u8> {
        let (cw, ch) = (self.width.div_ceil(2), self.height.div_ceil(2));
        let mut out = Vec::with_capacity(self.width * self.height + 2 * cw * ch);
        let stride = self.mbw * 16;
        for row in self.planes[0].chunks(stride).take(self.height) {
            out.extend_from_slice(&row[..self.width]);
        }
        for plane in &self.planes[1..] {
            for row in plane.chunks(stride / 2).take(ch) {
                out.extend_from_slice(&row[..cw]);
            }
        }
        out
    }

    /// Smallest level (Table A-1) whose frame size, dimension limit (A.3.1 f/g) and
    /// macroblock rate at 60 frames per second fit.
    fn level_idc(&self) -> u8 {
        let fs = (self.mbw * self.mbh) as u64;
        let side = self.mbw.max(self.mbh) as u64;
        LEVELS
            .iter()
            .find(|&&(_, mbps, max_fs)| {
                let max_fs = u64::from(max_fs);
                fs <= max_fs && side * side <= 8 * max_fs && fs * 60 <= u64::from(mbps)
            })
            .map_or(62, |l| l.0)
    }

    /// seq_parameter_set_rbsp() (clause 7.3.2.1.1) with a VUI (Annex E.1.1).
    fn sps(&self) -> Vec<u8> {
        let mut b = BitWriter::default();
        b.put(66, 8); // profile_idc: Baseline
        b.put(0b1100_0000, 8); // constraint_set0/1 (Constrained Baseline), reserved bits
        b.put(self.level_idc().into(), 8);
        b.ue(0); // seq_parameter_set_id
        b.ue(0); // log2_max_frame_num_minus4: frame_num has 4 bits
        b.ue(2); // pic_order_cnt_type 2: output order = decoding order
        b.ue(1); // max_num_ref_frames
        b.flag(false); // gaps_in_frame_num_value_allowed_flag
        b.ue(self.mbw as u32 - 1); // pic_width_in_mbs_minus1
        b.ue(self.mbh as u32 - 1); // pic_height_in_map_units_minus1
        b.flag(true); // frame_mbs_only_flag
        b.flag(true); // direct_8x8_inference_flag
        let (w, h) = self.stream_size();
        let crop = [
            0,
            (self.mbw as u32 * 16 - w) / 2,
            0,
            (self.mbh as u32 * 16 - h) / 2,
        ];
        b.flag(crop != [0; 4]); // frame_cropping_flag
        if crop != [0; 4] {
            crop.iter().for_each(|&c| b.ue(c)); // left, right, top, bottom in CropUnits
        }
        b.flag(true); // vui_parameters_present_flag
        b.put(0b00, 2); // aspect_ratio_info_present_flag, overscan_info_present_flag
        b.flag(true); // video_signal_type_present_flag
        b.put(5, 3); // video_format: unspecified
        b.flag(false); // video_full_range_flag: limited range
        b.flag(true); // colour_description_present_flag
        b.put(0x06_06_06, 24); // primaries, transfer, matrix: BT.601 (SMPTE 170M)
        b.put(0, 5); // chroma_loc, timing, nal_hrd, vcl_hrd, pic_struct flags
        b.flag(true); // bitstream_restriction_flag
        b.flag(true); // motion_vectors_over_pic_boundaries_flag
        b.ue(0); // max_bytes_per_pic_denom: no limit
        b.ue(0); // max_bits_per_mb_denom: no limit
        b.ue(15); // log2_max_mv_length_horizontal
        b.ue(15); // log2_max_mv_length_vertical
        b.ue(0); // max_num_reorder_frames
        b.ue(1); // max_dec_frame_buffering
        b.finish()
    }

    /// pic_parameter_set_rbsp() (clause 7.3.2.2).
    fn pps(&self) -> Vec<u8> {
        let mut b = BitWriter::default();
        b.ue(0); // pic_parameter_set_id
        b.ue(0); // seq_parameter_set_id
        b.flag(false); // entropy_coding_mode_flag: CAVLC
        b.flag(false); // bottom_field_pic_order_in_frame_present_flag
        b.ue(0); // num_slice_groups_minus1
        b.ue(0); // num_ref_idx_l0_default_active_minus1
        b.ue(0); // num_ref_idx_l1_default_active_minus1
        b.put(0, 3); // weighted_pred_flag, weighted_bipred_idc
        b.se(i32::from(self.init_qp) - 26); // pic_init_qp_minus26
        b.se(0); // pic_init_qs_minus26
        b.se(0); // chroma_qp_index_offset
        b.flag(true); // deblocking_filter_control_present_flag
        b.flag(false); // constrained_intra_pred_flag
        b.flag(false); // redundant_pic_cnt_present_flag
        b.finish()
    }

    /// slice_header() (clause 7.3.3) for the single slice of the picture.
    fn slice_header(&self, b: &mut BitWriter, idr: bool) {
        b.ue(0); // first_mb_in_slice
        b.ue(if idr { 7 } else { 5 }); // slice_type: all I / all P
        b.ue(0); // pic_parameter_set_id
        b.put(self.frame_num.into(), 4); // frame_num
        if idr {
            b.ue(self.idr_id); // idr_pic_id
            b.put(0, 2); // no_output_of_prior_pics_flag, long_term_reference_flag
        } else {
            b.flag(false); // num_ref_idx_active_override_flag
            b.flag(false); // ref_pic_list_modification_flag_l0
            b.flag(false); // adaptive_ref_pic_marking_mode_flag: sliding window
        }
        b.se(i32::from(self.qp) - i32::from(self.init_qp)); // slice_qp_delta
        b.ue(1); // disable_deblocking_filter_idc: off
    }

    /// slice_data() (clause 7.3.4): unchanged macroblocks of P pictures are skipped.
    fn slice_data(&mut self, b: &mut BitWriter, rgba: &[u8], idr: bool) {
        let row_bytes = self.width * 4;
        let mut skip_run = 0;
        for my in 0..self.mbh {
            let band = my * 16 * row_bytes..((my + 1) * 16).min(self.height) * row_bytes;
            let band_same = !idr && self.prev[band.clone()] == rgba[band.clone()];
            for mx in 0..self.mbw {
                if band_same || (!idr && self.mb_unchanged(rgba, mx, my)) {
                    skip_run += 1;
                    self.nz[my * self.mbw + mx] = [0; 24];
                    continue;
                }
                if !idr {
                    b.ue(skip_run); // mb_skip_run
                    skip_run = 0;
                }
                self.encode_mb(b, rgba, mx, my, !idr);
            }
            if !band_same {
                self.prev[band.clone()].copy_from_slice(&rgba[band]);
            }
        }
        if skip_run > 0 {
            b.ue(skip_run);
        }
    }

    fn mb_unchanged(&self, rgba: &[u8], mx: usize, my: usize) -> bool {
        let (x0, x1) = (mx * 64, ((mx + 1) * 16).min(self.width) * 4);
        (my * 16..((my + 1) * 16).min(self.height)).all(|y| {
            let row = y * self.width * 4;
            self.prev[row + x0..row + x1] == rgba[row + x0..row + x1]
        })
    }

    /// Converts one macroblock of RGBA to BT.601 limited-range YCbCr 4:2:0, repeating the
    /// last column / row past the picture edge. Chroma is taken from the 2x2 RGB mean.
    fn load_mb(&self, rgba: &[u8], mx: usize, my: usize) -> ([u8; 256], [[u8; 64]; 2]) {
        let (mut y, mut cb, mut cr, mut sums) = ([0u8; 256], [0u8; 64], [0u8; 64], [[0i32; 3]; 64]);
        for (j, yrow) in y.chunks_mut(16).enumerate() {
            let line = (my * 16 + j).min(self.height - 1) * self.width;
            for (i, v) in yrow.iter_mut().enumerate() {
                let p = &rgba[(line + (mx * 16 + i).min(self.width - 1)) * 4..][..3];
                let [r, g, b] = [p[0], p[1], p[2]].map(i32::from);
                *v = (((66 * r + 129 * g + 25 * b + 128) >> 8) + 16) as u8;
                let s = &mut sums[j / 2 * 8 + i / 2];
                *s = [s[0] + r, s[1] + g, s[2] + b];
            }
        }
        for ((u, v), [r, g, b]) in cb.iter_mut().zip(&mut cr).zip(sums) {
            *u = (((-38 * r - 74 * g + 112 * b + 512) >> 10) + 128) as u8;
            *v = (((112 * r - 94 * g - 18 * b + 512) >> 10) + 128) as u8;
        }
        (y, [cb, cr])
    }

    /// Codes one Intra_16x16 macroblock: prediction, residual, reconstruction, syntax.
    fn encode_mb(&mut self, b: &mut BitWriter, rgba: &[u8], mx: usize, my: usize, p_slice: bool) {
        let (y, [cb, cr]) = self.load_mb(rgba, mx, my);
        let nb = [0, 1, 2].map(|p| self.neighbours(p, mx, my));
        // Ties go to the mode with the shorter code: mb_type (luma), then chroma mode.
        let luma_modes = [Pred::Vertical, Pred::Horizontal, Pred::Dc, Pred::Plane];
        let chroma_modes = [Pred::Dc, Pred::Horizontal, Pred::Vertical, Pred::Plane];
        let lm = best_mode(&luma_modes, &[(&nb[0], &y)], 16);
        let cm = best_mode(&chroma_modes, &[(&nb[1], &cb), (&nb[2], &cr)], 8);
        let luma = self.code_plane(0, &y, mx, my, lm, &nb[0]);
        let cb = self.code_plane(1, &cb, mx, my, cm, &nb[1]);
        let cr = self.code_plane(2, &cr, mx, my, cm, &nb[2]);
        self.write_mb(b, mx, my, &luma, [&cb, &cr], p_slice);
    }

    /// Plane `p` (0 = Y, 1 = Cb, 2 = Cr) of a macroblock: prediction, transform and
    /// quantisation, then the decoder's reconstruction into the plane.
    fn code_plane(
        &mut self,
        p: usize,
        src: &[u8],
        mx: usize,
        my: usize,
        mode: Pred,
        nb: &Neighbours,
    ) -> Coded {
        let n = if p == 0 { 16 } else { 8 };
        let stride = self.mbw * n;
        let pred = predict(mode, nb, n).unwrap_or([128; 256]);
        let qp = if p == 0 {
            usize::from(self.qp)
        } else {
            chroma_qp(self.qp)
        };
        let mut coded = forward(src, &pred, n, qp);
        coded.mode = mode;
        let rec = inverse(&coded, &pred, n, qp);
        let origin = my * n * stride + mx * n;
        for (row, rec_row) in rec.chunks(n).take(n).enumerate() {
            let at = origin + row * stride;
            self.planes[p][at..at + n].copy_from_slice(rec_row);
        }
        coded
    }

    fn neighbours(&self, p: usize, mx: usize, my: usize) -> Neighbours {
        let n = if p == 0 { 16 } else { 8 };
        let (stride, plane) = (self.mbw * n, &self.planes[p]);
        let (x0, y0) = (mx * n, my * n);
        let mut nb = Neighbours {
            top: None,
            left: None,
            corner: 0,
        };
        if my > 0 {
            let mut top = [0; 16];
            top[..n].copy_from_slice(&plane[(y0 - 1) * stride + x0..][..n]);
            nb.top = Some(top);
        }
        if mx > 0 {
            nb.left = Some(std::array::from_fn(|i| {
                plane[(y0 + i.min(n - 1)) * stride + x0 - 1]
            }));
        }
        if mx > 0 && my > 0 {
            nb.corner = plane[(y0 - 1) * stride + x0 - 1];
        }
        nb
    }

    /// nC for a 4x4 block at (bx, by) of plane `p` (clause 9.2.1): the rounded mean of
    /// TotalCoeff of the available left and upper blocks.
    fn nc(&self, p: usize, mx: usize, my: usize, bx: usize, by: usize) -> i32 {
        let (n, base) = if p == 0 { (4, 0) } else { (2, 12 + 4 * p) };
        let mb = my * self.mbw + mx;
        let at = |m: usize, x: usize, y: usize| i32::from(self.nz[m][base + y * n + x]);
        let a = match (bx, mx) {
            (0, 0) => None,
            (0, _) => Some(at(mb - 1, n - 1, by)),
            _ => Some(at(mb, bx - 1, by)),
        };
        let b = match (by, my) {
            (0, 0) => None,
            (0, _) => Some(at(mb - self.mbw, bx, n - 1)),
            _ => Some(at(mb, bx, by - 1)),
        };
        match (a, b) {
            (Some(a), Some(b)) => (a + b + 1) >> 1,
            (Some(v), None) | (None, Some(v)) => v,
            (None, None) => 0,
        }
    }

    /// macroblock_layer() (clause 7.3.5) of an I_16x16 macroblock with its residual.
    fn write_mb(
        &mut self,
        b: &mut BitWriter,
        mx: usize,
        my: usize,
        l: &Coded,
        c: [&Coded; 2],
        p_slice: bool,
    ) {
        let count = |blk: &[i32; 16]| blk.iter().filter(|&&v| v != 0).count() as u8;
        let mut nz = [0u8; 24];
        for (i, blk) in l.ac.iter().enumerate() {
            nz[i] = count(blk);
        }
        for (i, blk) in c.iter().flat_map(|p| &p.ac[..4]).enumerate() {
            nz[16 + i] = count(blk);
        }
        self.nz[my * self.mbw + mx] = nz;
        let cbp_luma = nz[..16].iter().any(|&v| v > 0);
        let cbp_chroma = if nz[16..].iter().any(|&v| v > 0) {
            2
        } else {
            u32::from(c.iter().any(|p| p.dc[..4].iter().any(|&v| v != 0)))
        };
        // mb_type for I_16x16 (Table 7-11), offset by 5 in P slices (Table 7-13).
        let mb_type = 1 + l.mode.code(true) + 4 * cbp_chroma + 12 * u32::from(cbp_luma);
        b.ue(mb_type + if p_slice { 5 } else { 0 });
        b.ue(c[0].mode.code(false)); // intra_chroma_pred_mode
        b.se(0); // mb_qp_delta
        // residual_luma(): Intra16x16DCLevel, then Intra16x16ACLevel in luma4x4BlkIdx order.
        write_block(b, &scan(&l.dc), self.nc(0, mx, my, 0, 0));
        if cbp_luma {
            for r in BLK_RASTER {
                write_block(b, &scan(&l.ac[r])[1..], self.nc(0, mx, my, r % 4, r / 4));
            }
        }
        if cbp_chroma > 0 {
            for p in c {
                write_block(b, &p.dc[..4], -1); // ChromaDCLevel, raster 2x2 (clause 8.5.11.1)
            }
        }
        if cbp_chroma == 2 {
            for (i, p) in c.iter().enumerate() {
                for (k, blk) in p.ac[..4].iter().enumerate() {
                    write_block(b, &scan(blk)[1..], self.nc(i + 1, mx, my, k % 2, k / 2));
                }
            }
        }
    }
}

/// QPc for the luma QP with chroma_qp_index_offset 0 (clause 8.5.8).
fn chroma_qp(qp: u8) -> usize {
    usize::from(if qp < 30 {
        qp
    } else {
        CHROMA_QP[usize::from(qp - 30)]
    })
}

fn scan(block: &[i32; 16]) -> [i32; 16] {
    ZIGZAG.map(|r| block[r])
}

fn sad(a: &[u8], b: &[u8], len: usize) -> u32 {
    a[..len]
        .iter()
        .zip(&b[..len])
        .map(|(&x, &y)| u32::from(x.abs_diff(y)))
        .sum()
}

fn clip(v: i32) -> u8 {
    v.clamp(0, 255) as u8
}

/// The available mode with the smallest SAD summed over `planes`; stops at a perfect match.
fn best_mode(modes: &[Pred], planes: &[(&Neighbours, &[u8])], n: usize) -> Pred {
    let mut best = (Pred::Dc, u32::MAX);
    for &m in modes {
        let cost: Option<u32> = planes
            .iter()
            .map(|(nb, src)| predict(m, nb, n).map(|p| sad(src, &p, n * n)))
            .sum();
        if let Some(c) = cost.filter(|&c| c < best.1) {
            best = (m, c);
            if c == 0 {
                break;
            }
        }
    }
    best.0
}

/// Intra prediction of an n x n block (row-major in the first n*n entries), or None if a
/// needed neighbour is unavailable. Luma: clause 8.3.3; chroma (n = 8): clause 8.3.4.
fn predict(mode: Pred, nb: &Neighbours, n: usize) -> Option<[u8; 256]> {
    let mut out = [0u8; 256];
    match mode {
        Pred::Vertical => {
            let top = nb.top?;
            out.chunks_mut(n)
                .take(n)
                .for_each(|row| row.copy_from_slice(&top[..n]));
        }
        Pred::Horizontal => {
            let left = nb.left?;
            out.chunks_mut(n)
                .take(n)
                .zip(left)
                .for_each(|(row, v)| row.fill(v));
        }
        Pred::Dc => predict_dc(nb, n, &mut out),
        Pred::Plane => {
            let (top, left) = (nb.top?, nb.left?);
            let half = n / 2;
            let at = |s: &[u8; 16], i: usize| i32::from(if i == 0 { nb.corner } else { s[i - 1] });
            // top / left sample k is at index k + 1 so that index 0 is p[-1, -1].
            let grad = |s: &[u8; 16]| -> i32 {
                (0..half)
                    .map(|k| (k as i32 + 1) * (at(s, half + k + 1) - at(s, half - 1 - k)))
                    .sum()
            };
            let scale = if n == 16 { 5 } else { 34 };
            let (bh, cv) = (
                (scale * grad(&top) + 32) >> 6,
                (scale * grad(&left) + 32) >> 6,
            );
            let a = 16 * (i32::from(left[n - 1]) + i32::from(top[n - 1]));
            let c0 = half as i32 - 1;
            for (i, v) in out[..n * n].iter_mut().enumerate() {
                let (x, y) = ((i % n) as i32, (i / n) as i32);
                *v = clip((a + bh * (x - c0) + cv * (y - c0) + 16) >> 5);
            }
        }
    }
    Some(out)
}

/// DC prediction: whole 16x16 for luma (Eqs. 8-121..8-124); per 4x4 block with the
/// position-dependent neighbour choice for chroma (clause 8.3.4.1..3).
fn predict_dc(nb: &Neighbours, n: usize, out: &mut [u8; 256]) {
    let sum = |s: &Option<[u8; 16]>, from: usize, len: usize| {
        s.map(|s| {
            s[from..from + len]
                .iter()
                .map(|&v| u32::from(v))
                .sum::<u32>()
        })
    };
    let blk = if n == 16 { 16 } else { 4 };
    let shift = if n == 16 { 4 } else { 2 };
    for by in (0..n).step_by(blk) {
        for bx in (0..n).step_by(blk) {
            let (t, l) = (sum(&nb.top, bx, blk), sum(&nb.left, by, blk));
            // Chroma blocks on the top edge (right of the first) prefer the top neighbours,
            // blocks on the left edge (below the first) prefer the left ones.
            let (t, l) = match (n == 8 && bx > 0 && by == 0, n == 8 && bx == 0 && by > 0) {
                (true, _) if t.is_some() => (t, None),
                (_, true) if l.is_some() => (None, l),
                _ => (t, l),
            };
            let dc = match (t, l) {
                (Some(t), Some(l)) => (t + l + blk as u32) >> (shift + 1),
                (Some(s), None) | (None, Some(s)) => (s + blk as u32 / 2) >> shift,
                (None, None) => 128,
            };
            for row in out[by * n..].chunks_mut(n).take(blk) {
                row[bx..bx + blk].fill(dc as u8);
            }
        }
    }
}

/// Applies a 1-D 4-point transform to the rows, then to the columns, of a 4x4 block.
fn rows_then_columns(m: &[i32; 16], pass: impl Fn([i32; 4]) -> [i32; 4]) -> [i32; 16] {
    let mut t = [0i32; 16];
    for (row, out) in m.chunks(4).zip(t.chunks_mut(4)) {
        out.copy_from_slice(&pass([row[0], row[1], row[2], row[3]]));
    }
    let mut out = [0i32; 16];
    for j in 0..4 {
        let c = pass([t[j], t[4 + j], t[8 + j], t[12 + j]]);
        (out[j], out[4 + j], out[8 + j], out[12 + j]) = (c[0], c[1], c[2], c[3]);
    }
    out
}

/// Forward 4x4 integer core transform (the inverse of clause 8.5.12.2's, unscaled).
fn fdct4(d: &[i32; 16]) -> [i32; 16] {
    rows_then_columns(d, |v| {
        let (s03, d03, s12, d12) = (v[0] + v[3], v[0] - v[3], v[1] + v[2], v[1] - v[2]);
        [s03 + s12, 2 * d03 + d12, s03 - s12, d03 - 2 * d12]
    })
}

/// Inverse 4x4 transform: rows, then columns, then (x + 32) >> 6 (clause 8.5.12.2).
fn idct4(d: &[i32; 16]) -> [i32; 16] {
    let h = rows_then_columns(d, |v| {
        let (e0, e1) = (v[0] + v[2], v[0] - v[2]);
        let (e2, e3) = ((v[1] >> 1) - v[3], v[1] + (v[3] >> 1));
        [e0 + e3, e1 + e2, e1 - e2, e0 - e3]
    });
    h.map(|v| (v + 32) >> 6)
}

/// 4x4 Hadamard H * m * H with the H of clause 8.5.10 (its own inverse up to scale).
fn hadamard4(m: &[i32; 16]) -> [i32; 16] {
    rows_then_columns(m, |v| {
        let (s01, d01, s23, d23) = (v[0] + v[1], v[0] - v[1], v[2] + v[3], v[2] - v[3]);
        [s01 + s23, s01 - s23, d01 - d23, d01 + d23]
    })
}

/// 2x2 chroma DC transform (clause 8.5.11.1); also its own inverse up to scale.
fn hadamard2(m: &[i32]) -> [i32; 4] {
    let (a, b, c, d) = (m[0], m[1], m[2], m[3]);
    [a + b + c + d, a - b + c - d, a + b - c - d, a - b - c + d]
}

fn class(raster: usize) -> usize {
    match (raster % 2, (raster / 4) % 2) {
        (0, 0) => 0,
        (1, 1) => 1,
        _ => 2,
    }
}

/// Dead-zone quantisation with rounding offset 1/3 (intra), clamped to MAX_LEVEL.
fn quant(c: i32, mf: i32, shift: u32) -> i32 {
    let q = ((i64::from(c.abs()) * i64::from(mf) + (1i64 << shift) / 3) >> shift)
        .min(MAX_LEVEL.into()) as i32;
    if c < 0 { -q } else { q }
}

/// Residual, 4x4 transforms and quantisation of one n x n plane (n = 16 luma, 8 chroma),
/// including the DC transform (4x4 Hadamard for Intra_16x16 luma, 2x2 for chroma).
fn forward(src: &[u8], pred: &[u8], n: usize, qp: usize) -> Coded {
    let nb = n / 4;
    let mut coded = Coded {
        mode: Pred::Dc,
        dc: [0; 16],
        ac: [[0; 16]; 16],
    };
    let mut dc = [0i32; 16];
    let (m, shift) = (qp % 6, 15 + qp as u32 / 6);
    for (b, (ac, dc)) in coded.ac.iter_mut().zip(&mut dc).take(nb * nb).enumerate() {
        let (bx, by) = ((b % nb) * 4, (b / nb) * 4);
        let res = std::array::from_fn(|i| {
            let at = (by + i / 4) * n + bx + i % 4;
            i32::from(src[at]) - i32::from(pred[at])
        });
        if res.iter().all(|&v| v == 0) {
            (*dc, *ac) = (0, [0; 16]);
            continue;
        }
        let c = fdct4(&res);
        *dc = c[0];
        *ac = std::array::from_fn(|i| {
            if i == 0 {
                0
            } else {
                quant(c[i], QUANT[m][class(i)], shift)
            }
        });
    }
    if n == 16 {
        let h = hadamard4(&dc).map(|v| (v + 1) >> 1);
        coded.dc = h.map(|v| quant(v, QUANT[m][0], shift + 1));
    } else {
        let h = hadamard2(&dc);
        coded.dc[..4].copy_from_slice(&h.map(|v| quant(v, QUANT[m][0], shift + 1)));
    }
    coded
}

/// The decoder's scaling and inverse transforms (clauses 8.5.10, 8.5.11.2, 8.5.12) and
/// picture construction with clipping: returns the n x n reconstructed samples.
fn inverse(coded: &Coded, pred: &[u8], n: usize, qp: usize) -> [u8; 256] {
    let nb = n / 4;
    let (m, q6) = (qp % 6, qp as i32 / 6);
    let ls = 16 * DEQUANT[m][0]; // LevelScale4x4(qP % 6, 0, 0)
    let dc: [i32; 16] = if n == 16 {
        hadamard4(&coded.dc).map(|f| match q6 {
            6.. => (f * ls) << (q6 - 6),
            _ => (f * ls + (1 << (5 - q6))) >> (6 - q6),
        })
    } else {
        let mut d = [0; 16];
        d[..4].copy_from_slice(&hadamard2(&coded.dc).map(|f| ((f * ls) << q6) >> 5));
        d
    };
    let mut out = [0u8; 256];
    for (b, (ac, &dc)) in coded.ac.iter().zip(&dc).take(nb * nb).enumerate() {
        // AC scaling: (c * LevelScale) << (qP/6 - 4), which equals c * v << qP/6 (flat lists).
        let r = if ac.iter().all(|&v| v == 0) {
            [(dc + 32) >> 6; 16] // the inverse transform of a DC-only block
        } else {
            let mut d: [i32; 16] = std::array::from_fn(|i| (ac[i] * DEQUANT[m][class(i)]) << q6);
            d[0] = dc;
            idct4(&d)
        };
        let (bx, by) = ((b % nb) * 4, (b / nb) * 4);
        for (i, &v) in r.iter().enumerate() {
            let at = (by + i / 4) * n + bx + i % 4;
            out[at] = clip(i32::from(pred[at]) + v);
        }
    }
    out
}
