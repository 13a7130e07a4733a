//! The system's bars around the app (status bar, cutout, navigation bar), the app bar, and the
//! room they leave the content; the level list's and the dialogs' places in it.

use crate::app::geometry::Rect;
use crate::app::screens::{LEVEL_COLUMNS, LEVELS_PER_PAGE};
use crate::profile::Profile;

/// The system's bars around the app and the room they leave it, for one profile.
pub(super) struct Chrome {
    pub(super) width: i32,
    pub(super) height: i32,
    pub(super) dp: f32,
    /// A landscape display (`--rotation`) puts the keypad beside the board; its cutout is on a
    /// side then, out of the status bar.
    pub(super) landscape: bool,
    /// The width the app has: the screen's, but a side navigation bar.
    pub(super) cw: i32,
    pub(super) status_bar: Rect,
    pub(super) cutout: Option<(i32, i32, i32)>,
    pub(super) app_bar: Rect,
    pub(super) back: Rect,
    pub(super) nav_bar: Rect,
    pub(super) nav_back: Rect,
    pub(super) nav_home: Rect,
    pub(super) nav_recents: Rect,
    /// The content column: full width on phones, at most 600dp on tablets; its left edge.
    pub(super) column: i32,
    pub(super) left: i32,
    /// Where the content starts under the app bar, and its height.
    pub(super) content_top: i32,
    pub(super) content_h: i32,
}

impl Chrome {
    pub(super) fn new(profile: &Profile) -> Chrome {
        let (width, height) = profile.display_size();
        let (width, height) = (width as i32, height as i32);
        let landscape = width > height;
        // Android lays the app out at the density it applies (an override from Settings, if any).
        let dp = profile.applied_density() as f32 / 160.0;
        let px = |v: f32| (v * dp).round() as i32;
        let notch = profile.cutout && !landscape;
        // A phone held in landscape (under 600 dp at its narrowest) has its navigation bar at
        // a side (on the right here; moved left at 270 degrees by `ScreenLayout::new`) and a
        // 48 dp app bar, as Android lays them out; a tablet keeps both.
        let side_nav = landscape && (height as f32 / dp) < 600.0;
        let nav_h = px(48.0);
        let cw = if side_nav { width - nav_h } else { width };
        let status_h = if notch { px(40.0) } else { px(24.0) };
        let app_bar = Rect::new(0, status_h, cw, px(if side_nav { 48.0 } else { 56.0 }));
        let nav_w = px(80.0);
        let (nav_bar, nav_button): (Rect, Box<dyn Fn(i32) -> Rect>) = if side_nav {
            let bar = Rect::new(cw, 0, nav_h, height);
            let c = height / 2;
            (
                bar,
                Box::new(move |d| Rect::new(bar.x, c - d - nav_w / 2, nav_h, nav_w)),
            )
        } else {
            let bar = Rect::new(0, height - nav_h, width, nav_h);
            let c = width / 2;
            (
                bar,
                Box::new(move |d| Rect::new(c + d - nav_w / 2, bar.y, nav_w, nav_h)),
            )
        };
        let column = (cw - 2 * px(8.0)).min(px(600.0));
        let content_top = app_bar.bottom();
        Chrome {
            width,
            height,
            dp,
            landscape,
            cw,
            status_bar: Rect::new(0, 0, cw, status_h),
            cutout: notch.then(|| (width / 2, status_h / 2, px(11.0))),
            app_bar,
            back: Rect::new(0, app_bar.y, px(56.0), app_bar.h),
            // Back, home, recents: left to right at the bottom, bottom to top at the side.
            nav_back: nav_button(-px(110.0)),
            nav_home: nav_button(0),
            nav_recents: nav_button(px(110.0)),
            nav_bar,
            column,
            left: (cw - column) / 2,
            content_top,
            content_h: if side_nav { height } else { nav_bar.y } - content_top,
        }
    }

    pub(super) fn px(&self, v: f32) -> i32 {
        (v * self.dp).round() as i32
    }

    /// Home: where the title is centred, Play and Levels.
    pub(super) fn home(&self) -> (Rect, Rect, Rect) {
        let (cw, top, h) = (self.cw, self.content_top, self.content_h);
        let home_title = Rect::new(0, top + h / 4 - self.px(40.0), cw, self.px(80.0));
        let button_w = self.px(240.0).min(self.column);
        // Both buttons above the navigation bar, also on a short (landscape) screen.
        let play = Rect::new(
            (cw - button_w) / 2,
            top + (h / 2).min(h - self.px(64.0 + 20.0 + 56.0 + 16.0)),
            button_w,
            self.px(64.0),
        );
        let level_list = Rect::new(
            play.x,
            play.bottom() + self.px(20.0),
            button_w,
            self.px(56.0),
        );
        (home_title, play, level_list)
    }

    /// The level list's button slots of one page and its paging row.
    pub(super) fn level_list(&self) -> LevelListRects {
        let (left, column) = (self.left, self.column);
        let gap = self.px(12.0);
        let rows = LEVELS_PER_PAGE / LEVEL_COLUMNS;
        let slot_w = (column - gap * (LEVEL_COLUMNS as i32 - 1)) / LEVEL_COLUMNS as i32;
        // On a short screen the rows shrink so the paging row stays above the navigation bar.
        let rows_h = self.content_h - self.px(24.0 + 16.0 + 48.0 + 8.0);
        let slot_h = slot_w.min(self.px(72.0)).min(rows_h / rows as i32 - gap);
        let grid_top = self.content_top + self.px(24.0);
        let mut slots = [Rect::default(); LEVELS_PER_PAGE];
        for (i, slot) in slots.iter_mut().enumerate() {
            let (r, c) = ((i / LEVEL_COLUMNS) as i32, (i % LEVEL_COLUMNS) as i32);
            *slot = Rect::new(
                left + c * (slot_w + gap),
                grid_top + r * (slot_h + gap),
                slot_w,
                slot_h,
            );
        }
        let paging_top = grid_top + rows as i32 * (slot_h + gap) + self.px(16.0);
        let paging_w = self.px(112.0);
        let prev_page = Rect::new(left, paging_top, paging_w, self.px(48.0));
        let next_page = Rect::new(
            left + column - paging_w,
            paging_top,
            paging_w,
            self.px(48.0),
        );
        let page_label = Rect::new(
            prev_page.right(),
            paging_top,
            next_page.x - prev_page.right(),
            self.px(48.0),
        );
        LevelListRects {
            slots,
            prev_page,
            next_page,
            page_label,
        }
    }

    /// The dialog card, centred, and its Home and Next buttons.
    pub(super) fn dialog(&self) -> (Rect, Rect, Rect) {
        let cw = self.cw;
        let dw = (cw - self.px(48.0)).min(self.px(340.0));
        let dh = self.px(200.0);
        let dialog = Rect::new((cw - dw) / 2, (self.height - dh) / 2, dw, dh);
        let bw = (dw - self.px(16.0) * 3) / 2;
        let by = dialog.bottom() - self.px(16.0) - self.px(48.0);
        let dialog_home = Rect::new(dialog.x + self.px(16.0), by, bw, self.px(48.0));
        let dialog_next = Rect::new(dialog_home.right() + self.px(16.0), by, bw, self.px(48.0));
        (dialog, dialog_home, dialog_next)
    }
}

/// The level list's rectangles.
pub(super) struct LevelListRects {
    pub(super) slots: [Rect; LEVELS_PER_PAGE],
    pub(super) prev_page: Rect,
    pub(super) next_page: Rect,
    pub(super) page_label: Rect,
}
