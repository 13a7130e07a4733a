//! Screens of real apps' classes that the simulated app's renderer does not draw (issue 35),
//! made from its renders: a screen is taken apart into layers (what is behind the digits, and
//! each pixel's digit coverage, from renders with the digits in black, in white and left out)
//! and put together again with each cell's background and ink chosen here, as alpha
//! compositing does in the apps; and what apps draw over a board (Killer cages, a dimming
//! overlay, a gesture stroke).

use super::{Palette, Rendered, SOLUTION, Scene, Style, fill, render_full, text_at};
use image::{Rgba, RgbaImage};

pub type Rgb = [u8; 3];

/// A screen taken apart: what is behind the digits, and how much of each pixel a digit covers.
pub struct Layers {
    /// The screen without the board's digits (pencil marks stay).
    pub back: RgbaImage,
    /// Per pixel, 0..=1: the digits' coverage.
    pub cover: Vec<f32>,
    /// The board's outer line centres.
    pub rect: [u32; 4],
}

/// Which cell a pixel of the board is in, and how an app draws each cell.
pub trait Look {
    /// The background at `(x, y)` of `cell` (`None`: outside the board), where the plain
    /// screen shows `plain`.
    fn back(&self, cell: Option<usize>, x: u32, y: u32, plain: Rgb) -> Rgb;
    /// The ink of `cell`'s digit and its opacity.
    fn ink(&self, cell: usize) -> (Rgb, f32);
}

impl Layers {
    pub fn of(st: &Style, sc: &Scene) -> Layers {
        let with = |colour: Rgb, sc: &Scene| {
            let mut st = st.clone();
            let pal = st.options.palette.unwrap_or(*Palette::of(st.options.theme));
            st.options.palette = Some(Palette {
                given: colour,
                user: colour,
                ..pal
            });
            render_full(&st, sc)
        };
        let empty = Scene {
            givens: ".".repeat(81),
            entered: ".".repeat(81),
            pencil: sc.pencil.clone(),
        };
        let back = with([0, 0, 0], &empty);
        let (black, white) = (with([0, 0, 0], sc).image, with([255; 3], sc).image);
        let cover = black
            .pixels()
            .zip(white.pixels())
            .map(|(k, w)| (0..3).map(|c| w[c] - k[c]).max().unwrap_or(0) as f32 / 255.0)
            .collect();
        Layers {
            back: back.image,
            cover,
            rect: back.rect,
        }
    }

    /// The cell a pixel is in (`None`: outside the board).
    fn cell_at(&self, x: u32, y: u32) -> Option<usize> {
        let [x0, y0, x1, y1] = self.rect;
        if x < x0 || y < y0 || x >= x1 || y >= y1 {
            return None;
        }
        let c = ((x - x0) * 9 / (x1 - x0)) as usize;
        let r = ((y - y0) * 9 / (y1 - y0)) as usize;
        Some(r * 9 + c)
    }

    /// The screen drawn the way `look` says.
    pub fn compose(&self, look: &impl Look) -> RgbaImage {
        let mut out = self.back.clone();
        let w = out.width();
        for (x, y, p) in out.enumerate_pixels_mut() {
            let cell = self.cell_at(x, y);
            let back = look.back(cell, x, y, [p[0], p[1], p[2]]);
            let a = self.cover[(y * w + x) as usize];
            let (ink, opacity) = match cell {
                Some(c) if a > 0.0 => look.ink(c),
                _ => (back, 0.0),
            };
            let a = a * opacity;
            let mix = |c: usize| (back[c] as f32 * (1.0 - a) + ink[c] as f32 * a).round() as u8;
            *p = Rgba([mix(0), mix(1), mix(2), 255]);
        }
        out
    }
}

/// Whether cell `c` of a scene holds a given.
pub fn is_given(sc: &Scene, c: usize) -> bool {
    sc.givens.as_bytes()[c] != b'.'
}

/// The digit cell `c` of a scene holds (0: none).
pub fn digit(sc: &Scene, c: usize) -> u8 {
    let g = sc.givens.as_bytes()[c];
    let e = sc.entered.as_bytes()[c];
    (if g != b'.' { g } else { e }).saturating_sub(b'0')
}

/// Entries in the givens' ink at half opacity (black and grey on light, white and grey on
/// dark), over whatever the app draws behind them; the selected cell (an entry) framed by a
/// ring in `frame`, brighter than the entry's ink; with `peers` (a fill, an ink), the selected
/// cell's row, column and box filled and their digits drawn in that ink (at the same opacity).
pub struct Opacity<'a> {
    pub scene: &'a Scene,
    pub ink: Rgb,
    pub rect: [u32; 4],
    pub selected: usize,
    pub frame: Rgb,
    pub peers: Option<(Rgb, Rgb)>,
}

impl Opacity<'_> {
    /// Whether `cell` is in the selected cell's row, column or box.
    fn peer(&self, cell: usize) -> bool {
        let (r, c) = (self.selected / 9, self.selected % 9);
        cell / 9 == r || cell % 9 == c || (cell / 27 == r / 3 && cell % 9 / 3 == c / 3)
    }
}

impl Look for Opacity<'_> {
    fn back(&self, cell: Option<usize>, x: u32, y: u32, plain: Rgb) -> Rgb {
        let plain = match (cell, self.peers) {
            (Some(c), Some((fill, _))) if self.peer(c) => fill,
            _ => plain,
        };
        if cell != Some(self.selected) {
            return plain;
        }
        let [x0, y0, x1, y1] = pitch_box(self.rect, self.selected);
        let side = (x1 - x0) as f32;
        let (inset, width) = ((side * 0.12) as u32, (side * 0.04).max(2.0) as u32);
        let (l, t, r, b) = (x0 + inset, y0 + inset, x1 - inset, y1 - inset);
        let inside = |lo: u32, hi: u32, v: u32| v >= lo && v < hi;
        let ring = inside(l, r, x)
            && inside(t, b, y)
            && !(inside(l + width, r - width, x) && inside(t + width, b - width, y));
        if ring { self.frame } else { plain }
    }
    fn ink(&self, cell: usize) -> (Rgb, f32) {
        let ink = match self.peers {
            Some((_, ink)) if self.peer(cell) => ink,
            _ => self.ink,
        };
        (ink, if is_given(self.scene, cell) { 1.0 } else { 0.5 })
    }
}

/// Cell `c`'s pitch box `[x0, y0, x1, y1)` (its lines' centres) on a board whose outer line
/// centres are `rect`.
pub fn pitch_box(rect: [u32; 4], c: usize) -> [u32; 4] {
    let at = |a: u32, b: u32, i: usize| a + ((b - a) as f32 * i as f32 / 9.0).round() as u32;
    let (col, row) = (c % 9, c / 9);
    [
        at(rect[0], rect[2], col),
        at(rect[1], rect[3], row),
        at(rect[0], rect[2], col + 1),
        at(rect[1], rect[3], row + 1),
    ]
}

/// Givens on tinted cells, entries in another ink on the plain ones; every digit equal to the
/// selected one drawn in a highlight colour (on the givens' tint, which stays), the entries'
/// too or not.
pub struct SameNumber<'a> {
    pub scene: &'a Scene,
    pub tint: Rgb,
    pub given: Rgb,
    pub entered: Rgb,
    pub number: u8,
    pub highlight: Rgb,
    pub entries_too: bool,
}

impl Look for SameNumber<'_> {
    fn back(&self, cell: Option<usize>, _: u32, _: u32, plain: Rgb) -> Rgb {
        match cell {
            Some(c) if is_given(self.scene, c) => self.tint,
            _ => plain,
        }
    }
    fn ink(&self, cell: usize) -> (Rgb, f32) {
        let given = is_given(self.scene, cell);
        let lit = digit(self.scene, cell) == self.number && (given || self.entries_too);
        let ink = match (lit, given) {
            (true, _) => self.highlight,
            (false, true) => self.given,
            (false, false) => self.entered,
        };
        (ink, 1.0)
    }
}

/// A selection that tints its row and column (and box) over the grid lines (the lines do not
/// run through the highlighted cells), the selected cell in another colour.
pub struct Crossing<'a> {
    pub scene: &'a Scene,
    pub rect: [u32; 4],
    /// Half the thickest line, plus one.
    pub margin: u32,
    pub selected: usize,
    pub band: Rgb,
    pub cell: Rgb,
    /// The selected cell's 3x3 box tinted too, its lines hidden.
    pub with_box: bool,
}

impl Look for Crossing<'_> {
    fn back(&self, cell: Option<usize>, x: u32, y: u32, plain: Rgb) -> Rgb {
        let [x0, y0, x1, y1] = self.rect;
        let m = self.margin;
        let line = |a: u32, b: u32, i: usize| a + ((b - a) as f32 * i as f32 / 9.0).round() as u32;
        let (r, c) = (self.selected / 9, self.selected % 9);
        let in_row =
            y > line(y0, y1, r) + m && y + m < line(y0, y1, r + 1) && x > x0 + m && x + m < x1;
        let in_col =
            x > line(x0, x1, c) + m && x + m < line(x0, x1, c + 1) && y > y0 + m && y + m < y1;
        let (b0, b1) = ((r / 3) * 3, (c / 3) * 3);
        let in_box = self.with_box
            && y > line(y0, y1, b0) + m
            && y + m < line(y0, y1, b0 + 3)
            && x > line(x0, x1, b1) + m
            && x + m < line(x0, x1, b1 + 3);
        match cell {
            _ if in_row && in_col => self.cell,
            _ if in_row || in_col || in_box => self.band,
            _ => plain,
        }
    }
    fn ink(&self, cell: usize) -> (Rgb, f32) {
        if is_given(self.scene, cell) {
            ([20, 20, 20], 1.0)
        } else {
            ([40, 90, 220], 1.0)
        }
    }
}

/// Killer cages: dashed outlines inset in the cells (running on across the cells of a cage),
/// each cage's sum small in its first cell's corner. Cages are runs of two or three cells
/// along the rows.
pub fn draw_cages(img: &mut RgbaImage, rect: [u32; 4], colour: Rgb, paper: Rgb, inset: f32) {
    const RUNS: [usize; 9] = [0, 0, 1, 1, 1, 2, 2, 3, 3];
    let solution = SOLUTION.as_bytes();
    let cage = |c: usize| (c / 9, RUNS[c % 9]);
    let at =
        |a: u32, b: u32, i: usize| (a + ((b - a) as f32 * i as f32 / 9.0).round() as u32) as i64;
    let [x0, y0, x1, y1] = rect;
    let pitch = (x1 - x0) as f32 / 9.0;
    let inset = (pitch * inset) as i64;
    // Dashes as long as the gaps between them.
    let dash = (pitch / 12.0).max(2.0) as i64;
    let wide = (pitch / 50.0).max(1.0) as i64;
    for c in 0..81 {
        let (r, col) = (c / 9, c % 9);
        let same = |n: Option<usize>| n.is_some_and(|n| cage(n) == cage(c));
        let (left, right) = (
            same((col > 0).then(|| c - 1)),
            same((col < 8).then(|| c + 1)),
        );
        // Top and bottom run on to the cell's edge where the cage goes on.
        let l = at(x0, x1, col) + if left { 0 } else { inset };
        let rr = at(x0, x1, col + 1) - if right { 0 } else { inset };
        let (t, b) = (at(y0, y1, r) + inset, at(y0, y1, r + 1) - inset);
        let mut sides = vec![(l, t, rr, t), (l, b, rr, b)];
        if !left {
            sides.push((l, t, l, b));
        }
        if !right {
            sides.push((rr, t, rr, b));
        }
        for side in sides {
            dashed(img, side, (dash, dash, wide), colour);
        }
        if !left {
            let sum: u32 = (c..c + 3)
                .take_while(|&n| n / 9 == r && cage(n) == cage(c))
                .map(|n| (solution[n] - b'0') as u32)
                .sum();
            let size = pitch * 0.22;
            let (x, y) = (
                at(x0, x1, col) as f32 + pitch * 0.05,
                at(y0, y1, r) as f32 + pitch * 0.05 + size,
            );
            fill(
                img,
                x as i64 - 2,
                (y - size) as i64 - 2,
                (x + size * 1.3) as i64,
                y as i64 + 3,
                paper,
            );
            text_at(img, size, x, y, colour, &sum.to_string());
        }
    }
}

/// A dashed line from (`ax`, `ay`) to (`bx`, `by`), across or down: `dash` long dashes
/// `gap` apart, `wide` thick.
fn dashed(
    img: &mut RgbaImage,
    (ax, ay, bx, by): (i64, i64, i64, i64),
    (dash, gap, wide): (i64, i64, i64),
    colour: Rgb,
) {
    let len = (bx - ax).max(by - ay);
    let mut s = 0;
    while s < len {
        let e = (s + dash).min(len);
        let (sx, sy) = if bx > ax { (ax + s, ay) } else { (ax, ay + s) };
        let (w, h) = if bx > ax {
            (e - s, wide)
        } else {
            (wide, e - s)
        };
        fill(img, sx, sy, sx + w, sy + h, colour);
        s += dash + gap;
    }
}

/// A gesture stroke: a curve from `from` to `to` (fractions of the board) bowed `bend` of the
/// board aside, `width` of the board wide, in `colour` at `opacity`.
#[derive(Debug, Clone, Copy)]
pub struct Stroke {
    pub from: (f32, f32),
    pub to: (f32, f32),
    pub bend: f32,
    pub width: f32,
    pub colour: Rgb,
    pub opacity: f32,
}

impl Stroke {
    /// A thick stroke from the lower left to the upper right, bowed up.
    pub fn across(colour: Rgb) -> Stroke {
        Stroke {
            from: (0.1, 0.85),
            to: (0.9, 0.25),
            bend: 0.25,
            width: 0.05,
            colour,
            opacity: 1.0,
        }
    }
}

/// A dimming overlay of `dim` over the whole screen, and `stroke` over the board (outer line
/// centres `rect`).
pub fn cover(img: &mut RgbaImage, rect: [u32; 4], dim: f32, stroke: Option<Stroke>) {
    for p in img.pixels_mut() {
        for c in 0..3 {
            p[c] = (p[c] as f32 * (1.0 - dim)).round() as u8;
        }
    }
    let Some(s) = stroke else {
        return;
    };
    let [x0, y0, x1, y1] = rect.map(|v| v as f32);
    let (w, h) = img.dimensions();
    // The stroke's coverage, drawn in white on black, then blended in.
    let mut mask = RgbaImage::from_pixel(w, h, Rgba([0, 0, 0, 255]));
    let mut canvas = autoplay_sim::app::canvas::Canvas::new(&mut mask, w, h);
    let radius = (x1 - x0) * s.width / 2.0;
    for k in 0..=600 {
        let t = k as f32 / 600.0;
        let lerp = |a: f32, b: f32| a + (b - a) * t;
        let bow = s.bend * (std::f32::consts::PI * t).sin();
        let (u, v) = (lerp(s.from.0, s.to.0), lerp(s.from.1, s.to.1) - bow);
        canvas.disc(x0 + (x1 - x0) * u, y0 + (y1 - y0) * v, radius, [255; 3]);
    }
    for (p, m) in img.pixels_mut().zip(mask.pixels()) {
        let a = m[0] as f32 / 255.0 * s.opacity;
        for c in 0..3 {
            p[c] = (p[c] as f32 * (1.0 - a) + s.colour[c] as f32 * a).round() as u8;
        }
    }
}
