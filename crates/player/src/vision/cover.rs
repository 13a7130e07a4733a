//! Whether something covers the board: marks drawn across the cells (a gesture stroke, the
//! edge of a dialog or a card), or the dimming overlay behind a dialog. A covered board is not
//! read: taps would go to what covers it, and what shows through is not the board.
//!
//! - **Marks across cells**: nothing an app draws in a cell (a digit, pencil marks, a disc, a
//!   frame, a Killer cage's dashes) comes into it from outside; a stroke or an edge drawn over
//!   the board crosses the borders between cells, coming into both neighbours across the edges
//!   that face each other, at the same place.
//! - **Dimming**: apps draw their boards on bright paper or with bright digits; under the
//!   overlay behind a dialog (Android's themes dim by 60%) neither is bright. (A board with
//!   fewer digits than a puzzle has, dark paper and no digit to tell, is no puzzle to play.)

use super::ink::Ink;
use super::kinds::MIN_GIVENS;
use super::ocr::{CellInk, CellRead};

/// A board whose marks cross at least this many borders between cells is covered.
const MIN_CROSSINGS: usize = 2;
/// A board whose paper and digits are all darker than this (luma) is dimmed.
const DIMMED: f32 = 120.0;

/// What the cells show of a cover.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Cover {
    /// Borders between cells that one mark runs across.
    pub crossings: usize,
    /// The brightest of the board's paper and its digits' ink (luma 0..255).
    pub brightest: f32,
    /// Digits read.
    pub digits: usize,
}

fn luma(c: [u8; 3]) -> f32 {
    0.299 * c[0] as f32 + 0.587 * c[1] as f32 + 0.114 * c[2] as f32
}

impl Cover {
    pub(crate) fn of(inks: &[CellInk], cells: &[CellRead]) -> Cover {
        let digits = || cells.iter().filter(|c| c.digit != 0);
        let paper = cells.iter().map(|c| luma(c.cell_background));
        Cover {
            crossings: crossings(inks),
            brightest: paper
                .chain(digits().map(|c| luma(c.ink_colour)))
                .fold(0.0, f32::max),
            digits: digits().count(),
        }
    }

    /// What covers the board, in words; `None` when nothing does.
    pub(crate) fn what(&self) -> Option<String> {
        if self.crossings >= MIN_CROSSINGS {
            Some(format!(
                "marks run across {} borders between its cells (a stroke, or the edge of \
                 something drawn over it)",
                self.crossings
            ))
        } else if self.brightest < DIMMED && self.digits >= MIN_GIVENS {
            Some(format!(
                "it is dimmed (its brightest paper or digit is {:.0} of 255), as under the \
                 overlay behind a dialog",
                self.brightest
            ))
        } else {
            None
        }
    }
}

/// Where marks come into a crop across each of its edges: spans along the edge, in frame
/// pixels (x for the top and bottom edges, y for the left and right ones).
#[derive(Debug, Default)]
struct Entries {
    top: Vec<(u32, u32)>,
    bottom: Vec<(u32, u32)>,
    left: Vec<(u32, u32)>,
    right: Vec<(u32, u32)>,
}

/// The borders between neighbouring cells that one mark crosses: it comes into both cells
/// across the edges that face each other, at the same place.
fn crossings(inks: &[CellInk]) -> usize {
    let e: Vec<Entries> = inks.iter().map(|c| entries(&c.ink)).collect();
    if e.len() != 81 {
        return 0;
    }
    let meet = |a: &[(u32, u32)], b: &[(u32, u32)]| {
        a.iter()
            .any(|&(a0, a1)| b.iter().any(|&(b0, b1)| a0 < b1 && b0 < a1))
    };
    let across = (0..81)
        .filter(|&i| i % 9 < 8 && meet(&e[i].right, &e[i + 1].left))
        .count();
    let down = (0..72)
        .filter(|&i| meet(&e[i].bottom, &e[i + 9].top))
        .count();
    across + down
}

/// Where strong ink comes into a crop across its edges: runs along an edge from a twelfth to
/// three quarters of its length (a thin line crossing the edge leaves less, a sliver of a grid
/// line runs along all of it) whose ink goes on an eighth of the crop into it (a line lying
/// along the edge does not).
fn entries(ink: &Ink) -> Entries {
    let (w, h) = (ink.w, ink.h);
    if ink.strength.is_empty() || w < 8 || h < 8 {
        return Entries::default();
    }
    let t = ink.threshold();
    let strong = |x: usize, y: usize| ink.strength[y * w + x] >= t;
    let depth = (w.min(h) / 8).max(2);
    let [ox, oy] = ink.origin;
    // The runs along an edge of `len` pixels; `at(i, d)`: the pixel `i` along it, `d` in.
    let runs = |len: usize, at: &dyn Fn(usize, usize) -> bool, origin: u32| {
        let (lo, hi) = (len.div_ceil(12).max(2), len * 3 / 4);
        let mut out = Vec::new();
        let mut start = None;
        for i in 0..=len {
            match (i < len && at(i, 0), start) {
                (true, None) => start = Some(i),
                (false, Some(s)) => {
                    start = None;
                    let deep = (s..i).filter(|&j| at(j, depth)).count();
                    if (lo..=hi).contains(&(i - s)) && deep * 2 >= i - s {
                        out.push((origin + s as u32, origin + i as u32));
                    }
                }
                _ => {}
            }
        }
        out
    };
    Entries {
        top: runs(w, &|i, d| strong(i, d), ox),
        bottom: runs(w, &|i, d| strong(i, h - 1 - d), ox),
        left: runs(h, &|i, d| strong(d, i), oy),
        right: runs(h, &|i, d| strong(w - 1 - d, i), oy),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw::{Rect, draw_filled_rect_mut};
    use crate::vision::geometry::BoardGeometry;
    use crate::vision::ocr::analyse_cell;
    use image::{Rgba, RgbaImage};

    /// Paints black every pixel of `img` where `inside(x, y)` (a disc of radius r: within
    /// r(r + 1) of its centre squared, as the midpoint circle fills it).
    fn paint(img: &mut RgbaImage, inside: impl Fn(i64, i64) -> bool) {
        for (x, y, p) in img.enumerate_pixels_mut() {
            if inside(x as i64, y as i64) {
                *p = Rgba([20, 20, 20, 255]);
            }
        }
    }

    /// A 9x9 board of 50-pixel cells on white, its grid lines in grey, and how many borders
    /// between cells the marks `draw` adds cross.
    fn crossings_of(draw: impl Fn(&mut RgbaImage)) -> usize {
        let mut img = RgbaImage::from_pixel(460, 460, Rgba([255, 255, 255, 255]));
        let at = |i: u32| 5 + 50 * i;
        for i in 0..10 {
            let grey = Rgba([160, 160, 160, 255]);
            draw_filled_rect_mut(
                &mut img,
                Rect::at(at(i) as i32 - 1, 5).of_size(2, 450),
                grey,
            );
            draw_filled_rect_mut(
                &mut img,
                Rect::at(5, at(i) as i32 - 1).of_size(450, 2),
                grey,
            );
        }
        draw(&mut img);
        let g = BoardGeometry {
            cols: std::array::from_fn(|i| at(i as u32)),
            rows: std::array::from_fn(|i| at(i as u32)),
            line_width: 2,
        };
        let inks: Vec<CellInk> = (0..81)
            .map(|i| analyse_cell(&img, g.cell_inner(i)))
            .collect();
        crossings(&inks)
    }

    #[test]
    fn a_stroke_across_the_board_crosses_borders_and_cell_marks_do_not() {
        let black = Rgba([20, 20, 20, 255]);
        // A band 14 pixels wide from the lower left to the upper right.
        let stroke = crossings_of(|img| {
            paint(img, |x, y| {
                (470..=484).contains(&(x + y)) && (40..=444).contains(&x) && (40..=444).contains(&y)
            });
        });
        assert!(stroke >= MIN_CROSSINGS, "{stroke}");
        // Discs that fill their cells to the crop's edge, side by side, and digit-sized bars.
        let marks = crossings_of(|img| {
            for (cx, cy) in [(30, 30), (80, 30), (130, 30), (30, 80)] {
                paint(img, |x, y| (x - cx).pow(2) + (y - cy).pow(2) <= 22 * 23);
            }
            for c in 0..9 {
                draw_filled_rect_mut(img, Rect::at(25 + 50 * c, 215).of_size(8, 30), black);
            }
        });
        assert_eq!(marks, 0);
    }
}
