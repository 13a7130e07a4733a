//! Where everything is, in display pixels, for one profile and keypad layout; and hit testing.
//!
//! Sizes are in dp (`density / 160` pixels) like an Android layout. The player never sees this:
//! it finds the board and keypad from screenshots. Tests may use it to tap the right places.

pub use crate::app::geometry::Rect;
use crate::app::levels::LEVEL_COUNT;
use crate::app::rules::{EndForm, InputRules};
use crate::app::screens::{AppScreen, Hit, LEVEL_COLUMNS, LEVELS_PER_PAGE};
use crate::app::style::{EraseKey, KeypadStyle, Style};
use crate::profile::Profile;
use sudoku_autoplay::board::CELLS;

mod chrome;
mod game_rects;
mod new_games;

use chrome::Chrome;
use game_rects::GameRects;
pub use new_games::NewGameRects;

/// The geometry of every screen.
#[derive(Debug, Clone, PartialEq)]
pub struct ScreenLayout {
    /// The display as the app sees it (turned by the profile's rotation).
    pub width: i32,
    pub height: i32,
    /// The display's rotation in quarter turns (`Surface.ROTATION_*`).
    pub rotation: u8,
    /// Pixels per dp.
    pub dp: f32,
    pub status_bar: Rect,
    /// The punch-hole camera: centre and radius.
    pub cutout: Option<(i32, i32, i32)>,
    pub app_bar: Rect,
    /// The app bar's back arrow (levels and game screens).
    pub back: Rect,
    pub nav_bar: Rect,
    pub nav_back: Rect,
    pub nav_home: Rect,
    pub nav_recents: Rect,
    /// Home: where the title is centred, and the two buttons.
    pub home_title: Rect,
    pub play: Rect,
    pub level_list: Rect,
    /// Level list: the button slots of one page, and the paging row.
    pub slots: [Rect; LEVELS_PER_PAGE],
    pub prev_page: Rect,
    pub next_page: Rect,
    pub page_label: Rect,
    /// Game: the board's outer square (including its border).
    pub board: Rect,
    /// Grid line offsets from the board's left/top edge: line i is at `lines[i]` (0..=9).
    pub lines: [i32; 10],
    /// Thin (cell) and thick (box) line widths.
    pub thin: i32,
    pub thick: i32,
    /// Keypad digits 1..9 (index d-1) and the erase key (empty when the style has none).
    pub keys: [Rect; 9],
    pub erase: Rect,
    /// The action row's Undo, Erase, Notes and Hint (empty unless the style has one; `erase`
    /// is then the second).
    pub actions: [Rect; 4],
    /// The panel behind a 3x3 keypad (empty for other layouts).
    pub panel: Rect,
    /// Dialogs (completion and popup share the card).
    pub dialog: Rect,
    pub dialog_next: Rect,
    pub dialog_home: Rect,
    /// The undo key (empty unless `--undo-key`): the action row's Undo, else the app bar's
    /// right end.
    pub undo: Rect,
    /// How the completion and the game over show (`--completion`, `--game-over`).
    pub completion: EndForm,
    pub game_over: EndForm,
    /// An app without levels' sheet, and the ads' places (`--new-games`, `--ads`).
    pub new_games: NewGameRects,
}

/// Where an end screen's words and buttons are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EndRects {
    pub title: Rect,
    pub sub: Rect,
    pub home: Rect,
    /// Next level, or Try again.
    pub primary: Rect,
}

impl ScreenLayout {
    /// Lays out every screen for `profile`, `keypad` and `style`.
    pub fn new(profile: &Profile, keypad: KeypadStyle, style: &Style) -> Self {
        let c = Chrome::new(profile);
        let (home_title, play, level_list) = c.home();
        let list = c.level_list();
        let g = GameRects::new(&c, keypad, style);
        let (dialog, dialog_home, dialog_next) = c.dialog();
        let game_bottom = g
            .keys
            .iter()
            .chain(&g.actions)
            .chain([&g.erase, &g.panel, &g.board])
            .map(|r| r.bottom())
            .max()
            .unwrap_or(0);
        let layout = ScreenLayout {
            width: c.width,
            height: c.height,
            rotation: profile.rotation,
            dp: c.dp,
            status_bar: c.status_bar,
            cutout: c.cutout,
            app_bar: c.app_bar,
            back: c.back,
            nav_bar: c.nav_bar,
            nav_back: c.nav_back,
            nav_home: c.nav_home,
            nav_recents: c.nav_recents,
            home_title,
            play,
            level_list,
            slots: list.slots,
            prev_page: list.prev_page,
            next_page: list.next_page,
            page_label: list.page_label,
            board: g.board,
            lines: g.lines,
            thin: g.thin,
            thick: g.thick,
            keys: g.keys,
            erase: g.erase,
            actions: g.actions,
            panel: g.panel,
            dialog,
            dialog_next,
            dialog_home,
            undo: Rect::default(),
            completion: EndForm::Dialog,
            game_over: EndForm::Dialog,
            new_games: NewGameRects::new(&c, game_bottom, true),
        };
        // Held the other way round (270 degrees), a phone puts its side navigation bar on the
        // left (AOSP DisplayPolicy.navigationBarPosition, from Android 8).
        if layout.nav_bar.y == 0 && profile.rotation == 3 {
            layout.nav_bar_on_the_left()
        } else {
            layout
        }
    }

    /// This layout with its side navigation bar moved from the right edge to the left, and all
    /// else that is drawn moved right by its width.
    fn nav_bar_on_the_left(mut self) -> Self {
        let dx = self.nav_bar.w;
        let to_left = self.nav_bar.x;
        for r in [
            &mut self.nav_bar,
            &mut self.nav_back,
            &mut self.nav_home,
            &mut self.nav_recents,
        ] {
            r.x -= to_left;
        }
        let app = [
            &mut self.status_bar,
            &mut self.app_bar,
            &mut self.back,
            &mut self.home_title,
            &mut self.play,
            &mut self.level_list,
            &mut self.prev_page,
            &mut self.next_page,
            &mut self.page_label,
            &mut self.board,
            &mut self.erase,
            &mut self.panel,
            &mut self.dialog,
            &mut self.dialog_next,
            &mut self.dialog_home,
        ];
        let n = &mut self.new_games;
        let sheet = [
            &mut n.sheet,
            &mut n.sheet_title,
            &mut n.cancel,
            &mut n.banner,
        ];
        let lists = self
            .slots
            .iter_mut()
            .chain(&mut self.keys)
            .chain(&mut self.actions)
            .chain(sheet)
            .chain(&mut n.rows)
            .chain(&mut n.close);
        // Empty rects (a key the style does not have) stay empty.
        for r in app.into_iter().chain(lists).filter(|r| r.w > 0) {
            r.x += dx;
        }
        self
    }

    /// The rules' parts of the layout: the undo key and the end screens' forms.
    pub(crate) fn apply_rules(&mut self, rules: &InputRules, style: &Style) {
        self.undo = match (rules.undo_key, style.erase) {
            (false, _) => Rect::default(),
            (true, EraseKey::Actions) => self.actions[0],
            (true, _) => {
                let w = self.px(56.0);
                Rect::new(self.app_bar.right() - w, self.app_bar.y, w, self.app_bar.h)
            }
        };
        self.completion = rules.completion;
        self.game_over = rules.game_over;
    }

    /// Where an end screen of `form` puts its words and buttons.
    pub fn end_rects(&self, form: EndForm) -> EndRects {
        match form {
            EndForm::Dialog => {
                let d = self.dialog;
                let title = Rect::new(d.x, d.y + self.px(24.0), d.w, self.px(36.0));
                let sub = Rect::new(d.x, title.bottom() + self.px(4.0), d.w, self.px(28.0));
                EndRects {
                    title,
                    sub,
                    home: self.dialog_home,
                    primary: self.dialog_next,
                }
            }
            EndForm::Screen => {
                let t = self.home_title;
                EndRects {
                    title: t,
                    sub: Rect::new(t.x, t.bottom(), t.w, self.px(32.0)),
                    home: self.level_list,
                    primary: self.play,
                }
            }
            EndForm::Line => {
                // Where the keypad was (under the board; beside it in landscape): a line, a
                // smaller one, two buttons, shrunk to the room there is (116 dp at full size).
                let content = self.content();
                let area = if self.width > self.height {
                    let x = self.board.right();
                    Rect::new(x, self.board.y, content.right() - x, self.board.h)
                } else {
                    let y = self.board.bottom();
                    Rect::new(content.x, y, content.w, content.bottom() - y)
                };
                let k = (area.h as f32 / self.dp / 116.0).min(1.0);
                let px = |v: f32| (v * k * self.dp).round() as i32;
                let title = Rect::new(area.x, area.y + px(8.0), area.w, px(32.0));
                let sub = Rect::new(area.x, title.bottom(), area.w, px(24.0));
                let (bw, bh) = (self.dialog_home.w, px(44.0));
                let y = sub.bottom() + px(4.0);
                let cx = area.x + area.w / 2;
                let gap = self.px(8.0);
                EndRects {
                    title,
                    sub,
                    home: Rect::new(cx - gap - bw, y, bw, bh),
                    primary: Rect::new(cx + gap, y, bw, bh),
                }
            }
        }
    }

    /// What a tap at (x, y) hits while the refusal alert shows: its OK button (the dialog's
    /// primary button) or the navigation bar.
    pub fn hit_alert(&self, x: i32, y: i32) -> Option<Hit> {
        if self.dialog_next.contains(x, y) {
            return Some(Hit::AlertOk);
        }
        self.hit(AppScreen::Home, true, x, y)
    }

    /// The level buttons the list shows: (level index from 0, where). A paged list: page
    /// `page`'s; a list scrolled `scroll` pixels down: the rows wholly inside its window.
    pub fn level_buttons(&self, page: usize, scroll: Option<i32>) -> Vec<(usize, Rect)> {
        let Some(off) = scroll else {
            return (self.slots.iter().enumerate())
                .map(|(slot, r)| (page * LEVELS_PER_PAGE + slot, *r))
                .filter(|(n, _)| *n < LEVEL_COUNT)
                .collect();
        };
        let pitch = self.slots[LEVEL_COLUMNS].y - self.slots[0].y;
        let (top, bottom) = (self.slots[0].y, self.content().bottom() - self.px(8.0));
        (0..LEVEL_COUNT)
            .filter_map(|n| {
                let slot = self.slots[n % LEVEL_COLUMNS];
                let y = slot.y + (n / LEVEL_COLUMNS) as i32 * pitch - off;
                let r = Rect::new(slot.x, y, slot.w, slot.h);
                (r.y >= top && r.bottom() <= bottom).then_some((n, r))
            })
            .collect()
    }

    /// How far a scrolling level list scrolls: its last row at its window's bottom.
    pub fn max_scroll(&self) -> i32 {
        let pitch = self.slots[LEVEL_COLUMNS].y - self.slots[0].y;
        let rows = LEVEL_COUNT.div_ceil(LEVEL_COLUMNS) as i32;
        let window = self.content().bottom() - self.px(8.0) - self.slots[0].y;
        (rows * pitch - (pitch - self.slots[0].h) - window).max(0)
    }

    /// The level whose button is at (x, y), if any.
    pub fn level_at(&self, page: usize, scroll: Option<i32>, x: i32, y: i32) -> Option<usize> {
        (self.level_buttons(page, scroll).into_iter())
            .find(|(_, r)| r.contains(x, y))
            .map(|(n, _)| n)
    }

    /// Where the app draws its screens: under the app bar, above the navigation bar (beside it,
    /// where it stands at a side of a phone held in landscape).
    pub fn content(&self) -> Rect {
        let (top, nav) = (self.app_bar.bottom(), self.nav_bar);
        if nav.y == 0 {
            let left = if nav.x == 0 { nav.w } else { 0 };
            Rect::new(left, top, self.width - nav.w, self.height - top)
        } else {
            Rect::new(0, top, self.width, self.nav_bar.y - top)
        }
    }

    /// Converts dp to pixels.
    pub fn px(&self, dp: f32) -> i32 {
        (dp * self.dp).round() as i32
    }

    /// The inside of a cell, between its grid lines.
    pub fn cell(&self, cell: usize) -> Rect {
        let (r, c) = ((cell / 9) % 9, cell % 9);
        let span = |i: usize| {
            let (s0, w0) = self.line_span(i);
            let (s1, _) = self.line_span(i + 1);
            (s0 + w0, s1 - (s0 + w0))
        };
        let (x, w) = span(c);
        let (y, h) = span(r);
        Rect::new(self.board.x + x, self.board.y + y, w, h)
    }

    /// A cell from grid line to grid line (the lines' centres), for apps that draw no cell lines.
    pub(crate) fn cell_pitch(&self, cell: usize) -> Rect {
        let (r, c) = ((cell / 9) % 9, cell % 9);
        let (x, y) = (self.lines[c], self.lines[r]);
        Rect::new(
            self.board.x + x,
            self.board.y + y,
            self.lines[c + 1] - x,
            self.lines[r + 1] - y,
        )
    }

    /// Width of grid line `i` (0..=9).
    pub fn line_width(&self, i: usize) -> i32 {
        if i.is_multiple_of(3) {
            self.thick
        } else {
            self.thin
        }
    }

    /// The pixel span `[start, start + width)` of grid line `i`, relative to the board edge,
    /// kept inside the board.
    pub(crate) fn line_span(&self, i: usize) -> (i32, i32) {
        let w = self.line_width(i);
        let start = (self.lines[i] - w / 2).clamp(0, self.board.w - w);
        (start, w)
    }

    /// What a tap at (x, y) hits on `screen` (with the popup showing, only the navigation bar).
    pub fn hit(&self, screen: AppScreen, popup: bool, x: i32, y: i32) -> Option<Hit> {
        if self.nav_bar.contains(x, y) {
            return [
                (self.nav_back, Hit::NavBack),
                (self.nav_home, Hit::NavHome),
                (self.nav_recents, Hit::NavRecents),
            ]
            .into_iter()
            .find(|(r, _)| r.contains(x, y))
            .map(|(_, t)| t);
        }
        if popup {
            return None;
        }
        let first = |items: &[(Rect, Hit)]| {
            items
                .iter()
                .find(|(r, _)| r.contains(x, y))
                .map(|&(_, t)| t)
        };
        match screen {
            AppScreen::Home => first(&[(self.play, Hit::Play), (self.level_list, Hit::LevelList)]),
            AppScreen::Levels => {
                // Level buttons: `level_at`, which knows the list's page or scroll.
                first(&[
                    (self.back, Hit::Back),
                    (self.prev_page, Hit::PrevPage),
                    (self.next_page, Hit::NextPage),
                ])
            }
            AppScreen::Game => {
                if self.board.contains(x, y) {
                    let c = ((x - self.board.x) * 9 / self.board.w).clamp(0, 8);
                    let r = ((y - self.board.y) * 9 / self.board.h).clamp(0, 8);
                    return Some(Hit::Cell((r * 9 + c) as usize));
                }
                if let Some(i) = self.keys.iter().position(|r| r.contains(x, y)) {
                    return Some(Hit::Digit(i as u8 + 1));
                }
                first(&[
                    (self.erase, Hit::Erase),
                    (self.undo, Hit::Undo),
                    (self.back, Hit::Back),
                    (self.new_games.banner, Hit::Banner),
                ])
            }
            AppScreen::Complete => {
                let e = self.end_rects(self.completion);
                first(&[(e.primary, Hit::DialogNext), (e.home, Hit::DialogHome)])
            }
            AppScreen::GameOver => {
                let e = self.end_rects(self.game_over);
                first(&[(e.primary, Hit::DialogRetry), (e.home, Hit::DialogHome)])
            }
            AppScreen::Sheet => self.hit_sheet(x, y),
            AppScreen::Confirm => first(&[
                (self.dialog_next, Hit::ConfirmStart),
                (self.dialog_home, Hit::ConfirmCancel),
            ]),
        }
    }

    /// What a tap on the sheet of difficulties hits.
    fn hit_sheet(&self, x: i32, y: i32) -> Option<Hit> {
        let n = &self.new_games;
        if let Some(i) = n.rows.iter().position(|r| r.contains(x, y)) {
            return Some(Hit::Difficulty(i));
        }
        n.cancel.contains(x, y).then_some(Hit::SheetCancel)
    }

    /// What a tap on an interstitial ad hits: its close control (`right`: in the top right
    /// corner) where it shows, else the ad's body (the navigation bar stays the system's).
    pub fn hit_ad(&self, closable: bool, right: bool, x: i32, y: i32) -> Option<Hit> {
        if self.nav_bar.contains(x, y) {
            return self.hit(AppScreen::Home, true, x, y);
        }
        let close = self.new_games.close[usize::from(right)];
        if closable && close.contains(x, y) {
            return Some(Hit::AdClose);
        }
        Some(Hit::AdBody)
    }

    /// The centre of a board cell, for tests that tap it.
    pub fn cell_center(&self, cell: usize) -> (i32, i32) {
        self.cell(cell % CELLS).center()
    }

    /// The centre of keypad digit `d` (1..=9), for tests.
    pub(crate) fn key_center(&self, d: u8) -> (i32, i32) {
        self.keys[(d.clamp(1, 9) - 1) as usize].center()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::Profile;

    /// Every profile, held upright and in both landscapes, at its density and at the smallest and
    /// largest that Settings' Display size offers (AOSP's `DisplayDensityUtils`: 0.85, and up to
    /// 1.5 or a 320 dp short side).
    fn held() -> Vec<Profile> {
        crate::profile::PROFILES
            .iter()
            .flat_map(|p| {
                let d = p.density as f32;
                let short = p.width.min(p.height) as f32;
                let largest = (160.0 * short / 320.0 / d).clamp(1.0, 1.5);
                [None, Some((d * 0.85) as u32), Some((d * largest) as u32)]
                    .into_iter()
                    .flat_map(move |density| {
                        [0, 1, 3].map(move |rotation| Profile {
                            rotation,
                            override_density: density,
                            ..p.clone()
                        })
                    })
            })
            .collect()
    }

    /// Whether `r` lies in the app's content area of `l`.
    fn inside(l: &ScreenLayout, r: &Rect) -> bool {
        let c = l.content();
        r.x >= c.x
            && r.y >= l.app_bar.bottom()
            && r.right() <= c.right()
            && r.bottom() <= c.bottom()
    }

    #[test]
    fn everything_fits_and_hits_itself() {
        for p in &held() {
            for (keypad, style) in [
                (KeypadStyle::Row, Style::default()),
                (KeypadStyle::TwoRows, Style::default()),
                (KeypadStyle::Grid, Style::default()),
                (KeypadStyle::Grid, Style::by_name("disc").unwrap()),
                (KeypadStyle::TwoRows, Style::by_name("tinted").unwrap()),
            ] {
                let l = ScreenLayout::new(p, keypad, &style);
                let erase = (style.erase != EraseKey::None).then_some(&l.erase);
                for r in l.keys.iter().chain(erase).chain([&l.board, &l.next_page]) {
                    assert!(inside(&l, r), "{} {keypad:?}: {r:?}", p.name);
                }
                assert!(
                    l.board.w >= l.width.min(l.height) / 2,
                    "{} {keypad:?}: board {:?}",
                    p.name,
                    l.board
                );
                for cell in 0..CELLS {
                    let (x, y) = l.cell_center(cell);
                    assert_eq!(l.hit(AppScreen::Game, false, x, y), Some(Hit::Cell(cell)));
                    assert!(l.cell(cell).w > 10 && l.cell(cell).h > 10);
                }
                for d in 1..=9 {
                    let (x, y) = l.key_center(d);
                    assert_eq!(l.hit(AppScreen::Game, false, x, y), Some(Hit::Digit(d)));
                    assert_eq!(l.hit(AppScreen::Game, true, x, y), None);
                }
                let (x, y) = l.erase.center();
                if style.erase != EraseKey::None {
                    assert_eq!(l.hit(AppScreen::Game, false, x, y), Some(Hit::Erase));
                }
                let (x, y) = l.nav_back.center();
                assert_eq!(l.hit(AppScreen::Game, true, x, y), Some(Hit::NavBack));
            }
        }
    }

    #[test]
    fn more_styles_fit_and_their_erase_keys_hit() {
        for p in &held() {
            for style in crate::app::style::MORE_STYLES {
                let l = ScreenLayout::new(p, style.keypad.unwrap(), style);
                for r in l.keys.iter().chain([&l.board, &l.erase]) {
                    assert!(inside(&l, r), "{} {}: {r:?}", p.name, style.name);
                }
                for d in 1..=9 {
                    let (x, y) = l.key_center(d);
                    assert_eq!(l.hit(AppScreen::Game, false, x, y), Some(Hit::Digit(d)));
                }
                let (x, y) = l.erase.center();
                assert_eq!(l.hit(AppScreen::Game, false, x, y), Some(Hit::Erase));
                if style.erase == EraseKey::Actions {
                    assert_eq!(l.erase, l.actions[1]);
                    assert!(l.actions[0].bottom() <= l.keys[0].y);
                    // Under the board, or beside it in landscape.
                    assert!(
                        l.actions[0].y >= l.board.bottom() || l.actions[0].x >= l.board.right()
                    );
                    let (x, y) = l.actions[0].center();
                    assert_eq!(
                        l.hit(AppScreen::Game, false, x, y),
                        None,
                        "Undo does nothing"
                    );
                } else {
                    assert_eq!(l.actions, [Rect::default(); 4]);
                }
                if style.thin_boxes {
                    assert_eq!(l.thick, l.thin);
                }
            }
        }
    }
}
