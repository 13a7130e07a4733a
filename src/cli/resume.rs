//! `autoplay resume SESSION_DIR`: continue an interrupted run from its journal.

use super::play::{AdbArgs, PlayArgs, bar_progress, explain_failure, progress_bar};
use crate::device::select;
use crate::play::run::resume;
use crate::session::SessionMeta;
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(Debug, clap::Args)]
#[command(
    after_help = "The events already in the journal are taken to be on the screen: the board is read and \
    repaired where taps were lost, then the rest of the search is replayed. If the app restarted meanwhile \
    (its home screen shows), the level is opened again and the journaled digits are entered again first. \
    The device is the session's own (by serial) unless -s says otherwise."
)]
pub struct ResumeArgs {
    /// The session directory (autoplay-data/sessions/...).
    pub session: PathBuf,
    #[command(flatten)]
    pub play: PlayArgs,
}

pub fn run(adb: &AdbArgs, args: &ResumeArgs) -> anyhow::Result<i32> {
    let stop = super::signals::install();
    let meta = SessionMeta::load(&args.session)?;
    let server = adb.server()?;
    let serial = adb.serial.clone().unwrap_or(meta.device.serial.clone());
    let device = select(&server, Some(&serial))?;
    let bar = progress_bar(args.play.quiet, &device.serial);
    let start = Instant::now();
    let mut cfg = args.play.config();
    cfg.stop = stop;
    let report = resume(&device, &args.session, &cfg, &mut bar_progress(&bar));
    bar.finish_and_clear();
    let r = match report {
        Ok(r) => r,
        Err(e) => return Ok(explain_failure(adb, &cfg.data_dir, &e)),
    };
    println!("{}", r.solution);
    println!(
        "resumed and verified: {} steps replayed now, {} repairs, {} taps in {:.1} s{}; session {}",
        super::thousands(r.replay.events_shown),
        r.replay.repairs,
        super::thousands(r.replay.taps),
        start.elapsed().max(Duration::ZERO).as_secs_f64(),
        incidents(&r.replay),
        r.session_dir.display()
    );
    Ok(0)
}

/// `, 1 reconnect, 2 interruptions` (nothing when there were none).
pub fn incidents(r: &crate::play::ReplayReport) -> String {
    let mut s = String::new();
    for (n, what) in [
        (r.reconnects, "reconnect"),
        (r.interruptions, "interruption"),
    ] {
        if n > 0 {
            s.push_str(&format!(", {n} {what}{}", if n == 1 { "" } else { "s" }));
        }
    }
    s
}
