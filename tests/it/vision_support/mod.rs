//! The vision tests' screens: a scene (givens, entered digits, pencil marks), its truth, and the
//! app looks it is drawn in. The simulated phone's renderer draws them
//! ([`autoplay_sim::app::scene`], on any screen size), and its raster primitives draw the
//! pictures that are not Sudoku screens. Shared by `tests/it/vision_*.rs` and `benches/vision.rs`.
#![allow(dead_code, unused_imports)]

pub mod restyle;

use autoplay_sim::app::canvas::Canvas;
use autoplay_sim::app::font::{Face, Text};
use autoplay_sim::app::scene::{self, Drawn};
use autoplay_sim::app::screens::layout::Rect;
use autoplay_sim::app::style::Style as AppStyle;
use autoplay_sim::app::{AppOptions, Theme};
use autoplay_sim::profile::Profile;
use image::RgbaImage;
use sudoku_autoplay::board::{Board, CELLS};

pub use autoplay_sim::app::font::Face as Font;
pub use autoplay_sim::app::palette::Palette;
pub use autoplay_sim::app::style::{Faces, Highlights};

/// A synthetic screen: the phone's size, how the app draws (`options.style`, `options.theme`,
/// `options.palette`) and the selected cell.
#[derive(Clone)]
pub struct Style {
    pub width: u32,
    pub height: u32,
    pub options: AppOptions,
    pub selected: Option<usize>,
}

impl Style {
    fn preset(name: &str, theme: Theme, width: u32, height: u32, selected: usize) -> Style {
        let style = AppStyle::by_name(name).expect("the sim has the preset");
        Style {
            width,
            height,
            options: AppOptions {
                theme,
                style,
                ..AppOptions::default()
            },
            selected: Some(selected),
        }
    }

    /// A common light-theme app at `w x h` (`autoplay sim --style actions`): digits in Roboto,
    /// the selected cell's row tinted, an action row with the word "Erase", one row of keys.
    pub fn light(width: u32, height: u32) -> Style {
        Style::preset("actions", Theme::Light, width, height, 40)
    }

    /// The same app in the dark theme.
    pub fn dark(width: u32, height: u32) -> Style {
        Style::preset("actions", Theme::Dark, width, height, 40)
    }

    /// A held-out "other app" (`--style held-out`): no outer border, a rounded card on a grey
    /// page, box lines no thicker than cell lines, orange entries, fonts not in the bank, two
    /// rows of keys with a ✕ erase key.
    pub fn other(width: u32, height: u32) -> Style {
        Style::preset("held-out", Theme::Light, width, height, 20)
    }

    /// The app style, to change.
    pub fn app(&mut self) -> &mut AppStyle {
        &mut self.options.style
    }
}

/// A puzzle screen: givens, entered digits and pencil marks.
pub struct Scene {
    /// 81 chars, `.` empty.
    pub givens: String,
    /// 81 chars of entered digits, `.` none.
    pub entered: String,
    /// Cells with pencil marks.
    pub pencil: Vec<(usize, Vec<u8>)>,
}

pub const PUZZLE: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
pub const SOLUTION: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

/// A scene with some entered digits (from the solution) and pencil marks.
pub fn scene() -> Scene {
    // Six empty cells get their solution digits.
    let entered: String = (0..81)
        .map(|c| {
            if [2usize, 8, 30, 43, 56, 70].contains(&c) {
                SOLUTION.as_bytes()[c] as char
            } else {
                '.'
            }
        })
        .collect();
    Scene {
        givens: PUZZLE.to_string(),
        entered,
        pencil: vec![
            (3, vec![2, 6]),
            (5, vec![2, 6, 8]),
            (22, vec![1, 2, 3, 4, 5, 6, 7, 8, 9]),
            (50, vec![4, 7]),
        ],
    }
}

/// Expected board line and kinds line for a scene.
pub fn truth(s: &Scene) -> (String, String) {
    let mut b = String::new();
    let mut k = String::new();
    for (g, e) in s.givens.chars().zip(s.entered.chars()) {
        if g != '.' {
            b.push(g);
            k.push('G');
        } else if e != '.' {
            b.push(e);
            k.push('U');
        } else {
            b.push('.');
            k.push('.');
        }
    }
    (b, k)
}

/// A rendered screen and where things were drawn.
#[derive(Debug)]
pub struct Rendered {
    pub image: RgbaImage,
    /// The board's outer rect (line centres).
    pub rect: [u32; 4],
    /// Centres of the keys 1..9.
    pub keys: Vec<(f32, f32)>,
    /// Width of the box lines.
    pub thick: u32,
}

/// Renders a screen; returns the image and the board's true outer rect (line centres).
pub fn render(st: &Style, sc: &Scene) -> (RgbaImage, [u32; 4]) {
    let r = render_full(st, sc);
    (r.image, r.rect)
}

/// Renders a screen with the simulated phone's renderer.
pub fn render_full(st: &Style, sc: &Scene) -> Rendered {
    let givens = Board::parse_line(&sc.givens).expect("81-char givens");
    let mut cells = [0u8; CELLS];
    for (i, (g, e)) in sc.givens.bytes().zip(sc.entered.bytes()).enumerate() {
        let ch = if g != b'.' { g } else { e };
        cells[i] = ch
            .checked_sub(b'0')
            .filter(|d| (1..=9).contains(d))
            .unwrap_or(0);
    }
    let mut notes = [0u16; CELLS];
    for (cell, marks) in &sc.pencil {
        for &m in marks {
            notes[*cell] |= 1 << m;
        }
    }
    let scene = scene::Scene {
        level: 12,
        givens,
        board: Board::from_cells(cells).expect("digits"),
        notes,
        selected: st.selected,
    };
    let Drawn {
        image,
        board,
        box_line,
        keys,
        ..
    } = scene::draw(&Profile::sized(st.width, st.height), &st.options, &scene);
    Rendered {
        image,
        rect: board,
        keys: keys.iter().map(|&(x, y)| (x as f32, y as f32)).collect(),
        thick: box_line,
    }
}

/// Fills `[x0, x1) x [y0, y1)` (clipped) with `c`.
pub fn fill(img: &mut RgbaImage, x0: i64, y0: i64, x1: i64, y1: i64, c: [u8; 3]) {
    let (w, h) = img.dimensions();
    let r = Rect::new(x0 as i32, y0 as i32, (x1 - x0) as i32, (y1 - y0) as i32);
    Canvas::new(img, w, h).fill(r, c);
}

/// Draws `text` in Roboto at `size` px with its ink centred at `(cx, cy)` (capitals' height for
/// words).
pub fn text_centered(img: &mut RgbaImage, size: f32, cx: f32, cy: f32, c: [u8; 3], text: &str) {
    let (w, h) = img.dimensions();
    let mut canvas = Canvas::new(img, w, h);
    let at = Rect::new(cx.round() as i32, cy.round() as i32, 0, 0);
    let px = size.round() as u32;
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(ch), None) => Text::new().glyph_centered(&mut canvas, Face::Roboto, px, ch, at, c),
        _ => Text::new().centered(&mut canvas, Face::Roboto, px, text, at, c),
    }
}

/// Draws `text` in Roboto at `size` px with its baseline at `y`, starting at `x`.
pub fn text_at(img: &mut RgbaImage, size: f32, x: f32, y: f32, c: [u8; 3], text: &str) {
    let (w, h) = img.dimensions();
    let mut canvas = Canvas::new(img, w, h);
    let pen = (x.round() as i32, y.round() as i32);
    Text::new().draw(&mut canvas, Face::Roboto, size.round() as u32, text, pen, c);
}
