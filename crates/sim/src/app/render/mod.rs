//! Draws the current screen: status bar, app bar, the screen's content, dialogs, navigation bar.

use super::canvas::Canvas;
use super::font::{Face, Text};
use super::game::{Brush, Game, Highlight};
use super::geometry::Rect;
use super::levels::LEVEL_COUNT;
use super::model::Model;
use super::options::AppOptions;
use super::palette::{Palette, Rgb};
use super::rules::{EndForm, Words, fill};
use super::screens::AppScreen;
use super::screens::layout::ScreenLayout;
use super::style::{self, EraseKey, Givens, Highlights, Style};
use image::RgbaImage;
use sudoku_autoplay::board::CELLS;

mod new_games;

/// The clock shown in the status bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    pub hour: u8,
    pub minute: u8,
    /// Battery level in percent.
    pub battery: u8,
}

/// A coach mark's gesture over the board `b`: a thick white stroke curving across it from
/// lower left to upper right, a fingertip at its end (`unit`: the stroke's width in 1/12ths).
fn coach_mark(cv: &mut Canvas, b: Rect, unit: i32) {
    let (x, y, w, h) = (b.x as f32, b.y as f32, b.w as f32, b.h as f32);
    let at = |t: f32| {
        // A quadratic curve: from (0.15, 0.8) through a control point at (0.3, 0.15) to
        // (0.85, 0.3), in board fractions.
        let (p0, p1, p2) = ((0.15, 0.8), (0.3, 0.15), (0.85, 0.3));
        let u = 1.0 - t;
        let fx = u * u * p0.0 + 2.0 * u * t * p1.0 + t * t * p2.0;
        let fy = u * u * p0.1 + 2.0 * u * t * p1.1 + t * t * p2.1;
        (x + fx * w, y + fy * h)
    };
    let points: Vec<(f32, f32)> = (0..=24).map(|i| at(i as f32 / 24.0)).collect();
    let width = (12 * unit) as f32;
    cv.stroke(&points, width, [255, 255, 255]);
    let (tx, ty) = at(1.0);
    cv.disc(tx, ty, width * 0.9, [255, 255, 255]);
}

/// What a frame is drawn from: where things are, in which colours, the app's state and settings.
#[derive(Clone, Copy)]
struct Frame<'a> {
    l: &'a ScreenLayout,
    pal: &'a Palette,
    model: &'a Model,
    options: &'a AppOptions,
}

/// The face and pixel size of the givens and of the entries.
struct DigitFaces {
    given: (Face, u32),
    entered: (Face, u32),
}

/// A dialog card's words: a title, a line under it, Home and an optional primary button.
struct DialogText<'a> {
    title: &'a str,
    sub: &'a str,
    home: &'a str,
    primary: Option<&'a str>,
}

/// Draws frames; keeps the glyph cache between frames.
#[derive(Debug)]
pub struct Renderer {
    text: Text,
    /// Font size (px) that makes a board digit's ink about 64% of the cell height.
    cell_digit_px: u32,
    /// Font size for keypad digits (about 45% of the key height).
    key_digit_px: u32,
}

impl Renderer {
    pub fn new(layout: &ScreenLayout) -> Self {
        let mut text = Text::new();
        let ink = text.ink_height(Face::Regular, 100, '8').max(1) as f32;
        let size_for = |target: f32| ((target * 100.0 / ink).round() as u32).max(4);
        let cell_h = layout.cell(0).h.min(layout.cell(0).w) as f32;
        Renderer {
            cell_digit_px: size_for(cell_h * 0.64),
            key_digit_px: size_for(layout.keys[0].h.min(layout.keys[0].w) as f32 * 0.45),
            text,
        }
    }

    /// Draws the screen for `model` into `img` (reused between frames, so no new memory is
    /// touched; resized if it is not `layout.width x layout.height`).
    pub fn render(
        &mut self,
        img: &mut RgbaImage,
        model: &Model,
        layout: &ScreenLayout,
        options: &AppOptions,
        clock: Clock,
    ) {
        let pal = options.palette();
        let (w, h) = (layout.width.max(0) as u32, layout.height.max(0) as u32);
        if img.dimensions() != (w, h) {
            *img = RgbaImage::new(w, h);
        }
        let mut cv = Canvas::new(img, w, h);
        let c = layout.content();
        let content = Rect::new(c.x, layout.app_bar.y, c.w, c.bottom() - layout.app_bar.y);
        cv.fill(Rect::new(0, 0, layout.width, layout.height), pal.background);
        let f = Frame {
            l: layout,
            pal,
            model,
            options,
        };
        match (model.screen, &model.game) {
            (AppScreen::Home | AppScreen::Sheet | AppScreen::Confirm, _)
                if model.games_won().is_some() =>
            {
                self.app_bar(&mut cv, layout, pal, "Sudoku", false);
                self.new_games_home(&mut cv, layout, pal, model);
                if model.screen != AppScreen::Home {
                    self.over_home(&mut cv, f, content);
                }
            }
            (AppScreen::Home | AppScreen::Sheet | AppScreen::Confirm, _)
            | (AppScreen::Game | AppScreen::Complete | AppScreen::GameOver, None) => {
                self.app_bar(&mut cv, layout, pal, "Sudoku", false);
                self.home(&mut cv, layout, pal, model);
            }
            (AppScreen::Levels, _) => {
                self.app_bar(&mut cv, layout, pal, "Levels", true);
                self.levels(&mut cv, layout, pal, model);
            }
            (AppScreen::Game | AppScreen::Complete | AppScreen::GameOver, Some(game)) => {
                self.game_screen(&mut cv, f, game, content);
            }
        }
        if let Some(ad) = model.ad_showing() {
            self.ad(&mut cv, layout, ad, std::time::Instant::now());
        }
        if model.alert && !model.popup {
            cv.blend(content, [0, 0, 0], pal.scrim_alpha);
            let words = model
                .game
                .as_ref()
                .map_or(&super::rules::ENGLISH, |g| g.words);
            self.alert(&mut cv, layout, pal, words);
        }
        if model.popup {
            cv.blend(content, [0, 0, 0], pal.scrim_alpha);
            self.popup(&mut cv, layout, pal);
        }
        self.status_bar(&mut cv, layout, pal, clock);
        self.nav_bar(&mut cv, layout, pal);
    }

    /// A game's screen: the board and keypad, or how the game ended (`content`: the screen
    /// below the status bar, which a dialog's scrim covers).
    fn game_screen(&mut self, cv: &mut Canvas, f: Frame, game: &Game, content: Rect) {
        let (layout, pal, model) = (f.l, f.pal, f.model);
        self.app_bar(cv, layout, pal, &game.title(), true);
        if let Some(counter) = model.mistake_counter() {
            self.mistake_counter(cv, layout, pal, &counter);
        }
        let over = model.screen == AppScreen::GameOver;
        let form = match model.screen {
            AppScreen::Complete => Some(layout.completion),
            AppScreen::GameOver => Some(layout.game_over),
            _ => None,
        };
        let keypad = model.keypad_shown(game);
        match form {
            None => self.game(cv, f, game, keypad),
            Some(EndForm::Dialog) if !over => {
                self.game(cv, f, game, keypad);
                cv.blend(content, [0, 0, 0], pal.scrim_alpha);
                match game.difficulty {
                    Some(_) => self.won(cv, layout, pal, game),
                    None => self.complete(cv, layout, pal, game),
                }
            }
            Some(EndForm::Dialog) => {
                // The board is gone: the app bar, an empty page and the dialog.
                cv.blend(content, [0, 0, 0], pal.scrim_alpha);
                self.game_over(cv, layout, pal, game);
            }
            Some(EndForm::Screen) => self.end_words(cv, f, game, over, form),
            Some(EndForm::Line) => {
                self.game(cv, f, game, false);
                self.end_words(cv, f, game, over, form);
            }
        }
        if model.ads.is_some() && matches!(model.screen, AppScreen::Game) {
            self.banner(cv, layout);
        }
        if model.covered && model.screen == AppScreen::Game {
            cv.blend(content, [0, 0, 0], pal.scrim_alpha);
            coach_mark(cv, layout.board, layout.px(2.0));
        }
    }

    /// The mistake counter ("Mistakes: 0/3"), right-aligned in the app bar, left of the undo
    /// key.
    fn mistake_counter(
        &mut self,
        cv: &mut Canvas,
        layout: &ScreenLayout,
        pal: &Palette,
        counter: &str,
    ) {
        let size = Self::sp(layout, 16.0);
        let w = self.text.width(Face::Regular, size, counter);
        let right = if layout.undo.w > 0 && layout.undo.y == layout.app_bar.y {
            layout.undo.x
        } else {
            layout.app_bar.right()
        } - layout.px(16.0);
        let baseline = self
            .text
            .baseline(Face::Regular, size, layout.app_bar.center().1);
        self.text.draw(
            cv,
            Face::Regular,
            size,
            counter,
            (right - w, baseline),
            pal.on_app_bar,
        );
    }

    fn sp(layout: &ScreenLayout, sp: f32) -> u32 {
        layout.px(sp).max(4) as u32
    }

    fn status_bar(&mut self, cv: &mut Canvas, l: &ScreenLayout, pal: &Palette, clock: Clock) {
        let bar = l.status_bar;
        cv.fill(bar, pal.status_bar);
        let fg = pal.on_status_bar;
        let size = Self::sp(l, 14.0);
        let time = format!("{:02}:{:02}", clock.hour, clock.minute);
        let baseline = self.text.baseline(Face::Bold, size, bar.center().1);
        self.text.draw(
            cv,
            Face::Bold,
            size,
            &time,
            (bar.x + l.px(16.0), baseline),
            fg,
        );
        // Battery: outline, charge, nub.
        let (bw, bh) = (l.px(22.0), l.px(11.0));
        let bx = bar.right() - l.px(16.0) - bw;
        let by = bar.center().1 - bh / 2;
        let t = l.px(1.5).max(1);
        cv.fill(Rect::new(bx, by, bw, bh), fg);
        cv.fill(
            Rect::new(bx + t, by + t, bw - 2 * t, bh - 2 * t),
            pal.status_bar,
        );
        let charge = (bw - 4 * t) * clock.battery.min(100) as i32 / 100;
        cv.fill(Rect::new(bx + 2 * t, by + 2 * t, charge, bh - 4 * t), fg);
        cv.fill(Rect::new(bx + bw, by + bh / 4, t + 1, bh / 2), fg);
        // Signal: four bars.
        let step = l.px(4.0);
        let base = by + bh;
        for i in 0..4 {
            let hgt = bh * (i + 1) / 4;
            let x = bx - l.px(10.0) - (4 - i) * step;
            cv.fill(Rect::new(x, base - hgt, step - l.px(1.0).max(1), hgt), fg);
        }
        if let Some((cx, cy, r)) = l.cutout {
            cv.disc(cx as f32, cy as f32, r as f32, [0, 0, 0]);
        }
    }

    fn nav_bar(&mut self, cv: &mut Canvas, l: &ScreenLayout, pal: &Palette) {
        cv.fill(l.nav_bar, pal.nav_bar);
        let size = Self::sp(l, 20.0);
        for (r, ch) in [(l.nav_back, '◁'), (l.nav_home, '○'), (l.nav_recents, '□')] {
            self.text
                .glyph_centered(cv, Face::Regular, size, ch, r, pal.on_nav_bar);
        }
    }

    fn app_bar(
        &mut self,
        cv: &mut Canvas,
        l: &ScreenLayout,
        pal: &Palette,
        title: &str,
        back: bool,
    ) {
        cv.fill(l.app_bar, pal.app_bar);
        let size = Self::sp(l, 20.0);
        let baseline = self.text.baseline(Face::Bold, size, l.app_bar.center().1);
        let x = if back {
            self.text.glyph_centered(
                cv,
                Face::Bold,
                Self::sp(l, 24.0),
                '←',
                l.back,
                pal.on_app_bar,
            );
            l.app_bar.x + l.px(72.0)
        } else {
            l.app_bar.x + l.px(16.0)
        };
        self.text
            .draw(cv, Face::Bold, size, title, (x, baseline), pal.on_app_bar);
    }

    fn button(
        &mut self,
        cv: &mut Canvas,
        l: &ScreenLayout,
        r: Rect,
        label: &str,
        primary: bool,
        pal: &Palette,
    ) {
        let radius = r.h / 2;
        let size = Self::sp(l, 18.0);
        if primary {
            cv.round_rect(r, radius, pal.primary);
            self.text
                .centered(cv, Face::Bold, size, label, r, pal.on_primary);
        } else {
            let border = l.px(1.5).max(1);
            cv.outlined_round_rect(r, radius, border, pal.outline, pal.surface);
            self.text
                .centered(cv, Face::Bold, size, label, r, pal.primary);
        }
    }

    fn home(&mut self, cv: &mut Canvas, l: &ScreenLayout, pal: &Palette, model: &Model) {
        let t = l.home_title;
        self.text
            .centered(cv, Face::Bold, Self::sp(l, 44.0), "Sudoku", t, pal.text);
        let sub = Rect::new(t.x, t.bottom(), t.w, l.px(32.0));
        self.text.centered(
            cv,
            Face::Regular,
            Self::sp(l, 16.0),
            &format!("{LEVEL_COUNT} classic puzzles"),
            sub,
            pal.muted,
        );
        let resume = model.game.as_ref().filter(|g| !g.is_solved());
        let label = match resume {
            Some(g) => format!("Continue {}", g.level),
            None => "Play".to_string(),
        };
        self.button(cv, l, l.play, &label, true, pal);
        self.button(cv, l, l.level_list, "Levels", false, pal);
    }

    fn levels(&mut self, cv: &mut Canvas, l: &ScreenLayout, pal: &Palette, model: &Model) {
        let size = Self::sp(l, 22.0);
        let radius = l.px(12.0);
        for (n, r) in l.level_buttons(model.page, model.scroll) {
            let done = model.completed.get(n).copied().unwrap_or(false);
            cv.round_rect(r, radius, if done { pal.done } else { pal.key });
            let label = (n + 1).to_string();
            self.text
                .centered(cv, Face::Bold, size, &label, r, pal.on_key);
        }
        if model.scroll.is_some() {
            // One list: no pages.
            return;
        }
        let pages = Model::pages();
        let small = Self::sp(l, 16.0);
        for (r, label, enabled) in [
            (l.prev_page, "‹ Prev", model.page > 0),
            (l.next_page, "Next ›", model.page + 1 < pages),
        ] {
            let border = l.px(1.5).max(1);
            cv.outlined_round_rect(r, r.h / 2, border, pal.outline, pal.surface);
            let c = if enabled { pal.primary } else { pal.outline };
            self.text.centered(cv, Face::Bold, small, label, r, c);
        }
        let label = format!("Page {} / {pages}", model.page + 1);
        self.text
            .centered(cv, Face::Regular, small, &label, l.page_label, pal.muted);
    }

    /// The game screen: the board and, with `keypad`, the keys (an end line replaces them).
    fn game(&mut self, cv: &mut Canvas, f: Frame, game: &Game, keypad: bool) {
        let (l, pal, style) = (f.l, f.pal, &f.options.style);
        self.board_cells(cv, f, game);
        self.grid_lines(cv, f);
        self.digits(cv, f, game);
        if game.pencil
            && let Some(sel) = game.selected
        {
            // Pencil mode: the selected cell framed in the primary colour.
            let r = l.cell(sel);
            let t = l.px(2.0).max(1);
            for edge in [
                Rect::new(r.x, r.y, r.w, t),
                Rect::new(r.x, r.bottom() - t, r.w, t),
                Rect::new(r.x, r.y, t, r.h),
                Rect::new(r.right() - t, r.y, t, r.h),
            ] {
                cv.fill(edge, pal.primary);
            }
        }
        if l.undo.w > 0 && style.erase != EraseKey::Actions {
            let px = Self::sp(l, 24.0);
            self.text
                .glyph_centered(cv, Face::Bold, px, '↶', l.undo, pal.on_app_bar);
        }
        if !keypad {
            return;
        }
        if style.erase == EraseKey::Actions {
            self.actions(cv, l, pal, style);
        }
        self.keypad(cv, l, pal, f.model, game, style);
    }

    /// The board's card and each cell's background: its highlight, a given's tint.
    fn board_cells(&mut self, cv: &mut Canvas, f: Frame, game: &Game) {
        let (l, pal, style) = (f.l, f.pal, &f.options.style);
        let b = l.board;
        if style.card_radius > 0 {
            cv.round_rect(b, l.px(style.card_radius as f32), pal.surface);
        } else {
            cv.fill(b, pal.surface);
        }
        for cell in 0..CELLS {
            let tint = match game.highlight_in(cell, style.highlight) {
                Highlight::None => None,
                Highlight::Peer => Some(pal.peer),
                Highlight::SameDigitAgain => Some(pal.same_digit),
                Highlight::Selected => Some(pal.selected),
            };
            // Without cell lines nothing separates the cells: a tint spans from line to line.
            let area = if style.cell_lines {
                l.cell(cell)
            } else {
                l.cell_pitch(cell)
            };
            if style.givens == Givens::Shaded && game.is_given(cell) {
                cv.fill(area, style::mix(pal.surface, pal.given, style::SHADE_MIX));
            }
            if let Some(tint) = tint {
                cv.fill(area, tint);
            }
            // Tinted givens stay tinted under a highlight.
            if style.givens == Givens::Tint && game.is_given(cell) {
                cv.blend(area, pal.given, style::GIVEN_TINT_ALPHA);
            }
        }
    }

    /// The grid: thin lines first, thick box lines over them.
    fn grid_lines(&mut self, cv: &mut Canvas, f: Frame) {
        let (l, pal, style) = (f.l, f.pal, &f.options.style);
        let b = l.board;
        for thick in [false, true] {
            for i in 0..=9usize {
                let outer = i == 0 || i == 9;
                if i.is_multiple_of(3) != thick
                    || (!thick && !style.cell_lines)
                    || (outer && !style.border)
                {
                    continue;
                }
                let colour = if thick { pal.line_thick } else { pal.line_thin };
                let (start, w) = l.line_span(i);
                cv.fill(Rect::new(b.x + start, b.y, w, b.h), colour);
                cv.fill(Rect::new(b.x, b.y + start, b.w, w), colour);
            }
        }
    }

    /// The faces and sizes of the givens and the entries: the app's own (DejaVu, sized once),
    /// or the style's faces.
    fn digit_faces(&mut self, l: &ScreenLayout, style: &Style) -> DigitFaces {
        let cell = l.cell(0);
        let ink = cell.h.min(cell.w) as f32 * style.digit_ink as f32 / 100.0;
        let given = if style.givens == Givens::Weight {
            Face::Bold
        } else {
            Face::Regular
        };
        match style.faces {
            None if style.digit_ink == 64 => DigitFaces {
                given: (given, self.cell_digit_px),
                entered: (Face::Regular, self.cell_digit_px),
            },
            None => {
                let px = self.text.px_for_ink(Face::Regular, '8', ink);
                DigitFaces {
                    given: (given, px),
                    entered: (Face::Regular, px),
                }
            }
            Some(f) => DigitFaces {
                given: (f.given, self.text.px_for_ink(f.given, '8', ink)),
                entered: (f.entered, self.text.px_for_ink(f.entered, '8', ink)),
            },
        }
    }

    /// The digits (a given's disc under it) and the pencil marks.
    fn digits(&mut self, cv: &mut Canvas, f: Frame, game: &Game) {
        let (l, pal, style) = (f.l, f.pal, &f.options.style);
        let faces = self.digit_faces(l, style);
        let bad = if f.options.show_conflicts {
            game.conflicts()
        } else {
            [false; CELLS]
        };
        // A same-digit highlight in ink: the digits equal to the selected cell's.
        let inked = game
            .selected
            .map(|s| game.board.get(s))
            .filter(|&d| d != 0 && style.highlight == Highlights::DigitInk);
        for (cell, &is_bad) in bad.iter().enumerate() {
            let d = game.board.get(cell);
            if d == 0 {
                continue;
            }
            let given = game.is_given(cell);
            let r = l.cell(cell);
            if given && style.givens == Givens::Disc {
                let (cx, cy) = r.center();
                let radius = r.w.min(r.h) as f32 * 0.44;
                let disc = style::mix(pal.surface, pal.given, style::DISC_MIX);
                cv.disc(cx as f32 + 0.5, cy as f32 + 0.5, radius, disc);
            }
            let colour = if (is_bad && !given) || game.wrong(cell) || inked == Some(d) {
                pal.conflict
            } else if !given && style.givens == Givens::Shaded {
                pal.muted
            } else if given || style.givens != Givens::Colour {
                pal.given
            } else {
                pal.user
            };
            let (face, px) = if given { faces.given } else { faces.entered };
            let ch = char::from(b'0' + d);
            let faded = !given && style.givens == Givens::Faded && colour == pal.given;
            if faded {
                cv.set_ink_opacity(style::FADED_ALPHA);
            }
            self.text.glyph_centered(cv, face, px, ch, r, colour);
            cv.set_ink_opacity(255);
        }
        self.notes(cv, l, pal, game, faces.entered.0);
    }

    /// Pencil marks: digit d small in the d-th ninth of its empty cell.
    fn notes(&mut self, cv: &mut Canvas, l: &ScreenLayout, pal: &Palette, game: &Game, face: Face) {
        let mut px = None;
        for (cell, &marks) in game.notes.iter().enumerate() {
            if marks == 0 || game.board.get(cell) != 0 {
                continue;
            }
            let r = l.cell(cell);
            let px = *px.get_or_insert_with(|| {
                let ink = r.h.min(r.w) as f32 * 0.2;
                self.text.px_for_ink(face, '8', ink)
            });
            for d in 1..=9u8 {
                if marks & (1 << d) == 0 {
                    continue;
                }
                let (i, j) = ((d as i32 - 1) / 3, (d as i32 - 1) % 3);
                let (x0, x1) = (r.x + j * r.w / 3, r.x + (j + 1) * r.w / 3);
                let (y0, y1) = (r.y + i * r.h / 3, r.y + (i + 1) * r.h / 3);
                let at = Rect::new(x0, y0, x1 - x0, y1 - y0);
                let ch = char::from(b'0' + d);
                self.text.glyph_centered(cv, face, px, ch, at, pal.muted);
            }
        }
    }

    /// The action row: an icon over each word (Undo, Erase, Notes, Hint).
    fn actions(&mut self, cv: &mut Canvas, l: &ScreenLayout, pal: &Palette, style: &Style) {
        let face = style.faces.map_or(Face::Regular, |f| f.keys);
        let words = ["Undo", "Erase", "Notes", "Hint"];
        for (r, word) in l.actions.iter().zip(words) {
            let icon = r.h * 2 / 5;
            let (cx, _) = r.center();
            let square = Rect::new(cx - icon / 2, r.y + r.h / 10, icon, icon);
            cv.round_rect(square, icon / 6, pal.muted);
            let label = Rect::new(r.x, square.bottom(), r.w, r.bottom() - square.bottom());
            let px = Self::sp(l, 13.0);
            self.text.centered(cv, face, px, word, label, pal.muted);
        }
    }

    /// The digit keys (with counts, hidden when complete, on a panel) and the erase key.
    fn keypad(
        &mut self,
        cv: &mut Canvas,
        l: &ScreenLayout,
        pal: &Palette,
        model: &Model,
        game: &Game,
        style: &Style,
    ) {
        let on_panel = l.panel.w > 0;
        let (key, on_key, radius) = if on_panel {
            cv.round_rect(l.panel, l.px(8.0), style::PANEL);
            (style::PANEL_KEY, style::ON_PANEL_KEY, l.px(4.0))
        } else {
            (pal.key, pal.on_key, l.px(10.0))
        };
        let count_px = Self::sp(l, 11.0);
        let (key_face, key_px) = match style.faces {
            None => (Face::Regular, self.key_digit_px),
            Some(f) => {
                let k = l.keys[0];
                let px = self
                    .text
                    .px_for_ink(f.keys, '8', k.h.min(k.w) as f32 * 0.45);
                (f.keys, px)
            }
        };
        let slots = model.keys(game);
        for (r, slot) in l.keys.iter().zip(slots) {
            let Some((digit, greyed)) = slot else {
                continue;
            };
            // The brush's key in the primary colour, a finished digit's greyed.
            let (key, on_key) = if game.brush == Some(Brush::Digit(digit)) {
                (pal.primary, pal.on_primary)
            } else if greyed {
                (style::mix(key, pal.background, 0.6), pal.outline)
            } else {
                (key, on_key)
            };
            cv.round_rect(*r, radius, key);
            let ch = char::from(b'0' + digit);
            if style.counts {
                // The digit in the upper part, the count left under it.
                let upper = Rect::new(r.x, r.y, r.w, r.h * 7 / 10);
                let lower = Rect::new(r.x, r.y + r.h * 13 / 20, r.w, r.h * 3 / 10);
                self.text
                    .glyph_centered(cv, key_face, key_px, ch, upper, on_key);
                let left = game.remaining(digit).to_string();
                self.text
                    .centered(cv, Face::Regular, count_px, &left, lower, pal.muted);
            } else {
                self.text
                    .glyph_centered(cv, key_face, key_px, ch, *r, on_key);
            }
        }
        self.erase_key(cv, l, pal, style, (key, on_key, radius));
    }

    /// The erase key in `style`'s form; `look`: the digit keys' fill, ink and corner radius.
    fn erase_key(
        &mut self,
        cv: &mut Canvas,
        l: &ScreenLayout,
        pal: &Palette,
        style: &Style,
        look: (Rgb, Rgb, i32),
    ) {
        let (key, on_key, radius) = look;
        let e = l.erase;
        let label_px = Self::sp(l, 18.0);
        match style.erase {
            EraseKey::None | EraseKey::Actions => {}
            EraseKey::Cross => {
                cv.round_rect(e, radius, key);
                let px = self
                    .text
                    .px_for_ink(Face::Regular, '✕', e.h.min(e.w) as f32 * 0.3);
                self.text
                    .glyph_centered(cv, Face::Regular, px, '✕', e, on_key);
            }
            EraseKey::Backspace => {
                cv.round_rect(e, radius, pal.key);
                let label = if e.w > l.px(100.0) {
                    "⌫  Erase"
                } else {
                    "⌫"
                };
                self.text
                    .centered(cv, Face::Bold, label_px, label, e, pal.on_key);
            }
            EraseKey::Trash => {
                cv.round_rect(e, radius, pal.key);
                style::draw_trash(cv, e, l.px(22.0), pal.on_key, pal.key);
            }
            EraseKey::LetterC => {
                cv.round_rect(e, radius, pal.key);
                self.text
                    .glyph_centered(cv, Face::Bold, self.key_digit_px, 'C', e, pal.on_key);
            }
        }
    }

    fn card(&mut self, cv: &mut Canvas, l: &ScreenLayout, pal: &Palette) {
        cv.round_rect(l.dialog, l.px(24.0), pal.surface);
    }

    fn complete(&mut self, cv: &mut Canvas, l: &ScreenLayout, pal: &Palette, game: &Game) {
        let w = game.words;
        let next = ((game.level as usize) < LEVEL_COUNT).then_some(w.next);
        let title = fill(w.complete_title, game.level, game.mistakes);
        let sub = fill(w.complete_sub, game.level, game.mistakes);
        let words = DialogText {
            title: &title,
            sub: &sub,
            home: w.home,
            primary: next,
        };
        self.dialog(cv, l, pal, words);
    }

    fn game_over(&mut self, cv: &mut Canvas, l: &ScreenLayout, pal: &Palette, game: &Game) {
        let w = game.words;
        let title = fill(w.over_title, game.level, game.mistakes);
        let sub = fill(w.over_sub, game.level, game.mistakes);
        let words = DialogText {
            title: &title,
            sub: &sub,
            home: w.home,
            primary: Some(w.retry),
        };
        self.dialog(cv, l, pal, words);
    }

    /// The completion or game over as a screen of its own or a line under the board.
    fn end_words(
        &mut self,
        cv: &mut Canvas,
        f: Frame,
        game: &Game,
        over: bool,
        form: Option<EndForm>,
    ) {
        let (l, pal) = (f.l, f.pal);
        let e = l.end_rects(form.unwrap_or_default());
        let w = game.words;
        let (title, sub, primary) = if over {
            (w.over_title, w.over_sub, Some(w.retry))
        } else {
            let next = ((game.level as usize) < LEVEL_COUNT).then_some(w.next);
            (w.complete_title, w.complete_sub, next)
        };
        let screen = form == Some(EndForm::Screen);
        let size = Self::sp(l, if screen { 32.0 } else { 22.0 });
        let title = fill(title, game.level, game.mistakes);
        let colour = if over { pal.conflict } else { pal.text };
        self.text
            .centered(cv, Face::Bold, size, &title, e.title, colour);
        let sub = fill(sub, game.level, game.mistakes);
        let sub_px = Self::sp(l, if screen { 16.0 } else { 14.0 });
        self.text
            .centered(cv, Face::Regular, sub_px, &sub, e.sub, pal.muted);
        self.button(cv, l, e.home, w.home, false, pal);
        if let Some(label) = primary {
            self.button(cv, l, e.primary, label, true, pal);
        }
    }

    /// The refusal alert: its words and an OK button.
    fn alert(&mut self, cv: &mut Canvas, l: &ScreenLayout, pal: &Palette, w: &Words) {
        self.card(cv, l, pal);
        let e = l.end_rects(EndForm::Dialog);
        let px = Self::sp(l, 22.0);
        self.text
            .centered(cv, Face::Bold, px, w.invalid, e.title, pal.text);
        self.button(cv, l, l.dialog_next, w.ok, true, pal);
    }

    /// A dialog card with its words.
    fn dialog(&mut self, cv: &mut Canvas, l: &ScreenLayout, pal: &Palette, words: DialogText) {
        self.card(cv, l, pal);
        let d = l.dialog;
        let title = Rect::new(d.x, d.y + l.px(24.0), d.w, l.px(36.0));
        self.text.centered(
            cv,
            Face::Bold,
            Self::sp(l, 22.0),
            words.title,
            title,
            pal.text,
        );
        let sub = Rect::new(d.x, title.bottom() + l.px(4.0), d.w, l.px(28.0));
        self.text.centered(
            cv,
            Face::Regular,
            Self::sp(l, 16.0),
            words.sub,
            sub,
            pal.muted,
        );
        self.button(cv, l, l.dialog_home, words.home, false, pal);
        if let Some(label) = words.primary {
            self.button(cv, l, l.dialog_next, label, true, pal);
        }
    }

    fn popup(&mut self, cv: &mut Canvas, l: &ScreenLayout, pal: &Palette) {
        self.card(cv, l, pal);
        let d = l.dialog;
        let row = |i: i32, h: f32| Rect::new(d.x, d.y + l.px(20.0) + i, d.w, l.px(h));
        let title = row(0, 36.0);
        self.text.centered(
            cv,
            Face::Bold,
            Self::sp(l, 22.0),
            "Rate this app",
            title,
            pal.text,
        );
        let text = row(l.px(40.0), 28.0);
        self.text.centered(
            cv,
            Face::Regular,
            Self::sp(l, 16.0),
            "Enjoying Sudoku? Tell us!",
            text,
            pal.muted,
        );
        let stars = row(l.px(76.0), 48.0);
        self.text.centered(
            cv,
            Face::Regular,
            Self::sp(l, 36.0),
            "★★★★★",
            stars,
            pal.star,
        );
        let hint = row(l.px(132.0), 28.0);
        self.text.centered(
            cv,
            Face::Regular,
            Self::sp(l, 13.0),
            "Press back to close",
            hint,
            pal.muted,
        );
    }
}
