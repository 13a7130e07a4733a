//! Cell-first or digit-first (the probe's first taps), then the rules each path probes.

use super::prober::Prober;
use crate::board::cell_name;
use crate::calibration::{
    AfterEntry, BrushRetap, FinishedKeys, InputMode, Retap, RuleKey, SameDigit,
};
use crate::play::Point;
use crate::remedy::{Advised, Remedy};
use crate::vision::compare;
use image::RgbaImage;

impl Prober<'_> {
    pub(super) fn run(
        &mut self,
        undo_hint: Option<Point>,
        on: &mut dyn FnMut(&str),
    ) -> anyhow::Result<()> {
        let (a, d) = (self.a, self.digit);
        let other = d % 9 + 1;
        on(&format!(
            "on {} (its digit is {d}; only that digit is written there, then taken back)",
            cell_name(a)
        ));
        // Twice, should a tap be lost.
        for attempt in 0..2 {
            // Unselected: a given away from the probe's cell.
            self.cell(self.g[attempt])?;
            let none = self.look_still()?.frame.clone();
            // Another digit, the digit, the cell: a digit-first app writes the digit (its
            // brush); a cell-first app only selects the cell (the digits went to a given, which
            // takes none).
            self.key(other)?;
            self.key(d)?;
            self.cell(a)?;
            self.look_still()?;
            match self.at_a() {
                x if x == d => {
                    self.input.mode = InputMode::DigitFirst;
                    let seen = format!(
                        "tapped {other}, {d}, then {}: {d} went in (a brush)",
                        self.name()
                    );
                    self.see(RuleKey::Mode, seen);
                    on("digit-first: a digit key arms a brush that cell taps write");
                    self.brush_path(undo_hint, on)?;
                    break;
                }
                0 => {
                    let selected = self.last_frame().clone();
                    self.key(d)?;
                    self.look_still()?;
                    if self.at_a() != d {
                        if attempt == 0 {
                            continue;
                        }
                        return Err(self.no_order());
                    }
                    self.input.mode = InputMode::CellFirst;
                    let seen = format!("tapped {}, then {d}: {d} went in", self.name());
                    self.see(RuleKey::Mode, seen);
                    on("cell-first: tap the cell, then the digit");
                    self.cell_path(&none, &selected, undo_hint, on)?;
                    break;
                }
                x => anyhow::bail!("{} shows {x} after the probe's first taps", self.name()),
            }
        }
        self.mistake_counter(on)?;
        // Leave a given selected: nothing the player does next can write by accident.
        if self.input.mode != InputMode::DigitFirst {
            self.cell(self.g[1])?;
        }
        Ok(())
    }

    /// Why the probe stops when neither order wrote its digit.
    fn no_order(&self) -> anyhow::Error {
        let d = self.digit;
        Advised::new(
            format!(
                "neither {}'s cell then {d}, nor {d} then the cell, wrote {d} there (tried \
                 twice): check the calibration's keys, or give [input] by hand",
                self.name()
            ),
            &[Remedy::CalibrateKeys],
        )
        .into()
    }

    /// Cell-first: the probe's cell holds its digit, selected.
    pub(super) fn cell_path(
        &mut self,
        none: &RgbaImage,
        selected: &RgbaImage,
        undo_hint: Option<Point>,
        on: &mut dyn FnMut(&str),
    ) -> anyhow::Result<()> {
        let (a, d) = (self.a, self.digit);
        let geometry = self.cal.geometry();
        let bg_none = compare::background(none, &geometry, a);
        let bg_sel = compare::background(selected, &geometry, a);
        let visible = compare::far(bg_none, bg_sel);
        let is_selected = |frame: &RgbaImage| -> Option<bool> {
            let bg = compare::background(frame, &geometry, a);
            visible.then(|| compare::distance(bg, bg_sel) < compare::distance(bg, bg_none))
        };

        // After an entry: is the cell still selected?
        let after = is_selected(self.last_frame());
        self.after_entry(after);

        // The digit again.
        self.select_a(after)?;
        let same = self.same_digit(on)?;
        if matches!(same, SameDigit::Clear | SameDigit::ClearLate) {
            self.write_a()?;
        }

        self.try_erase(same)?;

        // Undo.
        self.try_undo(undo_hint, on)?;
        if self.at_a() == d && self.take_back.is_some() {
            self.take_back_a()?;
        }

        // A re-tapped cell: the probe's cell is empty now (or locked with its digit).
        if self.at_a() == 0 {
            if self.retap(&bg_none, &bg_sel, visible, on)? {
                self.frame_reads(true, None);
                self.input.finished_keys = FinishedKeys::Unknown;
                self.see(RuleKey::FinishedKeys,
                    "not probed (the app kept a brush): the player looks when a digit is first finished"
                        .into(),
                );
                return Ok(());
            }
        } else {
            self.see(
                RuleKey::Retap,
                "not probed (the probe's digit could not be taken back): the player assumes a \
                 re-tap deselects and never re-taps a selected cell"
                    .into(),
            );
            self.input.retap = Retap::Deselect;
        }

        self.taps_within_a_frame()?;
        self.finished_keys(on)?;
        Ok(())
    }

    /// Cell-first: whether the probe's cell still shows selected after an entry (`after`;
    /// `None`: the screen does not show it).
    fn after_entry(&mut self, after: Option<bool>) {
        let (d, name) = (self.digit, self.name());
        let (rule, seen) = match after {
            Some(true) => (
                AfterEntry::Keep,
                format!("after {d} went into {name}, it still showed selected"),
            ),
            Some(false) => (
                AfterEntry::Clear,
                format!(
                    "after {d} went into {name}, it no longer showed selected (the selection is dropped)"
                ),
            ),
            None => (
                AfterEntry::Unknown,
                "the screen does not show which cell is selected".into(),
            ),
        };
        self.input.after_entry = rule;
        self.see(RuleKey::AfterEntry, seen);
    }

    /// Cell-first: whether the app reads taps against its last drawn frame: the cell and the
    /// digit tapped at once, on an empty probe cell whose digit can be taken back.
    fn taps_within_a_frame(&mut self) -> anyhow::Result<()> {
        if self.at_a() != 0 || self.take_back.is_none() {
            self.frame_reads(true, None);
            return Ok(());
        }
        let (a, d) = (self.a, self.digit);
        self.cell(self.g[0])?;
        self.target.tap(self.cells[a])?;
        let k = self.keys[(d - 1) as usize];
        self.target.tap(k)?;
        self.taps += 2;
        self.look_still()?;
        let stale = self.at_a() == 0;
        self.frame_reads(
            stale,
            Some(format!("tapped {} and {d} at once", self.name())),
        );
        if !stale {
            self.take_back_a()?;
        }
        Ok(())
    }

    /// Digit-first: the probe's cell holds its digit, the brush on it.
    pub(super) fn brush_path(
        &mut self,
        undo_hint: Option<Point>,
        on: &mut dyn FnMut(&str),
    ) -> anyhow::Result<()> {
        let (a, d) = (self.a, self.digit);
        let same = self.same_digit(on)?;
        // The brush's key again: is the brush dropped? Seen where a cell tap then writes.
        if self.at_a() == 0 {
            self.key(d)?;
            self.cell(a)?;
            self.look_still()?;
            let kept = self.at_a() == d;
            self.input.brush_retap = if kept {
                BrushRetap::Nothing
            } else {
                BrushRetap::Clear
            };
            self.see(
                RuleKey::BrushRetap,
                format!(
                    "tapped {d} (the brush) again, then {}: {}",
                    self.name(),
                    if kept {
                        "it wrote (the brush stays)"
                    } else {
                        "nothing (the brush was dropped)"
                    }
                ),
            );
            if !kept {
                self.key(d)?;
                self.cell(a)?;
                self.look_still()?;
            }
        } else {
            // Not seen: the player sets a brush through another key first.
            self.input.brush_retap = BrushRetap::Clear;
            self.see(RuleKey::BrushRetap,
                "not probed (the digit again did not clear): the player sets the brush through another key first".into(),
            );
        }
        if self.at_a() != d {
            self.write_a()?;
        }
        self.try_erase(same)?;
        self.try_undo(undo_hint, on)?;
        // Two taps on the cell at once (the brush on its digit): fresh, the second writes
        // again what the first cleared; read from the last frame, both clear.
        if same == SameDigit::Clear {
            if self.at_a() != d {
                self.write_a()?;
            }
            for _ in 0..2 {
                self.target.tap(self.cells[a])?;
            }
            self.taps += 2;
            self.look_still()?;
            let stale = self.at_a() == 0;
            self.frame_reads(stale, Some(format!("tapped {} twice at once", self.name())));
        } else {
            self.frame_reads(true, None);
        }
        // Nothing takes it back where the app locks right digits: it stays, and is named.
        if self.at_a() == d && self.take_back.is_some() {
            self.take_back_a()?;
        }
        self.finished_keys(on)
    }
}
