//! The navigation bar's back button on a screenshot, for a phone that refuses the BACK key
//! injected from its shell while touches written into its touch panel land: a touch on the
//! bar's back button is SystemUI's, which presses BACK itself.
//!
//! Where the button lies is not the same on every phone (AOSP puts back on the left, Samsung
//! on the right, beside recents "|||" and home; Android 9's two-button bar has a back "<" beside
//! a home pill; gesture navigation has only a handle), and `uiautomator dump` sees only the
//! window in front, not the bar. What every bar shares: home and recents (a circle, a pill, a
//! square, three bars), the menu and the accessibility button are mirror-symmetric, and back
//! (a triangle, a chevron, a bent arrow) is the one icon that is not. So the bar's icons are
//! found on the screen (ink that differs from the bar's own colour, apart along the bar), and
//! the one icon that its mirror image does not cover, where exactly one is, is back.

use image::RgbaImage;
use std::collections::HashMap;

/// An icon's pixel differs from the bar's colour by more than this in some channel.
const INK: u8 = 48;
/// Ink apart by less than this share of the bar's thickness is one icon ("|||" is one).
const GAP: u32 = 4;
/// Icons with fewer ink pixels are specks.
const MIN_INK: usize = 12;
/// An icon whose mirror image covers less of it than this is not symmetric: back.
const ASYMMETRIC: f32 = 0.75;

/// One icon on the bar: its box `[x0, y0, x1, y1)` in screen pixels and how much of it its
/// mirror images cover (the lesser of the two mirrors, across and along the bar).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BarIcon {
    pub bbox: [u32; 4],
    pub symmetry: f32,
}

impl BarIcon {
    fn center(&self) -> (u32, u32) {
        let [x0, y0, x1, y1] = self.bbox;
        ((x0 + x1) / 2, (y0 + y1) / 2)
    }
}

/// The centre of the back button of the navigation bar at `bar` (`[x0, y0, x1, y1)`, from
/// `dumpsys window windows`) on `frame`: the one icon of the bar that is not mirror-symmetric,
/// where the bar shows other icons beside it. `None` where no icon, or more than one, is
/// asymmetric (gesture navigation's handle alone, a bar drawn over by something else).
pub fn back_button(frame: &RgbaImage, bar: [u32; 4]) -> Option<(u32, u32)> {
    let icons = bar_icons(frame, bar);
    let mut odd = icons.iter().filter(|i| i.symmetry < ASYMMETRIC);
    match (odd.next(), odd.next()) {
        (Some(back), None) if icons.len() >= 2 => Some(back.center()),
        _ => None,
    }
}

/// The icons on the bar at `bar`, along it in order.
pub fn bar_icons(frame: &RgbaImage, bar: [u32; 4]) -> Vec<BarIcon> {
    let Some(ink) = Ink::of(frame, bar) else {
        return Vec::new();
    };
    ink.groups()
        .into_iter()
        .filter_map(|(l0, l1)| ink.icon(l0, l1))
        .collect()
}

/// The bar's icon pixels, seen along its length `l` and across its thickness `s`.
struct Ink {
    mask: Vec<bool>,
    /// The bar's box on the screen.
    origin: (u32, u32),
    width: u32,
    horizontal: bool,
    long: u32,
    short: u32,
}

impl Ink {
    /// The pixels of `bar` (clipped to `frame`) whose colour is not the bar's: the colour most
    /// of its pixels have.
    fn of(frame: &RgbaImage, bar: [u32; 4]) -> Option<Ink> {
        let (w, h) = frame.dimensions();
        let [x0, y0, x1, y1] = [bar[0].min(w), bar[1].min(h), bar[2].min(w), bar[3].min(h)];
        if x1 <= x0 || y1 <= y0 {
            return None;
        }
        let mut counts: HashMap<[u8; 3], u32> = HashMap::new();
        for y in y0..y1 {
            for x in x0..x1 {
                let p = frame.get_pixel(x, y).0;
                *counts.entry([p[0], p[1], p[2]]).or_default() += 1;
            }
        }
        let background = counts.into_iter().max_by_key(|&(c, n)| (n, c))?.0;
        let mut mask = Vec::with_capacity(((x1 - x0) * (y1 - y0)) as usize);
        for y in y0..y1 {
            for x in x0..x1 {
                let p = frame.get_pixel(x, y).0;
                mask.push((0..3).any(|i| p[i].abs_diff(background[i]) > INK));
            }
        }
        let (width, height) = (x1 - x0, y1 - y0);
        let horizontal = width >= height;
        let (long, short) = if horizontal {
            (width, height)
        } else {
            (height, width)
        };
        Some(Ink {
            mask,
            origin: (x0, y0),
            width,
            horizontal,
            long,
            short,
        })
    }

    /// Whether the pixel `s` across the bar at `l` along it is ink.
    fn at(&self, l: u32, s: u32) -> bool {
        let (x, y) = if self.horizontal { (l, s) } else { (s, l) };
        self.mask[(y * self.width + x) as usize]
    }

    /// The spans `[l0, l1)` along the bar that hold ink, joined over gaps narrower than a
    /// [`GAP`]th of the bar's thickness; a span longer than a third of the bar is no button (a
    /// line along it, content showing through).
    fn groups(&self) -> Vec<(u32, u32)> {
        let gap = (self.short / GAP).max(1);
        let mut spans: Vec<(u32, u32)> = Vec::new();
        for l in 0..self.long {
            if !(0..self.short).any(|s| self.at(l, s)) {
                continue;
            }
            match spans.last_mut() {
                Some(last) if l - last.1 <= gap => last.1 = l + 1,
                _ => spans.push((l, l + 1)),
            }
        }
        spans.retain(|&(l0, l1)| l1 - l0 <= self.long / 3);
        spans
    }

    /// The icon on `[l0, l1)`, with its symmetry (`None`: a speck, or no button: ink that
    /// touches the bar's edges or lies off its middle, as the app's content does where it shows
    /// through a bar it draws behind).
    fn icon(&self, l0: u32, l1: u32) -> Option<BarIcon> {
        let across: Vec<u32> = (0..self.short)
            .filter(|&s| (l0..l1).any(|l| self.at(l, s)))
            .collect();
        let (&s0, &s1) = (across.first()?, across.last()?);
        let s1 = s1 + 1;
        let off_middle = (s0 + s1).abs_diff(self.short) > self.short / 3;
        if s0 == 0 || s1 == self.short || off_middle {
            return None;
        }
        let pixels: Vec<(u32, u32)> = (l0..l1)
            .flat_map(|l| (s0..s1).map(move |s| (l, s)))
            .filter(|&(l, s)| self.at(l, s))
            .collect();
        if pixels.len() < MIN_INK {
            return None;
        }
        let covered = |mirror: &dyn Fn(u32, u32) -> (u32, u32)| {
            let hits = pixels
                .iter()
                .filter(|&&(l, s)| {
                    let (ml, ms) = mirror(l, s);
                    self.ink_near(ml, ms, (l0, l1), (s0, s1))
                })
                .count();
            hits as f32 / pixels.len() as f32
        };
        let symmetry =
            covered(&|l, s| (l0 + l1 - 1 - l, s)).min(covered(&|l, s| (l, s0 + s1 - 1 - s)));
        let (ox, oy) = self.origin;
        let bbox = if self.horizontal {
            [ox + l0, oy + s0, ox + l1, oy + s1]
        } else {
            [ox + s0, oy + l0, ox + s1, oy + l1]
        };
        Some(BarIcon { bbox, symmetry })
    }

    /// Whether ink lies within a pixel of (`l`, `s`) inside the icon's box (a mirror a pixel
    /// off, as a drawing's anti-aliasing leaves it, still covers).
    fn ink_near(&self, l: u32, s: u32, (l0, l1): (u32, u32), (s0, s1): (u32, u32)) -> bool {
        let near = |v: u32, lo: u32, hi: u32| v.saturating_sub(1).max(lo)..(v + 2).min(hi);
        near(l, l0, l1).any(|nl| near(s, s0, s1).any(|ns| self.at(nl, ns)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgba;

    /// A 600x80 bar in `bg` with icons drawn by `draw` (x, y within the bar -> ink).
    fn bar(bg: [u8; 3], ink: [u8; 3], draw: impl Fn(i32, i32) -> bool) -> RgbaImage {
        RgbaImage::from_fn(600, 180, |x, y| {
            let c = if y >= 100 && draw(x as i32, y as i32 - 100) {
                ink
            } else if y >= 100 {
                bg
            } else {
                [255, 255, 255]
            };
            Rgba([c[0], c[1], c[2], 255])
        })
    }

    /// A left-pointing triangle outline around (cx, cy), a ring, a square outline.
    fn triangle(x: i32, y: i32, cx: i32, cy: i32) -> bool {
        let (dx, dy) = (x - cx, y - cy);
        let inside = |m: i32| dx >= -14 + m && dx <= 14 - m && dy.abs() * 2 <= dx + 14 - m;
        inside(0) && !inside(3)
    }
    fn ring(x: i32, y: i32, cx: i32, cy: i32) -> bool {
        let d = (((x - cx).pow(2) + (y - cy).pow(2)) as f32).sqrt();
        (11.0..=14.0).contains(&d)
    }
    fn square(x: i32, y: i32, cx: i32, cy: i32) -> bool {
        let (dx, dy) = ((x - cx).abs(), (y - cy).abs());
        dx.max(dy) <= 12 && dx.max(dy) >= 10
    }

    #[test]
    fn the_asymmetric_icon_is_back_wherever_it_is() {
        let aosp = bar([240, 240, 240], [95, 99, 104], |x, y| {
            triangle(x, y, 150, 40) || ring(x, y, 300, 40) || square(x, y, 450, 40)
        });
        assert_eq!(back_button(&aosp, [0, 100, 600, 180]), Some((150, 140)));
        // Samsung's order: recents, home, back on the right; light on dark.
        let samsung = bar([0, 0, 0], [255, 255, 255], |x, y| {
            square(x, y, 150, 40) || ring(x, y, 300, 40) || triangle(x, y, 450, 40)
        });
        let (x, y) = back_button(&samsung, [0, 100, 600, 180]).unwrap();
        assert!(x.abs_diff(450) <= 1 && y.abs_diff(140) <= 1, "{x},{y}");
        let icons = bar_icons(&samsung, [0, 100, 600, 180]);
        assert_eq!(icons.len(), 3, "{icons:?}");
        assert!(
            icons[0].symmetry > 0.95 && icons[1].symmetry > 0.95,
            "{icons:?}"
        );
    }

    #[test]
    fn no_back_where_no_icon_or_every_icon_is_symmetric() {
        // Gesture navigation: a handle only.
        let handle = bar([250, 250, 250], [40, 40, 40], |x, y| {
            (240..360).contains(&x) && (38..42).contains(&y)
        });
        assert_eq!(back_button(&handle, [0, 100, 600, 180]), None);
        // A lone back triangle is no bar of buttons.
        let lone = bar([250, 250, 250], [40, 40, 40], |x, y| {
            triangle(x, y, 150, 40)
        });
        assert_eq!(back_button(&lone, [0, 100, 600, 180]), None);
        // Outside the screen, or empty.
        assert_eq!(back_button(&handle, [0, 300, 600, 380]), None);
        assert!(bar_icons(&handle, [0, 100, 600, 100]).is_empty());
    }

    #[test]
    fn a_side_bar_is_read_along_its_length() {
        // A phone held in landscape: the bar on the right, back at the bottom.
        let img = RgbaImage::from_fn(180, 600, |x, y| {
            let (bx, by) = (x as i32 - 100, y as i32);
            let ink = x >= 100
                && (square(bx, by, 40, 150) || ring(bx, by, 40, 300) || triangle(bx, by, 40, 450));
            let c = if ink {
                255
            } else if x >= 100 {
                0
            } else {
                128
            };
            Rgba([c, c, c, 255])
        });
        let (x, y) = back_button(&img, [100, 0, 180, 600]).unwrap();
        assert!(x.abs_diff(140) <= 1 && y.abs_diff(450) <= 1, "{x},{y}");
    }
}
