//! Reference shapes for the keys around a keypad: icons drawn from font symbols (⌫, ✕, ↶, ✎,
//! ...) and a few common icon designs that no bundled font has (a trash can, an eraser, a light
//! bulb), drawn here from simple geometry; and the letters of the bundled fonts, for reading a
//! key's word ("Erase", "Clear", "Undo", ...).

use super::glyph::Glyph;
use super::label::hole_share;
use super::templates::{FONTS, render_char};
use std::sync::OnceLock;

/// What a key around the keypad does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tool {
    /// Clears the selected cell.
    Erase,
    /// Takes the last move back.
    Undo,
    /// Repeats an undone move.
    Redo,
    /// Pencil marks / notes mode.
    Pencil,
    /// Shows a hint.
    Hint,
    /// Something else a Sudoku app shows there (check, new game, restart, ...).
    Other,
}

impl Tool {
    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Tool::Erase => "erase",
            Tool::Undo => "undo",
            Tool::Redo => "redo",
            Tool::Pencil => "pencil",
            Tool::Hint => "hint",
            Tool::Other => "other",
        }
    }
}

/// One reference icon.
#[derive(Debug)]
pub struct Icon {
    pub tool: Tool,
    /// What it is, for messages: a character or a design name.
    pub name: String,
    pub glyph: Glyph,
    /// The share of its box that its holes take ([`hole_share`]): a ⌫'s tag or a trash can's
    /// body closes one in, a C, an X or an arrow none.
    pub hole: f32,
}

/// Font symbols per tool. `C` and `X` stand for text keys with one letter.
const SYMBOLS: &[(Tool, &str)] = &[
    (Tool::Erase, "⌫⌦✕✖✗✘×XxC"),
    (Tool::Undo, "↶↺⟲↩⎌"),
    (Tool::Redo, "↷↻⟳↪"),
    (Tool::Pencil, "✎✏✐"),
    (Tool::Hint, "?"),
    // An app bar's back arrow (straight, unlike undo's curved one) must never be taken for
    // undo: tapping it leaves the game.
    (Tool::Other, "✓✔←⟵⬅"),
];

/// The reference icons, built once.
pub fn icons() -> &'static [Icon] {
    static ICONS: OnceLock<Vec<Icon>> = OnceLock::new();
    ICONS.get_or_init(|| {
        let mut out = Vec::new();
        for (_, bytes) in FONTS {
            let Ok(font) = ab_glyph::FontRef::try_from_slice(bytes) else {
                continue;
            };
            for &(tool, chars) in SYMBOLS {
                for ch in chars.chars() {
                    if let Some((cov, w, h)) = render_char(&font, ch, 96.0)
                        && let Some(glyph) = Glyph::from_coverage(&cov, w, h)
                    {
                        out.push(Icon {
                            tool,
                            name: ch.to_string(),
                            glyph,
                            hole: holes(&cov, w, h),
                        });
                    }
                }
            }
        }
        for (tool, name, shapes) in drawn() {
            let (cov, w, h) = raster(&shapes);
            if let Some(glyph) = Glyph::from_coverage(&cov, w, h) {
                out.push(Icon {
                    tool,
                    name: name.to_string(),
                    glyph,
                    hole: holes(&cov, w, h),
                });
            }
        }
        out
    })
}

/// The share of a coverage map's box that its holes take, its ink at half coverage.
fn holes(cov: &[f32], w: usize, h: usize) -> f32 {
    let ink: Vec<bool> = cov.iter().map(|&c| c >= 0.5).collect();
    hole_share(&ink, w, h)
}

/// A letter template.
#[derive(Debug)]
pub struct Letter {
    /// Lower case; Cyrillic letters that look Latin are stored as the Latin letter.
    pub ch: char,
    pub glyph: Glyph,
}

/// Letters of the words keys show, in the languages apps are commonly in.
const ALPHABET: &str = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZäöüßéèêàâçñóúíłśźżąęćńşğıÄÖÜÉ\
     абвгдежзийклмнопрстуфхцчшщъыьэюяАБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЭЮЯ";

/// The letter templates, built once.
pub fn letters() -> &'static [Letter] {
    static LETTERS: OnceLock<Vec<Letter>> = OnceLock::new();
    LETTERS.get_or_init(|| {
        let mut out = Vec::new();
        for (_, bytes) in FONTS {
            let Ok(font) = ab_glyph::FontRef::try_from_slice(bytes) else {
                continue;
            };
            for ch in ALPHABET.chars() {
                if let Some((cov, w, h)) = render_char(&font, ch, 64.0)
                    && let Some(glyph) = Glyph::from_coverage(&cov, w, h)
                {
                    out.push(Letter {
                        ch: fold(ch),
                        glyph,
                    });
                }
            }
        }
        out
    })
}

/// Lower case, with Cyrillic letters that look like Latin ones written as those.
pub fn fold(ch: char) -> char {
    let lower = ch.to_lowercase().next().unwrap_or(ch);
    match lower {
        'а' => 'a',
        'е' => 'e',
        'о' => 'o',
        'р' => 'p',
        'с' => 'c',
        'х' => 'x',
        'у' => 'y',
        'к' => 'k',
        'м' => 'm',
        'т' => 't',
        'в' => 'b',
        'н' => 'h',
        c => c,
    }
}

/// A primitive of a drawn icon, in a 64x64 box.
#[derive(Debug, Clone)]
enum Shape {
    /// A polygon (even-odd rule).
    Poly(Vec<(f32, f32)>),
    /// A disc: centre and radius.
    Disc(f32, f32, f32),
    /// A thick segment: ends and half width.
    Line((f32, f32), (f32, f32), f32),
    /// Clears what the shape covers.
    Cut(Box<Shape>),
}

impl Shape {
    fn rect(x0: f32, y0: f32, x1: f32, y1: f32) -> Shape {
        Shape::Poly(vec![(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
    }

    fn cut(self) -> Shape {
        Shape::Cut(Box::new(self))
    }

    fn contains(&self, x: f32, y: f32) -> bool {
        match self {
            Shape::Poly(p) => {
                let mut inside = false;
                let n = p.len();
                for i in 0..n {
                    let (a, b) = (p[i], p[(i + n - 1) % n]);
                    if (a.1 > y) != (b.1 > y) && x < (b.0 - a.0) * (y - a.1) / (b.1 - a.1) + a.0 {
                        inside = !inside;
                    }
                }
                inside
            }
            Shape::Disc(cx, cy, r) => (x - cx).hypot(y - cy) <= *r,
            Shape::Line(a, b, r) => {
                let (dx, dy) = (b.0 - a.0, b.1 - a.1);
                let len2 = (dx * dx + dy * dy).max(1e-6);
                let t = (((x - a.0) * dx + (y - a.1) * dy) / len2).clamp(0.0, 1.0);
                (x - a.0 - t * dx).hypot(y - a.1 - t * dy) <= *r
            }
            Shape::Cut(s) => s.contains(x, y),
        }
    }
}

/// Rasterises shapes (in order; cuts clear) into a 64x64 coverage map, 4x4 samples a pixel.
fn raster(shapes: &[Shape]) -> (Vec<f32>, usize, usize) {
    const N: usize = 64;
    let mut cov = vec![0f32; N * N];
    for y in 0..N {
        for x in 0..N {
            let mut hits = 0;
            for sy in 0..4 {
                for sx in 0..4 {
                    let (px, py) = (
                        x as f32 + (sx as f32 + 0.5) / 4.0,
                        y as f32 + (sy as f32 + 0.5) / 4.0,
                    );
                    let mut on = false;
                    for s in shapes {
                        match s {
                            Shape::Cut(c) if c.contains(px, py) => on = false,
                            Shape::Cut(_) => {}
                            s if s.contains(px, py) => on = true,
                            _ => {}
                        }
                    }
                    hits += on as u32;
                }
            }
            cov[y * N + x] = hits as f32 / 16.0;
        }
    }
    crop(&cov, N)
}

/// Crops a square coverage map to its ink.
fn crop(cov: &[f32], n: usize) -> (Vec<f32>, usize, usize) {
    let (mut x0, mut y0, mut x1, mut y1) = (n, n, 0, 0);
    for y in 0..n {
        for x in 0..n {
            if cov[y * n + x] >= 0.45 {
                (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
            }
        }
    }
    if x0 > x1 {
        return (Vec::new(), 0, 0);
    }
    let mut out = Vec::new();
    for y in y0..=y1 {
        out.extend_from_slice(&cov[y * n + x0..=y * n + x1]);
    }
    (out, x1 - x0 + 1, y1 - y0 + 1)
}

/// Points of a rectangle `len x wid` centred at `(cx, cy)`, turned by `deg` degrees.
fn turned(cx: f32, cy: f32, len: f32, wid: f32, deg: f32) -> Vec<(f32, f32)> {
    let (s, c) = deg.to_radians().sin_cos();
    [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
        .iter()
        .map(|(u, v)| {
            let (a, b) = (u * len / 2.0, v * wid / 2.0);
            (cx + a * c - b * s, cy + a * s + b * c)
        })
        .collect()
}

/// An eraser lying at 45 degrees: a sleeve and a body with a gap between them, maybe on a
/// line.
fn eraser(line: bool) -> Vec<Shape> {
    // Along the eraser's axis (up and to the right): sleeve, gap, body.
    let (ax, ay) = (
        std::f32::consts::FRAC_1_SQRT_2,
        -std::f32::consts::FRAC_1_SQRT_2,
    );
    let at = |d: f32| (30.0 + d * ax, 30.0 + d * ay);
    let (s, b) = (at(-17.0), at(9.5));
    let mut out = vec![
        Shape::Poly(turned(s.0, s.1, 16.0, 24.0, -45.0)),
        Shape::Poly(turned(b.0, b.1, 31.0, 24.0, -45.0)),
    ];
    if line {
        out.push(Shape::Line((34.0, 60.0), (60.0, 60.0), 2.5));
    }
    out
}

/// Icon designs that fonts lack: common shapes of trash cans, erasers and light bulbs.
fn drawn() -> Vec<(Tool, &'static str, Vec<Shape>)> {
    let mut out = trash_cans();
    out.extend(backspaces());
    out.extend(erasers_bulbs_and_arrows());
    out
}

/// A cross of two strokes `w` wide, centred at `(cx, cy)`, reaching `r` each way.
fn cross(cx: f32, cy: f32, r: f32, w: f32) -> Vec<Shape> {
    vec![
        Shape::Line((cx - r, cy - r), (cx + r, cy + r), w),
        Shape::Line((cx + r, cy - r), (cx - r, cy + r), w),
    ]
}

/// Trash cans: filled, with a cross cut out, and outlined.
fn trash_cans() -> Vec<(Tool, &'static str, Vec<Shape>)> {
    use Shape::*;
    let lid = || Shape::rect(10.0, 12.0, 54.0, 18.0);
    let handle = || Shape::rect(24.0, 6.0, 40.0, 13.0);
    let body = || Poly(vec![(14.0, 21.0), (50.0, 21.0), (47.0, 60.0), (17.0, 60.0)]);
    let inner = || Poly(vec![(19.0, 21.0), (45.0, 21.0), (43.0, 55.0), (21.0, 55.0)]);
    let mut filled_x = vec![handle(), lid(), body()];
    filled_x.extend(cross(32.0, 40.0, 7.0, 2.5).into_iter().map(Shape::cut));
    vec![
        (Tool::Erase, "trash can", vec![handle(), lid(), body()]),
        (Tool::Erase, "trash can with a cross", filled_x),
        (
            Tool::Erase,
            "trash can outline",
            vec![
                handle(),
                Shape::rect(27.0, 9.0, 37.0, 12.0).cut(),
                lid(),
                body(),
                inner().cut(),
                Line((28.0, 28.0), (28.0, 49.0), 2.0),
                Line((36.0, 28.0), (36.0, 49.0), 2.0),
            ],
        ),
    ]
}

/// Backspace keys: a tag pointing left with a cross, filled or outlined.
fn backspaces() -> Vec<(Tool, &'static str, Vec<Shape>)> {
    use Shape::*;
    let tag = Poly(vec![
        (2.0, 32.0),
        (18.0, 12.0),
        (62.0, 12.0),
        (62.0, 52.0),
        (18.0, 52.0),
    ]);
    let tag_inner = Poly(vec![
        (8.0, 32.0),
        (21.0, 16.0),
        (58.0, 16.0),
        (58.0, 48.0),
        (21.0, 48.0),
    ]);
    let mut backspace = vec![tag.clone()];
    backspace.extend(cross(38.0, 32.0, 8.0, 2.5).into_iter().map(Shape::cut));
    let mut backspace_outline = vec![tag, tag_inner.cut()];
    backspace_outline.extend(cross(38.0, 32.0, 8.0, 2.5));
    vec![
        (Tool::Erase, "backspace", backspace),
        (Tool::Erase, "backspace outline", backspace_outline),
    ]
}

/// Erasers, light bulbs, a pencil and an undo arrow.
fn erasers_bulbs_and_arrows() -> Vec<(Tool, &'static str, Vec<Shape>)> {
    use Shape::*;
    vec![
        (Tool::Erase, "eraser", eraser(false)),
        (Tool::Erase, "eraser on a line", eraser(true)),
        (
            Tool::Erase,
            "eraser outline",
            vec![
                Poly(turned(32.0, 32.0, 52.0, 24.0, -45.0)),
                Poly(turned(40.0, 24.0, 26.0, 16.0, -45.0)).cut(),
                Line((22.0, 60.0), (60.0, 60.0), 2.5),
            ],
        ),
        (
            Tool::Hint,
            "light bulb",
            vec![
                Disc(32.0, 22.0, 18.0),
                Poly(vec![(22.0, 32.0), (42.0, 32.0), (39.0, 47.0), (25.0, 47.0)]),
                Shape::rect(25.0, 50.0, 39.0, 54.0),
                Shape::rect(27.0, 57.0, 37.0, 61.0),
            ],
        ),
        (
            Tool::Hint,
            "light bulb outline",
            vec![
                Disc(32.0, 22.0, 18.0),
                Disc(32.0, 22.0, 14.0).cut(),
                Line((26.0, 36.0), (26.0, 46.0), 2.0),
                Line((38.0, 36.0), (38.0, 46.0), 2.0),
                Shape::rect(25.0, 46.0, 39.0, 50.0),
                Shape::rect(27.0, 55.0, 37.0, 59.0),
            ],
        ),
        (
            Tool::Pencil,
            "pencil",
            vec![
                Poly(turned(36.0, 28.0, 40.0, 14.0, -45.0)),
                Poly(vec![(8.0, 56.0), (13.0, 41.0), (23.0, 51.0)]),
            ],
        ),
        (
            Tool::Undo,
            "undo arrow",
            vec![
                Disc(38.0, 46.0, 22.0),
                Disc(38.0, 46.0, 15.0).cut(),
                Shape::rect(0.0, 46.0, 64.0, 64.0).cut(),
                Poly(vec![(4.0, 30.0), (24.0, 18.0), (24.0, 42.0)]),
            ],
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tool_has_icons_and_the_letters_are_there() {
        let icons = icons();
        for tool in [
            Tool::Erase,
            Tool::Undo,
            Tool::Redo,
            Tool::Pencil,
            Tool::Hint,
        ] {
            assert!(icons.iter().any(|i| i.tool == tool), "{tool:?}");
        }
        assert!(icons.iter().any(|i| i.name == "trash can"));
        let letters = letters();
        for ch in "erasclmdtuqж".chars() {
            assert!(letters.iter().any(|l| l.ch == ch), "{ch}");
        }
        assert_eq!(fold('С'), 'c');
    }
}
