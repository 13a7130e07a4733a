//! The `autoplay` command line: one file per subcommand.

/// Writes a line to stdout, returning the error (a closed pipe) instead of panicking like
/// `println!`.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout(), $($arg)*)
    }};
}
mod calibrate;
mod choice;
mod demo;
mod devices;
mod dirs;
mod play;
mod read;
mod replay;
mod resume;
mod signals;
mod sim;
mod solve;
mod stats;
mod watch;

use clap::{Parser, Subcommand};

/// Plays Sudoku on an Android phone over ADB, replaying every placement and undo of a
/// backtracking search as real taps.
#[derive(Debug, Parser)]
#[command(
    name = "autoplay",
    version,
    about,
    args_conflicts_with_subcommands = true,
    after_help = "With no subcommand, autoplay plays: `autoplay --level 70` opens level 70 on the phone and \
                  solves it visibly.\nEach subcommand has its own --help, e.g. `autoplay solve --help`."
)]
pub struct Cli {
    #[command(flatten)]
    adb: play::AdbArgs,
    #[command(flatten)]
    play: play::PlayArgs,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// No phone needed: start the simulated phone and watch it solve a level.
    Demo(demo::DemoArgs),
    /// List connected devices, their screens, and whether a calibration exists.
    Devices(devices::DevicesArgs),
    /// Solve puzzles on the host and print the search's execution counts.
    Solve(solve::SolveArgs),
    /// Read the board in a screenshot (PNG, JPEG or raw screencap): digits, givens, confidence.
    Read(read::ReadArgs),
    /// Make a calibration profile (board, keypad, erase key) from a screenshot.
    Calibrate(calibrate::CalibrateArgs),
    /// Check a recorded session with today's OCR and search; replay it as a GIF, in the terminal or on a phone.
    Replay(replay::ReplayArgs),
    /// Continue an interrupted run from its session journal.
    Resume(resume::ResumeArgs),
    /// Per-level table of execution counts from runs.csv.
    Stats(stats::StatsArgs),
    /// The host daemon: play the next unplayed levels on every calibrated device that appears.
    Watch(watch::WatchArgs),
    /// Run the simulated phone: a Sudoku app behind the real ADB protocol (`adb connect`).
    Sim(sim::SimArgs),
}

/// Runs the command line and returns the process exit code.
pub fn main() -> i32 {
    let cli = Cli::parse();
    let result = match cli.command {
        None => play::run(&cli.adb, &cli.play),
        Some(Command::Demo(args)) => demo::run(&args),
        Some(Command::Devices(args)) => devices::run(&args),
        Some(Command::Solve(args)) => solve::run(args),
        Some(Command::Replay(args)) => replay::run(&args),
        Some(Command::Resume(args)) => resume::run(&args),
        Some(Command::Stats(args)) => stats::run(args),
        Some(Command::Watch(args)) => watch::run(&args),
        Some(Command::Sim(args)) => sim::run(args),
        Some(Command::Read(args)) => read::run(args),
        Some(Command::Calibrate(args)) => calibrate::run(args),
    };
    match result {
        Ok(code) => code,
        // A closed pipe (`autoplay solve -f FILE | head`) ends the output quietly, as in ripgrep.
        Err(e) if is_broken_pipe(&e) => 0,
        Err(e) => {
            eprintln!("error: {}", error_text(&e));
            1
        }
    }
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// An error and its causes, `: `-separated, each cause said once (a message that already
/// includes its source's text is not followed by it again).
pub fn error_text(e: &anyhow::Error) -> String {
    let mut parts: Vec<String> = Vec::new();
    for cause in e.chain() {
        let text = cause.to_string();
        if !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
    }
    parts.join(": ")
}

#[cfg(test)]
mod tests {
    #[test]
    fn causes_are_said_once() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "No such file");
        let e = anyhow::Error::new(io).context("cannot read x.toml: No such file");
        assert_eq!(super::error_text(&e), "cannot read x.toml: No such file");
        let e = anyhow::anyhow!("inner").context("outer");
        assert_eq!(super::error_text(&e), "outer: inner");
    }
}
