//! `autoplay resume SESSION_DIR`: continue an interrupted run from its journal.

use super::args::{AdbArgs, Budget, RunArgs};
use super::outcome::{explain_failure, incidents};
use super::progress::{progress_bar, updates};
use anyhow::Context;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use sudoku_autoplay::calibration::Calibration;
use sudoku_autoplay::calibration::lookup::SearchPath;
use sudoku_autoplay::level::{PlayReport, resume};
use sudoku_autoplay::session::{SessionMeta, read_journal};
use sudoku_autoplay::text::count;

#[derive(Debug, clap::Args)]
#[command(
    after_help = "The events already in the journal are taken to be on the screen: the board is read and \
    repaired where taps were lost, then the rest of the search is played. If the app restarted meanwhile \
    (its home screen shows), the level is opened again and the journaled digits are entered again first. \
    The device is the session's own (by serial) unless -s says otherwise; a network device (HOST:PORT) \
    that dropped is connected again (`adb connect`) and waited for, as during a run."
)]
pub struct ResumeArgs {
    /// The session directory (DATA_DIR/sessions/..., as the failed run said).
    pub session: PathBuf,
    /// Calibration file (default: the one the session was recorded with).
    #[arg(long, value_name = "FILE")]
    pub calibration: Option<PathBuf>,
    /// Time budget for the steps left, held as a deadline: show as many as fit in DURATION at
    /// the rate the level's taps went so far, then fill the rest of the solution in directly
    /// (the plan printed before going on says how many; where the phone goes slower, the steps
    /// stop earlier, and the summary says so). `none` shows every step left.
    #[arg(long, value_name = "DURATION", default_value = "30m")]
    pub budget: Budget,
    #[command(flatten)]
    pub adb: AdbArgs,
    #[command(flatten)]
    pub run: RunArgs,
}

pub fn run(args: &ResumeArgs) -> anyhow::Result<i32> {
    let stop = super::signals::install(super::signals::AFTER_THE_TAPS);
    // The session first: a finished or broken session needs no device.
    let meta = SessionMeta::load(&args.session)?;
    if read_journal(&args.session.join("journal.jsonl"))?.ended_solved() {
        anyhow::bail!(
            "{} is already solved and verified; nothing to resume",
            args.session.display()
        );
    }
    let calibration = args
        .calibration
        .clone()
        .unwrap_or_else(|| PathBuf::from(&meta.calibration));
    Calibration::load(&calibration).with_context(|| match &args.calibration {
        Some(_) => "--calibration".to_string(),
        None => format!(
            "the session's calibration {} cannot be used: pass --calibration FILE",
            meta.calibration
        ),
    })?;
    let device = args
        .adb
        .run_device(Some(&meta.device.serial))
        .with_context(|| match &args.adb.serial {
            Some(s) => format!("cannot resume on {s}"),
            None => format!(
                "the session was recorded on {}; to resume on another phone (with the same screen), \
                 pass -s SERIAL",
                meta.device.serial
            ),
        })?;
    let bar = progress_bar(args.run.quiet, &device.serial);
    let start = Instant::now();
    let mut cfg = args
        .run
        .config(None, None, args.calibration.clone(), SearchPath::new([]))?;
    cfg.stop = stop;
    cfg.budget = args.budget.0;
    let report = resume(
        &device,
        &args.session,
        &cfg,
        &mut updates(&bar, args.run.quiet),
    );
    bar.finish_and_clear();
    let r = match report {
        Ok(r) => r,
        Err(e) => return Ok(explain_failure(&args.adb, &cfg, &e)),
    };
    summary(&r, start.elapsed())?;
    Ok(0)
}

/// A resumed level's summary lines, `took` after the command began.
fn summary(r: &PlayReport, took: Duration) -> std::io::Result<()> {
    outln!("{}", r.solution)?;
    outln!(
        "resumed and verified: {} played now, {}, {} in {:.1} s{}; session {}",
        count(r.performed.events_shown, "step"),
        count(r.performed.repairs, "repair"),
        count(r.performed.taps, "tap"),
        took.as_secs_f64(),
        incidents(&r.performed),
        r.session_dir.display()
    )?;
    if let Some(cut) = &r.performed.deadline_cut {
        outln!(
            "note: {}",
            super::explain::deadline_cut(cut, r.plan.as_ref().map(|p| p.rate))
        )?;
    }
    Ok(())
}
