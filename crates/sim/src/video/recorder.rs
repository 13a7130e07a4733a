//! One recording's frames, as a phone's hardware encoder makes them from its virtual display:
//! the screen scaled into the video's size (aspect kept, centred on black, as screenrecord's
//! `setDisplayProjection` does), a key frame every 10 s (`i-frame-interval` 10), and the bit
//! rate held by raising the quantiser while the last second's frames exceed it (and lowering
//! it again once they are well under it), as a rate-controlled encoder does.

use super::h264::{DEFAULT_QP, Encoder};
use image::RgbaImage;
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// screenrecord's `i-frame-interval`.
const KEY_INTERVAL: Duration = Duration::from_secs(10);
/// The coarsest quantiser the rate control goes to (text stays legible).
const MAX_QP: u8 = 42;

/// A recording's encoder and its state.
pub struct Recorder {
    encoder: Encoder,
    size: (u32, u32),
    bit_rate: u32,
    /// Frame sizes of the last second, for the rate control.
    recent: VecDeque<(Instant, usize)>,
    last_key: Option<Instant>,
    /// Frames and bytes encoded so far.
    pub frames: u64,
    pub bytes: u64,
}

impl Recorder {
    /// A recording of a `display` screen at `size` (default: the display's, floored to even
    /// numbers, as screenrecord asks the encoder) and `bit_rate` bits per second.
    pub fn new(display: (u32, u32), size: Option<(u32, u32)>, bit_rate: u32) -> Recorder {
        let size = size.unwrap_or((display.0 & !1, display.1 & !1));
        Recorder {
            encoder: Encoder::new(size.0, size.1, DEFAULT_QP),
            size,
            bit_rate,
            recent: VecDeque::new(),
            last_key: None,
            frames: 0,
            bytes: 0,
        }
    }

    /// The video's size.
    pub fn size(&self) -> (u32, u32) {
        self.size
    }

    /// Encodes `screen` (seen at `now`) as the recording's next frame: one access unit.
    pub fn encode(&mut self, screen: &RgbaImage, now: Instant) -> Vec<u8> {
        let key = self
            .last_key
            .is_none_or(|t| now.duration_since(t) >= KEY_INTERVAL);
        if key {
            self.last_key = Some(now);
        }
        let unit = if screen.dimensions() == self.size {
            self.encoder.encode(screen.as_raw(), key)
        } else {
            self.encoder.encode(&project(screen, self.size), key)
        };
        self.frames += 1;
        self.bytes += unit.len() as u64;
        self.hold_rate(now, unit.len());
        unit
    }

    /// The rate control: the quantiser for the next frame from the last second's bytes.
    fn hold_rate(&mut self, now: Instant, bytes: usize) {
        self.recent.push_back((now, bytes));
        while self
            .recent
            .front()
            .is_some_and(|(t, _)| now.duration_since(*t) > Duration::from_secs(1))
        {
            self.recent.pop_front();
        }
        let bits = self.recent.iter().map(|(_, b)| *b as u64 * 8).sum::<u64>();
        let qp = self.encoder.qp();
        if bits > u64::from(self.bit_rate) {
            self.encoder.set_qp((qp + 2).min(MAX_QP));
        } else if bits < u64::from(self.bit_rate) / 4 && qp > DEFAULT_QP {
            self.encoder.set_qp(qp - 1);
        }
    }
}

/// `screen` scaled into `size` keeping its aspect ratio, centred on black (nearest sample).
fn project(screen: &RgbaImage, (vw, vh): (u32, u32)) -> Vec<u8> {
    let (dw, dh) = screen.dimensions();
    let mut out = vec![0u8; vw as usize * vh as usize * 4];
    for px in out.chunks_exact_mut(4) {
        px[3] = 255;
    }
    if dw == 0 || dh == 0 {
        return out;
    }
    let aspect = f64::from(dh) / f64::from(dw);
    let (ow, oh) = if f64::from(vh) > f64::from(vw) * aspect {
        (vw, (f64::from(vw) * aspect) as u32)
    } else {
        ((f64::from(vh) / aspect) as u32, vh)
    };
    let (ox, oy) = ((vw - ow.min(vw)) / 2, (vh - oh.min(vh)) / 2);
    for y in 0..oh.min(vh) {
        let sy = (u64::from(y) * u64::from(dh) / u64::from(oh.max(1))) as u32;
        for x in 0..ow.min(vw) {
            let sx = (u64::from(x) * u64::from(dw) / u64::from(ow.max(1))) as u32;
            let at = ((oy + y) as usize * vw as usize + (ox + x) as usize) * 4;
            out[at..at + 4].copy_from_slice(&screen.get_pixel(sx.min(dw - 1), sy.min(dh - 1)).0);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_smaller_video_keeps_the_screens_aspect_on_black() {
        let screen = RgbaImage::from_pixel(100, 200, image::Rgba([255, 255, 255, 255]));
        let out = project(&screen, (200, 200));
        let at = |x: usize, y: usize| out[(y * 200 + x) * 4];
        assert_eq!(at(10, 100), 0, "left of the content: black");
        assert_eq!(at(100, 100), 255, "the content");
        assert_eq!(at(190, 100), 0, "right of the content: black");
    }

    #[test]
    fn key_frames_ten_seconds_apart_and_the_rate_held() {
        let mut rec = Recorder::new((64, 64), None, 100_000);
        let t0 = Instant::now();
        let mut screen = RgbaImage::new(64, 64);
        let first = rec.encode(&screen, t0);
        assert_eq!(first[4] & 0x1f, 7, "the first frame starts with an SPS");
        for i in 0..20u32 {
            for (x, y, p) in screen.enumerate_pixels_mut() {
                *p = image::Rgba([(x * 7 + y * 13 + i * 31) as u8, (x ^ y) as u8, i as u8, 255]);
            }
            let unit = rec.encode(&screen, t0 + Duration::from_millis(u64::from(i) * 50));
            assert_ne!(unit[4] & 0x1f, 7, "no key frame within 10 s");
        }
        assert!(
            rec.encoder.qp() > DEFAULT_QP,
            "noise over 0.1 Mbps coarsens"
        );
        let key = rec.encode(&screen, t0 + KEY_INTERVAL);
        assert_eq!(key[4] & 0x1f, 7, "a key frame after 10 s");
    }
}
