//! The search as an animated GIF on a clean board: a title above (level, strategy, counts),
//! givens on grey, placed digits in blue (the latest on yellow), undone cells flashing red, and
//! counters of placements and undos below.
//!
//! Every colour comes from a small fixed palette (text edges are blended in four steps), so
//! frames map to palette indices exactly, and each frame stores only the rectangle that changed.

use super::{Caption, Snapshot, Timeline};
use crate::board::CELLS;
use crate::draw::{draw_text_mut, text_size};
use crate::text::thousands;
use ab_glyph::{Font, FontRef, PxScale, ScaleFont};
use anyhow::Context;
use image::{GrayImage, Luma};
use std::borrow::Cow;
use std::collections::HashMap;
use std::io::Write;

/// Frame size.
pub const WIDTH: u16 = 360;
pub const HEIGHT: u16 = 446;
const CELL: u32 = 36;
const ORIGIN: u32 = 18;
/// Height of the title band above the board.
const TITLE: u32 = 46;
/// Top edge of the board.
const TOP: u32 = TITLE + ORIGIN;
/// How long the solved board stays before the animation loops, in 1/100 s.
pub const FINAL_HOLD_CS: u16 = 300;

const FONT: &[u8] = include_bytes!("../../../../../assets/fonts/DejaVuSans.ttf");

type Rgb = [u8; 3];
const WHITE: Rgb = [255, 255, 255];
const GIVEN_BG: Rgb = [232, 232, 236];
const PLACED_BG: Rgb = [255, 240, 160];
const UNDO_BG: Rgb = [255, 200, 200];
const THICK: Rgb = [30, 30, 30];
const THIN: Rgb = [175, 175, 185];
const INK: Rgb = [20, 20, 20];
const BLUE: Rgb = [30, 90, 200];
const RED: Rgb = [205, 30, 30];
const INKS: [Rgb; 3] = [INK, BLUE, RED];
const BACKGROUNDS: [Rgb; 4] = [WHITE, GIVEN_BG, PLACED_BG, UNDO_BG];
/// Text coverage is rounded to quarters.
const LEVELS: u16 = 4;

fn blend(fg: Rgb, bg: Rgb, level: u16) -> Rgb {
    let mix = |f: u8, b: u8| ((f as u16 * level + b as u16 * (LEVELS - level)) / LEVELS) as u8;
    [mix(fg[0], bg[0]), mix(fg[1], bg[1]), mix(fg[2], bg[2])]
}

/// The fixed palette: the flat colours and every blend of an ink over a background.
fn palette() -> Vec<Rgb> {
    let mut p = vec![
        WHITE, GIVEN_BG, PLACED_BG, UNDO_BG, THICK, THIN, INK, BLUE, RED,
    ];
    for fg in INKS {
        for bg in BACKGROUNDS {
            for level in 1..LEVELS {
                let c = blend(fg, bg, level);
                if !p.contains(&c) {
                    p.push(c);
                }
            }
        }
    }
    p
}

#[derive(Clone, Copy)]
enum Align {
    Left,
    Centre,
    /// Ending at `x`, starting at or after `from`.
    Right {
        from: f32,
    },
}

/// Draws snapshots; holds the font.
pub struct Painter {
    font: FontRef<'static>,
    img: Vec<Rgb>,
}

impl Default for Painter {
    fn default() -> Self {
        Self::new()
    }
}

impl Painter {
    pub fn new() -> Self {
        Painter {
            // Bundled at compile time; every GIF test parses it.
            font: FontRef::try_from_slice(FONT).expect("the bundled DejaVu font parses"),
            img: vec![WHITE; WIDTH as usize * HEIGHT as usize],
        }
    }

    fn fill(&mut self, x0: u32, y0: u32, w: u32, h: u32, c: Rgb) {
        for y in y0..(y0 + h).min(HEIGHT as u32) {
            for x in x0..(x0 + w).min(WIDTH as u32) {
                self.img[(y * WIDTH as u32 + x) as usize] = c;
            }
        }
    }

    /// Text with its baseline at `y`, placed by `align` on `x`; shrunk to fit the frame with a
    /// margin of [`ORIGIN`] / 2 on either side (and right-aligned text to start at or after its
    /// `from`). Returns where the text ends on the right.
    fn text(&mut self, text: &str, x: f32, y: f32, px: f32, ink: Rgb, align: Align) -> f32 {
        let room = match align {
            Align::Left => WIDTH as f32 - ORIGIN as f32 / 2.0 - x,
            Align::Centre => 2.0 * x.min(WIDTH as f32 - x) - ORIGIN as f32,
            Align::Right { from } => x - from.max(ORIGIN as f32 / 2.0),
        };
        if text.is_empty() || room <= 0.0 {
            return x;
        }
        let natural = text_size(PxScale::from(px), &self.font, text).0 as f32;
        let (px, width) = if natural > room {
            (px * room / natural, room)
        } else {
            (px, natural)
        };
        let left = match align {
            Align::Left => x,
            Align::Centre => x - width / 2.0,
            Align::Right { .. } => x - width,
        };
        // The text's coverage, then blended over the flat backgrounds beneath (glyphs do not
        // overlap), at the palette's few levels.
        let scale = PxScale::from(px);
        let (w, h) = text_size(scale, &self.font, text);
        let mut coverage = GrayImage::new(w, h);
        draw_text_mut(&mut coverage, Luma([255]), 0, 0, scale, &self.font, text);
        let top = (y - self.font.as_scaled(scale).ascent()).round() as i64;
        for (cx, cy, &Luma([cov])) in coverage.enumerate_pixels() {
            let (x, y) = (left.round() as i64 + cx as i64, top + cy as i64);
            let level = (cov as u16 * LEVELS + 127) / 255;
            if level == 0 || x < 0 || y < 0 || x >= WIDTH as i64 || y >= HEIGHT as i64 {
                continue;
            }
            let i = (y as u32 * WIDTH as u32 + x as u32) as usize;
            let bg = BACKGROUNDS
                .into_iter()
                .find(|&c| c == self.img[i])
                .unwrap_or(WHITE);
            self.img[i] = blend(ink, bg, level);
        }
        left + width
    }

    /// Draws one snapshot with its caption; returns the pixels, row by row.
    pub fn draw(&mut self, s: &Snapshot, caption: &Caption) -> &[Rgb] {
        self.img.fill(WHITE);
        let centre = WIDTH as f32 / 2.0;
        self.text(&caption.title, centre, 21.0, 16.0, INK, Align::Centre);
        self.text(&caption.detail, centre, 39.0, 12.0, INK, Align::Centre);
        let undone: HashMap<usize, u8> = s.undone.iter().copied().collect();
        for c in 0..CELLS {
            let (x, y) = (ORIGIN + c as u32 % 9 * CELL, TOP + c as u32 / 9 * CELL);
            let given = s.givens.get(c) != 0;
            let (bg, ink, digit) = if given {
                (GIVEN_BG, INK, s.givens.get(c))
            } else if let (0, Some(&d)) = (s.board.get(c), undone.get(&c)) {
                (UNDO_BG, RED, d)
            } else if s.placed == Some(c) {
                (PLACED_BG, BLUE, s.board.get(c))
            } else {
                (WHITE, BLUE, s.board.get(c))
            };
            self.fill(x, y, CELL, CELL, bg);
            if digit != 0 {
                let label = digit.to_string();
                let (cx, base) = ((x + CELL / 2) as f32, (y + CELL - 9) as f32);
                self.text(&label, cx, base, 26.0, ink, Align::Centre);
            }
        }
        for k in 0..=9u32 {
            let (colour, w) = if k % 3 == 0 { (THICK, 2) } else { (THIN, 1) };
            // Thick lines straddle the cell edge by one pixel.
            let (at, shift) = (k * CELL, if k % 3 == 0 { 1 } else { 0 });
            self.fill(ORIGIN + at - shift, TOP - 1, w, 9 * CELL + 2, colour);
            self.fill(ORIGIN - 1, TOP + at - shift, 9 * CELL + 2, w, colour);
        }
        let line1_y = (TOP + 9 * CELL + 22) as f32;
        let left = ORIGIN as f32;
        self.text("placements", left, line1_y, 14.0, INK, Align::Left);
        self.text(
            &thousands(s.placements),
            100.0,
            line1_y,
            14.0,
            BLUE,
            Align::Left,
        );
        self.text("undos", 200.0, line1_y, 14.0, INK, Align::Left);
        self.text(&thousands(s.undos), 245.0, line1_y, 14.0, RED, Align::Left);
        let step = format!("step {} of {}", thousands(s.step), thousands(s.total));
        let end = self.text(&step, left, line1_y + 22.0, 14.0, INK, Align::Left);
        let (right, from) = ((WIDTH as u32 - ORIGIN) as f32, end + 16.0);
        self.text(
            &caption.footer,
            right,
            line1_y + 22.0,
            12.0,
            INK,
            Align::Right { from },
        );
        &self.img
    }
}

/// What was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GifReport {
    pub frames: usize,
    pub every_step: bool,
}

/// Writes the timeline as a looping GIF.
pub fn write_gif(timeline: &Timeline<'_>, out: impl Write) -> anyhow::Result<GifReport> {
    let colours = palette();
    let index: HashMap<Rgb, u8> = colours
        .iter()
        .enumerate()
        .map(|(i, &c)| (c, i as u8))
        .collect();
    // One more entry, never drawn: "unchanged", so a frame's rectangle is mostly one run.
    let transparent = colours.len() as u8;
    let flat: Vec<u8> = colours
        .iter()
        .chain(std::iter::once(&[255, 0, 255]))
        .flatten()
        .copied()
        .collect();
    let mut enc = gif::Encoder::new(out, WIDTH, HEIGHT, &flat).context("cannot start the GIF")?;
    enc.set_repeat(gif::Repeat::Infinite)?;
    let mut painter = Painter::new();
    let mut previous: Option<Vec<u8>> = None;
    let n = timeline.marks.len();
    for (k, snap) in timeline.snapshots().enumerate() {
        let pixels: Vec<u8> = painter
            .draw(&snap, &timeline.caption)
            .iter()
            // Every drawn colour is in the palette; anything else would read as white.
            .map(|c| index.get(c).copied().unwrap_or(0))
            .collect();
        let (rect, buffer) = delta(previous.as_deref(), &pixels, transparent);
        let (left, top, w, h) = rect;
        let frame = gif::Frame {
            left,
            top,
            width: w,
            height: h,
            delay: if k + 1 == n {
                FINAL_HOLD_CS.max(timeline.delay_cs)
            } else {
                timeline.delay_cs
            },
            dispose: gif::DisposalMethod::Keep,
            transparent: previous.is_some().then_some(transparent),
            buffer: Cow::Owned(buffer),
            ..gif::Frame::default()
        };
        enc.write_frame(&frame)
            .context("cannot write a GIF frame")?;
        previous = Some(pixels);
    }
    Ok(GifReport {
        frames: n,
        every_step: timeline.every_step(),
    })
}

/// What a frame of `pixels` draws over the `previous` one: the rectangle of the changes
/// (the whole picture for the first frame) and its pixels, `transparent` where unchanged.
fn delta(
    previous: Option<&[u8]>,
    pixels: &[u8],
    transparent: u8,
) -> ((u16, u16, u16, u16), Vec<u8>) {
    let (left, top, w, h) = match previous {
        Some(prev) => changed_rect(prev, pixels),
        None => (0, 0, WIDTH, HEIGHT),
    };
    let mut buffer = Vec::with_capacity(w as usize * h as usize);
    for y in top..top + h {
        let row = y as usize * WIDTH as usize;
        let span = row + left as usize..row + (left + w) as usize;
        match previous {
            Some(prev) => buffer.extend(
                pixels[span.clone()]
                    .iter()
                    .zip(&prev[span])
                    .map(|(&p, &q)| if p == q { transparent } else { p }),
            ),
            None => buffer.extend_from_slice(&pixels[span]),
        }
    }
    ((left, top, w, h), buffer)
}

/// The smallest rectangle holding every changed pixel (1x1 when nothing changed).
fn changed_rect(prev: &[u8], next: &[u8]) -> (u16, u16, u16, u16) {
    let (w, h) = (WIDTH as usize, HEIGHT as usize);
    let (mut x0, mut y0, mut x1, mut y1) = (w, h, 0, 0);
    for y in 0..h {
        let row = y * w;
        for x in 0..w {
            if prev[row + x] != next[row + x] {
                x0 = x0.min(x);
                x1 = x1.max(x);
                y0 = y0.min(y);
                y1 = y1.max(y);
            }
        }
    }
    if x0 > x1 {
        return (0, 0, 1, 1);
    }
    (
        x0 as u16,
        y0 as u16,
        (x1 - x0 + 1) as u16,
        (y1 - y0 + 1) as u16,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::solver::Event;

    #[test]
    fn frames_use_only_palette_colours_and_show_undos() {
        let givens = Board::parse_line(&format!("5{}", ".".repeat(80))).unwrap();
        let events = [
            Event::Place { cell: 1, digit: 1 },
            Event::Undo { cell: 1, digit: 1 },
        ];
        let t = Timeline::new(givens, &events, 10.0);
        let snaps: Vec<Snapshot> = t.snapshots().collect();
        let mut p = Painter::new();
        let colours = palette();
        assert!(colours.len() < 256, "room for the transparent entry");
        let title = Caption {
            title: "Level 1, rowmajor search".into(),
            ..Caption::default()
        };
        let img = p.draw(&snaps[2], &title).to_vec();
        assert!(img.iter().all(|c| colours.contains(c)));
        // The undone cell (row 1, column 2) is drawn on red.
        let at = |x: u32, y: u32| img[(y * WIDTH as u32 + x) as usize];
        assert_eq!(at(ORIGIN + CELL + 3, TOP + 3), UNDO_BG);
        assert_eq!(at(ORIGIN + 3, TOP + 3), GIVEN_BG);
        // The title is drawn in the band above the board.
        assert!((0..TITLE * WIDTH as u32).any(|i| img[i as usize] != WHITE));
        let placed = p.draw(&snaps[1], &title).to_vec();
        assert_eq!(
            placed[((TOP + 3) * WIDTH as u32 + ORIGIN + CELL + 3) as usize],
            PLACED_BG
        );
    }

    #[test]
    fn long_captions_shrink_to_fit_the_frame() {
        let givens = Board::parse_line(&".".repeat(81)).unwrap();
        let t = Timeline::new(givens, &[], 1.0);
        let snap = t.snapshots().last().unwrap();
        let caption = Caption {
            title: "Level 70, rowmajor search ".repeat(3),
            detail: "13,886,389 placements, 13,886,308 undos, 13,886,390 calls".into(),
            footer: "a phone with a very long model name, 2026-11-23".into(),
        };
        let mut painter = Painter::new();
        let img = painter.draw(&snap, &caption).to_vec();
        let inked = |x: u32, y: u32| img[(y * WIDTH as u32 + x) as usize] != WHITE;
        let margin = ORIGIN / 2;
        for y in (0..TITLE).chain(TOP + 9 * CELL + 2..HEIGHT as u32) {
            for x in (0..margin).chain(WIDTH as u32 - margin..WIDTH as u32) {
                assert!(!inked(x, y), "ink in the margin at ({x}, {y})");
            }
        }
        // The footer stays right of the step counter, with a gap.
        let alone = Caption {
            footer: String::new(),
            ..caption.clone()
        };
        let without = painter.draw(&snap, &alone).to_vec();
        let bottom = TOP + 9 * CELL + 24..HEIGHT as u32;
        let at = |x: u32, y: u32| (y * WIDTH as u32 + x) as usize;
        let step_end = (0..WIDTH as u32)
            .filter(|&x| bottom.clone().any(|y| without[at(x, y)] != WHITE))
            .max()
            .unwrap();
        let footer_start = (0..WIDTH as u32)
            .filter(|&x| bottom.clone().any(|y| img[at(x, y)] != without[at(x, y)]))
            .min()
            .unwrap();
        assert!(
            footer_start > step_end + 10,
            "{footer_start} after {step_end}"
        );
        // Both lines of the title are drawn.
        assert!((0..WIDTH as u32).any(|x| inked(x, 16)));
        assert!((0..WIDTH as u32).any(|x| inked(x, 36)));
    }

    #[test]
    fn unchanged_frames_store_one_pixel() {
        let a = vec![0u8; WIDTH as usize * HEIGHT as usize];
        let mut b = a.clone();
        assert_eq!(changed_rect(&a, &b), (0, 0, 1, 1));
        b[WIDTH as usize * 5 + 7] = 1;
        b[WIDTH as usize * 9 + 3] = 1;
        assert_eq!(changed_rect(&a, &b), (3, 5, 5, 5));
    }
}
