//! The app's state machine: screens, the game in progress, counters. No pixels here.

use super::ambiguous;
use super::game::{Brush, Effect, Game, input, key_slots, merge};
use super::keys::Key;
use super::levels;
use super::rules::{
    CLEAR_LATE, EraseRule, FRAME, FinishedKeyLook, InputOrder, InputRules, Mistakes, SameDigitAgain,
};
use super::screens::{AppScreen, Hit, LEVELS_PER_PAGE};
use std::collections::VecDeque;
use std::time::Instant;

/// Everything the app remembers.
#[derive(Debug, Clone)]
pub struct Model {
    pub screen: AppScreen,
    /// Level list page, 0-based.
    pub page: usize,
    /// The level list scrolls instead of paging: how far down, in pixels (`None`: pages).
    pub scroll: Option<i32>,
    pub game: Option<Game>,
    /// Whether the "Rate this app" popup is showing.
    pub popup: bool,
    popup_after: Option<u64>,
    popup_shown: bool,
    /// End the game after this many mistakes (`None`: never).
    mistake_limit: Option<u32>,
    /// Levels solved (index = level - 1).
    pub completed: Vec<bool>,
    pub taps: u64,
    pub dropped_taps: u64,
    /// Taps eaten by the popup.
    pub swallowed_taps: u64,
    pub digits_entered: u64,
    pub erasures: u64,
    /// How taps are taken (`--input-rules` and the rules' flags).
    pub rules: InputRules,
    /// The rules where they defer to the style, resolved.
    pub(crate) same_digit: SameDigitAgain,
    pub(crate) finished_keys: FinishedKeyLook,
    /// The refusal alert (`--refuse-conflicts`) is showing: only its OK button takes taps.
    pub alert: bool,
    /// Seeds the words of `--language random`.
    seed: u64,
    games_opened: u64,
    /// With `frame_reads`: each recent game tap's time and the game before it.
    recent: VecDeque<(Instant, Game)>,
    /// `--same-digit clear-late`: cells to clear, and when.
    late_clears: Vec<(Instant, usize)>,
    /// Levels open with cells blanked to several solutions (`--several-solutions`).
    pub(crate) several_solutions: bool,
    /// The app shows a coach mark over the first game it opens (`--cover`).
    pub(crate) cover: bool,
    /// The coach mark (a dimming overlay with a gesture stroke across the board) covers the
    /// game now; a tap anywhere or BACK dismisses it.
    pub covered: bool,
    /// An app without levels (`--new-games`): where it stands.
    pub(crate) new_games: Option<super::new_games::NewGames>,
    /// The app's ads (`--ads`).
    pub(crate) ads: Option<super::ads::Ads>,
}

pub(crate) use super::seeds::splitmix;

impl Model {
    /// The rules this app takes taps by (`same_digit` and `finished_keys` resolved against the
    /// style), and the seed of its random words.
    pub(crate) fn set_rules(&mut self, rules: InputRules, style: &super::style::Style, seed: u64) {
        self.rules = rules;
        self.same_digit = rules.same_digit(style);
        self.finished_keys = rules.finished_keys(style);
        self.seed = seed;
    }

    /// The keypad's slots now (see [`key_slots`]).
    pub fn keys(&self, game: &Game) -> [Option<(u8, bool)>; 9] {
        key_slots(game, self.finished_keys)
    }

    /// Whether the keypad (digits, erase key) shows: always, but in a cell-first or "both" app
    /// whose keypad comes up only for a selected cell that takes digits (`keypad_on_select`).
    pub fn keypad_shown(&self, game: &Game) -> bool {
        !self.rules.keypad_on_select
            || matches!(
                self.rules.order,
                InputOrder::DigitFirst | InputOrder::DigitFirstArmed
            )
            || game.selected.is_some_and(|c| !game.is_given(c))
    }

    /// Lets time pass to `now`: late clears fall due. True if anything visible changed.
    pub(crate) fn advance(&mut self, now: Instant) -> bool {
        let mut changed = false;
        while let Some(i) = self.late_clears.iter().position(|&(due, _)| due <= now) {
            let (_, cell) = self.late_clears.remove(i);
            let Some(g) = self.game.as_mut() else {
                continue;
            };
            let d = g.board.get(cell);
            if self.screen == AppScreen::Game && !g.is_given(cell) && d != 0 {
                g.history.push((cell, d));
                g.board.set(cell, 0);
                self.erasures += 1;
                changed = true;
            }
        }
        changed
    }

    /// The game as the last drawn frame shows it at `at`, when it differs from the current one.
    fn drawn(&mut self, at: Instant) -> Option<Game> {
        while self.recent.front().is_some_and(|&(t, _)| t + FRAME <= at) {
            self.recent.pop_front();
        }
        self.recent.front().map(|(_, g)| g.clone())
    }

    /// A tap on a cell, a digit key (its slot), the erase key or the undo key.
    fn game_input(&mut self, hit: Hit, at: Instant) -> bool {
        let rules = self.rules;
        let Some(hit) = self.what_is_hit(hit) else {
            return false;
        };
        let stale = if rules.frame_reads {
            self.drawn(at)
        } else {
            None
        };
        let Some(current) = self.game.as_mut() else {
            return false;
        };
        if rules.frame_reads {
            self.recent.push_back((at, current.clone()));
        }
        let fx = match stale {
            Some(read) => {
                let mut after = read.clone();
                let fx = input(&mut after, hit, &rules, self.same_digit);
                merge(current, &read, &after);
                fx
            }
            None => input(current, hit, &rules, self.same_digit),
        };
        let over = self.take_effect(&fx, at);
        over || fx.changed || fx.refused
    }

    /// What a tap on `hit` reaches in the game: a digit key's digit (none where its slot is
    /// empty or greyed, or no keypad shows), the erase and undo keys where the app has them.
    fn what_is_hit(&self, hit: Hit) -> Option<Hit> {
        let rules = &self.rules;
        if matches!(hit, Hit::Digit(_) | Hit::Erase)
            && !self.game.as_ref().is_some_and(|g| self.keypad_shown(g))
        {
            // No key there: the tap lands on the screen's background.
            return None;
        }
        match hit {
            Hit::Digit(slot) => {
                let g = self.game.as_ref()?;
                match self.keys(g).get(slot as usize - 1).copied().flatten() {
                    Some((d, false)) => Some(Hit::Digit(d)),
                    _ => None,
                }
            }
            Hit::Erase if rules.erase != EraseRule::Clears => None,
            Hit::Undo if !rules.undo_key => None,
            h => Some(h),
        }
    }

    /// What an input's effect `fx` (at `at`) does beyond the board: counts, a late clear, an
    /// alert, a mistake (and the game over), the level complete. True where the game is over.
    fn take_effect(&mut self, fx: &Effect, at: Instant) -> bool {
        let rules = self.rules;
        if fx.entered {
            self.digits_entered += 1;
        }
        if fx.erased {
            self.erasures += 1;
        }
        if let Some(cell) = fx.late_clear {
            self.late_clears.push((at + CLEAR_LATE, cell));
        }
        if fx.refused {
            self.alert = true;
        }
        let Some(g) = self.game.as_mut() else {
            return false;
        };
        if fx.mistake && rules.mistakes != Mistakes::None {
            g.mistakes += 1;
            if self.mistake_limit.is_some_and(|n| g.mistakes >= n) {
                g.over = true;
                g.selected = None;
                self.alert = false;
                self.screen = AppScreen::GameOver;
                return true;
            }
        }
        if (fx.entered || fx.changed) && g.is_solved() {
            let level = g.level as usize;
            if let Some(done) = level.checked_sub(1).and_then(|i| self.completed.get_mut(i)) {
                *done = true;
            }
            self.screen = AppScreen::Complete;
            self.won_new_game();
            self.show_ad(at);
        }
        false
    }

    /// Whether a dialog is in front of the app's screen: a game's end drawn as a dialog, a
    /// popup, an alert.
    pub(crate) fn dialog_up(&self) -> bool {
        self.popup
            || self.alert
            || self.ad_showing().is_some()
            || matches!(
                self.screen,
                AppScreen::Complete | AppScreen::GameOver | AppScreen::Sheet | AppScreen::Confirm
            )
    }

    /// The app as it looked before its dialog came up (what a fading dialog is drawn over).
    pub(crate) fn without_dialog(&self) -> Model {
        let mut under = self.clone();
        under.popup = false;
        under.alert = false;
        if let Some(ads) = under.ads.as_mut() {
            ads.showing = None;
        }
        under.screen = match under.screen {
            AppScreen::Complete | AppScreen::GameOver => AppScreen::Game,
            AppScreen::Sheet | AppScreen::Confirm => AppScreen::Home,
            s => s,
        };
        under
    }

    /// The app at its home screen.
    pub fn new(popup_after: Option<u64>, mistake_limit: Option<u32>) -> Self {
        Model {
            screen: AppScreen::Home,
            page: 0,
            scroll: None,
            game: None,
            popup: false,
            popup_after,
            popup_shown: false,
            mistake_limit,
            completed: vec![false; levels::LEVEL_COUNT],
            taps: 0,
            dropped_taps: 0,
            swallowed_taps: 0,
            digits_entered: 0,
            erasures: 0,
            rules: InputRules::default(),
            same_digit: SameDigitAgain::Reenter,
            finished_keys: FinishedKeyLook::Shown,
            alert: false,
            seed: 0,
            games_opened: 0,
            recent: VecDeque::new(),
            late_clears: Vec::new(),
            several_solutions: false,
            cover: false,
            covered: false,
            new_games: None,
            ads: None,
        }
    }

    /// The seed of the app's random choices.
    pub(crate) fn seed(&self) -> u64 {
        self.seed
    }

    /// The game ends after this many mistakes.
    pub fn mistake_limit(&self) -> Option<u32> {
        self.mistake_limit
    }

    /// The mistake counter the game screen shows (`Mistakes: 1/3`), where there is one.
    pub fn mistake_counter(&self) -> Option<String> {
        let (g, limit) = (self.game.as_ref()?, self.mistake_limit?);
        (!self.rules.hide_mistakes && self.rules.mistakes != Mistakes::None)
            .then(|| format!("{}: {}/{limit}", g.words.mistakes, g.mistakes.min(limit)))
    }

    /// Number of level-list pages.
    pub fn pages() -> usize {
        levels::LEVEL_COUNT.div_ceil(LEVELS_PER_PAGE)
    }

    /// Counts a received tap (`dropped`: lost before reaching the app).
    pub(crate) fn count_tap(&mut self, dropped: bool) {
        self.taps += 1;
        if dropped {
            self.dropped_taps += 1;
        }
    }

    /// Opens the popup if the tap threshold has been reached. True if it opened now.
    pub(crate) fn maybe_popup(&mut self) -> bool {
        match self.popup_after {
            Some(n) if !self.popup_shown && self.taps >= n => {
                self.popup_shown = true;
                self.popup = true;
                true
            }
            _ => false,
        }
    }

    /// Applies a tap that hit `target` (or nothing) now. True if anything visible changed.
    pub fn tap(&mut self, target: Option<Hit>) -> bool {
        self.tap_at(target, Instant::now())
    }

    /// Applies a tap that hit `target` (or nothing), handled by the app at `at`. True if
    /// anything visible changed.
    pub fn tap_at(&mut self, target: Option<Hit>, at: Instant) -> bool {
        let mut changed = self.advance(at);
        if self.alert && !self.popup {
            // The refusal alert takes only its OK button; BACK does not close it.
            return match target {
                Some(Hit::AlertOk) => {
                    self.alert = false;
                    true
                }
                _ => {
                    self.swallowed_taps += 1;
                    changed
                }
            };
        }
        changed |= self.tap_on(target, at);
        changed
    }

    fn tap_on(&mut self, target: Option<Hit>, at: Instant) -> bool {
        if let Some(changed) = self.tap_in_front(target, at) {
            return changed;
        }
        let Some(target) = target else {
            return false;
        };
        if let Some(changed) = self.new_games_tap(target) {
            return changed;
        }
        match (self.screen, target) {
            (AppScreen::Home, Hit::Play) => self.play(),
            (AppScreen::Home, Hit::LevelList) => {
                self.show_levels();
                true
            }
            (AppScreen::Levels, Hit::Level(n)) => {
                let n = n + 1;
                self.open(n as u32)
            }
            (AppScreen::Levels, Hit::PrevPage) if self.page > 0 && self.scroll.is_none() => {
                self.page -= 1;
                true
            }
            (AppScreen::Levels, Hit::NextPage)
                if self.page + 1 < Self::pages() && self.scroll.is_none() =>
            {
                self.page += 1;
                true
            }
            (AppScreen::Levels | AppScreen::Game, Hit::Back) => self.key(Key::Back),
            (AppScreen::Game, Hit::Banner) => self.banner_tap(),
            (AppScreen::Game, h @ (Hit::Cell(_) | Hit::Digit(_) | Hit::Erase | Hit::Undo)) => {
                self.game_input(h, at)
            }
            (AppScreen::Complete, Hit::DialogNext) => {
                let next = self.game.as_ref().map_or(1, |g| g.level + 1);
                self.open(next)
            }
            (AppScreen::Complete | AppScreen::GameOver, Hit::DialogHome) => {
                self.screen = AppScreen::Home;
                true
            }
            (AppScreen::GameOver, Hit::DialogRetry) => {
                let level = self.game.as_ref().map_or(1, |g| g.level);
                self.open(level)
            }
            _ => false,
        }
    }

    /// A tap that what lies in front of the app's screen takes (the navigation bar, the coach
    /// mark, the popup): whether anything visible changed; `None` where the screen gets it.
    fn tap_in_front(&mut self, target: Option<Hit>, at: Instant) -> Option<bool> {
        if let Some(changed) = self.ad_tap(target, at) {
            return Some(changed);
        }
        match target {
            Some(Hit::NavBack) => return Some(self.key(Key::Back)),
            Some(Hit::NavHome) => return Some(false),
            _ => {}
        }
        if self.covered && !self.popup {
            // The coach mark takes the tap wherever it lands and goes away.
            self.swallowed_taps += 1;
            self.covered = false;
            return Some(true);
        }
        if self.popup {
            self.swallowed_taps += 1;
            return Some(false);
        }
        None
    }

    /// The home screen's play button: the game under way, else the next unsolved level.
    fn play(&mut self) -> bool {
        if self
            .game
            .as_ref()
            .is_some_and(|g| !g.is_solved() && !g.over)
        {
            self.screen = AppScreen::Game;
            true
        } else {
            self.open(self.next_unsolved())
        }
    }

    /// A hardware key (or the navigation bar). True if anything visible changed.
    pub fn key(&mut self, key: Key) -> bool {
        if let Some(changed) = self.ad_key(key) {
            return changed;
        }
        match key {
            Key::Back if self.popup => {
                self.popup = false;
                true
            }
            Key::Back if self.alert => false,
            Key::Back if self.covered => {
                self.covered = false;
                true
            }
            Key::Back if self.new_games.is_some() => self.new_games_back().unwrap_or(false),
            Key::Back => match self.screen {
                AppScreen::Home => false,
                AppScreen::Levels => {
                    self.screen = AppScreen::Home;
                    true
                }
                AppScreen::Game | AppScreen::Complete | AppScreen::GameOver => {
                    self.show_levels();
                    true
                }
                AppScreen::Sheet | AppScreen::Confirm => {
                    self.screen = AppScreen::Home;
                    true
                }
            },
            // HOME, power and wake keys belong to the system around the app (`hazards`).
            _ => false,
        }
    }

    /// `am start ... --ei level N`.
    pub fn start_level(&mut self, n: u32) -> Result<(), String> {
        if self.new_games.is_some() {
            // An app without levels ignores the extra and shows what it showed.
            return Ok(());
        }
        if self.open(n) {
            Ok(())
        } else {
            Err(format!(
                "level {n} does not exist (levels are 1..={})",
                levels::LEVEL_COUNT
            ))
        }
    }

    /// A fresh game of level `n` as this app makes it (with several solutions, where it blanks
    /// cells at random).
    fn new_game(&self, n: u32) -> Option<Game> {
        let mut g = Game::new(n)?;
        if self.several_solutions {
            let (givens, solution) = ambiguous::level(n, self.seed)?;
            (g.givens, g.board, g.solution) = (givens, givens, solution);
        }
        Some(g)
    }

    /// Opens a fresh game of level `n`; false if there is no such level.
    fn open(&mut self, n: u32) -> bool {
        match self.new_game(n) {
            Some(g) => {
                self.install(g);
                true
            }
            None => false,
        }
    }

    /// `g` becomes the game in front: its words and brush as the app's rules say, no alert,
    /// nothing read from earlier frames.
    pub(crate) fn install(&mut self, mut g: Game) {
        self.games_opened += 1;
        let pick = splitmix(self.seed ^ (self.games_opened << 32) ^ u64::from(g.level));
        g.words = self.rules.language.words(pick);
        g.check = self.rules.check;
        if self.rules.order == InputOrder::DigitFirstArmed {
            g.brush = Some(Brush::Digit(1));
        }
        self.recent.clear();
        self.late_clears.clear();
        self.alert = false;
        self.game = Some(g);
        self.screen = AppScreen::Game;
        // A coach mark shows over the first game the app opens.
        self.covered = self.cover && self.games_opened == 1;
    }

    /// The level list, on the page of the current level.
    fn show_levels(&mut self) {
        if let Some(g) = &self.game {
            self.page = (g.level as usize - 1) / LEVELS_PER_PAGE;
        }
        // A scrolling list opens at its top.
        self.scroll = self.scroll.map(|_| 0);
        self.screen = AppScreen::Levels;
    }

    /// The first level not yet solved (level 1 if all are).
    pub(crate) fn next_unsolved(&self) -> u32 {
        self.completed
            .iter()
            .position(|&done| !done)
            .map_or(1, |i| i as u32 + 1)
    }
}
