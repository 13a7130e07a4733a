//! Verification and repair: the screen is looked at until it shows what the search has placed
//! so far (or the app's completion screen); each round repairs the cells that differ, and the
//! rounds go on while they make progress (a stall ends the run with [`super::Stalled`]). What
//! a screen that is not the board means is judged in `judge.rs`.

use super::WriteKind;
use super::engine::Performance;
use crate::board::{Board, CELLS, cell_name};
use crate::play::stop::is_restored;
use crate::play::target::Seen;

/// How many times a verification looks again after a lost and restored link.
const RESTORES: u32 = 20;

/// At least this many digits on the board at the performance's first look, before hardly
/// any of them shown counts (`Rounds::first_look_missed`).
const FIRST_LOOK_WRITTEN: usize = 3;

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
    /// (`Performance::hardly_shown`).
    pub(super) first_look_missed: bool,
}

impl Rounds {
    fn new() -> Rounds {
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
}

/// What a round decided.
pub(super) enum Next {
    /// Look again.
    Again,
    /// The screen shows what was wanted, or the app's completion screen.
    Done,
}

impl Performance<'_, '_> {
    /// Looks at the screen until it shows `want` (or the app's completion screen), repairing
    /// what differs round after round while the rounds make progress.
    pub(super) fn verify(&mut self, want: &Board) -> anyhow::Result<()> {
        let mut rounds = Rounds::new();
        loop {
            let Some((seen, interrupted)) = self.look_round(&mut rounds)? else {
                continue;
            };
            self.report.verifications += 1;
            tracing::trace!(step = self.done, "verifying the screen");
            let next = match seen {
                Seen::Board(board) => self.on_board(want, &board, interrupted, &mut rounds)?,
                Seen::Completed { what } => {
                    tracing::debug!(step = self.done, %what, "the app shows its completion screen");
                    self.completed(what);
                    Next::Done
                }
                Seen::GameOver { what } => self.on_game_over(what, &mut rounds)?,
                Seen::Other { what, in_app } => self.on_other(what, in_app, &mut rounds)?,
            };
            if let Next::Done = next {
                return Ok(());
            }
        }
    }

    /// One look, once every tap has landed, with the incidents it dealt with journaled:
    /// what it saw, and whether the phone had been interrupted (the screen off, the app away).
    /// `None` when the link was lost and restored meanwhile: look again.
    fn look_round(&mut self, rounds: &mut Rounds) -> anyhow::Result<Option<(Seen, bool)>> {
        // The look's time includes the wait for the taps in flight: that is the phone's
        // latency, paid once a look, not each tap's time (`deadline.rs`).
        let started = self.target.now();
        self.looks.verifying(started);
        self.options.stop.check()?;
        let seen = self.target.sync().and_then(|()| {
            // A late clear the taps just asked for falls due first: a look before it sees
            // the digit still there, and the next round's tap would write it back.
            if let Some(rest) = self.enc.late_pending(self.target.now()) {
                self.target.pause(rest);
            }
            self.target.look()
        });
        let before = (self.report.interruptions, self.report.reconnects);
        self.note_incidents()?;
        let interrupted = self.report.interruptions > before.0;
        match seen {
            Ok(seen) => {
                // What a look costs, where nothing happened to the phone meanwhile.
                let calm = (self.report.interruptions, self.report.reconnects) == before;
                self.looked(started, calm);
                Ok(Some((seen, interrupted)))
            }
            Err(e) => {
                self.restored(e, rounds)?;
                Ok(None)
            }
        }
    }

    /// A call failed with `e`: where the link was lost and restored (at most [`RESTORES`]
    /// times), the round starts again, nothing assumed selected; any other error is the run's.
    pub(super) fn restored(&mut self, e: anyhow::Error, rounds: &mut Rounds) -> anyhow::Result<()> {
        if is_restored(&e) && rounds.restored < RESTORES {
            rounds.restored += 1;
            self.enc.reset();
            return Ok(());
        }
        Err(e)
    }

    /// The board is on the screen: done if it shows `want`; else a stall is judged, and the
    /// cells that differ repaired.
    fn on_board(
        &mut self,
        want: &Board,
        board: &Board,
        interrupted: bool,
        rounds: &mut Rounds,
    ) -> anyhow::Result<Next> {
        rounds.backed = false;
        rounds.before_back = None;
        self.incidents_at_look = self.report.reconnects + self.report.interruptions;
        let wrong_before = std::mem::take(&mut self.wrong_since_look);
        let wrong: Vec<usize> = (0..CELLS)
            .filter(|&c| board.get(c) != want.get(c))
            .collect();
        if let Some(stalled) = self.check_proof(board, &wrong, interrupted) {
            return Err(stalled.into());
        }
        if wrong.is_empty() {
            self.expected = *want;
            return Ok(Next::Done);
        }
        tracing::debug!(
            step = self.done,
            cells = wrong.len(),
            wrong = %wrong.iter().map(|&c| format!("{}={}", cell_name(c), board.get(c))).collect::<Vec<_>>().join(" "),
            round = rounds.stalled,
            lost = self.loss.share(),
            "the screen differs from the search: repairing"
        );
        self.check_same_level(board, &wrong)?;
        if self.report.verifications == 1 && rounds.best == usize::MAX {
            let written: Vec<(usize, u8)> = (0..CELLS)
                .filter(|&c| self.givens.get(c) == 0 && want.get(c) != 0)
                .map(|c| (c, want.get(c)))
                .collect();
            rounds.first_look_missed = hardly_shown(board, &written, FIRST_LOOK_WRITTEN);
        }
        self.loss.looked(wrong.len());
        if wrong.len() < rounds.best {
            (rounds.best, rounds.stalled, rounds.interrupted) = (wrong.len(), 0, 0);
        } else {
            rounds.stalled += 1;
            if rounds.stalled == 1 && self.ended_under_board(wrong_before, rounds)? {
                return Ok(Next::Again);
            }
            rounds.interrupted += u32::from(interrupted);
            // Where a re-tap toggles pencil mode, digits that did not show may be pencil marks
            // (a lost tap re-tapped the selected cell): the repairs flip the mode first.
            if !interrupted && hardly_shown(board, &rounds.written, 1) {
                self.enc.flip_pencil();
            }
            if rounds.stalled > self.loss.allowed_rounds(self.options.stalled_rounds)
                || (!interrupted && self.rules_contradicted(board, rounds))
            {
                return Err(self.stalled(want, &wrong, rounds).into());
            }
        }
        rounds.written = self.repair(want, board, &wrong)?;
        Ok(Next::Again)
    }

    /// A given that reads as another digit: another level is on the screen.
    fn check_same_level(&self, board: &Board, wrong: &[usize]) -> anyhow::Result<()> {
        if let Some(&c) = wrong.iter().find(|&&c| self.givens.get(c) != 0) {
            anyhow::bail!(
                "the board on screen has {} at the given {} where the puzzle has {}: is this still the same level?",
                board.get(c),
                cell_name(c),
                self.givens.get(c)
            );
        }
        Ok(())
    }

    /// Repairs the `wrong` cells of `board` towards `want`: what is on screen is the truth
    /// now. A lost cell tap sends the digit to the cell selected before, so every repair
    /// selects its cell again. A lost link ends the round (the next look repairs the rest).
    /// Returns the digits written (not the erasures).
    fn repair(
        &mut self,
        want: &Board,
        board: &Board,
        wrong: &[usize],
    ) -> anyhow::Result<Vec<(usize, u8)>> {
        for &c in wrong {
            self.expected.set(c, board.get(c));
        }
        // Wrong digits are erased before any digit is written: apps that hide a digit's key
        // once nine of it are on the board (a wrong digit makes nine early) would otherwise
        // refuse the very digit that repairs another cell. Once they are gone, no digit on
        // screen outnumbers the search's, so every key a repair needs is there.
        let erase = wrong
            .iter()
            .filter(|&&c| board.get(c) != 0 && want.get(c) != 0)
            .map(|&c| (c, 0));
        let writes = wrong.iter().map(|&c| (c, want.get(c)));
        let mut written = Vec::new();
        for (c, digit) in erase.chain(writes) {
            self.enc.reset();
            // Every repair write counts (an erase too), as the journal counts them.
            self.report.repairs += 1;
            tracing::debug!(
                cell = %cell_name(c),
                seen = self.expected.get(c),
                want = want.get(c),
                write = digit,
                "repair"
            );
            match self.write(WriteKind::Repair, c, digit) {
                Ok(()) if digit != 0 => written.push((c, digit)),
                Ok(()) => {}
                Err(e) if is_restored(&e) => break,
                Err(e) => return Err(e),
            }
        }
        Ok(written)
    }
}
