//! Sequence parameter set parsing (ITU-T H.264 clause 7.3.2.1.1), as far as the
//! displayed picture size.
//!
//! The MP4 sample entry needs the picture's width and height; they follow from
//! `pic_width_in_mbs_minus1`, `pic_height_in_map_units_minus1`, `frame_mbs_only_flag`
//! and the frame cropping rectangle, which sit after a variable-length prefix: the High
//! profiles' chroma format, bit depths and scaling matrices, and the picture order count
//! fields. All of those are parsed (or skipped exactly); the VUI after the cropping
//! rectangle is not needed and not read.
//!
//! Errors are typed: [`MuxError::SpsTruncated`] with the bit offset where the data ran
//! out, [`MuxError::SpsInvalid`] for a value H.264 does not allow.

use super::error::MuxError;

/// What this crate needs to know from an SPS.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sps {
    /// profile_idc (66 Baseline, 77 Main, 100 High, ...).
    pub profile_idc: u8,
    /// The byte of constraint_set0..5 flags and reserved bits.
    pub constraint_flags: u8,
    /// level_idc (e.g. 31 for level 3.1).
    pub level_idc: u8,
    /// seq_parameter_set_id.
    pub id: u32,
    /// chroma_format_idc: 0 monochrome, 1 4:2:0, 2 4:2:2, 3 4:4:4.
    pub chroma_format_idc: u32,
    /// separate_colour_plane_flag (4:4:4 coded as three monochrome planes).
    pub separate_colour_plane: bool,
    /// Luma sample bit depth.
    pub bit_depth_luma: u32,
    /// Chroma sample bit depth.
    pub bit_depth_chroma: u32,
    /// seq_scaling_matrix_present_flag (the lists themselves are skipped).
    pub scaling_matrix: bool,
    /// pic_order_cnt_type (0, 1 or 2).
    pub pic_order_cnt_type: u32,
    /// max_num_ref_frames.
    pub max_num_ref_frames: u32,
    /// frame_mbs_only_flag: false if the stream may code fields.
    pub frame_mbs_only: bool,
    /// Coded width in pixels (whole macroblocks).
    pub coded_width: u32,
    /// Coded frame height in pixels (whole macroblocks).
    pub coded_height: u32,
    /// Displayed width: coded width less the cropping rectangle.
    pub width: u32,
    /// Displayed height: coded height less the cropping rectangle.
    pub height: u32,
}

/// Largest pic_width_in_mbs_minus1 / pic_height_in_map_units_minus1 accepted: 4096
/// macroblocks is 65536 pixels, far beyond any H.264 level.
const MAX_MBS_MINUS1: u32 = 4095;

/// Removes emulation prevention bytes: every `03` that follows `00 00` (clause 7.4.1).
pub fn unescape(nal: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(nal.len());
    let mut zeros = 0;
    for &b in nal {
        if zeros >= 2 && b == 3 {
            zeros = 0;
            continue;
        }
        zeros = if b == 0 { zeros + 1 } else { 0 };
        out.push(b);
    }
    out
}

impl Sps {
    /// Parses an SPS NAL unit as found in the stream: header byte first, emulation
    /// prevention bytes still in (they are removed here).
    pub fn parse(nal: &[u8]) -> Result<Sps, MuxError> {
        let nal_type = nal.first().map_or(0, |b| b & 0x1f);
        if nal_type != 7 {
            return Err(MuxError::NotSps { nal_type });
        }
        let rbsp = unescape(nal.get(1..).unwrap_or_default());
        Sps::parse_rbsp(&rbsp)
    }

    /// Parses the SPS payload after the NAL header byte, emulation prevention removed.
    pub fn parse_rbsp(rbsp: &[u8]) -> Result<Sps, MuxError> {
        let mut r = Bits::new(rbsp);
        let profile_idc = r.bits(8, "profile_idc")? as u8;
        let constraint_flags = r.bits(8, "constraint_set_flags")? as u8;
        let level_idc = r.bits(8, "level_idc")? as u8;
        let id = r.ue_max(31, "seq_parameter_set_id")?;
        let chroma = if has_chroma_info(profile_idc) {
            r.chroma_info()?
        } else {
            Chroma::DEFAULT
        };
        r.ue_max(12, "log2_max_frame_num_minus4")?;
        let pic_order_cnt_type = r.pic_order_cnt()?;
        let max_num_ref_frames = r.ue_max(16, "max_num_ref_frames")?;
        r.bits(1, "gaps_in_frame_num_value_allowed_flag")?;
        let size = r.frame_size(&chroma)?;
        Ok(Sps {
            profile_idc,
            constraint_flags,
            level_idc,
            id,
            chroma_format_idc: chroma.format_idc,
            separate_colour_plane: chroma.separate_planes,
            bit_depth_luma: chroma.bit_depth_luma,
            bit_depth_chroma: chroma.bit_depth_chroma,
            scaling_matrix: chroma.scaling_matrix,
            pic_order_cnt_type,
            max_num_ref_frames,
            frame_mbs_only: size.frame_mbs_only,
            coded_width: size.coded.0,
            coded_height: size.coded.1,
            width: size.shown.0,
            height: size.shown.1,
        })
    }
}

/// Profiles whose SPS carries chroma_format_idc, bit depths and scaling matrices.
fn has_chroma_info(profile_idc: u8) -> bool {
    matches!(
        profile_idc,
        100 | 110 | 122 | 244 | 44 | 83 | 86 | 118 | 128 | 138 | 139 | 134 | 135
    )
}

/// Chroma format and bit depths (defaults: 4:2:0, 8 bits).
struct Chroma {
    format_idc: u32,
    separate_planes: bool,
    bit_depth_luma: u32,
    bit_depth_chroma: u32,
    scaling_matrix: bool,
}

impl Chroma {
    const DEFAULT: Chroma = Chroma {
        format_idc: 1,
        separate_planes: false,
        bit_depth_luma: 8,
        bit_depth_chroma: 8,
        scaling_matrix: false,
    };

    /// ChromaArrayType (clause 7.4.2.1.1): 0 when the colour planes are coded separately.
    fn array_type(&self) -> u32 {
        if self.separate_planes {
            0
        } else {
            self.format_idc
        }
    }

    /// (CropUnitX, CropUnitY) for a frame of `2 - frame_mbs_only_flag` fields (Eq. 7-19..7-22).
    fn crop_units(&self, frame_mbs_only: bool) -> (u32, u32) {
        let fields = if frame_mbs_only { 1 } else { 2 };
        match self.array_type() {
            0 => (1, fields),
            1 => (2, 2 * fields),
            2 => (2, fields),
            _ => (1, fields),
        }
    }
}

/// Coded and displayed size.
struct FrameSize {
    frame_mbs_only: bool,
    coded: (u32, u32),
    shown: (u32, u32),
}

/// MSB-first bit reader over an RBSP.
struct Bits<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Bits<'a> {
    fn new(data: &'a [u8]) -> Bits<'a> {
        Bits { data, pos: 0 }
    }

    fn bit(&mut self, field: &'static str) -> Result<u32, MuxError> {
        let byte = self.data.get(self.pos / 8).ok_or(MuxError::SpsTruncated {
            bit: self.pos,
            field,
        })?;
        let v = (byte >> (7 - self.pos % 8)) & 1;
        self.pos += 1;
        Ok(u32::from(v))
    }

    /// Reads `n` <= 32 bits.
    fn bits(&mut self, n: u32, field: &'static str) -> Result<u32, MuxError> {
        let mut v: u64 = 0;
        for _ in 0..n.min(32) {
            v = (v << 1) | u64::from(self.bit(field)?);
        }
        Ok(v as u32)
    }

    /// ue(v) (clause 9.1); values above u32::MAX are rejected.
    fn ue(&mut self, field: &'static str) -> Result<u32, MuxError> {
        let mut zeros = 0u32;
        while self.bit(field)? == 0 {
            zeros += 1;
            if zeros > 32 {
                return Err(self.invalid(field, i64::from(zeros)));
            }
        }
        let rest = u64::from(self.bits(zeros, field)?);
        let v = (1u64 << zeros) - 1 + rest;
        u32::try_from(v).map_err(|_| self.invalid(field, v as i64))
    }

    /// ue(v) that must not exceed `max`.
    fn ue_max(&mut self, max: u32, field: &'static str) -> Result<u32, MuxError> {
        let v = self.ue(field)?;
        if v > max {
            return Err(self.invalid(field, i64::from(v)));
        }
        Ok(v)
    }

    /// se(v) (clause 9.1.1).
    fn se(&mut self, field: &'static str) -> Result<i64, MuxError> {
        let k = i64::from(self.ue(field)?);
        Ok(if k % 2 == 1 { (k + 1) / 2 } else { -(k / 2) })
    }

    fn invalid(&self, field: &'static str, value: i64) -> MuxError {
        MuxError::SpsInvalid {
            field,
            value,
            bit: self.pos,
        }
    }

    /// chroma_format_idc .. seq_scaling_matrix_present_flag of the High profiles.
    fn chroma_info(&mut self) -> Result<Chroma, MuxError> {
        let format_idc = self.ue_max(3, "chroma_format_idc")?;
        let separate_planes = format_idc == 3 && self.bit("separate_colour_plane_flag")? == 1;
        let luma = self.ue_max(6, "bit_depth_luma_minus8")?;
        let chroma = self.ue_max(6, "bit_depth_chroma_minus8")?;
        self.bit("qpprime_y_zero_transform_bypass_flag")?;
        let scaling_matrix = self.bit("seq_scaling_matrix_present_flag")? == 1;
        if scaling_matrix {
            let lists = if format_idc == 3 { 12 } else { 8 };
            for i in 0..lists {
                if self.bit("seq_scaling_list_present_flag")? == 1 {
                    self.skip_scaling_list(if i < 6 { 16 } else { 64 })?;
                }
            }
        }
        Ok(Chroma {
            format_idc,
            separate_planes,
            bit_depth_luma: luma + 8,
            bit_depth_chroma: chroma + 8,
            scaling_matrix,
        })
    }

    /// scaling_list() (clause 7.3.2.1.1.1): reads the delta_scale values of one list.
    fn skip_scaling_list(&mut self, size: usize) -> Result<(), MuxError> {
        let (mut last, mut next) = (8i64, 8i64);
        for _ in 0..size {
            if next != 0 {
                let delta = self.se("delta_scale")?;
                if !(-128..=127).contains(&delta) {
                    return Err(self.invalid("delta_scale", delta));
                }
                next = (last + delta + 256) % 256;
            }
            if next != 0 {
                last = next;
            }
        }
        Ok(())
    }

    /// pic_order_cnt_type and the fields that depend on it; returns the type.
    fn pic_order_cnt(&mut self) -> Result<u32, MuxError> {
        let poc_type = self.ue_max(2, "pic_order_cnt_type")?;
        if poc_type == 0 {
            self.ue_max(12, "log2_max_pic_order_cnt_lsb_minus4")?;
        } else if poc_type == 1 {
            self.bit("delta_pic_order_always_zero_flag")?;
            self.se("offset_for_non_ref_pic")?;
            self.se("offset_for_top_to_bottom_field")?;
            let cycle = self.ue_max(255, "num_ref_frames_in_pic_order_cnt_cycle")?;
            for _ in 0..cycle {
                self.se("offset_for_ref_frame")?;
            }
        }
        Ok(poc_type)
    }

    /// pic_width_in_mbs_minus1 .. frame_crop_bottom_offset: the coded and displayed size.
    fn frame_size(&mut self, chroma: &Chroma) -> Result<FrameSize, MuxError> {
        let width_mbs = self.ue_max(MAX_MBS_MINUS1, "pic_width_in_mbs_minus1")? + 1;
        let map_units = self.ue_max(MAX_MBS_MINUS1, "pic_height_in_map_units_minus1")? + 1;
        let frame_mbs_only = self.bit("frame_mbs_only_flag")? == 1;
        if !frame_mbs_only {
            self.bit("mb_adaptive_frame_field_flag")?;
        }
        self.bit("direct_8x8_inference_flag")?;
        let height_mbs = if frame_mbs_only {
            map_units
        } else {
            2 * map_units
        };
        let coded = (16 * width_mbs, 16 * height_mbs);
        let mut shown = coded;
        if self.bit("frame_cropping_flag")? == 1 {
            let (ux, uy) = chroma.crop_units(frame_mbs_only);
            let mut crop = [0u64; 4];
            for (c, field) in crop.iter_mut().zip(CROP_FIELDS) {
                *c = u64::from(self.ue(field)?);
            }
            let cut_x = u64::from(ux) * (crop[0] + crop[1]);
            let cut_y = u64::from(uy) * (crop[2] + crop[3]);
            if cut_x >= u64::from(coded.0) {
                return Err(self.invalid("frame_crop_left/right_offset", cut_x as i64));
            }
            if cut_y >= u64::from(coded.1) {
                return Err(self.invalid("frame_crop_top/bottom_offset", cut_y as i64));
            }
            shown = (coded.0 - cut_x as u32, coded.1 - cut_y as u32);
        }
        Ok(FrameSize {
            frame_mbs_only,
            coded,
            shown,
        })
    }
}

const CROP_FIELDS: [&str; 4] = [
    "frame_crop_left_offset",
    "frame_crop_right_offset",
    "frame_crop_top_offset",
    "frame_crop_bottom_offset",
];

#[cfg(test)]
mod tests {
    use super::*;

    /// MSB-first bit writer for hand-made SPSs.
    #[derive(Default)]
    struct W {
        bytes: Vec<u8>,
        n: usize,
    }

    impl W {
        fn put(&mut self, v: u64, bits: u32) -> &mut W {
            for i in (0..bits).rev() {
                if self.n.is_multiple_of(8) {
                    self.bytes.push(0);
                }
                if (v >> i) & 1 == 1
                    && let Some(b) = self.bytes.last_mut()
                {
                    *b |= 0x80 >> (self.n % 8);
                }
                self.n += 1;
            }
            self
        }
        fn ue(&mut self, v: u64) -> &mut W {
            let len = 64 - (v + 1).leading_zeros();
            self.put(0, len - 1).put(v + 1, len)
        }
        fn se(&mut self, v: i64) -> &mut W {
            self.ue(if v > 0 {
                2 * v as u64 - 1
            } else {
                (-2 * v) as u64
            })
        }
    }

    #[test]
    fn unescape_removes_only_emulation_prevention() {
        assert_eq!(
            unescape(&[0, 0, 3, 1, 0, 0, 3, 0, 3]),
            [0, 0, 1, 0, 0, 0, 3]
        );
        assert_eq!(unescape(&[0, 3, 0, 0, 3]), [0, 3, 0, 0]);
    }

    #[test]
    fn real_x264_sps_320x240() {
        // High profile level 1.3, from the mp4 crate's own avc1 test (an x264 stream).
        let sps = [
            0x67, 0x64, 0x00, 0x0D, 0xAC, 0xD9, 0x41, 0x41, 0xFA, 0x10, 0x00, 0x00, 0x03, 0x00,
            0x10, 0x00, 0x00, 0x03, 0x03, 0x20, 0xF1, 0x42, 0x99, 0x60,
        ];
        let s = Sps::parse(&sps).expect("valid SPS");
        assert_eq!(
            (s.width, s.height, s.profile_idc, s.level_idc),
            (320, 240, 100, 13)
        );
        assert_eq!((s.chroma_format_idc, s.bit_depth_luma), (1, 8));
    }

    #[test]
    fn real_baseline_sps_with_cropping_1920x1080() {
        // Constrained Baseline level 4.0, POC type 2, 1920x1088 cropped by 8 rows to 1080,
        // with a VUI: the usual shape of a hardware encoder's SPS (decoded by hand).
        let sps = [
            0x67, 0x42, 0xc0, 0x28, 0xda, 0x01, 0xe0, 0x08, 0x9f, 0x96, 0x10, 0x00, 0x00,
        ];
        let s = Sps::parse(&sps).expect("valid SPS");
        assert_eq!((s.coded_width, s.coded_height), (1920, 1088));
        assert_eq!((s.width, s.height, s.pic_order_cnt_type), (1920, 1080, 2));
    }

    /// High 4:2:2 10-bit, scaling matrices with a zero `nextScale` (list ends early),
    /// POC type 1 with a 3-entry cycle, field coding and cropping.
    #[test]
    fn hand_made_high422_poc1_fields_scaling_lists() {
        let mut w = W::default();
        w.put(122, 8).put(0, 8).put(40, 8).ue(3);
        w.ue(2).ue(2).ue(2).put(0, 1).put(1, 1); // 4:2:2, 10/10 bits, scaling matrix
        w.put(1, 1).se(-8); // list 0: delta -8 -> nextScale 0, rest use lastScale
        w.put(1, 1);
        for k in 0..16 {
            w.se(if k % 2 == 0 { 3 } else { -3 });
        }
        w.put(0, 6); // lists 2..7 absent
        w.ue(0)
            .ue(1)
            .put(0, 1)
            .se(-2)
            .se(5)
            .ue(3)
            .se(1)
            .se(-7)
            .se(100); // POC type 1
        w.ue(4)
            .put(0, 1)
            .ue(119)
            .ue(33)
            .put(0, 1)
            .put(1, 1)
            .put(1, 1); // 1920 x 2*34 MBs
        w.put(1, 1).ue(1).ue(3).ue(0).ue(4); // crop (2,1 units): x 2+6, y 0+4
        let s = Sps::parse_rbsp(&w.bytes).expect("valid SPS");
        assert_eq!(
            (s.chroma_format_idc, s.bit_depth_luma, s.bit_depth_chroma),
            (2, 10, 10)
        );
        assert_eq!(
            (s.pic_order_cnt_type, s.max_num_ref_frames, s.frame_mbs_only),
            (1, 4, false)
        );
        assert_eq!((s.coded_width, s.coded_height), (1920, 1088));
        assert_eq!((s.width, s.height, s.id), (1920 - 8, 1088 - 8, 3));
    }

    #[test]
    fn hand_made_high444_separate_planes_twelve_lists() {
        let mut w = W::default();
        w.put(244, 8).put(0, 8).put(51, 8).ue(0);
        w.ue(3).put(1, 1).ue(0).ue(0).put(0, 1).put(1, 1); // 4:4:4 separate planes
        for i in 0..12 {
            w.put(1, 1);
            for _ in 0..(if i < 6 { 16 } else { 64 }) {
                w.se(1);
            }
        }
        w.ue(12).ue(0).ue(12).ue(16).put(1, 1); // POC type 0
        w.ue(10)
            .ue(5)
            .put(1, 1)
            .put(1, 1)
            .put(1, 1)
            .ue(1)
            .ue(2)
            .ue(3)
            .ue(4);
        let s = Sps::parse_rbsp(&w.bytes).expect("valid SPS");
        assert!(s.separate_colour_plane && s.scaling_matrix);
        assert_eq!((s.width, s.height), (176 - 3, 96 - 7)); // crop units 1x1
    }

    #[test]
    fn truncation_and_garbage_are_typed_errors() {
        let sps = [0x67, 0x64, 0x00, 0x0D, 0xAC, 0xD9, 0x41];
        match Sps::parse(&sps) {
            Err(MuxError::SpsTruncated { bit, field }) => {
                assert_eq!((bit, field), (48, "pic_width_in_mbs_minus1"));
                let msg = Sps::parse(&sps).unwrap_err().to_string();
                assert!(msg.contains("SPS truncated at bit 48"), "{msg}");
            }
            other => panic!("expected truncation, got {other:?}"),
        }
        assert!(matches!(
            Sps::parse(&[0x68, 1, 2]),
            Err(MuxError::NotSps { nal_type: 8 })
        ));
        assert!(matches!(
            Sps::parse(&[]),
            Err(MuxError::NotSps { nal_type: 0 })
        ));
        let zeros = [0x67, 0x42, 0, 0x1e, 0, 0, 0, 0, 0, 0, 0, 0, 0];
        assert!(matches!(
            Sps::parse(&zeros),
            Err(MuxError::SpsInvalid { .. })
        ));
        let mut w = W::default();
        w.put(66, 8).put(0, 8).put(30, 8).ue(32);
        let err = Sps::parse_rbsp(&w.bytes).unwrap_err();
        assert!(
            err.to_string().contains("seq_parameter_set_id is 32"),
            "{err}"
        );
    }
}
