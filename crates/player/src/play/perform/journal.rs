//! Where a performance records what it sent ([`Journal`]: the session's journal, or nothing),
//! and why a cell was written outside the search's events ([`WriteKind`]).

use crate::play::target::{Incident, Point};
use crate::solver::Event;

/// Where performed events are recorded (the session journal).
pub trait Journal {
    /// Event `index` of the search was sent as `taps`.
    fn event(&mut self, index: usize, event: Event, taps: &[Point]) -> anyhow::Result<()>;
    /// A cell was set directly (repair or final fill) with `taps`.
    fn write(
        &mut self,
        kind: WriteKind,
        cell: usize,
        digit: u8,
        taps: &[Point],
    ) -> anyhow::Result<()>;
    /// A reconnect or an interruption.
    fn incident(&mut self, _incident: &Incident) -> anyhow::Result<()> {
        Ok(())
    }
    /// The steps shown end before index `end` (the budget's deadline cut them short): the
    /// rest of the solution is filled in directly.
    fn shown_until(&mut self, _end: usize) -> anyhow::Result<()> {
        Ok(())
    }
}

/// Why a cell was written outside the event stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WriteKind {
    Repair,
    Fill,
}

/// A journal that keeps nothing.
impl Journal for () {
    fn event(&mut self, _: usize, _: Event, _: &[Point]) -> anyhow::Result<()> {
        Ok(())
    }
    fn write(&mut self, _: WriteKind, _: usize, _: u8, _: &[Point]) -> anyhow::Result<()> {
        Ok(())
    }
}
