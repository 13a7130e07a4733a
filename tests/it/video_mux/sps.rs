//! SPS parsing against real encoders: the simulated phone's encoder at many sizes (odd ones included) and
//! x264 (through ffmpeg's libx264) in the shapes that exercise the parser: High 4:2:2
//! 10-bit, 4:4:4 with odd sizes, monochrome, custom and default scaling matrices,
//! interlaced (field) coding, B-frames (POC type 0) and none (POC type 2), and cropping.
//! Each parsed size is also checked against ffprobe's. ffmpeg with libx264 is required.

use super::common::*;
use std::process::Command;
use sudoku_autoplay::video::annexb::AccessUnits;
use sudoku_autoplay::video::sps::Sps;

/// The first SPS NAL unit of an Annex B stream, found with the splitter.
fn first_sps(stream: &[u8]) -> Vec<u8> {
    let mut au = AccessUnits::new();
    let mut units = au.push(stream, 0);
    units.extend(au.finish());
    let sps = units
        .iter()
        .flat_map(|u| &u.nals)
        .find(|n| n[0] & 0x1f == 7);
    sps.expect("the stream has an SPS").clone()
}

#[test]
#[cfg_attr(
    not(ffmpeg),
    ignore = "needs ffmpeg and ffprobe on the PATH (Debian: apt-get install ffmpeg; then `touch build.rs`)"
)]
fn h264enc_sps_sizes() {
    let sizes = [
        (16, 16),
        (1, 1),
        (2, 3),
        (17, 47),
        (97, 61),
        (192, 320),
        (720, 1280),
    ];
    for (w, h) in sizes
        .into_iter()
        .chain([(1080, 2400), (1081, 2401), (1440, 3120)])
    {
        let mut enc = autoplay_sim::video::h264::Encoder::new(w, h, 30);
        let au = enc.encode(&vec![128; (w * h * 4) as usize], false);
        let sps = Sps::parse(&first_sps(&au)).unwrap_or_else(|e| panic!("{w}x{h}: {e}"));
        assert_eq!((sps.width, sps.height), enc.stream_size(), "{w}x{h}");
        assert_eq!(
            (sps.width, sps.height),
            (w + w % 2, h + h % 2),
            "{w}x{h}: rounded up to even"
        );
        assert_eq!(
            (sps.profile_idc, sps.pic_order_cnt_type, sps.frame_mbs_only),
            (66, 2, true)
        );
        assert_eq!(
            (sps.coded_width, sps.coded_height),
            (w.div_ceil(16) * 16, h.div_ceil(16) * 16)
        );
    }
}

/// One x264 case: source size, ffmpeg output options, and the expected
/// (profile_idc, chroma_format_idc, luma bit depth, frame_mbs_only, pic_order_cnt_type).
struct Case {
    size: (u32, u32),
    args: &'static [&'static str],
    want: (u8, u32, u32, bool, u32),
}

const CASES: [Case; 9] = [
    Case {
        size: (1080, 2400),
        args: &["-pix_fmt", "yuv420p"],
        want: (100, 1, 8, true, 0),
    },
    Case {
        size: (1366, 768),
        args: &["-pix_fmt", "yuv420p", "-profile:v", "baseline"],
        want: (66, 1, 8, true, 2),
    },
    Case {
        size: (642, 362),
        args: &["-pix_fmt", "yuv420p", "-bf", "0"],
        want: (100, 1, 8, true, 2),
    },
    Case {
        size: (320, 242),
        args: &["-pix_fmt", "yuv422p10le"],
        want: (122, 2, 10, true, 0),
    },
    Case {
        size: (33, 17),
        args: &["-pix_fmt", "yuv444p"],
        want: (244, 3, 8, true, 0),
    },
    Case {
        size: (101, 57),
        args: &["-pix_fmt", "gray"],
        want: (100, 0, 8, true, 0),
    },
    Case {
        size: (320, 240),
        args: &["-pix_fmt", "yuv420p", "-x264-params", "cqm=jvt"],
        want: (100, 1, 8, true, 0),
    },
    Case {
        size: (176, 144),
        args: &[
            "-pix_fmt",
            "yuv420p",
            "-x264-params",
            "cqm4=16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31:cqm8=40",
        ],
        want: (100, 1, 8, true, 0),
    },
    Case {
        size: (720, 576),
        args: &[
            "-pix_fmt",
            "yuv420p",
            "-flags",
            "+ildct+ilme",
            "-x264-params",
            "interlaced=1",
        ],
        want: (100, 1, 8, false, 0),
    },
];

fn x264_stream(case: &Case, path: &std::path::Path) -> Vec<u8> {
    require("ffmpeg");
    let size = format!("testsrc=size={}x{}:rate=5", case.size.0, case.size.1);
    let out = Command::new("ffmpeg")
        .args([
            "-v",
            "error",
            "-y",
            "-f",
            "lavfi",
            "-i",
            &size,
            "-frames:v",
            "3",
            "-c:v",
            "libx264",
        ])
        .args(case.args)
        .args(["-f", "h264", path_str(path)])
        .output()
        .expect("run ffmpeg");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "ffmpeg could not encode with libx264 {:?} (is Debian's ffmpeg with libx264 installed?): {stderr}",
        case.args
    );
    std::fs::read(path).expect("read the x264 stream")
}

#[test]
#[cfg_attr(
    not(ffmpeg),
    ignore = "needs ffmpeg and ffprobe on the PATH (Debian: apt-get install ffmpeg; then `touch build.rs`)"
)]
fn x264_sps_shapes() {
    let dir = temp_dir("x264");
    for (i, case) in CASES.iter().enumerate() {
        let path = dir.join(format!("case{i}.h264"));
        let stream = x264_stream(case, &path);
        let nal = first_sps(&stream);
        let sps = Sps::parse(&nal).unwrap_or_else(|e| panic!("case {i} {:?}: {e}", case.args));
        println!("case {i} {:?}: {sps:?}", case.args);
        assert_eq!((sps.width, sps.height), case.size, "case {i}: size");
        let got = (
            sps.profile_idc,
            sps.chroma_format_idc,
            sps.bit_depth_luma,
            sps.frame_mbs_only,
            sps.pic_order_cnt_type,
        );
        assert_eq!(
            got, case.want,
            "case {i}: (profile, chroma, depth, frame_mbs_only, poc)"
        );
        let probe = ffprobe_sections(
            &path,
            &[
                "-select_streams",
                "v:0",
                "-show_entries",
                "stream=width,height",
            ],
        );
        let (w, h) = (field(&probe[0], "width"), field(&probe[0], "height"));
        assert_eq!(
            (w, h),
            (
                sps.width.to_string().as_str(),
                sps.height.to_string().as_str()
            ),
            "case {i}: ffprobe"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
