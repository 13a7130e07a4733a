//! Comparing what one screen shows before and after taps, for calibrate's probe and a run
//! that looks at the keypad: a cell's background (the selection's tint), the share of a cell
//! that changed (a pencil mark), and whether the keys after a finished digit's moved up one
//! place.

use super::geometry::BoardGeometry;
use super::templates::TemplateBank;
use image::RgbaImage;

/// A cell's background: the per-channel median of its inside (its digit is a minority).
pub(crate) fn background(frame: &RgbaImage, g: &BoardGeometry, cell: usize) -> [u8; 3] {
    let [x0, y0, x1, y1] = g.cell_inner(cell);
    let mut ch: [Vec<u8>; 3] = Default::default();
    for y in y0..y1.min(frame.height()) {
        for x in x0..x1.min(frame.width()) {
            let p = frame.get_pixel(x, y).0;
            for i in 0..3 {
                ch[i].push(p[i]);
            }
        }
    }
    ch.map(|mut v| {
        v.sort_unstable();
        v.get(v.len() / 2).copied().unwrap_or(0)
    })
}

pub(crate) fn distance(a: [u8; 3], b: [u8; 3]) -> u32 {
    (0..3).map(|i| a[i].abs_diff(b[i]) as u32).sum()
}

/// Two backgrounds a person tells apart.
pub(crate) fn far(a: [u8; 3], b: [u8; 3]) -> bool {
    distance(a, b) > 24
}

/// The share of a cell's inside whose colour changed between two frames.
pub(crate) fn changed(a: &RgbaImage, b: &RgbaImage, g: &BoardGeometry, cell: usize) -> f32 {
    let [x0, y0, x1, y1] = g.cell_inner(cell);
    let (mut n, mut diff) = (0u32, 0u32);
    for y in y0..y1.min(a.height()).min(b.height()) {
        for x in x0..x1.min(a.width()).min(b.width()) {
            n += 1;
            let (p, q) = (a.get_pixel(x, y).0, b.get_pixel(x, y).0);
            if (0..3).any(|i| p[i].abs_diff(q[i]) > 40) {
                diff += 1;
            }
        }
    }
    diff as f32 / n.max(1) as f32
}

/// Whether the keys after `d`'s moved up one place on `after` (most places from `d`'s on show
/// the next digit): `keys` are the places of the keys 1..9, each read like a cell with the
/// default templates and `bank` (a calibration's).
pub(crate) fn keys_moved_up(
    after: &RgbaImage,
    keys: &[[u32; 2]; 9],
    bank: Option<&TemplateBank>,
    d: u8,
) -> bool {
    let pitch = keys
        .windows(2)
        .map(|w| w[0][0].abs_diff(w[1][0]).max(w[0][1].abs_diff(w[1][1])))
        .filter(|&p| p > 4)
        .min()
        .unwrap_or(40);
    let half = (pitch * 9 / 20).max(4);
    let slot = d.saturating_sub(1) as usize;
    if !(1..=9).contains(&d) || slot >= 8 {
        return false;
    }
    let shifted = (slot..8)
        .filter(|&i| {
            let [x, y] = keys[i];
            let rect = [
                x.saturating_sub(half),
                y.saturating_sub(half),
                x + half,
                y + half,
            ];
            let shows = super::read_key(after, rect, bank);
            tracing::trace!(slot = i, ?shows, "a key's place after a finished digit");
            shows == Some(i as u8 + 2)
        })
        .count();
    shifted >= 1 && 3 * shifted >= 2 * (8 - slot)
}
