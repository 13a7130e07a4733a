//! A verification's rounds: the state a verification keeps across them ([`Rounds`]: progress,
//! BACK pressed, the level reopened, links restored, the digits the last round wrote), and what
//! a round decided ([`Next`]).

use crate::board::Board;
use crate::play::setnum::Encoder;
use crate::play::stop::is_restored;

/// How many times a verification looks again after a lost and restored link.
const RESTORES: u32 = 20;

/// Fewer than a quarter of the digits `written` (at least `least` of them) show on `board`
/// where they were written.
pub(super) fn hardly_shown(board: &Board, written: &[(usize, u8)], least: usize) -> bool {
    let shown = written.iter().filter(|&&(c, d)| board.get(c) == d).count();
    written.len() >= least && shown * 4 < written.len()
}

/// A verification's state across its rounds.
#[derive(Debug)]
pub(super) struct Rounds {
    /// The fewest wrong cells a round has seen, and the rounds since without fewer.
    pub(super) best: usize,
    pub(super) stalled: u32,
    /// Stalled rounds whose look found the phone interrupted (the screen off, the app away).
    pub(super) interrupted: u32,
    /// BACK was pressed on the screen that replaced the board.
    pub(super) backed: bool,
    /// The app's own screen that replaced the board, before BACK was pressed on it.
    pub(super) before_back: Option<String>,
    /// The level was opened again (once at most).
    pub(super) reopened: bool,
    /// BACK could not be pressed on the screen that replaced the board: why (the target's
    /// reason, marked `BackRefused`), for the stop where nothing else brings the board back.
    pub(super) back_refused: Option<anyhow::Error>,
    /// Links lost and restored during this verification.
    pub(super) restored: u32,
    /// The digits the last repair round wrote (not its erasures).
    pub(super) written: Vec<(usize, u8)>,
    /// The performance's first look showed hardly any of the digits written before it
    /// ([`hardly_shown`]).
    pub(super) first_look_missed: bool,
}

impl Rounds {
    pub(super) fn new() -> Rounds {
        Rounds {
            best: usize::MAX,
            stalled: 0,
            interrupted: 0,
            backed: false,
            before_back: None,
            reopened: false,
            back_refused: None,
            restored: 0,
            written: Vec::new(),
            first_look_missed: false,
        }
    }

    /// The level is open again from scratch: progress is counted anew.
    pub(super) fn restart(&mut self) {
        (self.best, self.stalled) = (usize::MAX, 0);
    }

    /// A call failed with `e`: where the link was lost and restored (at most [`RESTORES`]
    /// times), the round starts again, nothing assumed selected (`enc`); any other error is
    /// the run's.
    pub(super) fn restored(&mut self, e: anyhow::Error, enc: &mut Encoder) -> anyhow::Result<()> {
        if is_restored(&e) && self.restored < RESTORES {
            self.restored += 1;
            enc.reset();
            return Ok(());
        }
        Err(e)
    }
}

/// What a round decided.
pub(super) enum Next {
    /// Look again.
    Again,
    /// The screen shows what was wanted, or the app's completion screen.
    Done,
}
