//! The search as an animated GIF on a clean board: givens on grey, placed digits in blue (the
//! latest on yellow), undone cells flashing red, and counters of placements and undos below.
//!
//! Every colour comes from a small fixed palette (text edges are blended in four steps), so
//! frames map to palette indices exactly, and each frame stores only the rectangle that changed.

use super::{Snapshot, Timeline};
use crate::board::CELLS;
use crate::cli::thousands;
use ab_glyph::{Font, FontRef, PxScale, ScaleFont, point};
use anyhow::Context;
use std::borrow::Cow;
use std::collections::HashMap;
use std::io::Write;

/// Frame size.
pub const WIDTH: u16 = 360;
pub const HEIGHT: u16 = 400;
const CELL: u32 = 36;
const ORIGIN: u32 = 18;
/// How long the solved board stays before the animation loops, in 1/100 s.
pub const FINAL_HOLD_CS: u16 = 300;

const FONT: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSans.ttf");

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

    /// Text with its left edge at `x` and baseline at `y`, or centred on `x` if `centre`.
    fn text(&mut self, text: &str, x: f32, y: f32, px: f32, ink: Rgb, centre: bool) {
        let scaled = self.font.as_scaled(PxScale::from(px));
        let width: f32 = text
            .chars()
            .map(|c| scaled.h_advance(scaled.glyph_id(c)))
            .sum();
        let mut pen = if centre { x - width / 2.0 } else { x };
        for ch in text.chars() {
            let id = scaled.glyph_id(ch);
            let glyph = id.with_scale_and_position(PxScale::from(px), point(pen, y));
            pen += scaled.h_advance(id);
            let Some(outline) = self.font.outline_glyph(glyph) else {
                continue;
            };
            let b = outline.px_bounds();
            let img = &mut self.img;
            outline.draw(|gx, gy, cov| {
                let (x, y) = (b.min.x as i32 + gx as i32, b.min.y as i32 + gy as i32);
                if x < 0 || y < 0 || x >= WIDTH as i32 || y >= HEIGHT as i32 {
                    return;
                }
                let level = (cov.clamp(0.0, 1.0) * LEVELS as f32).round() as u16;
                if level == 0 {
                    return;
                }
                let i = (y as u32 * WIDTH as u32 + x as u32) as usize;
                // Blend over the flat background beneath (glyphs do not overlap).
                let bg = BACKGROUNDS
                    .into_iter()
                    .find(|&c| c == img[i])
                    .unwrap_or(WHITE);
                img[i] = blend(ink, bg, level);
            });
        }
    }

    /// Draws one snapshot; returns the pixels, row by row.
    pub fn draw(&mut self, s: &Snapshot) -> &[Rgb] {
        self.img.fill(WHITE);
        let undone: HashMap<usize, u8> = s.undone.iter().copied().collect();
        for c in 0..CELLS {
            let (x, y) = (ORIGIN + c as u32 % 9 * CELL, ORIGIN + c as u32 / 9 * CELL);
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
                self.text(&label, cx, base, 26.0, ink, true);
            }
        }
        for k in 0..=9u32 {
            let (colour, w) = if k % 3 == 0 { (THICK, 2) } else { (THIN, 1) };
            let at = ORIGIN + k * CELL - if k % 3 == 0 { 1 } else { 0 };
            self.fill(at, ORIGIN - 1, w, 9 * CELL + 2, colour);
            self.fill(ORIGIN - 1, at, 9 * CELL + 2, w, colour);
        }
        let line1_y = (ORIGIN + 9 * CELL + 22) as f32;
        self.text("placements", 18.0, line1_y, 14.0, INK, false);
        self.text(&thousands(s.placements), 100.0, line1_y, 14.0, BLUE, false);
        self.text("undos", 200.0, line1_y, 14.0, INK, false);
        self.text(&thousands(s.undos), 245.0, line1_y, 14.0, RED, false);
        let step = format!("step {} of {}", thousands(s.step), thousands(s.total));
        self.text(&step, 18.0, line1_y + 22.0, 14.0, INK, false);
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
            .draw(&snap)
            .iter()
            // Every drawn colour is in the palette; anything else would read as white.
            .map(|c| index.get(c).copied().unwrap_or(0))
            .collect();
        let (left, top, w, h) = match &previous {
            Some(prev) => changed_rect(prev, &pixels),
            None => (0, 0, WIDTH, HEIGHT),
        };
        let mut buffer = Vec::with_capacity(w as usize * h as usize);
        for y in top..top + h {
            let row = y as usize * WIDTH as usize;
            let span = row + left as usize..row + (left + w) as usize;
            match &previous {
                Some(prev) => buffer.extend(
                    pixels[span.clone()]
                        .iter()
                        .zip(&prev[span])
                        .map(|(&p, &q)| if p == q { transparent } else { p }),
                ),
                None => buffer.extend_from_slice(&pixels[span]),
            }
        }
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
        let img = p.draw(&snaps[2]).to_vec();
        assert!(img.iter().all(|c| colours.contains(c)));
        // The undone cell (row 1, column 2) is drawn on red.
        let at = |x: u32, y: u32| img[(y * WIDTH as u32 + x) as usize];
        assert_eq!(at(ORIGIN + CELL + 3, ORIGIN + 3), UNDO_BG);
        assert_eq!(at(ORIGIN + 3, ORIGIN + 3), GIVEN_BG);
        let placed = p.draw(&snaps[1]).to_vec();
        assert_eq!(
            placed[((ORIGIN + 3) * WIDTH as u32 + ORIGIN + CELL + 3) as usize],
            PLACED_BG
        );
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
