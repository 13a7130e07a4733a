//! Annotated overlays that a person can check: the grid found, the digits read and their
//! confidence, and for calibration the keypad keys and the erase button.

use super::detect::{AxisFit, Detection};
use super::geometry::BoardGeometry;
use super::keypad::Keypad;
use super::kinds::Kind;
use super::tools::ToolKey;
use super::{MIN_SCORE, Reading};
use crate::draw::{
    Rect as IRect, draw_filled_rect_mut, draw_hollow_circle_mut, draw_hollow_rect_mut,
    draw_line_segment_mut, draw_text_mut, text_size,
};
use ab_glyph::FontRef;
use image::{Rgba, RgbaImage};

const GRID: Rgba<u8> = Rgba([255, 0, 255, 255]);
const GOOD: Rgba<u8> = Rgba([0, 150, 0, 255]);
const FAIR: Rgba<u8> = Rgba([220, 120, 0, 255]);
const BAD: Rgba<u8> = Rgba([220, 0, 0, 255]);

/// Draws the detected grid lines.
pub(crate) fn draw_grid(img: &mut RgbaImage, g: &BoardGeometry) {
    let [x0, y0, x1, y1] = g.rect().map(|v| v as f32);
    for &x in &g.cols {
        for dx in [-1.0, 0.0, 1.0] {
            draw_line_segment_mut(img, (x as f32 + dx, y0), (x as f32 + dx, y1), GRID);
        }
    }
    for &y in &g.rows {
        for dy in [-1.0, 0.0, 1.0] {
            draw_line_segment_mut(img, (x0, y as f32 + dy), (x1, y as f32 + dy), GRID);
        }
    }
}

const H_LINE: Rgba<u8> = Rgba([0, 170, 255, 255]);
const V_LINE: Rgba<u8> = Rgba([255, 150, 0, 255]);
const OTHER: Rgba<u8> = Rgba([0, 200, 120, 255]);

/// The overlay of board detection: every long line seen (horizontal blue, vertical orange),
/// the best candidate boards (`chosen`, or else the best by the lines, magenta; others green)
/// and, when there is none, the best column and row grids found (dashed red), with a caption
/// saying what happened.
pub fn detection_overlay(
    img: &RgbaImage,
    d: &Detection,
    chosen: Option<&BoardGeometry>,
) -> RgbaImage {
    let mut out = img.clone();
    for l in &d.horizontal {
        thick(&mut out, (l.start, l.pos), (l.end, l.pos), H_LINE, 3);
    }
    for l in &d.vertical {
        thick(&mut out, (l.pos, l.start), (l.pos, l.end), V_LINE, 3);
    }
    draw_candidates(&mut out, d, chosen);
    if d.candidates.is_empty() {
        for (fit, vertical) in [(&d.best_columns, true), (&d.best_rows, false)] {
            if let Some(f) = fit {
                dashed(&mut out, f, vertical);
            }
        }
    }
    let caption = if d.candidates.is_empty() {
        format!("no board: {}", d.summary())
    } else {
        format!(
            "{} candidate board(s); lines: {} horizontal (blue), {} vertical (orange)",
            d.candidates.len(),
            d.horizontal.len(),
            d.vertical.len()
        )
    };
    caption_box(&mut out, &caption);
    out
}

/// A horizontal or vertical line from `a` to `b`, `n` pixels thick.
fn thick(out: &mut RgbaImage, a: (f32, f32), b: (f32, f32), c: Rgba<u8>, n: i32) {
    for o in -(n / 2)..=(n / 2) {
        let o = o as f32;
        if a.0 == b.0 {
            draw_line_segment_mut(out, (a.0 + o, a.1), (b.0 + o, b.1), c);
        } else {
            draw_line_segment_mut(out, (a.0, a.1 + o), (b.0, b.1 + o), c);
        }
    }
}

/// The best few candidate boards, the best drawn last (on top), each labelled.
fn draw_candidates(out: &mut RgbaImage, d: &Detection, chosen: Option<&BoardGeometry>) {
    let is_board = |k: usize, g: &BoardGeometry| match chosen {
        Some(b) => b == g,
        None => k == 0,
    };
    let label_px = (out.height() as f32 / 80.0).max(12.0);
    for (k, c) in d.candidates.iter().enumerate().take(6).rev() {
        let board = is_board(k, &c.geometry);
        let colour = if board { GRID } else { OTHER };
        let g = &c.geometry;
        let [x0, y0, x1, y1] = g.rect().map(|v| v as f32);
        for &x in &g.cols {
            thick(out, (x as f32, y0), (x as f32, y1), colour, 1);
        }
        for &y in &g.rows {
            thick(out, (x0, y as f32), (x1, y as f32), colour, 1);
        }
        for (a, b) in [((x0, y0), (x1, y0)), ((x0, y1), (x1, y1))] {
            thick(out, a, b, colour, 5);
        }
        for (a, b) in [((x0, y0), (x0, y1)), ((x1, y0), (x1, y1))] {
            thick(out, a, b, colour, 5);
        }
        label_box(
            out,
            x0 as i32 + 6,
            y0 as i32 + 6 + (label_px + 6.0) as i32 * k as i32,
            label_px,
            colour,
            &format!(
                "{} {:.1}: {}+{} lines",
                if board { "board" } else { "candidate" },
                c.score,
                c.found.0,
                c.found.1
            ),
        );
    }
}

/// The positions of a grid window that made no board, dashed across the whole image.
fn dashed(out: &mut RgbaImage, fit: &AxisFit, vertical: bool) {
    let len = if vertical { out.height() } else { out.width() } as f32;
    for &p in &fit.pos {
        let mut t = 0.0;
        while t < len {
            let (a, b) = (t, (t + 12.0).min(len));
            if vertical {
                thick(out, (p, a), (p, b), BAD, 3);
            } else {
                thick(out, (a, p), (b, p), BAD, 3);
            }
            t += 24.0;
        }
    }
}

/// Wraps `text` across the top of the image on white boxes.
fn caption_box(img: &mut RgbaImage, text: &str) {
    let px = (img.width() as f32 / 45.0).max(11.0);
    let per_line = ((img.width() as f32 / (px * 0.55)) as usize).max(20);
    let mut y = 4;
    let mut line = String::new();
    let mut lines = Vec::new();
    for word in text.split(' ') {
        if line.len() + word.len() + 1 > per_line && !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    lines.push(line);
    for l in lines {
        label_box(img, 6, y, px, BAD, &l);
        y += px as i32 + 4;
    }
}

/// The overlay of a reading: grid, and per cell the digit read (`G`/`U` kind) and confidence,
/// with a legend below the screen.
pub fn reading_overlay(img: &RgbaImage, reading: &Reading) -> RgbaImage {
    let mut out = img.clone();
    draw_reading(&mut out, reading);
    with_legend(&out, &reading_legend())
}

/// What the marks of [`draw_reading`] mean.
pub(crate) fn reading_legend() -> Vec<(Rgba<u8>, String)> {
    vec![
        (GRID, "magenta lines: the grid found".into()),
        (
            GOOD,
            "\"2U 1.00\": cell read as 2, U = entered by the player (G = given, . = empty), \
             confidence 1.00"
                .into(),
        ),
        (GOOD, "green: confidence at least 0.85".into()),
        (FAIR, format!("orange: confidence {MIN_SCORE:.2} to 0.85")),
        (
            BAD,
            format!("red: confidence below {MIN_SCORE:.2} (doubtful)"),
        ),
    ]
}

/// Draws the grid and per cell the digit read (`G`/`U` kind) and confidence.
pub(crate) fn draw_reading(out: &mut RgbaImage, reading: &Reading) {
    let g = &reading.geometry;
    draw_grid(out, g);
    let (cw, ch) = g.cell_size();
    let px = (ch * 0.28).max(10.0);
    for i in 0..81 {
        let (c, r) = (i % 9, i / 9);
        let (x, y) = (g.cols[c] as i32 + 3, g.rows[r] as i32 + 3);
        let conf = reading.confidence[i];
        let colour = if conf >= 0.85 {
            GOOD
        } else if conf >= MIN_SCORE {
            FAIR
        } else {
            BAD
        };
        let d = reading.board.get(i);
        let label = match reading.kinds[i] {
            Kind::Empty => ".".to_string(),
            k => format!("{d}{}", k.to_char()),
        };
        label_box(out, x, y, px, colour, &label);
        let conf_text = format!("{:.2}", conf);
        label_box(
            out,
            x,
            (g.rows[r + 1] as f32 - px * 0.8 - 4.0) as i32,
            px * 0.7,
            colour,
            &conf_text,
        );
        let _ = cw;
    }
}

/// `img` with a white strip below it listing `legend`: a colour swatch and a line of text each.
pub(crate) fn with_legend(img: &RgbaImage, legend: &[(Rgba<u8>, String)]) -> RgbaImage {
    let w = img.width();
    let px = (w as f32 / 45.0).clamp(11.0, 30.0);
    let line = (px * 1.35).ceil() as u32;
    let max_chars = ((w as f32 - px * 2.5) / (px * 0.52)).max(10.0) as usize;
    let mut lines: Vec<(Rgba<u8>, String, bool)> = Vec::new();
    for (c, text) in legend {
        let mut first = true;
        for chunk in wrap(text, max_chars) {
            lines.push((*c, chunk, first));
            first = false;
        }
    }
    let pad = line / 2;
    let mut out = RgbaImage::from_pixel(
        w,
        img.height() + pad * 2 + line * lines.len() as u32,
        Rgba([255, 255, 255, 255]),
    );
    image::imageops::replace(&mut out, img, 0, 0);
    draw_line_segment_mut(
        &mut out,
        (0.0, img.height() as f32),
        (w as f32, img.height() as f32),
        Rgba([0, 0, 0, 255]),
    );
    for (i, (c, text, first)) in lines.iter().enumerate() {
        let y = (img.height() + pad + i as u32 * line) as i32;
        if *first {
            let s = (px * 0.7) as u32;
            draw_filled_rect_mut(
                &mut out,
                IRect::at((px * 0.4) as i32, y + (px * 0.25) as i32).of_size(s.max(2), s.max(2)),
                *c,
            );
        }
        label_box(
            &mut out,
            (px * 1.6) as i32,
            y,
            px,
            Rgba([20, 20, 20, 255]),
            text,
        );
    }
    out
}

/// Splits `text` into lines of at most about `max` characters, at spaces.
fn wrap(text: &str, max: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for word in text.split(' ') {
        if !cur.is_empty() && cur.chars().count() + 1 + word.chars().count() > max {
            out.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(word);
    }
    out.push(cur);
    out
}

/// Marks a tap target with a circle and a label.
pub(crate) fn mark_point(
    img: &mut RgbaImage,
    (x, y): (u32, u32),
    radius: i32,
    colour: Rgba<u8>,
    label: &str,
) {
    for r in [radius, radius + 1, radius + 2] {
        draw_hollow_circle_mut(img, (x as i32, y as i32), r, colour);
    }
    label_box(
        img,
        x as i32 + radius + 3,
        y as i32 - radius,
        radius as f32 * 1.2,
        colour,
        label,
    );
}

/// Text on a white box, `px` pixels high, top-left at `(x, y)`.
pub(crate) fn label_box(
    img: &mut RgbaImage,
    x: i32,
    y: i32,
    px: f32,
    colour: Rgba<u8>,
    text: &str,
) {
    let Ok(font) = FontRef::try_from_slice(super::templates::FONTS[1].1) else {
        return;
    };
    let (width, _) = text_size(px, &font, text);
    draw_filled_rect_mut(
        img,
        IRect::at(x - 2, y - 1).of_size(width + 3, px.ceil() as u32 + 2),
        Rgba([255, 255, 255, 255]),
    );
    draw_text_mut(img, colour, x, y, px, &font, text);
}

const KEY: Rgba<u8> = Rgba([0, 160, 0, 255]);
const GUESS: Rgba<u8> = Rgba([230, 120, 0, 255]);
const ERASE: Rgba<u8> = Rgba([220, 0, 0, 255]);
const TOOL: Rgba<u8> = Rgba([30, 90, 220, 255]);
const UNKNOWN: Rgba<u8> = Rgba([120, 120, 120, 255]);
const PROBE: Rgba<u8> = Rgba([150, 0, 200, 255]);

/// Draws a hollow rectangle `[x0, y0, x1, y1)`, 2 pixels wide.
fn frame(img: &mut RgbaImage, b: [u32; 4], c: Rgba<u8>) {
    for d in 0..2u32 {
        let (x0, y0) = (b[0].saturating_sub(d), b[1].saturating_sub(d));
        let (w, h) = (b[2] + 2 * d - x0, b[3] + 2 * d - y0);
        if w > 0 && h > 0 {
            draw_hollow_rect_mut(img, IRect::at(x0 as i32, y0 as i32).of_size(w, h), c);
        }
    }
}

/// What `calibrate` adds to the survey's overlay: the erase and undo keys it settled on, and
/// the cell where it probed how the app takes taps.
#[derive(Debug, Clone, Copy, Default)]
pub struct Marks {
    pub erase: Option<(u32, u32)>,
    pub undo: Option<(u32, u32)>,
    /// The probe's cell, as `[x0, y0, x1, y1]`.
    pub probe: Option<[u32; 4]>,
}

/// A legend: a colour and a line of text each.
type Legend = Vec<(Rgba<u8>, String)>;

/// The calibration overlay: what a survey of `img` found (board and reading, keypad keys or
/// the digit-shaped marks seen, the tool keys and what they were taken for, the erase key),
/// with a legend that starts with `status` lines (the outcome, what to check or do).
pub fn survey_overlay(
    img: &RgbaImage,
    survey: &super::survey::Survey,
    marks: Marks,
    status: &[String],
) -> RgbaImage {
    let mut out = img.clone();
    let mut legend: Legend = status
        .iter()
        .map(|s| (Rgba([0, 0, 0, 255]), s.clone()))
        .collect();
    let cell = match &survey.board {
        Ok(g) => g.cell_size().0.min(g.cell_size().1),
        Err(_) => img.width() as f32 / 12.0,
    };
    let px = (cell * 0.3).max(11.0);
    if let Some(r) = &survey.reading {
        draw_reading(&mut out, r);
        legend.extend(reading_legend());
    } else if let Err(e) = &survey.board {
        legend.push((GRID, format!("no board: {e}")));
    }
    match &survey.keypad {
        Some(Ok(k)) => draw_keypad(&mut out, k, &mut legend),
        Some(Err(_)) | None => draw_digit_marks(&mut out, survey, px, &mut legend),
    }
    draw_tools(&mut out, &survey.tools, px, &mut legend);
    draw_marks(&mut out, marks, px, &mut legend);
    with_legend(&out, &legend)
}

/// The keypad's keys, where they are tapped (inferred ones marked so).
fn draw_keypad(out: &mut RgbaImage, k: &Keypad, legend: &mut Legend) {
    let radius = (k.glyph_height() * 0.7).max(6.0) as i32;
    for key in &k.keys {
        let colour = if key.inferred { GUESS } else { KEY };
        if !key.inferred {
            frame(out, key.bbox, colour);
        }
        let label = if key.inferred {
            format!("{}?", key.digit)
        } else {
            key.digit.to_string()
        };
        mark_point(out, key.center, radius, colour, &label);
    }
    legend.push((
        KEY,
        "green circle \"5\": keypad key 5, where it is tapped".into(),
    ));
    if k.keys.iter().any(|key| key.inferred) {
        legend.push((
            GUESS,
            "orange \"5?\": key 5 not seen, placed from the other keys' spacing".into(),
        ));
    }
}

/// Without a keypad: every mark that read as a digit, and why no keypad.
fn draw_digit_marks(
    out: &mut RgbaImage,
    survey: &super::survey::Survey,
    px: f32,
    legend: &mut Legend,
) {
    for c in &survey.candidates {
        frame(out, c.bbox, GUESS);
        label_box(
            out,
            c.bbox[2] as i32 + 2,
            c.bbox[1] as i32,
            px * 0.7,
            GUESS,
            &format!("{} {:.2}", c.digit, c.score),
        );
    }
    if !survey.candidates.is_empty() {
        legend.push((
            GUESS,
            "orange box \"3 0.81\": a mark that reads as 3 (score 0.81), not fitted into a keypad"
                .into(),
        ));
    }
    if let Some(Err(e)) = &survey.keypad {
        legend.push((GUESS, format!("keypad: {e}")));
    }
}

/// The keys beside the digits and what each was taken for.
fn draw_tools(out: &mut RgbaImage, tools: &[ToolKey], px: f32, legend: &mut Legend) {
    for t in tools {
        let (colour, label) = match t.tool {
            Some(tool) => (
                if tool == super::icons::Tool::Erase {
                    ERASE
                } else {
                    TOOL
                },
                format!("{} {:.2}", tool.name(), t.confidence),
            ),
            None => (UNKNOWN, "?".to_string()),
        };
        frame(out, t.bbox, colour);
        label_box(
            out,
            t.bbox[0] as i32,
            t.bbox[3] as i32 + 3,
            px * 0.7,
            colour,
            &label,
        );
    }
    if !tools.is_empty() {
        legend.push((
            TOOL,
            "blue box \"undo 0.91\": a key beside the digits taken for undo (also redo, pencil, \
             hint, other), how sure 0..1"
                .into(),
        ));
        legend.push((UNKNOWN, "grey box \"?\": a key not recognised".into()));
    }
}

/// What `calibrate` settled on: the erase key (or toggle), the undo key, the probe's cell.
fn draw_marks(out: &mut RgbaImage, marks: Marks, px: f32, legend: &mut Legend) {
    match marks.erase {
        Some(p) => {
            let radius = (px * 0.8) as i32;
            mark_point(out, p, radius, ERASE, "erase");
            legend.push((
                ERASE,
                "red circle \"erase\": where the erase key is tapped".into(),
            ));
        }
        None => legend.push((
            ERASE,
            "no erase key: a cell is cleared by tapping its digit again (toggle)".into(),
        )),
    }
    if let Some(p) = marks.undo {
        mark_point(out, p, (px * 0.8) as i32, TOOL, "undo");
        legend.push((
            TOOL,
            "blue circle \"undo\": the undo key the probe found".into(),
        ));
    }
    if let Some(b) = marks.probe {
        for inset in 0..3 {
            frame(
                out,
                [b[0] + inset, b[1] + inset, b[2] - inset, b[3] - inset],
                PROBE,
            );
        }
        legend.push((
            PROBE,
            "thick purple box: the cell where calibrate probed how the app takes taps".into(),
        ));
    }
}
