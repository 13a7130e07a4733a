//! Taps within one frame, a finished digit's key, and the mistake counter.

use super::prober::Prober;
use crate::board::{CELLS, cell_name};
use crate::calibration::{FinishedKeys, InputMode, RuleKey, TakeBack};
use crate::play::words;

impl Prober<'_> {
    /// Two taps at once: whether the second acted on the screen before the first (`how` they
    /// were tapped; `None`: not probed, and taps then go a frame apart to be safe).
    pub(super) fn frame_reads(&mut self, stale: bool, how: Option<String>) {
        self.input.frame_reads = stale;
        let what = match how {
            Some(how) if stale => format!(
                "{how}: the second tap acted on the screen before the first (taps go a frame apart)"
            ),
            Some(how) => format!("{how}: the second tap saw the first"),
            None => "not probed (no way to tap twice at once without risking a wrong digit): \
                     taps go a frame apart"
                .into(),
        };
        self.see(RuleKey::FrameReads, what);
    }

    /// The key of a digit placed nine times: does it go, with the keys after it moving up? Seen
    /// where a digit has eight on the board and a way to take the ninth back that needs no digit
    /// key.
    pub(super) fn finished_keys(&mut self, on: &mut dyn FnMut(&str)) -> anyhow::Result<()> {
        let mut counts = [0u8; 10];
        for c in 0..CELLS {
            counts[self.start.get(c) as usize] += 1;
        }
        let no_key = matches!(self.take_back, Some(TakeBack::Erase | TakeBack::Undo));
        let target = (0..CELLS).find(|&c| {
            self.start.get(c) == 0 && counts[self.solution.get(c) as usize] == 8 && c != self.a
        });
        let (Some(f), true) = (target, no_key) else {
            self.input.finished_keys = FinishedKeys::Unknown;
            self.see(
                RuleKey::FinishedKeys,
                "not probed (no digit one short of nine, or no erase or undo key): the player \
                 looks at the keypad when a digit is first finished"
                    .into(),
            );
            return Ok(());
        };
        let d = self.solution.get(f);
        match self.input.mode {
            InputMode::DigitFirst => {
                self.key(d % 9 + 1)?;
                self.key(d)?;
                self.cell(f)?;
            }
            _ => {
                self.cell(self.g[1])?;
                self.cell(f)?;
                self.key(d)?;
            }
        }
        self.look_still()?;
        if self.last.as_ref().map_or(0, |l| l.board.get(f)) != d {
            anyhow::bail!("{} did not take {d}", cell_name(f));
        }
        let reflow = self.cal.keys_moved_up(self.last_frame(), d);
        self.take_back_cell(f, d)?;
        self.input.finished_keys = if reflow {
            on("a finished digit's key goes and the keys after it move up");
            FinishedKeys::Reflow
        } else {
            FinishedKeys::Stay
        };
        self.see(
            RuleKey::FinishedKeys,
            format!(
                "wrote the ninth {d} into {}: {}",
                cell_name(f),
                if reflow {
                    "its key went and the keys after it moved up one place"
                } else {
                    "the other keys stayed in place"
                }
            ),
        );
        Ok(())
    }

    /// The game screen's mistake counter ("Mistakes: 0/3"), from its words.
    pub(super) fn mistake_counter(&mut self, on: &mut dyn FnMut(&str)) -> anyhow::Result<()> {
        let counter = self
            .target
            .words()?
            .and_then(|w| words::mistake_counter(&w.texts));
        match counter {
            Some((_, limit, text)) => {
                self.input.mistake_limit = Some(limit);
                self.see(
                    RuleKey::MistakeLimit,
                    format!("the game screen shows {text:?}: the game ends after {limit} mistakes"),
                );
                on(&format!("a mistake counter shows ({text:?})"));
            }
            None => {
                self.input.mistake_limit = None;
                self.see(
                    RuleKey::MistakeLimit,
                    "no mistake counter among the screen's words".into(),
                );
            }
        }
        Ok(())
    }
}
