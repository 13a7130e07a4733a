//! Drawing an app without levels' screens (its home, the sheet of difficulties, "Start a new
//! game?", the result screen's words) and its ads (the interstitial, the banner).

use super::{DialogText, Frame, Renderer};
use crate::app::ads::Ad;
use crate::app::canvas::Canvas;
use crate::app::font::Face;
use crate::app::game::Game;
use crate::app::geometry::Rect;
use crate::app::model::Model;
use crate::app::new_games::{Difficulty, words};
use crate::app::palette::Palette;
use crate::app::screens::AppScreen;
use crate::app::screens::layout::ScreenLayout;
use std::time::Instant;

impl Renderer {
    /// Home of an app without levels: its title, New Game, and Continue while a game is on.
    pub(super) fn new_games_home(
        &mut self,
        cv: &mut Canvas,
        l: &ScreenLayout,
        pal: &Palette,
        model: &Model,
    ) {
        let t = l.home_title;
        self.text
            .centered(cv, Face::Bold, Self::sp(l, 44.0), "Sudoku", t, pal.text);
        self.button(cv, l, l.play, words::NEW_GAME, true, pal);
        if model.in_progress() {
            self.button(cv, l, l.level_list, words::CONTINUE, false, pal);
        }
    }

    /// The sheet of difficulties, or "Start a new game?", over the home screen.
    pub(super) fn over_home(&mut self, cv: &mut Canvas, f: Frame, content: Rect) {
        let (l, pal) = (f.l, f.pal);
        cv.blend(content, [0, 0, 0], pal.scrim_alpha);
        if f.model.screen == AppScreen::Confirm {
            let words = DialogText {
                title: words::CONFIRM_TITLE,
                sub: words::CONFIRM_SUB,
                home: words::CANCEL,
                primary: Some(words::START),
            };
            return self.dialog(cv, l, pal, words);
        }
        let n = &l.new_games;
        cv.round_rect(n.sheet, l.px(16.0), pal.surface);
        let size = Self::sp(l, 20.0);
        self.text.centered(
            cv,
            Face::Bold,
            size,
            words::NEW_GAME,
            n.sheet_title,
            pal.text,
        );
        for (r, d) in n.rows.iter().zip(Difficulty::ALL) {
            self.text
                .centered(cv, Face::Regular, size, d.name(), *r, pal.primary);
        }
        self.text
            .centered(cv, Face::Regular, size, words::CANCEL, n.cancel, pal.muted);
    }

    /// The result screen's words of an app without levels: "Excellent!", the difficulty
    /// solved, Home and New Game.
    pub(super) fn won(&mut self, cv: &mut Canvas, l: &ScreenLayout, pal: &Palette, game: &Game) {
        let name = game.difficulty.map_or("", Difficulty::name);
        let sub = words::won_sub(name);
        let words = DialogText {
            title: words::WON_TITLE,
            sub: &sub,
            home: words::HOME,
            primary: Some(words::NEW_GAME),
        };
        self.dialog(cv, l, pal, words);
    }

    /// The banner ad under the board.
    pub(super) fn banner(&mut self, cv: &mut Canvas, l: &ScreenLayout) {
        let r = l.new_games.banner;
        if r.w == 0 {
            return;
        }
        cv.fill(r, [0xFF, 0xF4, 0xD6]);
        let badge = Rect::new(r.x, r.y, l.px(28.0), l.px(18.0));
        cv.fill(badge, [0xF2, 0xB1, 0x34]);
        let dark = [0x33, 0x2A, 0x10];
        self.text
            .centered(cv, Face::Bold, Self::sp(l, 11.0), words::AD, badge, dark);
        self.text
            .centered(cv, Face::Bold, Self::sp(l, 15.0), words::BANNER, r, dark);
    }

    /// A full-screen ad over the app (the status bar stays), its close control once it shows.
    pub(super) fn ad(&mut self, cv: &mut Canvas, l: &ScreenLayout, ad: &Ad, now: Instant) {
        let all = Rect::new(
            0,
            l.status_bar.bottom(),
            l.width,
            l.nav_bar.y - l.status_bar.bottom(),
        );
        cv.fill(all, [0x5B, 0x2A, 0x86]);
        let white = [0xFF, 0xFF, 0xFF];
        let row = |i: i32, h: f32| Rect::new(0, all.y + all.h / 3 + i, l.width, l.px(h));
        self.text.centered(
            cv,
            Face::Bold,
            Self::sp(l, 30.0),
            ad.title,
            row(0, 48.0),
            white,
        );
        let install = row(l.px(96.0), 56.0);
        let button = Rect::new(l.width / 4, install.y, l.width / 2, install.h);
        cv.round_rect(button, button.h / 2, [0x2E, 0xC4, 0x6B]);
        self.text.centered(
            cv,
            Face::Bold,
            Self::sp(l, 18.0),
            words::INSTALL,
            button,
            white,
        );
        let badge = Rect::new(l.px(8.0), all.bottom() - l.px(28.0), l.px(28.0), l.px(18.0));
        cv.fill(badge, [0xF2, 0xB1, 0x34]);
        self.text.centered(
            cv,
            Face::Bold,
            Self::sp(l, 11.0),
            words::AD,
            badge,
            [0x33, 0x2A, 0x10],
        );
        if ad.closable(now) {
            let close = l.new_games.close[usize::from(ad.right)];
            cv.round_rect(close, close.h / 2, [0x00, 0x00, 0x00]);
            let size = Self::sp(l, if ad.close.len() > 1 { 11.0 } else { 20.0 });
            self.text
                .centered(cv, Face::Bold, size, ad.close, close, white);
        }
    }
}
