//! A tap on the selected cell (nothing, deselected, pencil mode), and a brush's key tapped again.

use super::prober::Prober;
use crate::calibration::{BrushRetap, InputMode, Retap, RuleKey, SameDigit};
use crate::vision::compare;

impl Prober<'_> {
    /// A tap on the selected cell (the probe's cell empty): nothing, deselected, or pencil mode.
    /// True where it left the app with a brush it keeps (a `both` app): no cell may be tapped
    /// after.
    pub(super) fn retap(
        &mut self,
        bg_none: &[u8; 3],
        bg_sel: &[u8; 3],
        visible: bool,
        on: &mut dyn FnMut(&str),
    ) -> anyhow::Result<bool> {
        let (a, d) = (self.a, self.digit);
        let geometry = self.cal.geometry();
        self.select_a(Some(false))?;
        self.cell(a)?;
        let before = self.look_still()?.frame.clone();
        let bg = compare::background(&before, &geometry, a);
        let deselected =
            visible && compare::distance(bg, *bg_none) < compare::distance(bg, *bg_sel);
        self.key(d)?;
        self.look_still()?;
        let marked = compare::changed(&before, self.last_frame(), &geometry, a) > 0.01;
        let (retap, what, stuck) = if self.at_a() == d {
            self.take_back_a()?;
            let what = format!("tapped {} twice, then {d}: {d} went in", self.name());
            (Retap::Nothing, what, false)
        } else if marked && !deselected {
            self.leave_pencil_mode()?
        } else {
            self.after_deselect(on)?
        };
        on(match retap {
            Retap::Nothing => "a re-tapped cell stays selected",
            Retap::Deselect => "a re-tapped cell is deselected: the player never re-taps one",
            Retap::Pencil => "a re-tapped cell toggles pencil mode: the player never re-taps one",
        });
        self.input.retap = retap;
        self.see(RuleKey::Retap, what);
        Ok(stuck)
    }

    /// After a re-tap left a pencil mark (the probe's cell selected, in pencil mode): the
    /// digit again takes it off, the cell again leaves pencil mode, the digit goes in and is
    /// taken back. Returns the rule, what was seen, and false (no brush is armed).
    fn leave_pencil_mode(&mut self) -> anyhow::Result<(Retap, String, bool)> {
        let (a, d) = (self.a, self.digit);
        self.key(d)?;
        self.cell(a)?;
        self.digit_in_and_out("after leaving pencil mode")?;
        let what = format!(
            "tapped {} twice, then {d}: a small mark, no digit (pencil mode)",
            self.name()
        );
        Ok((Retap::Pencil, what, false))
    }

    /// The probe's digit tapped into its selected cell, seen there, and taken back; an error
    /// names the cell, the digit and `after` what it did not take it.
    fn digit_in_and_out(&mut self, after: &str) -> anyhow::Result<()> {
        let d = self.digit;
        self.key(d)?;
        self.look_still()?;
        if self.at_a() != d {
            anyhow::bail!("{} did not take {d} {after}", self.name());
        }
        self.take_back_a()
    }

    /// After a re-tap deselected the probe's cell and the digit went nowhere, or armed a
    /// brush: the cell again, the digit in and back out. Returns the rule, what was seen, and
    /// whether a brush stays armed.
    fn after_deselect(
        &mut self,
        on: &mut dyn FnMut(&str),
    ) -> anyhow::Result<(Retap, String, bool)> {
        let (a, d) = (self.a, self.digit);
        let mut stuck = false;
        self.cell(a)?;
        self.look_still()?;
        if self.at_a() == d {
            self.input.mode = InputMode::Both;
            self.see(
                RuleKey::Mode,
                format!(
                    "cell-first, and {d} tapped with no cell selected armed a brush: tapping {} \
                     then wrote {d}",
                    self.name()
                ),
            );
            on("both: a digit with no cell selected arms a brush");
            // Drop the brush: its key again; then the digit out.
            self.key(d)?;
            stuck = !self.brush_dropped()?;
        } else {
            self.digit_in_and_out("after a re-tap")?;
        }
        let what = format!(
            "tapped {} twice, then {d}: nothing went in (deselected)",
            self.name()
        );
        Ok((Retap::Deselect, what, stuck))
    }

    /// In a `both` app, after its brush key was tapped again (the probe's cell holding its
    /// digit): whether the brush is gone, told without a tap that could write elsewhere. With
    /// an erase key: a given, erase, the cell: a brush still there becomes the eraser and clears
    /// the cell, else the cell is selected. Else, where the digit again clears: a given, the
    /// cell. True (dropped): the cell selected, its digit taken back; false: the brush stays
    /// (the cell cleared).
    pub(super) fn brush_dropped(&mut self) -> anyhow::Result<bool> {
        let toggles = matches!(
            self.input.same_digit,
            Some(SameDigit::Clear | SameDigit::ClearLate)
        );
        self.cell(self.g[0])?;
        match self.erase {
            Some(e) => self.tap(e)?,
            None if toggles => {}
            None => anyhow::bail!(
                "could not tell safely whether the app keeps its brush (no erase key, and the digit \
                 again does not clear): the probe's {} stays in {}: clear it by hand, and give \
                 [input] by hand",
                self.digit,
                self.name()
            ),
        }
        self.cell(self.a)?;
        self.look_still()?;
        let dropped = self.at_a() != 0;
        self.input.brush_retap = if dropped {
            BrushRetap::Clear
        } else {
            BrushRetap::Nothing
        };
        self.see(RuleKey::BrushRetap,
            if dropped {
                format!(
                    "tapped {} (the brush) again, then a given and {}: it was selected (the brush was dropped)",
                    self.digit,
                    self.name()
                )
            } else {
                format!(
                    "tapped {} (the brush) again: cell taps still wrote a brush (the app keeps it until \
                     the level is opened again; the player plays cell-first from a fresh level)",
                    self.digit
                )
            },
        );
        if dropped {
            self.take_back_a()?;
        }
        Ok(dropped)
    }
}
