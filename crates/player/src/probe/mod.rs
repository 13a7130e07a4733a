//! Finding out how the app takes taps, on the open level (`calibrate` on a phone).
//!
//! Real apps differ (`../shared/real-apps/BEHAVIOUR.md`): cell-first or digit-first ("a brush"),
//! a re-tapped cell deselected or switched to pencil mode, the selection dropped after an entry,
//! the digit again clearing its cell (at once or a moment later), an erase key that does nothing,
//! right digits locked, an undo key, taps read against the last drawn frame, keys that move
//! when a digit is finished, a mistake counter. The probe tries each with taps and looks at the
//! screen between them.
//!
//! It writes only the right digit (the solution is known before the first tap) into an empty
//! cell, so it can cost no mistake; it takes back everything it wrote with what it found works
//! (unless the app locks right digits: then that digit stays, and it says so); and it checks at
//! the end that the board is as it found it. Where it cannot go on, it stops, restores what it
//! can and names the cell it could not.
//!
//! It works on the same seam as a performance: a [`ProbeTarget`] is a [`Target`] that also
//! gives the screen's pixels and words. `crate::phone` implements it over ADB; the tests, on
//! an app in memory that takes taps by each rule class.
//!
//! The files: `prober.rs` (the probe's state, its taps and looks, writing and taking back its
//! digit), `order.rs` (cell-first or digit-first, and the paths that follow), `take_back.rs`
//! (erase, the same digit again, undo), `selection.rs` (a re-tapped cell, a brush tapped
//! again), `keys.rs` (taps within one frame, finished keys, the mistake counter).

mod keys;
mod order;
mod prober;
mod selection;
mod take_back;

#[cfg(test)]
mod fake;
#[cfg(test)]
mod tests;

use crate::board::cell_name;
use crate::calibration::{Calibration, InputSection};
use crate::play::{Point, Target};
use image::RgbaImage;
use prober::Prober;
use std::time::Duration;

/// How often the screen is looked at until it stops changing after taps (ripples, highlights,
/// a digit drawn), and how many looks at most.
const STILL_PAUSE: Duration = Duration::from_millis(40);
const STILL_LOOKS: u32 = 12;
/// The gap after each tap of the probe's own sequences: several frames, so that apps that read
/// taps against their last drawn frame see each tap's effect before the next.
const STEP: Duration = Duration::from_millis(50);
/// How long the probe watches a digit tapped again for a late clear.
const LATE_WATCH: Duration = Duration::from_millis(700);

/// The phone as the probe needs it: a performance's taps ([`Target::tap`], [`Target::sync`])
/// and time ([`Target::now`], [`Target::pause`]), and the screen's pixels and words.
pub trait ProbeTarget: Target {
    /// A screenshot, now.
    fn screenshot(&mut self) -> anyhow::Result<RgbaImage>;
    /// The words on the screen (`None`: they cannot be read).
    fn words(&mut self) -> anyhow::Result<Option<ScreenWords>>;
}

/// The words on a screen: its texts in order, and the places of the nodes that carry words.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ScreenWords {
    pub texts: Vec<String>,
    pub nodes: Vec<(String, Point)>,
}

/// What the probe found, and what it cost.
#[derive(Debug, Clone)]
pub struct Probed {
    /// The app's input rules (`seen` says what was seen for each).
    pub input: InputSection,
    /// The same digit again clears a cell: an app without an erase key confirmed (`[keypad]
    /// erase = "toggle"` is no longer a guess).
    pub toggle_confirmed: bool,
    /// The cell the probe wrote into.
    pub cell: usize,
    /// A right digit the app would not let the probe take back (locked): (cell, digit).
    pub kept: Option<(usize, u8)>,
    pub taps: u64,
    pub screenshots: u32,
    pub elapsed: Duration,
}

/// Probes the app's input rules on the level open on `target` (its taps landing), calibrated
/// as `cal`. `undo_hint` is an undo key the screenshot's survey found. `on` hears what the
/// probe is doing.
pub fn probe(
    target: &mut dyn ProbeTarget,
    cal: &Calibration,
    undo_hint: Option<Point>,
    on: &mut dyn FnMut(&str),
) -> anyhow::Result<Probed> {
    let started = target.now();
    let mut p = Prober::new(target, cal)?;
    let result = p.run(undo_hint, on);
    let cell = p.a;
    match result {
        Ok(()) => {
            let kept = p.check_restored()?;
            Ok(Probed {
                input: p.input,
                toggle_confirmed: p.toggle_confirmed,
                cell,
                kept,
                taps: p.taps,
                screenshots: p.screenshots,
                elapsed: p.target.now() - started,
            })
        }
        Err(e) => {
            // Take back what is left where a way is known, then say where the board differs.
            let left = p.restore_after_failure();
            Err(match left {
                Ok(cells) if cells.is_empty() => e.context(format!(
                    "probing how the app takes taps (on {}; the board is as it was)",
                    cell_name(cell)
                )),
                Ok(cells) => e.context(format!(
                    "probing how the app takes taps: the board still differs from how the probe \
                     found it in {}: clear it by hand, or reopen the level",
                    cells.join(", ")
                )),
                Err(again) => e.context(format!(
                    "probing how the app takes taps (on {}; checking the board afterwards failed \
                     too: {again:#})",
                    cell_name(cell)
                )),
            })
        }
    }
}
