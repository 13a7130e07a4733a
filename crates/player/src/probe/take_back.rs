//! How a digit goes back out: the erase key, the same digit again (at once or a moment later),
//! an undo key.

use super::LATE_WATCH;
use super::prober::Prober;
use crate::board::{CELLS, cell_name};
use crate::calibration::{InputMode, RuleKey, SameDigit, TakeBack};
use crate::play::Point;
use std::time::Duration;

impl Prober<'_> {
    /// The erase key (the cell selected, or as a brush), twice should a tap be lost: whether it
    /// takes the probe's digit back. Then the take-back found so far: erase, else the digit again
    /// where it clears (`same`).
    pub(super) fn try_erase(&mut self, same: SameDigit) -> anyhow::Result<()> {
        let brush = self.input.mode == InputMode::DigitFirst;
        if let Some(e) = self.erase {
            for _ in 0..2 {
                if brush {
                    self.tap(e)?;
                    self.cell(self.a)?;
                } else {
                    self.select_a(Some(false))?;
                    self.tap(e)?;
                }
                self.look_still()?;
                if self.at_a() == 0 {
                    break;
                }
            }
            let cleared = self.at_a() == 0;
            let how = if brush {
                format!("tapped the erase key, then {}", self.name())
            } else {
                format!("tapped the erase key with {} selected", self.name())
            };
            let what = if cleared {
                "it cleared"
            } else {
                "the digit stayed"
            };
            self.see(RuleKey::Erase, format!("{how}: {what}"));
            self.erase_failed = !cleared;
            if cleared {
                self.take_back.get_or_insert(TakeBack::Erase);
                self.write_a()?;
            }
        }
        if self.take_back.is_none() && matches!(same, SameDigit::Clear | SameDigit::ClearLate) {
            self.take_back = Some(TakeBack::Digit);
        }
        Ok(())
    }

    /// The digit tapped again (the cell selected, or the brush on it): nothing, a clear, or a
    /// clear a moment later.
    pub(super) fn same_digit(&mut self, on: &mut dyn FnMut(&str)) -> anyhow::Result<SameDigit> {
        let (a, d) = (self.a, self.digit);
        let mut same = SameDigit::Nothing;
        // Where the digit stays, once more (should the tap have been lost).
        for attempt in 0..2 {
            if self.input.mode == InputMode::DigitFirst {
                self.cell(a)?;
            } else {
                if attempt > 0 {
                    self.select_a(Some(false))?;
                }
                self.key(d)?;
            }
            let tapped = self.target.now();
            self.target.sync()?;
            self.look_now()?;
            if self.at_a() == 0 {
                same = SameDigit::Clear;
                break;
            }
            while (self.target.now() - tapped) < LATE_WATCH {
                self.target.pause(Duration::from_millis(40));
                self.look_now()?;
                if self.at_a() == 0 {
                    let ms = (self.target.now() - tapped).as_millis() as u32;
                    self.input.clear_late_ms = Some(ms + 50);
                    same = SameDigit::ClearLate;
                    break;
                }
            }
            if same != SameDigit::Nothing {
                break;
            }
        }
        let how = if self.input.mode == InputMode::DigitFirst {
            format!("tapped {} again with the brush on {d}", cell_name(a))
        } else {
            format!("tapped {d} again with {} selected", cell_name(a))
        };
        self.see(
            RuleKey::SameDigit,
            format!(
                "{how}: {}",
                match same {
                    SameDigit::Nothing => "the digit stayed".to_string(),
                    SameDigit::Clear => "it cleared".into(),
                    SameDigit::ClearLate => format!(
                        "it cleared a moment later (seen after {} ms)",
                        self.input.clear_late_ms.unwrap_or(0) - 50
                    ),
                }
            ),
        );
        if same != SameDigit::Nothing {
            self.toggle_confirmed = true;
            on("the digit again clears its cell");
        }
        self.input.same_digit = Some(same);
        Ok(same)
    }

    /// Tries the undo key (the survey's, or a node whose words say undo): it works if it takes
    /// the probe's last entry back. The probe's cell holds its digit on entry, or is empty.
    pub(super) fn try_undo(
        &mut self,
        hint: Option<Point>,
        on: &mut dyn FnMut(&str),
    ) -> anyhow::Result<()> {
        let d = self.digit;
        if self.at_a() != d {
            self.write_a()?;
        }
        let candidates = self.undo_candidates(hint);
        for (p, what) in candidates {
            // A candidate that is a digit key or a cell would write: not tried.
            if self
                .keys
                .iter()
                .chain(self.cells.iter())
                .any(|&k| near(k, p))
            {
                continue;
            }
            if self.undoes(p)? {
                self.undo = Some(p);
                self.input.undo = Some([p.0, p.1]);
                self.take_back.get_or_insert(TakeBack::Undo);
                self.see(
                    RuleKey::Undo,
                    format!(
                        "{what} at {},{} took {d} back out of {}",
                        p.0,
                        p.1,
                        self.name()
                    ),
                );
                on("an undo key takes the last entry back");
                return Ok(());
            }
        }
        self.see(
            RuleKey::Undo,
            "no undo key found (or none took the last entry back)".into(),
        );
        Ok(())
    }

    /// The keys that may be undo: the survey's `hint`, and the nodes whose words say undo.
    fn undo_candidates(&mut self, hint: Option<Point>) -> Vec<(Point, String)> {
        let survey = "the key the screenshot's survey took for undo".to_string();
        let mut candidates: Vec<(Point, String)> = hint.map(|p| (p, survey)).into_iter().collect();
        if let Ok(Some(screen)) = self.target.words() {
            for (words, center) in screen.nodes {
                let w = words.to_lowercase();
                if UNDO_WORDS.iter().any(|u| w.contains(u))
                    && !candidates.iter().any(|(p, _)| near(*p, center))
                {
                    candidates.push((center, format!("the button {words:?}")));
                }
            }
        }
        candidates
    }

    /// Whether tapping `p` takes the probe's digit back out of its cell. Apps may keep the
    /// digit entered again as an entry of its own: a few taps, while nothing but the probe's
    /// cell changes.
    fn undoes(&mut self, p: Point) -> anyhow::Result<bool> {
        for _ in 0..3 {
            self.tap(p)?;
            self.look_still()?;
            let board = self.last.as_ref().expect("looked").board;
            let elsewhere = (0..CELLS).any(|c| c != self.a && board.get(c) != self.start.get(c));
            if self.at_a() == 0 || elsewhere {
                break;
            }
        }
        Ok(self.at_a() == 0)
    }
}

/// Words of undo buttons (text or content description), lower case.
const UNDO_WORDS: [&str; 10] = [
    "undo",
    "↶",
    "geri al",
    "отмен",
    "rückgängig",
    "deshacer",
    "annuler",
    "annulla",
    "desfazer",
    "撤销",
];

fn near(a: Point, b: Point) -> bool {
    a.0.abs_diff(b.0) < 24 && a.1.abs_diff(b.1) < 24
}
