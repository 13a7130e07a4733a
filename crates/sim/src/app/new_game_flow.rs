//! How an app without levels (`--new-games`) and a free app's ads (`--ads`) take taps and
//! keys: the transitions of [`Model`] between the home screen, the sheet of difficulties,
//! "Start a new game?", the game and its result, and an interstitial ad over them (the
//! screens' words and puzzles are [`super::new_games`]', the ads' kinds [`super::ads`]').

use super::ads::Ad;
use super::game::Game;
use super::keys::Key;
use super::model::Model;
use super::new_games::{Difficulty, puzzle};
use super::screens::{AppScreen, Hit};
use std::time::Instant;

impl Model {
    /// A tap on a screen of an app without levels (its home's New Game and Continue, the sheet,
    /// "Start a new game?", the end screens' buttons); `None` where the app has levels, or the
    /// tap is the game's.
    pub(crate) fn new_games_tap(&mut self, target: Hit) -> Option<bool> {
        self.new_games.as_ref()?;
        let home = |m: &mut Model| {
            m.screen = AppScreen::Home;
            true
        };
        Some(match (self.screen, target) {
            // Home's first button is New Game, its second Continue (while a game is under way).
            (AppScreen::Home, Hit::Play) | (AppScreen::Complete, Hit::DialogNext) => {
                self.screen = AppScreen::Sheet;
                true
            }
            (AppScreen::Home, Hit::LevelList) if self.in_progress() => {
                self.screen = AppScreen::Game;
                true
            }
            (AppScreen::Home, _) => false,
            (AppScreen::Sheet, Hit::Difficulty(i)) => match Difficulty::ALL.get(i) {
                Some(&d) => self.pick(d),
                None => false,
            },
            (AppScreen::Confirm, Hit::ConfirmStart) => {
                let pending = self.new_games.as_mut().and_then(|n| n.pending.take());
                pending.is_some_and(|d| self.start_new(d))
            }
            (AppScreen::Sheet, Hit::SheetCancel) | (AppScreen::Confirm, Hit::ConfirmCancel) => {
                home(self)
            }
            (AppScreen::GameOver, Hit::DialogRetry) => self.retry(),
            (AppScreen::Complete | AppScreen::GameOver, Hit::DialogHome) => home(self),
            (AppScreen::Sheet | AppScreen::Confirm, _) => false,
            _ => return None,
        })
    }

    /// BACK in an app without levels: every screen goes back to its home.
    pub(crate) fn new_games_back(&mut self) -> Option<bool> {
        self.new_games.as_ref()?;
        let changed = self.screen != AppScreen::Home;
        self.screen = AppScreen::Home;
        Some(changed)
    }

    /// A game is under way (one that can be continued).
    pub fn in_progress(&self) -> bool {
        self.game
            .as_ref()
            .is_some_and(|g| !g.is_solved() && !g.over)
    }

    /// A difficulty picked on the sheet: a new game of it, or first "Start a new game?" where
    /// one is under way.
    fn pick(&mut self, d: Difficulty) -> bool {
        if self.in_progress() {
            if let Some(n) = self.new_games.as_mut() {
                n.pending = Some(d);
            }
            self.screen = AppScreen::Confirm;
            true
        } else {
            self.start_new(d)
        }
    }

    /// A new game of `d`: the next puzzle of its difficulty.
    fn start_new(&mut self, d: Difficulty) -> bool {
        let seed = self.seed();
        let Some(n) = self.new_games.as_mut() else {
            return false;
        };
        let number = n.started[d.index()];
        n.started[d.index()] += 1;
        let givens = puzzle(seed, d, number);
        let mut g = Game::custom(0, givens, givens);
        g.difficulty = Some(d);
        self.install(g);
        true
    }

    /// "Try again" after a game over: the same puzzle from its givens.
    fn retry(&mut self) -> bool {
        let Some(old) = self.game.as_ref() else {
            return false;
        };
        let mut g = Game::custom(0, old.givens, old.givens);
        g.difficulty = old.difficulty;
        self.install(g);
        true
    }

    /// A game of an app without levels was won.
    pub(crate) fn won_new_game(&mut self) {
        if let Some(n) = self.new_games.as_mut() {
            n.won += 1;
        }
    }

    /// Games won since the app started (`None`: the app has levels).
    pub fn games_won(&self) -> Option<u64> {
        self.new_games.as_ref().map(|n| n.won)
    }
}

impl Model {
    /// Shows an interstitial (after a completed game), where the app has ads.
    pub(crate) fn show_ad(&mut self, at: Instant) {
        let seed = self.seed();
        if let Some(ads) = self.ads.as_mut() {
            ads.showing = Some(Ad::new(seed, ads.shown, at));
            ads.shown += 1;
        }
    }

    /// A tap while an interstitial shows: its close control (once shown) closes it; anywhere
    /// else on it opens the store. `None` when no ad shows.
    pub(crate) fn ad_tap(&mut self, target: Option<Hit>, at: Instant) -> Option<bool> {
        let ads = self.ads.as_mut()?;
        let ad = ads.showing?;
        match target {
            Some(Hit::NavBack | Hit::NavHome | Hit::NavRecents) => None,
            Some(Hit::AdClose) if ad.closable(at) => {
                ads.showing = None;
                Some(true)
            }
            _ => {
                ads.opens += 1;
                ads.store_requested = true;
                Some(false)
            }
        }
    }

    /// A tap on the banner under the board: the store opens.
    pub(crate) fn banner_tap(&mut self) -> bool {
        if let Some(ads) = self.ads.as_mut() {
            ads.opens += 1;
            ads.store_requested = true;
        }
        false
    }

    /// BACK while an interstitial shows: it closes once it may. `None` when no ad shows.
    pub(crate) fn ad_key(&mut self, key: Key) -> Option<bool> {
        let ads = self.ads.as_mut()?;
        let ad = ads.showing?;
        if key != Key::Back {
            return None;
        }
        let may = ad.back_after.is_some_and(|d| ad.since.elapsed() >= d);
        if may {
            ads.showing = None;
        }
        Some(may)
    }

    /// Whether an interstitial shows.
    pub fn ad_showing(&self) -> Option<&Ad> {
        self.ads.as_ref().and_then(|a| a.showing.as_ref())
    }
}
