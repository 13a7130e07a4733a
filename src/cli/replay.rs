//! `autoplay replay SESSION_DIR`: check a recorded session with today's OCR and search (no
//! device needed), and optionally show it again: as an animated GIF, in the terminal, or as the
//! recorded taps sent to a phone.

use super::args::AdbArgs;
use super::choice::choice;
use anyhow::Context;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Duration;
use sudoku_autoplay::board::cell_name;
use sudoku_autoplay::device::tap::ChannelKind;
use sudoku_autoplay::level::Update;
use sudoku_autoplay::level::{ResendOptions, Shown, resend};
use sudoku_autoplay::recheck::{OcrCheck, SessionCheck, check_session};
use sudoku_autoplay::session::anim::{Timeline, gif, tui};
use sudoku_autoplay::text::thousands as t;

/// Exit code when the session does not replay as recorded.
pub const EXIT_MISMATCH: i32 = 2;

#[derive(Debug, clap::Args)]
#[command(
    after_help = "Exit status: 0 when the session replays as recorded, 2 on a mismatch \
    (OCR, counts or event stream), 1 on an error.\n\
    Example: autoplay replay ~/.local/share/sudoku-autoplay/sessions/20261122-000826-127_0_0_1_5555-L3 --gif level3.gif"
)]
pub struct ReplayArgs {
    /// The session directory (DATA/sessions/<time>-<serial>-L<level>).
    #[arg(value_name = "SESSION_DIR")]
    pub dir: PathBuf,
    /// Write an animated GIF of the search on a clean board.
    #[arg(long, value_name = "FILE")]
    pub gif: Option<PathBuf>,
    /// Length of the GIF / terminal playback: long searches are sampled to fit.
    #[arg(long, value_name = "SECS", default_value_t = 30.0)]
    pub duration: f64,
    /// Write the phone's own video of the run (recorded with --record; the runs that resumed
    /// it one after another) to FILE, an MP4 with the search's counts as captions, and FILE
    /// with `.vtt` beside it.
    #[arg(long, value_name = "FILE")]
    pub video: Option<PathBuf>,
    /// Play the search back in the terminal.
    #[arg(long)]
    pub tui: bool,
    /// Send the recorded taps to a phone again (open the same level first if the calibration
    /// has no [navigation]); use -s SERIAL to pick the phone.
    #[arg(long)]
    pub to_device: bool,
    /// With --to-device: milliseconds between taps (0: as fast as the phone takes them).
    #[arg(long, value_name = "MS", default_value_t = 20)]
    pub pace: u64,
    /// With --to-device: the tap channel, `raw`, `inject`, `events` or `input` (default: the
    /// fastest the device allows, in that order). (`--channel` is the same option.)
    #[arg(long = "input", alias = "channel", value_parser = choice::<ChannelKind>())]
    pub channel: Option<ChannelKind>,
    /// With --to-device: which phone.
    #[command(flatten)]
    pub adb: AdbArgs,
}

pub fn run(args: &ReplayArgs) -> anyhow::Result<i32> {
    if !(args.duration.is_finite() && args.duration > 0.0) {
        anyhow::bail!(
            "--duration must be a positive number of seconds, not {}",
            args.duration
        );
    }
    let check = check_session(&args.dir)?;
    print_check(&check)?;

    let timeline =
        || Timeline::new(check.givens(), &check.events, args.duration).captioned(check.caption());
    if let Some(path) = &args.gif {
        let timeline = timeline();
        let file = std::fs::File::create(path)
            .with_context(|| format!("cannot create {}", path.display()))?;
        let report = gif::write_gif(&timeline, std::io::BufWriter::new(file))
            .with_context(|| format!("writing {}", path.display()))?;
        outln!(
            "gif: {} ({} frames, {})",
            path.display(),
            report.frames,
            if report.every_step {
                "every step".to_string()
            } else {
                format!("sampled from {} steps", t(check.events.len() as u64))
            }
        )?;
    }
    if let Some(out) = &args.video {
        let video = sudoku_autoplay::video::export(&args.dir, out)?;
        outln!(
            "video: {} ({}, {} frames, {:.1} MB; captions also in {})",
            out.display(),
            sudoku_autoplay::text::human(video.duration),
            t(video.frames),
            video.bytes as f64 / 1e6,
            out.with_extension("vtt").display()
        )?;
    }
    if args.tui {
        let timeline = timeline();
        let mut out = std::io::stdout().lock();
        tui::play(&timeline, &mut out, std::io::stdout().is_terminal())?;
    }
    if args.to_device {
        to_device(&args.adb, args, &check)?;
    }
    Ok(if check.ok() { 0 } else { EXIT_MISMATCH })
}

/// The check, line by line.
fn print_check(c: &SessionCheck) -> std::io::Result<()> {
    let m = &c.meta;
    outln!(
        "session {}: {} with {} on {} ({}), recorded {}",
        c.dir.display(),
        m.level
            .map_or("the open level".to_string(), |l| format!("level {l}")),
        m.strategy,
        m.device.model,
        m.device.serial,
        m.created
    )?;
    print_ocr(c)?;
    match c.counts_differ {
        None => outln!(
            "search:  ok: {} placements, {} undos, as recorded",
            t(c.placements),
            t(c.undos)
        )?,
        Some(((rp, ru), (p, u))) => outln!(
            "search:  MISMATCH: recorded {} placements, {} undos; today {} placements, {} undos",
            t(rp),
            t(ru),
            t(p),
            t(u)
        )?,
    }
    print_journal(c)?;
    print_video(&c.dir)?;
    outln!("end:     {}", c.ending_text())?;
    outln!(
        "result:  {}",
        if c.ok() {
            "replays as recorded"
        } else {
            "MISMATCH"
        }
    )?;
    Ok(())
}

/// The check's line on the phone's video of the run, if it was recorded.
fn print_video(dir: &std::path::Path) -> std::io::Result<()> {
    let videos = sudoku_autoplay::video::session_videos(dir);
    match videos.as_slice() {
        [] => outln!("video:   none (a run played with --record has one)"),
        [one] => outln!(
            "video:   {} (write it out with --video FILE)",
            one.display()
        ),
        several => outln!(
            "video:   {} recordings, {} the first (write them out as one with --video FILE)",
            several.len(),
            several[0].display()
        ),
    }
}

/// The check's line on the first frame's reading.
fn print_ocr(c: &SessionCheck) -> std::io::Result<()> {
    match &c.ocr {
        OcrCheck::Match { with } => outln!(
            "ocr:     ok: first.png reads as the {} recorded givens (with {with})",
            c.givens().filled()
        ),
        OcrCheck::Mismatch { with, cells } => outln!(
            "ocr:     MISMATCH in {} cells (with {with}): {}",
            cells.len(),
            cells
                .iter()
                .take(8)
                .map(|&(cell, was, now)| format!("{} recorded {was}, read {now}", cell_name(cell)))
                .collect::<Vec<_>>()
                .join("; ")
        ),
        OcrCheck::Unreadable(why) => outln!("ocr:     MISMATCH: {why}"),
    }
}

/// The check's lines on the journal: its steps against the search's.
fn print_journal(c: &SessionCheck) -> std::io::Result<()> {
    let m = &c.meta;
    let total = c.events.len() as u64;
    match &c.divergence {
        None => outln!(
            "journal: ok: {} of {} steps match; {}, {}",
            t(c.journaled_steps.min(total)),
            t(total),
            sudoku_autoplay::text::count(c.repairs, "repair"),
            sudoku_autoplay::text::count(c.fills, "direct fill")
        )?,
        Some(d) => outln!("journal: DIVERGES at {d}")?,
    }
    if let Some(n) = m.max_visible_steps
        && c.journaled_steps < total
        && n <= c.journaled_steps
    {
        outln!(
            "         steps after {} were searched on the host only (--max-visible-steps {n}); the fills finished the board",
            t(n)
        )?;
    }
    Ok(())
}

/// Sends the journaled taps to a phone again ([`resend`]), printing its notes as they come and
/// then what it did.
fn to_device(adb: &AdbArgs, args: &ReplayArgs, c: &SessionCheck) -> anyhow::Result<()> {
    let device = adb.device()?;
    let options = ResendOptions {
        channel: args.channel,
        pace: Duration::from_millis(args.pace),
        ..ResendOptions::default()
    };
    let r = resend(&device, c, &options, &mut |update| {
        if let Update::Note(note) = update {
            eprintln!("{}", super::explain::note(note));
        }
    })?;
    outln!(
        "device:  sent {} recorded taps to {} ({:.0} taps/s via {})",
        t(r.taps),
        r.serial,
        r.taps_per_sec,
        super::choice::name(r.channel)
    )?;
    if let Some(shown) = &r.shown {
        let seen = match shown {
            Shown::NoBoard => "no board visible (the app's completion screen?)".to_string(),
            Shown::JournalsBoard => "the board the journal ends in".to_string(),
            Shown::Other(b) => format!("a different board: {}", b.to_line()),
        };
        outln!("device:  the phone shows {seen}")?;
    }
    Ok(())
}
