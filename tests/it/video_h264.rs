//! The simulated phone's H.264 encoder (`autoplay_sim::video::h264`, what its `screenrecord`
//! streams): every stream is decoded by ffmpeg (an independent decoder) and must match the
//! encoder's reconstruction bit for bit. Without ffmpeg and ffprobe on the PATH these tests are
//! ignored, with the reason.

use autoplay_sim::video::h264::{DEFAULT_QP, Encoder};
use std::process::Command;

/// 5x7 glyphs of the digits 1..=9, one row per byte (bit 4 = leftmost column).
#[rustfmt::skip]
const GLYPHS: [[u8; 7]; 9] = [
    [4, 12, 4, 4, 4, 4, 14], [14, 17, 1, 2, 4, 8, 31], [31, 2, 4, 2, 1, 17, 14],
    [2, 6, 10, 18, 31, 2, 2], [31, 16, 30, 1, 1, 17, 14], [6, 8, 16, 30, 17, 17, 14],
    [31, 1, 2, 4, 8, 8, 8], [14, 17, 17, 14, 17, 17, 14], [14, 17, 17, 15, 1, 2, 12],
];

/// A Sudoku puzzle (0 = empty).
const PUZZLE: &str =
    "530070000600195000098000060800060003400803001700020006060000280000419005000080079";

/// A user-entered digit: row, column, value.
type Digit = (usize, usize, u8);

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u8 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 24) as u8
    }
}

struct Canvas {
    w: usize,
    h: usize,
    px: Vec<u8>,
}

impl Canvas {
    fn new(w: usize, h: usize, rgb: [u8; 3]) -> Canvas {
        let mut c = Canvas {
            w,
            h,
            px: vec![255; w * h * 4],
        };
        c.rect(0, 0, w, h, rgb);
        c
    }

    fn rect(&mut self, x: usize, y: usize, w: usize, h: usize, rgb: [u8; 3]) {
        for yy in y.min(self.h)..(y + h).min(self.h) {
            for xx in x.min(self.w)..(x + w).min(self.w) {
                self.px[(yy * self.w + xx) * 4..][..3].copy_from_slice(&rgb);
            }
        }
    }

    fn digit(&mut self, x: usize, y: usize, scale: usize, d: u8, rgb: [u8; 3]) {
        for (row, bits) in GLYPHS[usize::from(d - 1)].iter().enumerate() {
            for col in 0..5 {
                if bits & (0x10 >> col) != 0 {
                    self.rect(x + col * scale, y + row * scale, scale, scale, rgb);
                }
            }
        }
    }
}

/// A Sudoku app screen: status bar, board with digits, optional selected cell (row/column/
/// box highlight) and user-entered digits, and a number pad.
fn sudoku(w: usize, h: usize, selected: Option<(usize, usize)>, entered: &[Digit]) -> Vec<u8> {
    let mut c = Canvas::new(w, h, [250, 250, 250]);
    c.rect(0, 0, w, h / 24, [30, 60, 120]);
    let unit = (w / 9 / 12).max(1);
    for (i, d) in [1, 2, 3, 4].into_iter().enumerate() {
        c.digit(w / 30 + i * 7 * unit, h / 96, unit, d, [255, 255, 255]);
    }
    let cell = w * 9 / 10 / 9;
    let (bx, by) = (w / 20, h / 5);
    if let Some((r, col)) = selected {
        for k in 0..9 {
            c.rect(bx + k * cell, by + r * cell, cell, cell, [220, 230, 245]);
            c.rect(bx + col * cell, by + k * cell, cell, cell, [220, 230, 245]);
            let (br, bc) = (r / 3 * 3 + k / 3, col / 3 * 3 + k % 3);
            c.rect(bx + bc * cell, by + br * cell, cell, cell, [220, 230, 245]);
        }
        c.rect(bx + col * cell, by + r * cell, cell, cell, [187, 222, 251]);
    }
    let givens = PUZZLE.bytes().enumerate().filter(|c| c.1 > b'0');
    let givens = givens.map(|(i, ch)| (i / 9, i % 9, ch - b'0', [0, 0, 0]));
    for (r, col, d, rgb) in givens.chain(entered.iter().map(|&(r, c, d)| (r, c, d, [50, 90, 200])))
    {
        let s = (cell / 12).max(1);
        let (x, y) = (
            (cell / 2).saturating_sub(2 * s),
            (cell / 2).saturating_sub(3 * s),
        );
        c.digit(bx + col * cell + x, by + r * cell + y, s, d, rgb);
    }
    for k in 0..=9 {
        let t = if k % 3 == 0 { 2 + cell / 40 } else { 1 };
        c.rect(bx + k * cell, by, t, 9 * cell, [40, 40, 40]);
        c.rect(bx, by + k * cell, 9 * cell, t, [40, 40, 40]);
    }
    for d in 1..=9u8 {
        let x = bx + usize::from(d - 1) * cell;
        c.rect(
            x + 2,
            by + 10 * cell,
            cell.saturating_sub(4),
            cell * 3 / 2,
            [230, 230, 235],
        );
        c.digit(
            x + cell / 3,
            by + 10 * cell + cell / 3,
            (cell / 14).max(1),
            d,
            [30, 60, 120],
        );
    }
    c.px
}

fn noise_frame(w: usize, h: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng(seed | 1);
    (0..w * h * 4).map(|_| rng.next()).collect()
}

/// Extreme content: 1-pixel checkerboard and saturated blocks (large coefficients).
fn harsh_frame(w: usize, h: usize) -> Vec<u8> {
    let mut c = Canvas::new(w, h, [0, 0, 0]);
    for y in 0..h {
        for x in 0..w {
            let on = (x + y) % 2 == 0 || (x / 16 + y / 16) % 3 == 0;
            let v = if on { [255, 0, 255] } else { [0, 255, 0] };
            c.px[(y * w + x) * 4..][..3].copy_from_slice(&v);
        }
    }
    c.rect(w / 2, h / 2, 16, 16, [255, 255, 255]);
    c.px
}

fn require(tool: &str) {
    let ok = Command::new(tool)
        .arg("-version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        ok,
        "`{tool}` is not on the PATH: these decode tests need ffmpeg and ffprobe installed"
    );
}

fn temp_path(tag: &str, ext: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("autoplay-h264-{}-{tag}.{ext}", std::process::id()))
}

/// Decodes an Annex B stream with ffmpeg to raw yuv420p.
fn ffmpeg_decode(stream: &[u8], tag: &str) -> Vec<u8> {
    require("ffmpeg");
    let (input, output) = (temp_path(tag, "h264"), temp_path(tag, "yuv"));
    std::fs::write(&input, stream).unwrap();
    let out = Command::new("ffmpeg")
        .args([
            "-v",
            "error",
            "-y",
            "-xerror",
            "-err_detect",
            "+bitstream+buffer+explode",
        ])
        .args(["-f", "h264", "-i"])
        .arg(&input)
        .args([
            "-fps_mode",
            "passthrough",
            "-f",
            "rawvideo",
            "-pix_fmt",
            "yuv420p",
        ])
        .arg(&output)
        .output()
        .expect("run ffmpeg");
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(
        out.status.success() && stderr.trim().is_empty(),
        "ffmpeg failed for {tag}: {stderr}"
    );
    let yuv = std::fs::read(&output).unwrap();
    let _ = std::fs::remove_file(&output);
    let probe = ffprobe(&input);
    let _ = std::fs::remove_file(&input);
    assert!(probe.contains("codec_name=h264"), "{tag}: {probe}");
    assert!(
        probe.contains("profile=Constrained Baseline"),
        "{tag}: {probe}"
    );
    yuv
}

fn ffprobe(path: &std::path::Path) -> String {
    require("ffprobe");
    let out = Command::new("ffprobe")
        .args(["-v", "error", "-select_streams", "v:0", "-show_entries"])
        .args([
            "stream=codec_name,profile,width,height",
            "-of",
            "default=nw=1",
        ])
        .arg(path)
        .output()
        .expect("run ffprobe");
    String::from_utf8_lossy(&out.stdout).to_string()
}

fn probe_size(stream: &[u8], tag: &str) -> (usize, usize) {
    let path = temp_path(tag, "probe.h264");
    std::fs::write(&path, stream).unwrap();
    let probe = ffprobe(&path);
    let _ = std::fs::remove_file(&path);
    let get = |k: &str| {
        let line = probe
            .lines()
            .find(|l| l.starts_with(k))
            .unwrap_or_else(|| panic!("{tag}: no {k} in {probe}"));
        line[k.len()..].trim().parse::<usize>().unwrap()
    };
    (get("width="), get("height="))
}

/// Crops one decoded frame (stream size sw x sh) to w x h planes.
fn crop(frame: &[u8], sw: usize, sh: usize, w: usize, h: usize) -> Vec<u8> {
    let (scw, cw, ch) = (sw / 2, w.div_ceil(2), h.div_ceil(2));
    let mut out = Vec::new();
    frame[..sw * sh]
        .chunks(sw)
        .take(h)
        .for_each(|r| out.extend_from_slice(&r[..w]));
    for p in 0..2 {
        let plane = &frame[sw * sh + p * scw * (sh / 2)..][..scw * (sh / 2)];
        plane
            .chunks(scw)
            .take(ch)
            .for_each(|r| out.extend_from_slice(&r[..cw]));
    }
    out
}

struct Run {
    sizes: Vec<usize>,
    recon: Vec<Vec<u8>>,
}

/// Encodes `frames` (RGBA, key flag), decodes the stream with ffmpeg and requires every
/// decoded picture to equal `reconstruction()` after the corresponding frame.
fn roundtrip(w: usize, h: usize, qp: u8, frames: &[(Vec<u8>, bool)], tag: &str) -> Run {
    let mut enc = Encoder::new(w as u32, h as u32, qp);
    let (mut stream, mut run) = (
        Vec::new(),
        Run {
            sizes: Vec::new(),
            recon: Vec::new(),
        },
    );
    for (rgba, key) in frames {
        let au = enc.encode(rgba, *key);
        assert_eq!(&au[..4], &[0, 0, 0, 1], "{tag}: Annex B start code");
        run.sizes.push(au.len());
        run.recon.push(enc.reconstruction());
        stream.extend_from_slice(&au);
    }
    let (sw, sh) = probe_size(&stream, tag);
    assert_eq!(
        (sw as u32, sh as u32),
        enc.stream_size(),
        "{tag}: ffprobe size"
    );
    assert_eq!((sw, sh), (w + w % 2, h + h % 2), "{tag}: ffprobe size");
    let yuv = ffmpeg_decode(&stream, tag);
    let frame_len = sw * sh + 2 * (sw / 2) * (sh / 2);
    assert_eq!(
        yuv.len(),
        frame_len * frames.len(),
        "{tag}: decoded frame count"
    );
    for (i, (dec, rec)) in yuv.chunks(frame_len).zip(&run.recon).enumerate() {
        let dec = crop(dec, sw, sh, w, h);
        if let Some(at) = dec.iter().zip(rec).position(|(a, b)| a != b) {
            panic!(
                "{tag}: frame {i} differs from the reconstruction at byte {at} of {}",
                dec.len()
            );
        }
    }
    run
}

/// PSNR (Y, Cb, Cr) of a reconstruction against BT.601 limited-range YUV of the source.
fn psnr(rgba: &[u8], rec: &[u8], w: usize, h: usize) -> [f64; 3] {
    let (cw, ch) = (w.div_ceil(2), h.div_ceil(2));
    let px = |x: usize, y: usize| {
        let p = &rgba[(y.min(h - 1) * w + x.min(w - 1)) * 4..];
        [p[0], p[1], p[2]].map(f64::from)
    };
    let mut err = [0f64; 3];
    for y in 0..h {
        for x in 0..w {
            let [r, g, b] = px(x, y);
            let v = (16.0 + (65.481 * r + 128.553 * g + 24.966 * b) / 255.0).round();
            err[0] += (v - f64::from(rec[y * w + x])).powi(2);
        }
    }
    for y in 0..ch {
        for x in 0..cw {
            let mut s = [0.0; 3];
            for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                let p = px(2 * x + dx, 2 * y + dy);
                (0..3).for_each(|k| s[k] += p[k] / 4.0);
            }
            let u = (128.0 + (-37.797 * s[0] - 74.203 * s[1] + 112.0 * s[2]) / 255.0).round();
            let v = (128.0 + (112.0 * s[0] - 93.786 * s[1] - 18.214 * s[2]) / 255.0).round();
            err[1] += (u - f64::from(rec[w * h + y * cw + x])).powi(2);
            err[2] += (v - f64::from(rec[w * h + cw * ch + y * cw + x])).powi(2);
        }
    }
    let n = [(w * h) as f64, (cw * ch) as f64, (cw * ch) as f64];
    std::array::from_fn(|k| 10.0 * (255.0f64 * 255.0 / (err[k] / n[k]).max(1e-10)).log10())
}

/// The tap-on-a-cell sequence of a Sudoku screen: IDR, two taps (digit + highlight
/// moves), an unchanged frame, a full change (inverted colours), a forced key frame, and
/// one more tap that also shows a noisy "photo" patch.
fn sudoku_sequence(w: usize, h: usize) -> Vec<(Vec<u8>, bool)> {
    let tap2 = sudoku(w, h, Some((4, 4)), &[(0, 2, 4), (4, 4, 5)]);
    let mut tap3 = sudoku(w, h, Some((8, 8)), &[(0, 2, 4), (4, 4, 5), (8, 8, 9)]);
    let noise = noise_frame(w, h, 7);
    for y in h / 2..(h / 2 + h / 10) {
        tap3[y * w * 4..][..w * 2].copy_from_slice(&noise[y * w * 4..][..w * 2]);
    }
    vec![
        (sudoku(w, h, None, &[]), false),
        (sudoku(w, h, Some((0, 2)), &[(0, 2, 4)]), false),
        (tap2.clone(), false),
        (tap2.clone(), false),
        (tap2.iter().map(|v| 255 - v).collect(), false),
        (tap2, true),
        (tap3, false),
    ]
}

const NAMES: [&str; 7] = [
    "IDR",
    "tap 1",
    "tap 2",
    "unchanged",
    "full change",
    "forced key",
    "tap 3",
];

#[test]
#[cfg_attr(
    not(ffmpeg),
    ignore = "needs ffmpeg and ffprobe on the PATH (Debian: apt-get install ffmpeg; then `touch build.rs`)"
)]
fn sudoku_1080x2400_default_qp() {
    let (w, h) = (1080, 2400);
    let frames = sudoku_sequence(w, h);
    let run = roundtrip(w, h, DEFAULT_QP, &frames, "sudoku1080");
    for (name, size) in NAMES.iter().zip(&run.sizes) {
        println!("1080x2400 qp {DEFAULT_QP} {name:>12}: {size:>8} bytes");
    }
    let p = psnr(&frames[0].0, &run.recon[0], w, h);
    println!(
        "1080x2400 IDR PSNR Y {:.2} dB, Cb {:.2} dB, Cr {:.2} dB",
        p[0], p[1], p[2]
    );
    assert!(p.iter().all(|&v| v >= 40.0), "PSNR {p:?}");
    assert!(
        run.sizes[3] < 100,
        "unchanged P frame is {} bytes",
        run.sizes[3]
    );
    assert!(
        run.sizes[1] < 40_000 && run.sizes[2] < 40_000,
        "tap frames {:?}",
        run.sizes
    );
    assert!(run.sizes[0] < 400_000, "IDR is {} bytes", run.sizes[0]);
}

#[test]
#[cfg_attr(
    not(ffmpeg),
    ignore = "needs ffmpeg and ffprobe on the PATH (Debian: apt-get install ffmpeg; then `touch build.rs`)"
)]
fn odd_sizes_and_qps() {
    let cases = [
        (1081, 2401, DEFAULT_QP),
        (97, 61, 0),
        (33, 17, 10),
        (16, 16, 40),
        (50, 30, 51),
    ];
    for (w, h, qp) in cases
        .into_iter()
        .chain([(17, 47, 24), (720, 1280, 24), (1440, 3120, 30)])
    {
        let frames = sudoku_sequence(w, h);
        let run = roundtrip(w, h, qp, &frames, &format!("odd{w}x{h}q{qp}"));
        let p = psnr(&frames[0].0, &run.recon[0], w, h);
        println!(
            "{w}x{h} qp {qp}: sizes {:?}, IDR PSNR Y/Cb/Cr {p:.1?} dB",
            run.sizes
        );
        assert!(
            w < 720 || qp > DEFAULT_QP || p.iter().all(|&v| v >= 40.0),
            "PSNR {p:?}"
        );
    }
}

#[test]
#[cfg_attr(
    not(ffmpeg),
    ignore = "needs ffmpeg and ffprobe on the PATH (Debian: apt-get install ffmpeg; then `touch build.rs`)"
)]
fn noise_and_extreme_content() {
    for qp in [0, 1, 5, 10, 24, 40] {
        let (w, h) = (64, 48);
        let mut frames = vec![(noise_frame(w, h, 1), false), (harsh_frame(w, h), false)];
        let mut partial = harsh_frame(w, h);
        partial[..w * 4 * 20].copy_from_slice(&noise_frame(w, h, 3)[..w * 4 * 20]);
        frames.push((partial, false));
        frames.push((noise_frame(w, h, 9), true));
        frames.push((Canvas::new(w, h, [255, 255, 255]).px, false));
        frames.push((Canvas::new(w, h, [0, 0, 0]).px, false));
        let run = roundtrip(w, h, qp, &frames, &format!("noise-q{qp}"));
        println!("noise qp {qp}: sizes {:?}", run.sizes);
    }
}

#[test]
#[cfg_attr(
    not(ffmpeg),
    ignore = "needs ffmpeg and ffprobe on the PATH (Debian: apt-get install ffmpeg; then `touch build.rs`)"
)]
fn odd_inputs_do_not_panic() {
    for (w, h) in [(0, 0), (1, 1), (2, 3), (15, 9)] {
        let mut enc = Encoder::new(w, h, 255);
        let (a, b) = (enc.encode(&[], false), enc.encode(&[1, 2, 3], false));
        let c = enc.encode(&vec![200; 10_000], true);
        let d = enc.encode(&vec![200; 10_000], false);
        assert!(d.len() < 40, "unchanged frame {} bytes", d.len());
        let stream = [a, b, c, d].concat();
        let (sw, sh) = enc.stream_size();
        let yuv = ffmpeg_decode(&stream, &format!("tiny{w}x{h}"));
        assert_eq!(yuv.len(), 4 * (sw * sh * 3 / 2) as usize);
    }
}
