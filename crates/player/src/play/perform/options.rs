//! A performance's settings ([`PerformOptions`]): when to look at the screen, how many steps
//! to show, the budget, where to resume, and the Ctrl-C flag.

use crate::play::stop::StopFlag;
use std::time::Duration;

/// Settings of a performance.
#[derive(Debug, Clone)]
pub struct PerformOptions {
    /// Verify after this many taps (0: only at the end).
    pub verify_taps: u64,
    /// ... or after this much time.
    pub verify_interval: Duration,
    /// Check that the board is still there this often (or less often where a screenshot takes
    /// more than an eighth of this; zero: before every step).
    pub glance_interval: Duration,
    /// Show only the first N events, then fill the solution directly.
    pub max_visible_steps: Option<u64>,
    /// The time the performance may take from its start: the steps stop being shown (the rest
    /// of the solution filled in directly) once filling in and the last looks would end past
    /// it at the rate the taps have gone so far (`None`: no limit).
    pub budget: Option<Duration>,
    /// Resume: the events before this index are already on the screen.
    pub start_at: usize,
    /// Look at the screen before the first tap (when resuming).
    pub check_first: bool,
    /// Repair rounds in a row that may leave as many wrong cells as before, before giving up,
    /// on a phone that loses no tap (more where the run has seen taps lost: `stall.rs`).
    pub stalled_rounds: u32,
    /// Raised by Ctrl-C: send the batch of taps under way, then stop.
    pub stop: StopFlag,
}

impl Default for PerformOptions {
    fn default() -> Self {
        PerformOptions {
            verify_taps: 2000,
            verify_interval: Duration::from_secs(30),
            glance_interval: Duration::from_secs(2),
            max_visible_steps: None,
            budget: None,
            start_at: 0,
            check_first: false,
            stalled_rounds: 5,
            stop: StopFlag::default(),
        }
    }
}
