//! What a running play shows: its notes printed as they come, its progress on a bar (`play`,
//! `resume`, `watch`, `demo`).

use indicatif::{ProgressBar, ProgressStyle};
use std::time::Duration;
use sudoku_autoplay::level::{Note, Update};
use sudoku_autoplay::play::Progress;

/// A progress bar for a play: until the performance starts (the device, the level, the board,
/// the search, the plan), a spinner saying so; then events, taps/s, elapsed, ETA
/// ([`bar_progress`] switches it).
pub fn progress_bar(quiet: bool, label: &str) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template("{prefix} [{elapsed_precise}] {spinner} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    bar.set_prefix(label.to_string());
    bar.set_message("getting ready: the phone, the level, the board, the search, the plan");
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// The bar's look once the performance has started.
fn steps_style() -> ProgressStyle {
    ProgressStyle::with_template(
        "{prefix} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} steps  {msg}",
    )
    .unwrap_or_else(|_| ProgressStyle::default_bar())
}

/// Prints a run's note as a line on stderr: the tap channel and the plan unless `--quiet`; a
/// skipped calibration file, and the calibration picked among several, always.
pub fn print_note(note: &Note, quiet: bool) {
    let detail = matches!(note, Note::TapChannel { .. } | Note::Plan { .. });
    if !(quiet && detail) {
        eprintln!("{}", super::explain::note(note));
    }
}

/// The callback for `level::play` / `resume`: notes printed as they come (above `bar`), the
/// performance's progress on `bar` ([`bar_progress`]).
pub fn updates(bar: &ProgressBar, quiet: bool) -> impl FnMut(&Update) + '_ {
    let mut progress = bar_progress(bar);
    move |update| match update {
        Update::Note(note) => bar.suspend(|| print_note(note, quiet)),
        Update::Progress(p) => progress(p),
    }
}

/// A progress callback for the performance that drives `bar`: steps, taps, the taps/s the
/// phone has carried out (the channel's measured rate: taps are acknowledged only once the
/// phone is done with them), the ETA at that rate for the remaining steps' taps, and the
/// repairs, reconnects and interruptions survived.
pub fn bar_progress(bar: &ProgressBar) -> impl FnMut(&Progress) + '_ {
    let mut first: Option<(std::time::Instant, u64, u64)> = None;
    let mut last: Option<std::time::Instant> = None;
    move |p| {
        let (done, total, taps) = (p.done, p.total, p.taps);
        let (start, done0, taps0) = *first.get_or_insert_with(|| {
            bar.disable_steady_tick();
            bar.set_style(steps_style());
            (std::time::Instant::now(), done, taps)
        });
        if last.is_none_or(|l| l.elapsed() >= Duration::from_millis(100)) || done == total {
            last = Some(std::time::Instant::now());
            bar.set_length(total);
            bar.set_position(done);
            let secs = start.elapsed().as_secs_f64().max(1e-3);
            let rate = taps.saturating_sub(taps0) as f64 / secs;
            let per_step =
                taps.saturating_sub(taps0) as f64 / done.saturating_sub(done0).max(1) as f64;
            let eta = if rate > 0.0 {
                let left = total.saturating_sub(done) as f64 * per_step / rate;
                sudoku_autoplay::text::human(
                    Duration::try_from_secs_f64(left).unwrap_or(Duration::MAX),
                )
            } else {
                "?".to_string()
            };
            let mut msg = format!(
                "{} taps, {rate:.0} taps/s, ETA {eta}",
                sudoku_autoplay::text::thousands(taps)
            );
            for (n, what) in [
                (p.repairs, "repair"),
                (p.reconnects, "reconnect"),
                (p.interruptions, "interruption"),
            ] {
                if n > 0 {
                    msg.push_str(&format!(", {}", sudoku_autoplay::text::count(n, what)));
                }
            }
            bar.set_message(msg);
        }
    }
}
