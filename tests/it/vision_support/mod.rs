//! Synthetic phone screenshots of Sudoku apps, drawn with ab_glyph, for the vision tests and
//! benchmarks. Shared by `tests/vision_*.rs` and `benches/vision.rs`.
#![allow(dead_code)]

use ab_glyph::{Font, FontRef, PxScale, ScaleFont};
use image::{Rgba, RgbaImage};

pub const DEJAVU: &[u8] = include_bytes!("../../../assets/fonts/ocr/DejaVuSans.ttf");
pub const DEJAVU_BOLD: &[u8] = include_bytes!("../../../assets/fonts/ocr/DejaVuSans-Bold.ttf");
pub const ROBOTO: &[u8] = include_bytes!("../../../assets/fonts/ocr/Roboto-Regular.ttf");
pub const ROBOTO_BOLD: &[u8] = include_bytes!("../../../assets/fonts/ocr/Roboto-Bold.ttf");
pub const NOTO: &[u8] = include_bytes!("../../../assets/fonts/ocr/NotoSans-Regular.ttf");
pub const LIBERATION_BOLD: &[u8] =
    include_bytes!("../../../assets/fonts/ocr/LiberationSans-Bold.ttf");
/// Held-out fonts: not in the default template bank.
pub const HELD_MONO_BOLD: &[u8] = include_bytes!("../../fonts/DejaVuSansMono-Bold.ttf");
pub const HELD_MONO: &[u8] = include_bytes!("../../fonts/LiberationMono-Regular.ttf");
pub const HELD_LIGHT: &[u8] = include_bytes!("../../fonts/Roboto-Light.ttf");

pub fn font(bytes: &'static [u8]) -> FontRef<'static> {
    FontRef::try_from_slice(bytes).expect("bundled font parses")
}

/// How a synthetic app draws its screen.
#[derive(Clone)]
pub struct Style {
    pub width: u32,
    pub height: u32,
    pub background: [u8; 3],
    pub bar: [u8; 3],
    pub board_bg: [u8; 3],
    pub thin: [u8; 3],
    pub thick: [u8; 3],
    pub thin_w: u32,
    pub thick_w: u32,
    pub outer_border: bool,
    /// Corner radius of the board card (0 = square).
    pub radius: u32,
    pub given: [u8; 3],
    pub entered: [u8; 3],
    pub given_font: &'static [u8],
    pub entered_font: &'static [u8],
    /// Digit font size as a fraction of the cell size.
    pub digit_px: f32,
    pub pencil: [u8; 3],
    pub highlight: [u8; 3],
    pub highlight_row: Option<usize>,
    /// Also highlight the selected cell's row, column and box (many apps do).
    pub highlight_related: bool,
    pub selected: Option<usize>,
    pub selected_bg: [u8; 3],
    /// Board left margin as a fraction of the width.
    pub margin: f32,
    /// Board top as a fraction of the height.
    pub top: f32,
    pub keypad: Keypad,
    pub key_bg: [u8; 3],
    pub key_fg: [u8; 3],
    pub key_font: &'static [u8],
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Keypad {
    None,
    Row,
    TwoRows,
}

impl Style {
    /// A common light-theme app at `w x h`.
    pub fn light(width: u32, height: u32) -> Style {
        Style {
            width,
            height,
            background: [250, 250, 250],
            bar: [33, 90, 160],
            board_bg: [255, 255, 255],
            thin: [190, 190, 190],
            thick: [40, 40, 40],
            thin_w: (width / 540).max(1),
            thick_w: (width / 220).max(2),
            outer_border: true,
            radius: 0,
            given: [20, 20, 20],
            entered: [30, 100, 210],
            given_font: ROBOTO,
            entered_font: ROBOTO,
            digit_px: 0.72,
            pencil: [120, 120, 120],
            highlight: [226, 235, 243],
            highlight_row: Some(4),
            highlight_related: false,
            selected: Some(40),
            selected_bg: [187, 222, 251],
            margin: 0.03,
            top: 0.22,
            keypad: Keypad::Row,
            key_bg: [240, 240, 245],
            key_fg: [30, 100, 210],
            key_font: ROBOTO,
        }
    }

    /// The same app in a dark theme.
    pub fn dark(width: u32, height: u32) -> Style {
        Style {
            background: [18, 18, 18],
            bar: [30, 30, 30],
            board_bg: [28, 28, 30],
            thin: [70, 70, 75],
            thick: [170, 170, 175],
            given: [230, 230, 230],
            entered: [138, 180, 248],
            pencil: [150, 150, 150],
            highlight: [40, 48, 60],
            selected_bg: [50, 70, 100],
            key_bg: [40, 40, 44],
            key_fg: [138, 180, 248],
            ..Style::light(width, height)
        }
    }

    /// A held-out "other app": no outer border, rounded card on a grey page, box lines no
    /// thicker than cell lines, orange entries, fonts not in the bank, two-row keypad.
    pub fn other(width: u32, height: u32) -> Style {
        Style {
            background: [236, 239, 241],
            bar: [0, 121, 107],
            board_bg: [255, 253, 245],
            thin: [150, 140, 120],
            thick: [150, 140, 120],
            thin_w: (width / 400).max(1),
            thick_w: (width / 400).max(1),
            outer_border: false,
            radius: width / 30,
            given: [60, 50, 40],
            entered: [230, 110, 0],
            given_font: HELD_MONO_BOLD,
            entered_font: HELD_MONO,
            digit_px: 0.62,
            pencil: [140, 130, 110],
            highlight: [255, 236, 179],
            highlight_row: Some(2),
            selected: Some(20),
            selected_bg: [255, 213, 79],
            margin: 0.06,
            top: 0.27,
            keypad: Keypad::TwoRows,
            key_bg: [0, 121, 107],
            key_fg: [255, 255, 255],
            key_font: HELD_LIGHT,
            ..Style::light(width, height)
        }
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

fn px(c: [u8; 3]) -> Rgba<u8> {
    Rgba([c[0], c[1], c[2], 255])
}

pub fn fill(img: &mut RgbaImage, x0: i64, y0: i64, x1: i64, y1: i64, c: [u8; 3]) {
    let (w, h) = (img.width() as i64, img.height() as i64);
    for y in y0.max(0)..y1.min(h) {
        for x in x0.max(0)..x1.min(w) {
            img.put_pixel(x as u32, y as u32, px(c));
        }
    }
}

/// Draws `text` with its ink box centred at `(cx, cy)`.
pub fn text_centered(
    img: &mut RgbaImage,
    f: &FontRef,
    size: f32,
    cx: f32,
    cy: f32,
    c: [u8; 3],
    text: &str,
) {
    let scaled = f.as_scaled(PxScale::from(size));
    let width: f32 = text
        .chars()
        .map(|ch| scaled.h_advance(f.glyph_id(ch)))
        .sum();
    // Digits' ink spans roughly from the baseline up to cap height (~0.72 em).
    let cap = size * 0.72;
    text_at(img, f, size, cx - width / 2.0, cy + cap / 2.0, c, text);
}

/// Draws `text` with its baseline at `y`, starting at `x`.
pub fn text_at(
    img: &mut RgbaImage,
    f: &FontRef,
    size: f32,
    x: f32,
    y: f32,
    c: [u8; 3],
    text: &str,
) {
    let scaled = f.as_scaled(PxScale::from(size));
    let mut caret = x;
    for ch in text.chars() {
        let id = f.glyph_id(ch);
        let g = id.with_scale_and_position(PxScale::from(size), ab_glyph::point(caret, y));
        caret += scaled.h_advance(id);
        if let Some(o) = f.outline_glyph(g) {
            let b = o.px_bounds();
            o.draw(|gx, gy, cov| {
                let (x, y) = (b.min.x as i64 + gx as i64, b.min.y as i64 + gy as i64);
                if x < 0 || y < 0 || x >= img.width() as i64 || y >= img.height() as i64 {
                    return;
                }
                let p = img.get_pixel_mut(x as u32, y as u32);
                for (v, &ck) in p.0.iter_mut().zip(&c) {
                    *v = (*v as f32 * (1.0 - cov) + ck as f32 * cov).round() as u8;
                }
            });
        }
    }
}

/// A rendered screen and where things were drawn.
#[derive(Debug)]
pub struct Rendered {
    pub image: RgbaImage,
    /// The board's outer rect (line centres).
    pub rect: [u32; 4],
    /// Centres of the keys 1..9 (empty without a keypad).
    pub keys: Vec<(f32, f32)>,
}

/// Renders a screen; returns the image and the board's true outer rect (line centres).
pub fn render(st: &Style, sc: &Scene) -> (RgbaImage, [u32; 4]) {
    let r = render_full(st, sc);
    (r.image, r.rect)
}

/// Renders a screen.
pub fn render_full(st: &Style, sc: &Scene) -> Rendered {
    let mut keys = Vec::new();
    let (w, h) = (st.width, st.height);
    let mut img = RgbaImage::from_pixel(w, h, px(st.background));
    let ui = font(ROBOTO);
    // Status bar and toolbar with text and digits.
    let status = h as f32 * 0.03;
    fill(&mut img, 0, 0, w as i64, status as i64, [0, 0, 0]);
    text_at(
        &mut img,
        &ui,
        status * 0.6,
        w as f32 * 0.04,
        status * 0.75,
        [255, 255, 255],
        "12:30",
    );
    fill(
        &mut img,
        (w as f32 * 0.8) as i64,
        (status * 0.3) as i64,
        (w as f32 * 0.86) as i64,
        (status * 0.7) as i64,
        [255, 255, 255],
    );
    let bar_h = h as f32 * 0.07;
    fill(
        &mut img,
        0,
        status as i64,
        w as i64,
        (status + bar_h) as i64,
        st.bar,
    );
    text_at(
        &mut img,
        &ui,
        bar_h * 0.4,
        w as f32 * 0.05,
        status + bar_h * 0.65,
        [255, 255, 255],
        "Sudoku Level 12",
    );
    // Info row.
    let info_y = status + bar_h + h as f32 * 0.04;
    let info_c = if st.background[0] > 128 {
        [90, 90, 90]
    } else {
        [180, 180, 180]
    };
    text_at(
        &mut img,
        &ui,
        h as f32 * 0.02,
        w as f32 * 0.05,
        info_y,
        info_c,
        "Mistakes 1/3   Easy   03:47",
    );

    let size = w as f32 * (1.0 - 2.0 * st.margin);
    let cell = size / 9.0;
    let x0 = w as f32 * st.margin;
    let y0 = h as f32 * st.top;
    let pos = |i: usize| i as f32 * cell;
    // Board card.
    let r = st.radius as f32;
    for y in 0..(size.ceil() as u32 + 1) {
        for x in 0..(size.ceil() as u32 + 1) {
            let (fx, fy) = (x as f32, y as f32);
            let cx = fx.clamp(r, size - r);
            let cy = fy.clamp(r, size - r);
            if r > 0.0 && ((fx - cx).powi(2) + (fy - cy).powi(2)).sqrt() > r {
                continue;
            }
            let (ix, iy) = ((x0 + fx) as u32, (y0 + fy) as u32);
            if ix < w && iy < h {
                img.put_pixel(ix, iy, px(st.board_bg));
            }
        }
    }
    // Highlights.
    let cell_rect = |i: usize| {
        let (r, c) = (i / 9, i % 9);
        (x0 + pos(c), y0 + pos(r), x0 + pos(c + 1), y0 + pos(r + 1))
    };
    for i in 0..81 {
        let mut colour = None;
        if st.highlight_row == Some(i / 9) {
            colour = Some(st.highlight);
        }
        if let Some(sel) = st.selected.filter(|_| st.highlight_related) {
            let same_box = (sel / 27 == i / 27) && ((sel % 9) / 3 == (i % 9) / 3);
            if sel / 9 == i / 9 || sel % 9 == i % 9 || same_box {
                colour = Some(st.highlight);
            }
        }
        if st.selected == Some(i) {
            colour = Some(st.selected_bg);
        }
        if let Some(c) = colour {
            let (a, b, cc, d) = cell_rect(i);
            fill(&mut img, a as i64, b as i64, cc as i64, d as i64, c);
        }
    }
    // Lines.
    for i in 0..10 {
        let outer = i == 0 || i == 9;
        if outer && !st.outer_border {
            continue;
        }
        let thick = i % 3 == 0;
        let (lw, c) = if thick {
            (st.thick_w, st.thick)
        } else {
            (st.thin_w, st.thin)
        };
        let p = pos(i);
        let half = lw as f32 / 2.0;
        let (a, b) = (
            (p - half).round() as i64,
            (p - half).round() as i64 + lw as i64,
        );
        let (s0, s1) = (
            x0 as i64 + if outer { 0 } else { r as i64 / 2 },
            (x0 + size) as i64,
        );
        let _ = s1;
        fill(
            &mut img,
            x0 as i64 + a,
            y0 as i64 - half as i64,
            x0 as i64 + b,
            (y0 + size + half) as i64 + 1,
            c,
        );
        fill(
            &mut img,
            s0 - half as i64,
            y0 as i64 + a,
            (x0 + size + half) as i64 + 1,
            y0 as i64 + b,
            c,
        );
    }
    // Digits.
    let gf = font(st.given_font);
    let ef = font(st.entered_font);
    for i in 0..81 {
        let (a, b, c, d) = cell_rect(i);
        let (cx, cy) = ((a + c) / 2.0, (b + d) / 2.0);
        let g = sc.givens.as_bytes()[i];
        let e = sc.entered.as_bytes()[i];
        if g != b'.' {
            text_centered(
                &mut img,
                &gf,
                cell * st.digit_px,
                cx,
                cy,
                st.given,
                &(g as char).to_string(),
            );
        } else if e != b'.' {
            text_centered(
                &mut img,
                &ef,
                cell * st.digit_px,
                cx,
                cy,
                st.entered,
                &(e as char).to_string(),
            );
        }
    }
    for (i, marks) in &sc.pencil {
        let (a, b, _, _) = cell_rect(*i);
        for &m in marks {
            let k = (m - 1) as f32;
            let (mx, my) = (
                a + cell * (0.2 + 0.3 * (k % 3.0)),
                b + cell * (0.2 + 0.3 * (k / 3.0).floor()),
            );
            text_centered(
                &mut img,
                &ui,
                cell * 0.24,
                mx,
                my,
                st.pencil,
                &m.to_string(),
            );
        }
    }
    // Keypad.
    let kf = font(st.key_font);
    let ky = y0 + size + h as f32 * 0.05;
    // Action row with icons and labels ("Undo", "Erase", "Notes").
    for (j, label) in ["Undo", "Erase", "Notes", "Hint"].iter().enumerate() {
        let cx = w as f32 * (0.125 + 0.25 * j as f32);
        fill(
            &mut img,
            (cx - cell * 0.25) as i64,
            ky as i64,
            (cx + cell * 0.25) as i64,
            (ky + cell * 0.5) as i64,
            info_c,
        );
        text_centered(
            &mut img,
            &ui,
            cell * 0.25,
            cx,
            ky + cell * 0.75,
            info_c,
            label,
        );
    }
    let ky = ky + cell * 1.3;
    match st.keypad {
        Keypad::None => {}
        Keypad::Row => {
            let kw = w as f32 / 9.0;
            for d in 1..=9u32 {
                let cx = kw * (d as f32 - 0.5);
                fill(
                    &mut img,
                    (cx - kw * 0.45) as i64,
                    ky as i64,
                    (cx + kw * 0.45) as i64,
                    (ky + kw * 1.3) as i64,
                    st.key_bg,
                );
                text_centered(
                    &mut img,
                    &kf,
                    kw * 0.8,
                    cx,
                    ky + kw * 0.65,
                    st.key_fg,
                    &d.to_string(),
                );
            }
        }
        Keypad::TwoRows => {
            let kw = w as f32 / 5.0;
            for k in 0..10u32 {
                let (row, col) = (k / 5, k % 5);
                let cx = kw * (col as f32 + 0.5);
                let cy = ky + row as f32 * kw * 0.9 + kw * 0.4;
                fill(
                    &mut img,
                    (cx - kw * 0.42) as i64,
                    (cy - kw * 0.38) as i64,
                    (cx + kw * 0.42) as i64,
                    (cy + kw * 0.38) as i64,
                    st.key_bg,
                );
                if k == 9 {
                    // An erase key with the ✕ icon.
                    text_centered(
                        &mut img,
                        &font(DEJAVU),
                        kw * 0.4,
                        cx,
                        cy,
                        st.key_fg,
                        "\u{2715}",
                    );
                } else {
                    text_centered(
                        &mut img,
                        &kf,
                        kw * 0.5,
                        cx,
                        cy,
                        st.key_fg,
                        &(k + 1).to_string(),
                    );
                }
                if k < 9 {
                    keys.push((cx, cy));
                }
            }
        }
    }
    let rect = [
        x0.round() as u32,
        y0.round() as u32,
        (x0 + size).round() as u32,
        (y0 + size).round() as u32,
    ];
    Rendered {
        image: img,
        rect,
        keys,
    }
}
